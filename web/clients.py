"""The address a request came from, as the limiters count it: wrong table links
(:func:`client_address`) and log-ins (:func:`client_ip`, django-axes'
``AXES_CLIENT_IP_CALLABLE``).

Without ``TRUSTED_PROXIES`` (``DJANGO_TRUSTED_PROXIES``), the address is ``REMOTE_ADDR``
and X-Forwarded-For is ignored: anyone can write that header. The venue server serves the
phones directly (and waitress drops the header anyway); gunicorn bound to 127.0.0.1 behind
a proxy would see the proxy's address for everyone.

With it, a request whose ``REMOTE_ADDR`` is one of those proxies is read from its
X-Forwarded-For, right to left: each proxy appends the address it received the request
from, so the first address from the right that is not a trusted proxy is the one the
outermost trusted proxy saw, the client's. Whatever stands left of it was written by the
client and is never read. A header that is not a list of addresses stops the walk there.

Not for deciding who may do what: only for counting.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in trusted)


def _address(text: str) -> str | None:
    """``text`` as one spelling of an IP address, or None if it is not one."""
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    ip = ipaddress.ip_address(address)
    return any(ip in network for network in networks)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address (see the module's docstring), or None if there is none."""
    remote = _address(request.META.get("REMOTE_ADDR", "") or "")
    if remote is None:
        return None
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    if not networks or not _trusted(remote, networks):
        return remote
    address = remote
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        seen = _address(hop)
        if seen is None:
            break
        address = seen
        if not _trusted(seen, networks):
            break
    return address


def client_address(request: HttpRequest) -> str:
    """:func:`client_ip`, or ``"unknown"`` where there is none (all such share one count)."""
    return client_ip(request) or "unknown"
