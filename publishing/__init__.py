"""Publishing a night from the venue to the club's server.

The venue stays authoritative. Each tournament that is not a draft is sent, as numbered
changes, to the club's server, which keeps it at the same slug as a read-only mirror.
See :mod:`publishing.protocol` for what goes over the wire."""
