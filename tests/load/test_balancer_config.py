"""The HAProxy configuration docs/club-server.md links (deploy/club/haproxy.cfg) is the one
``make cluster`` runs and the cluster tests prove (tools.load.balancer): changed only in
the lines that place it on loopback, its log format the one tools.load.balancer reads."""

from __future__ import annotations

from pathlib import Path

from tools.load import balancer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "club-server.md"


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_the_set_runs_the_documented_configuration_placed_on_loopback():
    documented = balancer.DOCUMENTED.read_text()
    assert "deploy/club/haproxy.cfg" in DOCS.read_text()
    text = balancer.config(
        18443,
        [("node1", 18001), ("node2", 18002)],
        socket_path=Path("/tmp/haproxy.sock"),
        certificate=Path("/tmp/haproxy.pem"),
        plain_port=18080,
        node_connections=8,
    )
    ours, theirs = lines(text), lines(documented)
    changed = [line for line in theirs if line not in ours]
    # the log target, the socket, chroot, user, group, the two binds, the Host, two nodes
    assert len(changed) == 10, changed
    added = [line for line in ours if line not in theirs]
    assert "bind 127.0.0.1:18443 ssl crt /tmp/haproxy.pem alpn h2,http/1.1" in added
    assert "http-check send meth GET uri /health/ ver HTTP/1.1 hdr Host 127.0.0.1" in added
    assert any(line.startswith("server node2 127.0.0.1:18002 check maxconn 8 ") for line in added)
    assert len(added) == 7, added


def test_the_documented_log_drops_query_strings_in_the_format_the_tools_read():
    documented = balancer.DOCUMENTED.read_text()
    assert f'log-format "{balancer.LOG_FORMAT}"' in documented
    assert "option httplog" not in documented  # its %r is the whole request line, query and all
    # the path alone (not %HP: the whole URL over HTTP/2), kept without its query string
    assert balancer.LOG_FORMAT.split()[-1] == "%[var(txn.path)]"
    assert "http-request set-var(txn.path) path\n" in documented
