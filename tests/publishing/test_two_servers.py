"""The venue and the club's server as two real servers on loopback (issue 34): the venue
(``ginclub venue --publish URL``, SQLite) publishes to the club (gunicorn, PostgreSQL
when this machine can start one, else SQLite). Hands at the venue appear on the mirror;
the club stopped while 20 hands are entered, started again, and the mirror catches up
exactly; the venue killed with SIGKILL just after hands, restarted, and nothing is lost
or doubled.

Everything runs in processes of its own on 127.0.0.1, with scratch databases: it touches
neither the test database nor anything beyond loopback."""

from __future__ import annotations

import os
import signal

import pytest

from tests.publishing.loopback import (
    PUBLICATION,
    caught_up,
    failing_for,
    night,
    play,
    standings,
    state,
    wait_for,
)

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest


def test_the_venue_publishes_and_the_mirror_catches_up_after_outages(tmp_path):
    with night(tmp_path) as servers:
        venue, club = servers.venue, servers.club
        # Hands at the venue appear on the mirror, every surface as the venue's.
        play(venue, 3)
        first = caught_up(venue, club)
        assert len(first["club"]["hands"]) == 4
        assert standings(servers.club_base) == standings(servers.venue_base)

        # The club's server stops; twenty hands; it starts again: caught up exactly.
        servers.stop_club()
        play(venue, 20)
        wait_for(lambda: failing_for(servers) > 0, why="the venue failing to reach the club")
        waiting = state(venue, PUBLICATION)
        assert waiting["changes"] - waiting["acknowledged"] >= 20
        servers.start_club()
        second = caught_up(venue, club)
        assert len(second["club"]["hands"]) == 24

        # The venue killed (SIGKILL) just after more hands, started again: nothing lost
        # or doubled.
        play(venue, 5)
        assert servers.venue_process is not None
        os.killpg(servers.venue_process.pid, signal.SIGKILL)
        servers.venue_process.wait(timeout=10)
        servers.start_venue()
        third = caught_up(venue, club)
        assert len(third["club"]["hands"]) == 29
        assert standings(servers.club_base) == standings(servers.venue_base)
