"""A faulty link for tests: an HTTP forwarding proxy on 127.0.0.1 (threads, the standard
library only) between the venue and the club's server, which spoils some requests the
ways a real network does.

Every request is forwarded to ``upstream`` as it came (method, path, headers, body) and
its answer sent back, except that each POST takes the next fault of ``faults`` (then
:data:`PASS` once they run out):

- :data:`TWICE`: delivered twice, the copy after the first's answer; the venue gets the
  first answer.
- :data:`HOLD`: held back and delivered only after the next POST that is not the same
  bytes has been delivered and answered (reordering). The venue never hears back: a real
  slow link makes it give up on the request (its timeout) while the request still reaches
  the club later. Here the venue's connection is reset at once instead of after its
  timeout, to keep the tests fast: to the venue it is the same failure.
- :data:`DROP`: delivered and answered, but the answer is lost: the venue's connection
  is reset (the club applied it, the venue never heard).

The proxy knows nothing of what the requests say: it works on bytes, so its tests hold
whatever the publishing protocol sends. :attr:`Proxy.log` says what happened to each
POST, in order, for the tests to check that each fault really occurred."""

from __future__ import annotations

import contextlib
import http.client
import http.server
import socket
import struct
import threading
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType

from tools.load.servers import free_port

PASS, TWICE, HOLD, DROP = "pass", "twice", "hold", "drop"
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"}


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: list[tuple[str, str]]
    body: bytes


@dataclass(frozen=True)
class Answer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


@dataclass
class Held:
    request: Request
    released: threading.Event


class Proxy:
    """The proxy, a context manager: ``with Proxy(club, [TWICE, HOLD]) as proxy:`` the
    venue publishes to ``proxy.url``. Held requests still held on the way out are
    delivered then."""

    def __init__(self, upstream: str, faults: Iterable[str] = ()) -> None:
        parts = urllib.parse.urlsplit(upstream)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.faults = list(faults)
        self.log: list[str] = []
        """Each POST's fate, in order: "pass", "twice", "drop", "hold", and "held" when a
        held one is finally delivered."""
        self.lock = threading.Lock()
        self.held: list[Held] = []
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Proxy:
        threading.Thread(target=self.server.serve_forever, name="proxy", daemon=True).start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release_all()
        self.server.shutdown()
        self.server.server_close()

    def release_all(self) -> None:
        with self.lock:
            held, self.held = self.held, []
        for one in held:
            one.released.set()

    def forward(self, request: Request) -> Answer:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request(
                request.method, request.path, body=request.body, headers=dict(request.headers)
            )
            response = connection.getresponse()
            headers = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
            return Answer(response.status, headers, response.read())
        finally:
            connection.close()

    def fault(self, request: Request) -> str:
        if request.method != "POST":
            return PASS
        with self.lock:
            fault = self.faults.pop(0) if self.faults else PASS
            self.log.append(fault)
            return fault

    def delivered(self, request: Request) -> None:
        """A POST was delivered and answered: the held ones that are not the same bytes
        go now (each after the other, in the order they were held)."""
        with self.lock:
            going = [one for one in self.held if one.request.body != request.body]
            self.held = [one for one in self.held if one not in going]
        for one in going:
            one.released.set()

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def relay(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = Request(
                    self.command,
                    self.path,
                    [(k, v) for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP],
                    self.rfile.read(length) if length else b"",
                )
                fault = proxy.fault(request)
                if fault == HOLD:
                    held = Held(request, threading.Event())
                    with proxy.lock:
                        proxy.held.append(held)
                    self.reset()  # the venue gives up on it; it is still on its way
                    held.released.wait(60)
                    with contextlib.suppress(OSError):
                        proxy.forward(request)
                        with proxy.lock:
                            proxy.log.append("held")
                    return
                try:
                    answer = proxy.forward(request)
                except OSError:
                    self.reset()  # the club is not there: no connection, as without us
                    return
                if request.method == "POST":
                    if fault == TWICE:
                        proxy.forward(request)
                    proxy.delivered(request)
                if fault == DROP:
                    self.reset()
                    return
                self.send_response(answer.status)
                for key, value in answer.headers:
                    if key.lower() not in ("server", "date"):
                        self.send_header(key, value)
                self.end_headers()
                self.wfile.write(answer.body)

            do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = relay

            def reset(self) -> None:
                """The venue's connection broken (a TCP reset), with nothing answered."""
                self.close_connection = True
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.connection.close()

        return Handler
