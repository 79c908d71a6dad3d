"""HAProxy in front of a club's app nodes, on loopback (issues 34, 44): its configuration, the
process, its stats socket, and what its log says about each node.

:func:`config` writes the configuration docs/club-server.md shows and links
(deploy/club/haproxy.cfg), changed only to run on loopback: TLS with a certificate made
here (:func:`make_certificate`), round robin over the nodes, a health check of their
``/health/`` every second (a node is out after two failed checks, back after two good
ones), and a request that finds its node gone (refused, closed without an answer, or a
503) sent once more, to another node; and the live regions a room of phones polls kept
a second in HAProxy's cache. Every request is
logged as one line (:data:`LOG_FORMAT`) on HAProxy's standard output, which
:func:`start` sends to a file; :func:`node_figures` reads it back per node.
"""

from __future__ import annotations

import contextlib
import re
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
from .servers import ROOT

HAPROXY = "haproxy"
BACKEND = "nodes"
DEPLOY = ROOT / "deploy" / "club"
# The configuration docs/club-server.md shows and a club installs as it is.
DOCUMENTED = DEPLOY / "haproxy.cfg"
# when the answer ended (Unix ms), node, status, response time, total time (from the
# request's first byte: Ta), retries, termination state, method, path (without its query
# string). Not HAProxy's accept date: on a kept-alive connection that is when it began
# waiting for the request. The documented configuration's own (a test checks it is).
LOG_FORMAT = "%[date(0,ms)] %s %ST %Tr %Ta %rc %tsc %HM %[var(txn.path)]"
# The documented node line, which each node of the set is written after.
NODE_LINE = re.compile(r"^    server node1 127\.0\.0\.1:8001 (.*)$", re.MULTILINE)


def available() -> str | None:
    """Why HAProxy cannot be started here, or None if it can."""
    if shutil.which(HAPROXY) is None:
        return "no haproxy (Debian's haproxy package; `make test-deps` installs it)"
    return None


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, made with openssl, as a club
    with a private certificate has one: (HAProxy's PEM, the certificate and its key;
    the certificate alone, for ``SSL_CERT_FILE``)."""
    key, certificate, pem = (directory / name for name in ("key.pem", "cert.pem", "haproxy.pem"))
    command = [
        *("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
        *("-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", str(key)),
        *("-out", str(certificate), "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"openssl req: {done.stderr}")
    pem.write_text(certificate.read_text() + key.read_text())
    return pem, certificate


def replaced(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` (which must be there: the documented file changed otherwise)
    replaced by ``new``."""
    if old not in text:
        raise RuntimeError(f"{DOCUMENTED} no longer has {old!r}: update tools/load/balancer.py")
    return text.replace(old, new)


def config(
    front: int,
    nodes: Sequence[tuple[str, int]],
    *,
    socket_path: Path,
    certificate: Path,
    plain_port: int,
    stats_port: int | None = None,
    node_connections: int = 16,
) -> str:
    """The documented configuration (deploy/club/haproxy.cfg) on loopback: HTTPS on
    127.0.0.1:``front`` with ``certificate``, plain HTTP on ``plain_port``, balancing
    ``nodes`` (name, port on 127.0.0.1), logging to its standard output, its admin socket
    at ``socket_path``, its stats page on ``stats_port`` if given. Only what places it on
    this machine changes: addresses, ports, paths, and the process options that need root
    (chroot, user). Each node is sent at most ``node_connections`` requests at once."""
    text = DOCUMENTED.read_text()
    for old, new in (
        ("    log /dev/log local0\n", "    log stdout format raw local0\n"),
        ("/run/haproxy/admin.sock mode 660", f"{socket_path} mode 600"),
        ("    chroot /var/lib/haproxy\n", ""),
        ("    user haproxy\n", ""),
        ("    group haproxy\n", ""),
        ("    bind :80\n", f"    bind 127.0.0.1:{plain_port}\n"),
        (
            "    bind :443 ssl crt /etc/haproxy/certs/gin.example.org.pem ",
            f"    bind 127.0.0.1:{front} ssl crt {certificate} ",
        ),
        (" hdr Host gin.example.org\n", " hdr Host 127.0.0.1\n"),
    ):
        text = replaced(text, old, new)
    found = NODE_LINE.search(text)
    if found is None:
        raise RuntimeError(f"{DOCUMENTED} has no line 'server node1 127.0.0.1:8001'")
    options = found[1].replace("maxconn 16", f"maxconn {node_connections}")
    servers = "\n".join(f"    server {name} 127.0.0.1:{port} {options}" for name, port in nodes)
    text = text[: found.start()] + servers + text[found.end() :]
    text = re.sub(r"^    server node[2-9] 127\.0\.0\.1:800\d .*\n", "", text, flags=re.MULTILINE)
    if stats_port:
        text += (
            f"\nlisten stats\n    bind 127.0.0.1:{stats_port}\n    stats enable\n"
            "    stats uri /\n    stats refresh 2s\n"
        )
    return text


@dataclass
class Balancer:
    process: subprocess.Popen
    base: str
    socket_path: Path
    log: Path
    config_path: Path
    certificate: Path
    """The certificate HAProxy shows, for a client's ``SSL_CERT_FILE``."""
    plain_base: str
    """HAProxy's plain HTTP, which sends everything but certbot's challenges to HTTPS."""
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
    plain_port: int,
    stats_port: int | None = None,
    node_connections: int = 16,
) -> Balancer:
    """HAProxy in the foreground (its own process group, so that it is stopped by its id),
    with the documented configuration, a certificate made for it, its socket and log in
    ``directory``; waits until every node is UP."""
    problem = available()
    if problem:
        raise RuntimeError(problem)
    socket_path = directory / "haproxy.sock"
    path = directory / "haproxy.cfg"
    pem, certificate = make_certificate(directory)
    text = config(
        front,
        nodes,
        socket_path=socket_path,
        certificate=pem,
        plain_port=plain_port,
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
    balancer = Balancer(
        process,
        f"https://127.0.0.1:{front}",
        socket_path,
        log,
        path,
        certificate,
        f"http://127.0.0.1:{plain_port}",
        stats_url,
    )
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
