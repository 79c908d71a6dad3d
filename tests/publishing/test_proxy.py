"""A duplicated, a reordered and an unanswered delivery (issue 34): the venue publishes
to the club's server through a faulty link (:mod:`tests.publishing.proxy`) while hands
are entered, and the mirror ends up with every change applied once and in order: its
audit rows the venue's, in order and count, its hands and standings the venue's, its
change number never going down on the way, and ``verify_tournament`` clean on both.

Two real servers on loopback (:mod:`tests.publishing.loopback`): the club on a throwaway
PostgreSQL (SQLite where none starts), the venue on SQLite."""

from __future__ import annotations

import contextlib
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.publishing.loopback import (
    MIRROR,
    PUBLICATION,
    VERIFIED,
    Night,
    night,
    play,
    standings,
    state,
)
from tests.publishing.proxy import DROP, HOLD, TWICE, Proxy

pytestmark = pytest.mark.server  # starts real servers: one at a time, after the rest

FAULTS = [HOLD, TWICE, DROP]
"""A held first delivery (it arrives after the next), a duplicate, a lost answer: each a
request of its own with a success between the failures, so the venue never waits long."""


class Watch:
    """The mirror's applied change number, read every tenth of a second in a thread."""

    def __init__(self, servers: Night) -> None:
        self.servers = servers
        self.seen: list[int] = []
        self.errors: list[Exception] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        with self.servers.reading_applied() as applied:
            while not self.stopping.wait(0.1):
                try:
                    found = applied()
                except Exception as error:  # kept, and failed on after the run
                    self.errors.append(error)
                    continue
                if found is not None and (not self.seen or self.seen[-1] != found):
                    self.seen.append(found)

    def reaches(self, changes: int, seconds: float = 30) -> None:
        """Wait until the mirror has applied ``changes``."""
        deadline = time.monotonic() + seconds
        while not self.seen or self.seen[-1] < changes:
            assert time.monotonic() < deadline, f"the mirror is at {self.seen[-1:]} of {changes}"
            time.sleep(0.1)

    def __enter__(self) -> Watch:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(timeout=10)


def spoilt(proxy: Proxy, seconds: float = 40) -> None:
    """Wait until the link has taken every fault it was given."""
    deadline = time.monotonic() + seconds
    while proxy.faults:
        assert time.monotonic() < deadline, f"the link spoilt only {proxy.log}"
        time.sleep(0.2)


def all_delivered(proxy: Proxy, seconds: float = 20) -> None:
    """Wait until every held request has reached the club."""
    deadline = time.monotonic() + seconds
    while proxy.log.count("held") < proxy.log.count(HOLD):
        assert time.monotonic() < deadline, f"held requests never delivered: {proxy.log}"
        time.sleep(0.2)


def test_duplicated_reordered_and_unanswered_deliveries_are_applied_once_in_order(tmp_path):
    with contextlib.ExitStack() as stack:
        proxies: list[Proxy] = []

        def through_proxy(club: str) -> str:
            proxies.append(stack.enter_context(Proxy(club, FAULTS)))
            return proxies[0].url

        servers = stack.enter_context(night(tmp_path, publish_to=through_proxy))
        (proxy,) = proxies
        with Watch(servers) as watch:
            # Hands go on being entered until the link has spoilt every request it would.
            enough = tmp_path / "enough"
            playing = threading.Thread(
                target=play, args=(servers.venue, 60), kwargs={"pause": 0.5, "until": enough}
            )
            playing.start()
            spoilt(proxy)
            enough.touch()
            playing.join(timeout=60)
            changes = state(servers.venue, PUBLICATION)["changes"]
            watch.reaches(changes)
            all_delivered(proxy)  # each logged once the club has answered it
        # Every fault happened, and every held request reached the club after a later one.
        assert {TWICE, HOLD, DROP} <= set(proxy.log)
        assert proxy.log.count("held") == proxy.log.count(HOLD)

        with ThreadPoolExecutor(2) as pool:
            venue = pool.submit(state, servers.venue, PUBLICATION, verify=True)
            club = pool.submit(state, servers.club, MIRROR, verify=True)
        venue, club = venue.result(), club.result()
        assert len(venue["hands"]) > 1 + 4
        assert club["hands"] == venue["hands"]
        assert club["audit"] == venue["audit"]
        assert club["applied"] == venue["changes"] == venue["acknowledged"] == changes
        assert watch.errors == []
        assert watch.seen == sorted(watch.seen), f"the mirror went back: {watch.seen}"
        assert watch.seen[-1] == changes
        assert standings(servers.club_base) == standings(servers.venue_base)
        assert VERIFIED in venue["verified"] and VERIFIED in club["verified"]
