"""``make cluster``: the club's server past one machine, on loopback (issue 34).

``python -m tools.load.cluster`` starts the whole set a club runs on several machines,
here on one: a throwaway PostgreSQL 15 cluster (the data), Redis (the cache and the guess
limiters: table links, publishing tokens, log-ins), two stateless gunicorn app nodes, and
HAProxy in front of them, round robin with health checks, live regions kept a second
(:mod:`tools.load.balancer`).
It migrates the database once, collects the static files once (the nodes share them),
seeds the demo (a director and a living tournament), prints the URLs and serves until
Ctrl+C; then, or on any other way out (an error, SIGTERM, SIGHUP), it stops every process
it started, by its id, and deletes the scratch folder.

``python -m tools.load.cluster --load`` is the load phase instead
(:mod:`tools.load.cluster_phase`; ``make loadtest`` runs it too).

Only 127.0.0.1 and 127.0.0.2 are ever used.
"""

from __future__ import annotations

import argparse
import configparser
import contextlib
import os
import random
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import balancer
from .servers import (
    ROOT,
    postgres,
    postgres_available,
    redis,
    redis_available,
    spawn,
    stop,
)

# Settings variables of this machine that must not leak into the nodes.
FOREIGN = ("DATABASE_URL", "SQLITE_PATH", "REDIS_URL", "SITE_URL")
# The club server's documented files (docs/club-server.md), which the set runs as they are.
DEPLOY = ROOT / "deploy" / "club"
ENV_FILE = DEPLOY / "ginclub.env.example"
NODE_UNIT = DEPLOY / "ginclub-node@.service"


def steady_port() -> int:
    """A free port on 127.0.0.1 below the range the system picks outgoing connections'
    ports from: chosen now and bound later (a node restarted after a kill binds its old
    one again), it cannot be taken meanwhile by a connection to PostgreSQL or Redis."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    for _attempt in range(200):
        port = random.randrange(10_000, max(10_001, low))
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def unavailable() -> str | None:
    """Why the set cannot be started here (PostgreSQL, Redis or HAProxy missing), or None."""
    return postgres_available() or redis_available() or balancer.available()


def documented_env(path: Path = ENV_FILE) -> dict[str, str]:
    """The settings of the documented environment file (``KEY=VALUE`` lines; ``#`` comments
    and blank lines skipped), as systemd's ``EnvironmentFile=`` reads it."""
    settings = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


def node_env(
    database_url: str, redis_url: str, data: Path, front: int, backups: Path
) -> dict[str, str]:
    """The nodes' settings: the documented environment file (deploy/club/ginclub.env.example)
    with this machine's values, and no setting it does not list. DEBUG off, PostgreSQL,
    Redis, HAProxy trusted for the client's address, HTTPS through HAProxy on 127.0.0.1."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "GINCLUB_")) and k not in FOREIGN
    }
    site = f"https://127.0.0.1:{front}"
    ours = {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_CSRF_TRUSTED_ORIGINS": f"{site},https://localhost:{front}",
        "SITE_URL": site,
        "DJANGO_TRUSTED_PROXIES": "127.0.0.1",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "GINCLUB_DATA_DIR": str(data),
        "GINCLUB_BACKUP_DIR": str(backups),
    }
    documented = documented_env()
    undocumented = set(ours) - set(documented)
    if undocumented:
        raise RuntimeError(f"{ENV_FILE} does not list {sorted(undocumented)}")
    env.update(documented, **ours, PYTHONPATH=str(ROOT))
    return env


def exec_start(value: str) -> list[str]:
    """A unit's ``ExecStart=`` as systemd splits it: its lines ending in a backslash
    joined (configparser keeps them, the backslash and all), then split as a shell would."""
    return shlex.split(value.replace("\\\n", " "))


def gunicorn_command(port: int, control_socket: Path) -> list[str]:
    """The documented unit's command (deploy/club/ginclub-node@.service), for the node on
    ``port``: this Python's gunicorn, its own control socket in the scratch folder rather
    than /run. (Options added after it replace the unit's: the set's workers and threads.)"""
    unit = configparser.RawConfigParser(strict=True)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(NODE_UNIT.read_text())
    command = exec_start(unit["Service"]["ExecStart"].replace("%i", str(port)))
    places = {
        "/srv/ginclub/venv/bin/gunicorn": [sys.executable, "-m", "gunicorn"],
        f"/run/ginclub-node-{port}/gunicorn.ctl": [str(control_socket)],
    }
    return [part for word in command for part in places.get(word, [word])]


@dataclass
class Node:
    name: str
    port: int
    log: Path
    process: subprocess.Popen | None = None
    env: dict[str, str] = field(default_factory=dict)
    """Settings of this node alone, over the set's (a test points one elsewhere)."""

    @property
    def base(self) -> str:
        """The node itself, plain HTTP (send ``X-Forwarded-Proto: https``, as HAProxy does)."""
        return f"http://127.0.0.1:{self.port}"


@dataclass
class Cluster:
    scratch: Path
    env: dict[str, str]
    database_url: str
    redis_url: str
    nodes: list[Node]
    workers: int
    threads: int
    front: balancer.Balancer | None = None
    closed: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base(self) -> str:
        assert self.front is not None
        return self.front.base

    def node(self, name: str) -> Node:
        return next(node for node in self.nodes if node.name == name)

    def start_node(self, node: Node) -> None:
        with self.lock:  # never after stop(): a node restarted by a thread would outlive us
            if self.closed:
                raise RuntimeError("the set is stopped")
            command = gunicorn_command(node.port, self.scratch / f"{node.name}.ctl")
            command += ["--workers", str(self.workers), "--threads", str(self.threads)]
            command += ["--error-logfile", str(node.log)]
            node.process, _base = spawn(
                command, {**self.env, **node.env}, node.log, node.port, "/health/"
            )

    def kill(self, name: str) -> float:
        """SIGKILL the node (its master and workers, the group we started); when."""
        node = self.node(name)
        assert node.process is not None
        os.killpg(node.process.pid, signal.SIGKILL)
        node.process.wait(timeout=10)
        return time.monotonic()

    def restart(self, name: str) -> float:
        """Start the node again on its port and wait until it answers; when it did."""
        self.start_node(self.node(name))
        return time.monotonic()

    def manage(self, *args: str, timeout: float = 600) -> str:
        """A ``manage.py`` command with the nodes' settings; its output."""
        done = subprocess.run(
            [sys.executable, "-m", "config.cli", "manage", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"manage {' '.join(args)}: {done.stderr[-3000:]}")
        return done.stdout

    def stop(self) -> None:
        """Stop everything this set started (its database and Redis: the caller's ``with``)."""
        with self.lock:
            self.closed = True
        if self.front is not None:
            stop(self.front.process)
        for node in self.nodes:
            if node.process is not None:
                stop(node.process)


@contextlib.contextmanager
def cluster(
    scratch: Path,
    *,
    nodes: int = 2,
    workers: int = 2,
    threads: int = 2,
    front_port: int = 0,
    stats_port: int | None = None,
    node_connections: int = 16,
) -> Iterator[Cluster]:
    """PostgreSQL, Redis, ``nodes`` gunicorn nodes (``workers`` × ``threads`` each) and
    HAProxy on 127.0.0.1, the database migrated and the static files collected; yields the
    set, and stops all of it after, whatever happened."""
    problem = unavailable()
    if problem:
        raise RuntimeError(problem)
    front = front_port or steady_port()
    connections = nodes * workers * threads + 40  # the nodes, manage commands, the checks
    with (
        postgres(max_connections=max(100, connections)) as database_url,
        redis() as redis_url,
        trusting(scratch / "cert.pem"),
    ):
        data = scratch / "data"
        data.mkdir(parents=True, exist_ok=True)
        the_set = Cluster(
            scratch=scratch,
            env=node_env(database_url, redis_url, data, front, scratch / "backups"),
            database_url=database_url,
            redis_url=redis_url,
            nodes=[
                Node(f"node{i}", steady_port(), scratch / f"node{i}.log")
                for i in range(1, nodes + 1)
            ],
            workers=workers,
            threads=threads,
        )
        try:
            the_set.manage("migrate", "--verbosity", "0")
            the_set.manage("collectstatic", "--noinput", "--verbosity", "0")
            for node in the_set.nodes:
                the_set.start_node(node)
            the_set.front = balancer.start(
                scratch,
                front,
                [(node.name, node.port) for node in the_set.nodes],
                plain_port=steady_port(),
                stats_port=stats_port,
                node_connections=node_connections,
            )
            yield the_set
        finally:
            the_set.stop()


@contextlib.contextmanager
def trusting(certificate: Path) -> Iterator[None]:
    """This process, and what it starts (a venue publishing to the set), trusts only
    ``certificate`` (made by :func:`balancer.start`) while the set runs: ``SSL_CERT_FILE``,
    as docs/club-server.md tells a venue to trust a club's private certificate."""
    before = os.environ.get("SSL_CERT_FILE")
    os.environ["SSL_CERT_FILE"] = str(certificate)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SSL_CERT_FILE", None)
        else:
            os.environ["SSL_CERT_FILE"] = before


# -- make cluster ---------------------------------------------------------------------------


STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP end the run as Ctrl+C does: through every ``finally``. Once it is
    stopping, a second Ctrl+C (or one from ``timeout`` and the terminal both) is ignored:
    it would cut the stopping short and leave the nodes running."""

    def leave(number: int, _frame: Any) -> None:
        for each in STOPPING_SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        if number == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + number)

    for each in STOPPING_SIGNALS:
        signal.signal(each, leave)


def serve(args: argparse.Namespace) -> int:
    stop_on_signals()
    with tempfile.TemporaryDirectory(prefix="ginclub-cluster-") as scratch:
        print("Starting PostgreSQL, Redis, two app nodes and HAProxy on 127.0.0.1…", flush=True)
        with cluster(
            Path(scratch),
            nodes=args.nodes,
            workers=args.workers,
            threads=args.threads,
            front_port=args.port,
            stats_port=args.stats_port or steady_port(),
        ) as the_set:
            print(the_set.manage("seed_demo", "--if-empty").strip())
            assert the_set.front is not None
            port = the_set.base.rsplit(":", 1)[1]
            print(
                f"\nThe club's server: https://localhost:{port}/ (log in as director / "
                "gin-rummy-demo; its certificate was made for this run, so the browser "
                f"warns first: {the_set.front.certificate})\n"
                "Its configuration is docs/club-server.md's own (deploy/club/).\n"
                f"HAProxy's stats: {the_set.front.stats_url}\n"
                f"HAProxy's configuration: {the_set.front.config_path}\n"
                + "".join(
                    f"{node.name}: {node.base}/ (gunicorn, process group "
                    f"{node.process.pid if node.process else '-'})\n"
                    for node in the_set.nodes
                )
                + f"PostgreSQL: {the_set.database_url}\nRedis: {the_set.redis_url}\n"
                "Kill a node (kill -9 -GROUP) and watch HAProxy take it out. "
                "Ctrl+C stops everything.",
                flush=True,
            )
            try:
                while True:
                    time.sleep(1)
                    if the_set.front and the_set.front.process.poll() is not None:
                        print("HAProxy exited; stopping.", flush=True)
                        return 1
            except KeyboardInterrupt:
                print("\nStopping…", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--load" in argv:
        from .cluster_phase import main as load

        return load([a for a in argv if a != "--load"])
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--load", action="store_true", help="the load phase instead")
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per node")
    parser.add_argument("--threads", type=int, default=2, help="threads per worker")
    parser.add_argument("--port", type=int, default=0, help="HAProxy's (default: a free one)")
    parser.add_argument("--stats-port", type=int, default=0)
    args = parser.parse_args(argv)
    problem = unavailable()
    if problem:
        print(f"make cluster: {problem}", file=sys.stderr)
        return 2
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
