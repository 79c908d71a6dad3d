"""The HAProxy configuration docs/club-server.md gives a club is the one ``make cluster``
runs and the cluster tests prove (tools.load.balancer): its cache lines, word for word."""

from __future__ import annotations

from pathlib import Path

from tools.load import balancer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "club-server.md"


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_the_documented_configuration_keeps_live_regions_as_the_tested_one_does():
    documented = set(lines(DOCS.read_text()))
    tested = lines(balancer.CACHE) + lines(balancer.SHARE) + lines(balancer.RESTORE)
    assert len(tested) > 20
    missing = [line for line in tested if line not in documented]
    assert missing == [], missing
    # and the cache is in what the set runs
    text = balancer.config(8000, [("node1", 8001)], socket_path=Path("/tmp/haproxy.sock"))
    assert all(line in lines(text) for line in tested)
