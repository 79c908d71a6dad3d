"""The mirror's freshness and its catch-up between two real servers (issue 43): the venue
(``ginclub venue --publish URL``, SQLite) publishing to the club (gunicorn, PostgreSQL
when this machine can start one). After the last hand the mirror's page says
``data-behind-seconds="0"`` once it has every change; the club stopped long enough for the
venue's back-off to reach its longest, ten hands entered meanwhile, then started: the
mirror is equal again (the venue's probe finds the club back; it does not wait out the
back-off).

Outcomes only are asserted (CI's rule); the seconds each took are printed for the
closing note (``pytest -s``), and timed by ``make loadtest``."""

from __future__ import annotations

import time

import pytest

from tests.publishing.loopback import (
    behind_seconds,
    caught_up,
    failing_for,
    night,
    play,
    standings,
    venue_changes,
    wait_for,
)

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest

OUTAGE = 45
"""Seconds the club stays away: the venue's waits (1, 2, 4, 8, 16 s) are then at the
longest, 30 s, so only the probe brings it back early."""


def test_the_mirror_says_how_far_behind_it_is_and_catches_up_after_an_outage(tmp_path):
    with night(tmp_path) as servers, servers.reading_applied() as applied:
        venue, club, base = servers.venue, servers.club, servers.club_base

        play(venue, 3)
        entered = time.monotonic()
        changes = venue_changes(servers)
        wait_for(
            lambda: applied() == changes and behind_seconds(base) == "0",
            why="the mirror up to date after the last hand",
        )
        live = time.monotonic() - entered
        assert standings(base) == standings(servers.venue_base)

        servers.stop_club()
        play(venue, 10)
        wait_for(
            lambda: failing_for(servers) >= OUTAGE,
            limit=OUTAGE + 60,
            why="the venue failing to reach the club",
        )
        servers.start_club()  # returns once it answers
        back = time.monotonic()
        changes = venue_changes(servers)
        wait_for(lambda: applied() == changes, why="the mirror caught up after the outage")
        equal = time.monotonic() - back
        both = caught_up(venue, club)
        assert len(both["club"]["hands"]) == 14
        assert behind_seconds(base) == "0"
        assert standings(base) == standings(servers.venue_base)
        print(
            f"\nlag and catch-up: 'up to date' {live:.1f} s after the last hand; "
            f"after a {OUTAGE} s outage, equal {equal:.1f} s after the club's first answer"
        )
