"""HAProxy in front of a club's app nodes, on loopback (issue 34): its configuration, the
process, its stats socket, and what its log says about each node.

:func:`config` writes the configuration docs/club-server.md shows: round robin over the
nodes, a health check every second (a node is out after two failed checks, back after
two good ones), and a request that finds its node gone (refused, or closed without an
answer: a node killed mid-request) sent once more, to another node; and the live regions
a room of phones polls kept a second in HAProxy's cache (:data:`SHARE`). Every request is
logged as one line (:data:`LOG_FORMAT`) on HAProxy's standard output, which
:func:`start` sends to a file; :func:`node_figures` reads it back per node.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .followers import latency_ms

HAPROXY = "haproxy"
BACKEND = "nodes"
# when the answer ended (Unix ms), node, status, response time, total time (from the
# request's first byte: Ta), retries, termination state, method, path. Not HAProxy's accept
# date: on a kept-alive connection that is when it began waiting for the request.
LOG_FORMAT = "%[date(0,ms)] %s %ST %Tr %Ta %rc %tsc %HM %HP"


# A node that refuses a connection (or times out connecting) is out at once, before the
# health check notices: the request is sent to another node, and so are the next ones.
OBSERVE = "observe layer4 error-limit 1 on-error mark-down"


# A live region that htmx polls (``?region=…`` with ``HX-Request``) is the same for every
# follower of the tournament who has not picked a language of their own (it speaks the
# tournament's language then, whatever the browser's Accept-Language), and the app says
# so (``Cache-Control`` without ``private``; a draft's is private). HAProxy keeps it for a
# second (the cache ``live``): however many phones follow a night, each region reaches the
# nodes about once a second, and a follower who has it as it is gets a 304 from HAProxy.
# A region not in the cache is asked of a node whole (a 304 would not be kept), and kept
# with ``Cache-Control: max-age=1`` and ``Vary: Accept-Encoding``, which is all HAProxy
# keeps; every follower is sent the app's own ``Cache-Control`` and ``Vary``.
APP_VARY = "HX-Request, HX-Target, Accept-Language, Cookie, Accept-Encoding"
CACHE = """
cache live
    total-max-size 64
    max-object-size 1048576
    max-age 1
    process-vary on
"""
SHARE = """\
    acl live_region url_param(region) -m found
    acl htmx req.hdr(HX-Request) -m str true
    acl own_language req.cook(django_language) -m found
    acl shared var(txn.shared) -m bool
    http-request set-var(txn.shared) bool(true) if METH_GET live_region htmx !own_language
    http-request cache-use live if shared
    http-request del-header If-None-Match if shared
    http-request del-header If-Modified-Since if shared
    acl answered status 200
    acl for_everyone res.hdr(Cache-Control) -m sub no-cache
    acl for_one res.hdr(Cache-Control) -m sub private
    acl sets_cookie res.hdr(Set-Cookie) -m found
    acl kept var(txn.kept) -m bool
    http-response set-var(txn.kept) bool(true) if shared answered for_everyone !for_one !sets_cookie
    http-response set-header Cache-Control max-age=1 if kept
    http-response set-header Vary Accept-Encoding if kept
    http-response cache-store live if kept
"""
# In the frontend, after the backend: for what was just kept and for what the cache sends.
RESTORE = f"""\
    acl shared var(txn.shared) -m bool
    acl from_cache res.hdr(Cache-Control) -m str max-age=1
    http-response set-header Vary "{APP_VARY}" if shared from_cache
    http-response set-header Cache-Control no-cache if shared from_cache
"""


def available() -> str | None:
    """Why HAProxy cannot be started here, or None if it can."""
    if shutil.which(HAPROXY) is None:
        return "no haproxy (Debian's haproxy package; `make test-deps` installs it)"
    return None


def config(
    front: int,
    nodes: Sequence[tuple[str, int]],
    *,
    socket_path: Path,
    stats_port: int | None = None,
    node_connections: int = 16,
) -> str:
    """The configuration: HAProxy on 127.0.0.1:``front``, balancing ``nodes`` (name,
    port on 127.0.0.1), its admin socket at ``socket_path``, its stats page on
    ``stats_port`` if given. Each node is sent at most ``node_connections`` requests at
    once; the rest wait in HAProxy's queue (up to 10 s), not in the node's."""
    servers = "\n".join(
        f"    server {name} 127.0.0.1:{port} check maxconn {node_connections} {OBSERVE}"
        for name, port in nodes
    )
    stats = (
        f"\nlisten stats\n    bind 127.0.0.1:{stats_port}\n    stats enable\n    stats uri /\n"
        "    stats refresh 2s\n"
        if stats_port
        else ""
    )
    return f"""\
global
    maxconn 8000
    stats socket {socket_path} mode 600 level admin
    log stdout format raw local0

defaults
    mode http
    log global
    log-format "{LOG_FORMAT}"
    option forwardfor
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    timeout queue 10s
    timeout http-request 10s
    timeout http-keep-alive 15s
    # A request whose node is gone (refused, or closed without an answer: killed) goes
    # again, to another node. GETs are safe to repeat, and so is a venue's publishing
    # POST: the club applies each numbered change once.
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response
{CACHE}
frontend club
    bind 127.0.0.1:{front}
    http-request set-header X-Forwarded-Proto http
    default_backend {BACKEND}
{RESTORE}
backend {BACKEND}
    balance roundrobin
{SHARE}    option httpchk
    http-check send meth GET uri / ver HTTP/1.1 hdr Host 127.0.0.1
    http-check expect status 200
    # Checked every second (every 250 ms while failing), out after two failed checks or
    # at once when a request cannot reach it (observe ...), back after two good checks.
    default-server inter 1s fastinter 250ms fall 2 rise 2
{servers}
{stats}"""


@dataclass
class Balancer:
    process: subprocess.Popen
    base: str
    socket_path: Path
    log: Path
    config_path: Path
    stats_url: str | None = None

    def command(self, line: str, timeout: float = 5.0) -> str:
        """One command on HAProxy's admin socket; its answer."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(self.socket_path))
            sock.sendall(line.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode(errors="replace")

    def states(self) -> dict[str, str]:
        """Each node's state as HAProxy sees it now ("UP", "DOWN", "UP 1/2"...)."""
        lines = self.command("show stat").splitlines()
        if not lines or not lines[0].startswith("# "):
            return {}
        header = lines[0][2:].split(",")
        at = {name: i for i, name in enumerate(header)}
        states = {}
        for line in lines[1:]:
            cells = line.split(",")
            if (
                len(cells) > at["status"]
                and cells[at["pxname"]] == BACKEND
                and cells[at["svname"]] not in ("FRONTEND", "BACKEND")
            ):
                states[cells[at["svname"]]] = cells[at["status"]]
        return states

    def wait_for(self, node: str, state: str, seconds: float = 30.0) -> float:
        """Wait until HAProxy sees ``node`` in ``state`` ("UP", "DOWN"); when it did."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                if self.states().get(node) == state:
                    return time.monotonic()
            time.sleep(0.1)
        raise RuntimeError(f"HAProxy did not see {node} {state} within {seconds:g} s")


def start(
    directory: Path,
    front: int,
    nodes: Sequence[tuple[str, int]],
    *,
    stats_port: int | None = None,
    node_connections: int = 16,
) -> Balancer:
    """HAProxy in the foreground (its own process group, so that it is stopped by its id),
    its configuration, socket and log in ``directory``; waits until every node is UP."""
    problem = available()
    if problem:
        raise RuntimeError(problem)
    socket_path = directory / "haproxy.sock"
    path = directory / "haproxy.cfg"
    text = config(
        front,
        nodes,
        socket_path=socket_path,
        stats_port=stats_port,
        node_connections=node_connections,
    )
    path.write_text(text)
    log = directory / "haproxy.log"
    check = subprocess.run([HAPROXY, "-c", "-q", "-f", str(path)], capture_output=True, text=True)
    if check.returncode:
        raise RuntimeError(f"haproxy -c: {check.stdout}{check.stderr}")
    with open(log, "ab") as output:
        process = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(path)],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    stats_url = f"http://127.0.0.1:{stats_port}/" if stats_port else None
    balancer = Balancer(process, f"http://127.0.0.1:{front}", socket_path, log, path, stats_url)
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"haproxy exited with {process.returncode}: {log.read_text()}")
        with contextlib.suppress(OSError):
            states = balancer.states()
            if states and all(state == "UP" for state in states.values()):
                return balancer
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("HAProxy did not see every node UP within 30 s")
        time.sleep(0.1)


class StateWatch(threading.Thread):
    """Each node's state changes as HAProxy saw them, with when (``time.monotonic()``),
    read from its socket every 0.1 s until :meth:`stop`."""

    def __init__(self, balancer: Balancer) -> None:
        super().__init__(daemon=True)
        self.balancer = balancer
        self.changes: list[tuple[float, str, str]] = []
        self.stopping = threading.Event()
        self.start()

    def run(self) -> None:
        last: dict[str, str] = {}
        while not self.stopping.wait(0.1):
            try:
                states = self.balancer.states()
            except OSError:
                continue
            for node, state in states.items():
                if last.get(node) != state:
                    if node in last:
                        self.changes.append((time.monotonic(), node, state))
                    last[node] = state

    def stop(self) -> list[tuple[float, str, str]]:
        self.stopping.set()
        self.join(timeout=5)
        return self.changes


# -- what the log says ---------------------------------------------------------------------


@dataclass
class Logged:
    at: float
    """When HAProxy had the request's first byte, Unix seconds (its end minus Ta)."""
    node: str
    status: int
    total_ms: int
    """HAProxy's Ta: from the request received to the last byte of the answer sent."""
    retries: str
    """HAProxy's %rc: "0", or a count ("+1": sent again to another node)."""
    termination: str
    method: str
    path: str


@dataclass
class NodeFigures:
    requests: int = 0
    rps: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)
    latency: dict[str, Any] = field(default_factory=dict)


def read_log(path: Path) -> list[Logged]:
    """The request lines of HAProxy's log (its own messages, such as a node going DOWN,
    are left out)."""
    rows = []
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return rows
    for line in lines:
        parts = line.split(" ")
        if len(parts) != 9:
            continue
        try:
            end, status, total = int(parts[0]) / 1000, int(parts[2]), int(parts[4])
        except ValueError:
            continue
        at = end - max(0, total) / 1000
        rows.append(Logged(at, parts[1], status, total, parts[5], parts[6], parts[7], parts[8]))
    return rows


def node_figures(
    rows: Sequence[Logged], *, start: float, end: float, prefix: str = ""
) -> dict[str, dict[str, Any]]:
    """Per node, the requests (whose path starts with ``prefix``) HAProxy received between
    ``start`` and ``end`` (Unix seconds): how many, a second, by status, and their time in
    HAProxy (p50/p95/max)."""
    by_node: dict[str, list[Logged]] = {}
    for row in rows:
        if start <= row.at <= end and row.path.startswith(prefix):
            by_node.setdefault(row.node, []).append(row)
    span = max(1e-9, end - start)
    figures = {}
    for node, mine in sorted(by_node.items()):
        statuses: dict[str, int] = {}
        for row in mine:
            statuses[str(row.status)] = statuses.get(str(row.status), 0) + 1
        figures[node] = NodeFigures(
            requests=len(mine),
            rps=round(len(mine) / span, 1),
            statuses=dict(sorted(statuses.items())),
            latency=latency_ms(row.total_ms / 1000 for row in mine if row.total_ms >= 0),
        ).__dict__
    return figures


def retried(rows: Sequence[Logged]) -> int:
    """Requests HAProxy sent again to another node (its retry count not 0)."""
    return sum(1 for row in rows if row.retries not in ("0", "-1"))
