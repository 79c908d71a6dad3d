"""The client address the limiters count by: REMOTE_ADDR, unless the request came through
one of the proxies named in DJANGO_TRUSTED_PROXIES; then X-Forwarded-For, read from the
right up to the first address those proxies did not add."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from tests import test_deploy as deploy
from web.clients import client_address


def request(remote: str = "192.0.2.7", forwarded: str | None = None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **headers)


@pytest.mark.parametrize(
    ("remote", "forwarded", "expected"),
    [
        pytest.param("192.0.2.7", None, "192.0.2.7", id="no-header"),
        pytest.param("192.0.2.7", "203.0.113.5", "192.0.2.7", id="header-ignored"),
        pytest.param("192.0.2.7", "10.0.0.1, 127.0.0.1", "192.0.2.7", id="chain-ignored"),
        pytest.param("", None, "unknown", id="no-address-at-all"),
    ],
)
def test_without_trusted_proxies_only_remote_addr_counts(settings, remote, forwarded, expected):
    settings.TRUSTED_PROXIES = []
    assert client_address(request(remote, forwarded)) == expected


@pytest.mark.parametrize(
    ("remote", "forwarded", "expected"),
    [
        pytest.param("127.0.0.1", "203.0.113.5", "203.0.113.5", id="one-proxy"),
        # A client writes its own X-Forwarded-For; the proxy adds the address it saw.
        pytest.param("127.0.0.1", "1.2.3.4, 203.0.113.5", "203.0.113.5", id="spoofed-left"),
        pytest.param("127.0.0.1", "1.2.3.4,203.0.113.5 ", "203.0.113.5", id="no-spaces"),
        # A load balancer in 10.0.0.0/8 in front of the local proxy.
        pytest.param("127.0.0.1", "203.0.113.5, 10.1.2.3", "203.0.113.5", id="two-proxies"),
        pytest.param("127.0.0.1", "2001:db8::1", "2001:db8::1", id="ipv6"),
        pytest.param("127.0.0.1", "2001:DB8:0::1", "2001:db8::1", id="ipv6-one-spelling"),
        # Not through a trusted proxy: whatever the header says, it was written by the client.
        pytest.param("192.0.2.7", "203.0.113.5", "192.0.2.7", id="direct"),
        pytest.param("127.0.0.1", None, "127.0.0.1", id="proxy-without-header"),
        pytest.param("127.0.0.1", "", "127.0.0.1", id="empty-header"),
        pytest.param("127.0.0.1", "1.2.3.4, junk", "127.0.0.1", id="junk-stops-the-walk"),
        pytest.param("127.0.0.1", "10.0.0.9, 10.0.0.8", "10.0.0.9", id="all-trusted"),
    ],
)
def test_behind_trusted_proxies_the_forwarded_address_counts(settings, remote, forwarded, expected):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "10.0.0.0/8"]
    assert client_address(request(remote, forwarded)) == expected


def test_trusted_proxies_come_from_the_environment():
    names = ["TRUSTED_PROXIES"]
    assert deploy.settings_under(names)["TRUSTED_PROXIES"] == []
    assert deploy.settings_under(names, DJANGO_TRUSTED_PROXIES="127.0.0.1, 10.0.0.0/8, ::1") == {
        "TRUSTED_PROXIES": ["127.0.0.1", "10.0.0.0/8", "::1"]
    }
    result = deploy.run(["manage.py", "check"], DJANGO_TRUSTED_PROXIES="127.0.0.1, proxy.lan")
    assert result.returncode != 0
    assert "DJANGO_TRUSTED_PROXIES" in result.stderr and "proxy.lan" in result.stderr
