"""The venue and the club's server as two real servers on loopback (issue 34): the venue
(``ginclub venue --publish URL``, SQLite) publishes to the club (gunicorn, PostgreSQL
when this machine can start one, else SQLite). Hands at the venue appear on the mirror;
the club stopped while 20 hands are entered, started again, and the mirror catches up
exactly; the venue killed with SIGKILL just after hands, restarted, and nothing is lost
or doubled.

Everything runs in processes of its own on 127.0.0.1, with scratch databases: it touches
neither the test database nor anything beyond loopback."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tests.load.servers import (
    ROOT,
    another_database,
    free_port,
    postgres,
    postgres_available,
    start_gunicorn,
    start_venue,
    stop,
)

SEED = """
from tests.factories import make_bracket
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
t = make_bracket(players=4, tables=2, slug="friday", name="Friday night")
play(seated(t)[0], [knock("A", 5, 8)])
"""

PLAY = """
from tests.public.test_tables_json import seated
from tests.scoring.helpers import knock, play
from tournaments.models import Tournament
t = Tournament.objects.get(slug="friday")
for n in range({n}):
    play(seated(t)[n % 2], [knock("AB"[n % 2], 5, 8)])
"""

HANDS = """
import json
from scoring.models import Hand
from tournaments.models import AuditEntry
rows = Hand.objects.filter(match__tournament__slug="friday").order_by("match__key", "number")
print(json.dumps({{
    "hands": list(rows.values_list("match__key", "number", "kind", "by", "deadwood",
                                   "defender_deadwood")),
    "changes": AuditEntry.objects.filter(tournament__slug="friday").count(),
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
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def shell(env: dict[str, str], code: str) -> str:
    return manage(env, "shell", "-c", code)


def state(env: dict[str, str], extra: str) -> dict:
    return json.loads(shell(env, HANDS.format(extra=extra)).strip().splitlines()[-1])


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
    with urllib.request.urlopen(base + "/t/friday/standings.json", timeout=10) as answer:
        rows = json.loads(answer.read())["standings"]
    return [{k: v for k, v in row.items() if not k.startswith("club_rating")} for row in rows]


def test_the_venue_publishes_and_the_mirror_catches_up_after_outages(tmp_path):
    with club_database(tmp_path) as url:
        club = base_env(tmp_path / "club")
        if url:
            club["DATABASE_URL"] = url
        manage(club, "migrate", "--verbosity", "0")
        shell(
            club,
            "from django.contrib.auth import get_user_model; "
            "get_user_model().objects.create_superuser('clubdir', '', 'pw-12345-long')",
        )
        token = manage(club, "publish_token", "clubdir").strip().splitlines()[-1]
        port = free_port()
        logs = tmp_path / "logs"
        logs.mkdir()

        def club_server() -> tuple[subprocess.Popen, str]:
            return start_gunicorn(club, workers=1, threads=4, log=logs / "club.log", port=port)

        venue_data = tmp_path / "venue"
        venue = base_env(venue_data)
        manage(venue, "migrate", "--verbosity", "0")
        shell(venue, SEED)
        club_process, club_base = club_server()
        venue.update(
            GINCLUB_PUBLISH_URL=club_base,
            GINCLUB_PUBLISH_TOKEN=token,
            GINCLUB_VENUE_NAME="Riverside",
        )

        def venue_server() -> tuple[subprocess.Popen, str]:
            return start_venue(venue, data=venue_data, log=logs / "venue.log", processes=1)

        venue_process, venue_base = venue_server()
        try:
            # Hands at the venue appear on the mirror, every surface as the venue's.
            shell(venue, PLAY.format(n=3))
            first = caught_up(venue, club)
            assert len(first["club"]["hands"]) == 4
            assert standings(club_base) == standings(venue_base)

            # The club's server stops; twenty hands; it starts again: caught up exactly.
            stop(club_process)
            shell(venue, PLAY.format(n=20))
            time.sleep(2)
            waiting = state(venue, PUBLICATION)
            assert waiting["changes"] - waiting["acknowledged"] >= 20
            club_process, _base = club_server()
            second = caught_up(venue, club)
            assert len(second["club"]["hands"]) == 24

            # The venue killed (SIGKILL) just after more hands, started again: nothing lost
            # or doubled.
            shell(venue, PLAY.format(n=5))
            os.killpg(venue_process.pid, signal.SIGKILL)
            venue_process.wait(timeout=10)
            venue_process, venue_base = venue_server()
            third = caught_up(venue, club)
            assert len(third["club"]["hands"]) == 29
            assert standings(club_base) == standings(venue_base)
        finally:
            stop(venue_process)
            stop(club_process)
