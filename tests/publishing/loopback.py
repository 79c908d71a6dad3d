"""The venue and the club's server as two real servers on loopback, for the tests that
need them (``test_two_servers``, ``test_proxy``): the club as gunicorn on a throwaway
PostgreSQL (SQLite where none starts), the venue as ``ginclub venue`` on SQLite
publishing to it, each with a scratch data folder, and what the tests read of both
(their hands, changes, audit rows, standings) through ``manage.py`` and HTTP.

Everything runs in processes of its own on 127.0.0.1: it touches neither the test
database nor anything beyond loopback."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tools.load.servers import (
    ROOT,
    another_database,
    free_port,
    postgres,
    postgres_available,
    start_gunicorn,
    start_venue,
    stop,
)

SLUG = "friday"
SEED = """
from tests.factories import make_bracket
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
t = make_bracket(players=4, tables=2, slug="friday", name="Friday night")
play(seated(t)[0], [knock("A", 5, 8)])
"""

PLAY = """
import os
import time
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
from tournaments.models import Tournament
t = Tournament.objects.get(slug="friday")
n = 0
while n < {n} and not os.path.exists({until!r}):
    play(seated(t)[n % 2], [knock("AB"[n % 2], 5, 8)])
    n += 1
    time.sleep({pause})
"""

HANDS = """
import json
from scoring.models import Hand
from tournaments.models import AuditEntry
rows = Hand.objects.filter(match__tournament__slug="friday").order_by("match__key", "number")
audit = AuditEntry.objects.filter(tournament__slug="friday").order_by("pk")
print(json.dumps({{
    "hands": list(rows.values_list("match__key", "number", "kind", "by", "deadwood",
                                   "defender_deadwood")),
    "changes": audit.count(),
    "audit": [[a.at.isoformat(), a.via, a.action, a.object_type] for a in audit],
    {extra}
}}))
"""
MIRROR = '"applied": __import__("publishing.models").models.Mirror.objects.get().applied_through'
PUBLICATION = (
    '"acknowledged": __import__("publishing.models").models.Publication.objects.get()'
    ".acknowledged_through"
)


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "config.cli", "manage", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    return done.stdout


def shell(env: dict[str, str], code: str) -> str:
    return manage(env, "shell", "-c", code)


def play(env: dict[str, str], hands: int, pause: float = 0.0, until: Path | None = None) -> None:
    """``hands`` hands entered at the venue, the two tables in turn, ``pause`` s apart;
    fewer if the file ``until`` appears first."""
    shell(env, PLAY.format(n=hands, pause=pause, until=str(until or "")))


VERIFIED = "agree with their hands"
VERIFY = f"""
from django.core.management import call_command
call_command("verify_tournament", "{SLUG}")  # exits 1 when anything differs
"""


def state(env: dict[str, str], extra: str, *, verify: bool = False) -> dict:
    """The tournament's hands, change count and audit rows (and ``extra``); with
    ``verify``, ``verify_tournament`` runs first and its verdict is under "verified"."""
    out = shell(env, (VERIFY if verify else "") + HANDS.format(extra=extra)).strip()
    lines = out.splitlines()
    found = json.loads(lines[-1])
    if verify:
        found["verified"] = "\n".join(lines[:-1])
    return found


def base_env(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
    env.update(DJANGO_DEBUG="1", PYTHONPATH=str(ROOT), GINCLUB_DATA_DIR=str(data))
    data.mkdir(parents=True, exist_ok=True)
    return env


@contextlib.contextmanager
def club_database(tmp: Path) -> Iterator[str | None]:
    """A DATABASE_URL on a throwaway PostgreSQL 15, or None (SQLite) where none starts."""
    if postgres_available() is not None:
        yield None
        return
    with postgres(max_connections=50) as url:
        yield another_database(url, "ginclub_club")


def caught_up(venue: dict[str, str], club: dict[str, str], seconds: float = 40) -> dict:
    """Wait until the mirror holds exactly the venue's hands and changes; both states."""
    deadline = time.monotonic() + seconds
    while True:
        here, there = state(venue, PUBLICATION), state(club, MIRROR)
        if here["hands"] == there["hands"] and there["applied"] == here["changes"]:
            return {"venue": here, "club": there}
        assert time.monotonic() < deadline, f"not caught up: venue {here}, club {there}"
        time.sleep(1)


def standings(base: str) -> list[dict]:
    with urllib.request.urlopen(base + f"/t/{SLUG}/standings.json", timeout=10) as answer:
        rows = json.loads(answer.read())["standings"]
    return [{k: v for k, v in row.items() if not k.startswith("club_rating")} for row in rows]


@dataclass
class Night:
    """The two servers of one test: their environments, processes and addresses. The
    venue publishes to ``publish_to(club_base)`` (the club itself by default)."""

    tmp: Path
    database_url: str | None
    publish_to: Callable[[str], str] = lambda base: base
    club: dict[str, str] = field(default_factory=dict)
    venue: dict[str, str] = field(default_factory=dict)
    club_process: subprocess.Popen | None = None
    venue_process: subprocess.Popen | None = None
    club_base: str = ""
    venue_base: str = ""
    port: int = 0

    @property
    def logs(self) -> Path:
        return self.tmp / "logs"

    def prepare(self) -> None:
        """Both databases made, the club's director and token, the venue's tournament."""
        self.logs.mkdir(exist_ok=True)
        self.club = base_env(self.tmp / "club")
        if self.database_url:
            self.club["DATABASE_URL"] = self.database_url
        manage(self.club, "migrate", "--verbosity", "0")
        shell(
            self.club,
            "from django.contrib.auth import get_user_model; "
            "get_user_model().objects.create_superuser('clubdir', '', 'pw-12345-long')",
        )
        token = manage(self.club, "publish_token", "clubdir").strip().splitlines()[-1]
        self.venue = base_env(self.tmp / "venue")
        manage(self.venue, "migrate", "--verbosity", "0")
        shell(self.venue, SEED)
        self.port = free_port()
        self.venue.update(
            GINCLUB_PUBLISH_URL=self.publish_to(f"http://127.0.0.1:{self.port}"),
            GINCLUB_PUBLISH_TOKEN=token,
            GINCLUB_VENUE_NAME="Riverside",
        )

    def start_club(self) -> None:
        self.club_process, self.club_base = start_gunicorn(
            self.club, workers=1, threads=4, log=self.logs / "club.log", port=self.port
        )

    def start_venue(self) -> None:
        self.venue_process, self.venue_base = start_venue(
            self.venue, data=self.tmp / "venue", log=self.logs / "venue.log", processes=1
        )

    def stop_club(self) -> None:
        if self.club_process is not None:
            stop(self.club_process)

    def stop(self) -> None:
        for process in (self.venue_process, self.club_process):
            if process is not None:
                stop(process)

    @contextlib.contextmanager
    def reading_applied(self) -> Iterator[Callable[[], int | None]]:
        """What reads the mirror's applied change number straight from the club's
        database (None before the mirror exists), on one connection kept open: cheap
        enough to poll during a run."""
        query = "SELECT applied_through FROM publishing_mirror"
        if self.database_url:
            import psycopg

            with psycopg.connect(self.database_url, autocommit=True) as connection:
                yield lambda: number(connection.execute(query).fetchone())
        else:
            path = Path(self.club["GINCLUB_DATA_DIR"]) / "db.sqlite3"
            with contextlib.closing(sqlite3.connect(path, timeout=5)) as connection:
                yield lambda: number(connection.execute(query).fetchone())


def number(row: Any) -> int | None:
    return None if row is None else int(row[0])


@contextlib.contextmanager
def night(tmp: Path, publish_to: Callable[[str], str] | None = None) -> Iterator[Night]:
    """Both servers started, the venue publishing to the club (through ``publish_to``,
    given the club's address, when set); both stopped after."""
    with club_database(tmp) as url:
        servers = Night(tmp, url)
        if publish_to is not None:
            servers.publish_to = publish_to
        servers.prepare()
        try:
            servers.start_club()
            servers.start_venue()
            yield servers
        finally:
            servers.stop()


def venue_row(servers: Night, query: str) -> Any:
    """One row of the venue's SQLite database, read straight (cheap enough to poll)."""
    path = Path(servers.venue["GINCLUB_DATA_DIR"]) / "db.sqlite3"
    with contextlib.closing(sqlite3.connect(path, timeout=5)) as connection:
        return connection.execute(query).fetchone()


def venue_changes(servers: Night) -> int:
    """The venue's change number: its tournament's audit rows."""
    return int(
        venue_row(
            servers,
            "SELECT COUNT(*) FROM tournaments_auditentry WHERE tournament_id = "
            f"(SELECT id FROM tournaments_tournament WHERE slug = '{SLUG}')",
        )[0]
    )


def failing_for(servers: Night) -> float:
    """How many seconds the venue has been failing to reach the club (0: it is not)."""
    row = venue_row(servers, "SELECT failing_since FROM publishing_publication")
    if row is None or row[0] is None:
        return 0.0
    since = datetime.fromisoformat(row[0]).replace(tzinfo=UTC)
    return (datetime.now(UTC) - since).total_seconds()


def behind_seconds(base: str) -> str:
    """The mirror's ``data-behind-seconds`` on its public page ("0", "12", or "")."""
    with urllib.request.urlopen(base + f"/t/{SLUG}/", timeout=10) as answer:
        page = answer.read().decode()
    found = re.search(r'class="mirror-status"[^>]*data-behind-seconds="([^"]*)"', page)
    assert found, "the mirror's page has no freshness line"
    return found.group(1)


def wait_for(what: Callable[[], Any], *, limit: float = 60, why: str = "") -> float:
    """Wait until ``what()`` is true (failing after ``limit`` s); the seconds it took."""
    started = time.monotonic()
    while not what():
        assert time.monotonic() - started < limit, f"not within {limit} s: {why}"
        time.sleep(0.1)
    return time.monotonic() - started


def fetch(base: str, path: str) -> bytes:
    """The body of ``GET base + path`` (a page, a CSV, a PDF) from one of the servers."""
    with urllib.request.urlopen(base + path, timeout=30) as answer:
        return answer.read()
