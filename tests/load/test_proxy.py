"""The lossy proxy of the lossy phase: each fate does what it says to the phone and to the
server (a small HTTP server on loopback counts what reaches it)."""

from __future__ import annotations

import gc
import http.server
import threading
import time
import urllib.error
import urllib.request

import pytest

from tools.load.proxy import AFTER, BEFORE, DELAYED, LossyProxy


class Counting(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/slow":
            time.sleep(1.0)
        Counting.seen.append(self.path)
        body = b"stored"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server():
    Counting.seen = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address
    httpd.shutdown()
    httpd.server_close()


def post(base: str, path: str, timeout: float = 5) -> bytes:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(base + path, data=b"hand=1", timeout=timeout) as answer:
        return bytes(answer.read())


def test_each_fate_reaches_the_phone_and_the_server_as_it_says(server):
    with LossyProxy(server, cycle="ba.", max_delay=0.3) as proxy:
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            post(proxy.base, "/lost-on-the-way")
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            post(proxy.base, "/answer-lost")
        began = time.monotonic()
        assert post(proxy.base, "/delayed") == b"stored"
        assert time.monotonic() - began < 2
        counts, delays = proxy.counts(), proxy.delays()
    # The request dropped before never reached the server; the one dropped after did.
    assert Counting.seen == ["/answer-lost", "/delayed"]
    assert counts == {BEFORE: 1, AFTER: 1, DELAYED: 1, "server unreachable": 0}
    assert len(delays) == 1 and 0 <= delays[0] <= 0.3


def test_a_request_held_past_the_phones_patience_still_reaches_the_server(server):
    with LossyProxy(server, cycle=".", max_delay=1.5, seed=3) as proxy:
        proxy.rng.uniform = lambda low, high: high  # type: ignore[method-assign]
        with pytest.raises((urllib.error.URLError, TimeoutError)):
            post(proxy.base, "/late", timeout=0.5)  # the phone gives up first
        deadline = time.monotonic() + 5
        while not Counting.seen and time.monotonic() < deadline:
            time.sleep(0.05)
    assert Counting.seen == ["/late"]


def test_a_connection_whose_phone_gave_up_is_relayed_to_its_end(server):
    """While the server takes its time, the phone closes its end: the proxy still reads
    the server's whole answer (its waiting is not garbage-collected mid-answer)."""
    with LossyProxy(server, cycle=".", max_delay=0.0) as proxy:
        with pytest.raises((urllib.error.URLError, TimeoutError)):
            post(proxy.base, "/slow", timeout=0.3)
        for _ in range(5):
            gc.collect()
            time.sleep(0.05)
        assert proxy.drain(timeout=5) == 0
    assert Counting.seen == ["/slow"]


def test_the_proxy_relays_to_loopback_only():
    with pytest.raises(ValueError, match="loopback"):
        LossyProxy(("192.0.2.1", 80))
