"""Publishing's views, by where they run: at the club's server the protocol's endpoint
(:mod:`.changes`) and a director's tokens (:mod:`.tokens`); at the venue where it publishes
and a tournament's name there (:mod:`.venue`). Forms are :mod:`publishing.forms`, writes
:mod:`publishing.services` and :mod:`publishing.tokens`."""
