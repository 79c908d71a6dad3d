"""A full room keeps its connections open: the venue server holds 1,500 of them at once
(more than select() can watch) and still answers a phone that opens one more, and those
kept-alive connections each get their answer."""

from __future__ import annotations

import os
import socket
import urllib.parse

import pytest

from config.venue import open_files
from tools.load.servers import venue

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest

KEPT = 1500


def ask(sock: socket.socket, host: str) -> bytes:
    sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return sock.recv(64)


def test_the_venue_server_holds_more_connections_than_select_can_watch(tmp_path):
    assert open_files(KEPT + 512) >= KEPT + 512  # this test's own end of the sockets
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["SQLITE_PATH"] = str(tmp_path / "db.sqlite3")
    with venue(env, data=tmp_path / "data", log=tmp_path / "venue.log") as base:
        address = urllib.parse.urlsplit(base)
        host = f"{address.hostname}:{address.port}"
        kept = []
        try:
            for _ in range(KEPT):
                kept.append(socket.create_connection((address.hostname, address.port), 10))
            with socket.create_connection((address.hostname, address.port), 10) as late:
                late.settimeout(30)
                assert ask(late, host).startswith(b"HTTP/1.1 ")
            for sock in kept[-50:]:  # the newest, with descriptors past select()'s reach
                sock.settimeout(30)
                assert ask(sock, host).startswith(b"HTTP/1.1 ")
        finally:
            for sock in kept:
                sock.close()
