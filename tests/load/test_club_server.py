"""The club's server as docs/club-server.md sets it up (issue 44), stood up from its own
files (deploy/club/: the environment, the gunicorn unit and settings, HAProxy's
configuration) by :mod:`tools.load.cluster`: DEBUG off, HTTPS through HAProxy with a
certificate made for the test, the app told of HTTPS only by HAProxy's header.

One set, started once, for every check: the site over HTTPS; no secret of a URL in
HAProxy's log; ``ginclub deploy-check`` says ready; the backup unit's dump; and one node's
database cut (a TCP relay between it and PostgreSQL stopped): HAProxy's health check
takes it out and a visitor polling meanwhile sees no error."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tools.load.cluster import DEPLOY, cluster, unavailable
from tools.load.servers import PG_BIN

pytestmark = pytest.mark.server  # real servers: one at a time, after the rest

ROOT = Path(__file__).resolve().parents[2]


class Relay:
    """A TCP relay on 127.0.0.1 to ``target``; :meth:`cut` closes it and every connection
    through it, as a database server that has gone away."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.listener.close()
        with self.lock:
            for each in self.sockets:
                with contextlib.suppress(OSError):
                    each.shutdown(socket.SHUT_RDWR)
                each.close()


class Poller(threading.Thread):
    """A visitor reloading a page through HAProxy until :meth:`stop`: every status seen."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.statuses: list[int | str] = []
        self.stopping = threading.Event()
        self.start()

    def run(self) -> None:
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        while not self.stopping.is_set():
            try:
                with opener.open(self.url, timeout=30) as answer:
                    self.statuses.append(answer.status)
            except urllib.error.HTTPError as error:
                self.statuses.append(error.code)
            except OSError as error:
                self.statuses.append(repr(error))

    def stop(self) -> list[int | str]:
        self.stopping.set()
        self.join(timeout=60)
        return self.statuses


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "config.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_documented_club_server_serves_https_and_survives_a_lost_database(tmp_path):
    problem = unavailable()
    if problem:
        pytest.skip(problem)
    with cluster(tmp_path) as the_set:
        front = the_set.front
        assert front is not None
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

        # The site over HTTPS through HAProxy, as a club's server: HSTS, secure cookies.
        assert the_set.base.startswith("https://")
        with opener.open(the_set.base + "/accounts/login/", timeout=30) as page:
            assert page.status == 200
            assert "max-age=31536000" in page.headers["Strict-Transport-Security"]
            assert "Secure" in page.headers["Set-Cookie"]
        # A node asked directly over plain HTTP sends everything but /health/ to HTTPS.
        plain = urllib.request.Request(the_set.nodes[0].base + "/", headers={"Host": "localhost"})
        with pytest.raises(urllib.error.HTTPError) as redirect:
            urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirects()).open(
                plain, timeout=30
            )
        assert redirect.value.code == 301
        assert redirect.value.headers["Location"] == "https://localhost/"

        # A token pasted into a URL is refused, and stays out of HAProxy's log.
        with contextlib.suppress(urllib.error.HTTPError):
            opener.open(the_set.base + "/publish/club-night/?token=SECRET-in-the-url", timeout=30)
        wait_for(lambda: "/publish/club-night/" in front.log.read_text(), "the request logged")
        assert "SECRET" not in front.log.read_text()

        # deploy-check on the nodes' own settings: ready.
        checked = cli(the_set.env, "deploy-check")
        assert (checked.returncode, checked.stdout) == (0, "ready\n"), checked.stderr

        # The backup unit's command: a dump pg_restore reads.
        backup_env = {**the_set.env, "PATH": f"{PG_BIN}:{os.environ['PATH']}"}
        done = subprocess.run(
            [str(DEPLOY / "ginclub-pg-backup")], env=backup_env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        dump = Path(done.stdout.strip())
        assert dump.parent == tmp_path / "backups" and dump.suffix == ".dump"
        listed = subprocess.run(
            [str(PG_BIN / "pg_restore"), "--list", str(dump)], capture_output=True, text=True
        )
        assert listed.returncode == 0 and "tournaments_tournament" in listed.stdout

        # node1 reaches PostgreSQL only through a relay; the relay cut, its database is gone.
        database = urllib.parse.urlsplit(the_set.database_url)
        relay = Relay((database.hostname or "127.0.0.1", database.port or 5432))
        node1 = the_set.node("node1")
        node1.env = {
            "DATABASE_URL": the_set.database_url.replace(f":{database.port}/", f":{relay.port}/")
        }
        the_set.kill("node1")
        the_set.restart("node1")
        front.wait_for("node1", "UP")
        visitor = Poller(the_set.base + "/")
        wait_for(lambda: len(visitor.statuses) >= 10, "the visitor's first pages")
        relay.cut()
        front.wait_for("node1", "DOWN")
        seen = len(visitor.statuses)
        wait_for(lambda: len(visitor.statuses) >= seen + 10, "pages after node1 left")
        statuses = visitor.stop()
        assert statuses and set(statuses) == {200}, statuses
        assert front.states()["node2"] == "UP"


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def wait_for(condition, what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        time.sleep(0.05)
