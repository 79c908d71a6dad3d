"""The laptop's addresses on the venue network, for the venue server (``ginclub venue``).

Phones at the tables reach the laptop at one of its LAN IPv4 addresses. They are read
from the operating system with ``ifaddr`` (Windows, macOS and Linux alike), never by
parsing a command's output. ``GINCLUB_ADDRESS`` (comma-separated) replaces what is
detected: a laptop with several networks can name the venue's one, and tests stand the
LAN in with 127.0.0.2.

Standard library and ``ifaddr`` only: settings import this before Django is set up.
"""

from __future__ import annotations

import ipaddress
import os
import socket

# Adapters a phone on the venue Wi-Fi can never reach: container and VM bridges, VPNs.
VIRTUAL_ADAPTERS = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "utun", "tun", "tap")


def _rank(address: ipaddress.IPv4Address, adapter: str) -> tuple[int, int]:
    """Sort key: real adapters before virtual ones, then the usual home and venue ranges
    first (192.168/16, then 10/8, then 172.16/12, then anything else)."""
    virtual = int(adapter.lower().startswith(VIRTUAL_ADAPTERS))
    for order, network in enumerate(("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12")):
        if address in ipaddress.IPv4Network(network):
            return virtual, order
    return virtual, 3


def detected_addresses() -> list[str]:
    """The laptop's IPv4 addresses that another device could use, best first."""
    import ifaddr

    found: dict[str, tuple[int, int]] = {}
    for adapter in ifaddr.get_adapters():
        name = str(adapter.nice_name or adapter.name)
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # IPv6 addresses come as tuples
                continue
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            found.setdefault(str(address), _rank(address, name))
    return sorted(found, key=lambda address: found[address])


def lan_addresses() -> list[str]:
    """``GINCLUB_ADDRESS`` if set, else what :func:`detected_addresses` finds."""
    chosen = os.environ.get("GINCLUB_ADDRESS", "")
    if chosen.strip():
        return [item.strip() for item in chosen.split(",") if item.strip()]
    return detected_addresses()


def host_names() -> list[str]:
    """The names a phone might use for the laptop (``laptop`` and ``laptop.local``)."""
    name = socket.gethostname().strip().lower()
    if not name or name == "localhost":
        return []
    short = name.split(".")[0]
    return sorted({name, short, f"{short}.local"})
