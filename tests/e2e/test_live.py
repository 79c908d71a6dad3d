"""The public page as a follower's browser polls it: htmx asks for each region with the
validators the browser kept (``If-None-Match``), the server answers 304 while nothing
changed, and a hand entered shows at the next poll, marked as just changed. The browser's
clock is Playwright's, so the poll timers run in an instant; the requests are real."""

from __future__ import annotations

import pytest

from public.live import POLL_SECONDS
from tests.e2e.conftest import answered
from tests.factories import make_bracket
from tests.scoring.helpers import knock, play
from tests.standings.test_standings import playable

pytestmark = pytest.mark.django_db(transaction=True)


class Network:
    """The region polls as they went over the network, read from Chromium's own events
    (DevTools protocol) rather than from the page: a 304 reaches the page's script as
    the 200 the browser kept, which is the point of it."""

    def __init__(self, page) -> None:
        self.urls: dict[str, str] = {}
        self.sent: dict[str, dict] = {}
        self.answered: dict[str, dict] = {}
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
        session.on("Network.requestWillBeSent", self._request)
        session.on("Network.requestWillBeSentExtraInfo", self._sent)
        session.on("Network.responseReceivedExtraInfo", self._answered)

    @staticmethod
    def _headers(event: dict) -> dict[str, str]:
        return {name.lower(): value for name, value in event.get("headers", {}).items()}

    def _request(self, event: dict) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]

    def _sent(self, event: dict) -> None:
        self.sent[event["requestId"]] = self._headers(event)

    def _answered(self, event: dict) -> None:
        self.answered[event["requestId"]] = {
            "status": event["statusCode"],
            **self._headers(event),
        }

    def polls(self) -> list[dict]:
        """Each region poll answered so far: region, validator sent, status, ETag."""
        found = []
        for request_id, answer in self.answered.items():
            url = self.urls.get(request_id, "")
            if "region=" not in url:
                continue
            found.append(
                {
                    "region": url.rsplit("region=", 1)[1],
                    "if_none_match": self.sent.get(request_id, {}).get("if-none-match", ""),
                    "status": answer["status"],
                    "etag": answer.get("etag", ""),
                    "again": answer.get("poll-again-after", ""),
                }
            )
        return found

    def clear(self) -> None:
        self.answered.clear()


def poll(page) -> None:
    page.clock.run_for((POLL_SECONDS + 1) * 1000)
    answered(page)


def test_polls_send_validators_get_304s_and_show_a_new_hand(desktop, live_server, monkeypatch):
    # The page's clock runs fast, the server's does not: render every version at once.
    monkeypatch.setattr("public.live.RERENDER_SECONDS", 0)
    tournament = make_bracket(players=8)
    match = playable(tournament)[0]
    play(match, [knock("A", 2, 30)])
    network = Network(desktop)
    desktop.clock.install()
    desktop.goto(f"/t/{tournament.slug}/")

    poll(desktop)  # the first poll of each region: the browser has nothing of it yet
    first = network.polls()
    assert sorted(p["region"] for p in first) == ["bracket", "standings"]
    assert all(p["status"] == 200 and p["etag"] for p in first), first

    network.clear()
    poll(desktop)  # nothing changed: each poll carries its tag and gets a 304
    quiet = network.polls()
    assert len(quiet) == 2 and all(p["status"] == 304 for p in quiet), quiet
    tags = {p["region"]: p["etag"] for p in first}
    assert all(p["if_none_match"] == tags[p["region"]] for p in quiet), quiet
    # All of the region's text, the hand statistics too (they sit behind "Show more
    # statistics" at first: a knock changes hands won before it changes a visible column).
    before = desktop.locator("#standings").text_content()

    play(match, [knock("B", 3, 40)])  # a hand entered at the table
    # The standings fetch the new version at the next poll, or (when it asked while
    # another request was rendering that version) at the one after; the bracket looks
    # as it did (no game ended), so its polls stay 304s. What changed is marked as it
    # arrives, and only that.
    marked: set[str] = set()
    fresh: dict[str, str] = {}
    bracket: list[int] = []
    for _ in range(2):
        network.clear()
        poll(desktop)
        for p in network.polls():
            if p["status"] == 200:
                fresh[p["region"]] = p["etag"]
            if p["region"] == "bracket":
                bracket.append(p["status"])
        marked |= set(
            desktop.locator(".just-changed").evaluate_all(
                "elements => elements.map(e => e.dataset.key)"
            )
        )
        if fresh:
            break
    assert sorted(fresh) == ["standings"], fresh
    assert bracket and all(status == 304 for status in bracket), bracket
    assert all(tag != tags[region] for region, tag in fresh.items())
    assert desktop.locator("#standings").text_content() != before
    # B won the hand: B's row changed (hands won); nothing beyond this match is marked.
    assert f"e{match.side_b_id}" in marked, marked
    assert marked <= {match.key, f"e{match.side_a_id}", f"e{match.side_b_id}"}, marked

    network.clear()
    poll(desktop)  # and quiet again
    again = network.polls()
    assert len(again) == 2 and all(p["status"] == 304 for p in again), again


def test_a_region_answered_as_last_rendered_is_polled_again_sooner(
    desktop, live_server, monkeypatch
):
    """A hand waits for its render (the group is not due yet): the page is answered what
    it has, with ``Poll-Again-After``, and live.js sends the next poll that much sooner
    than htmx's interval would."""
    monkeypatch.setattr("public.live.RERENDER_SECONDS", 600)
    tournament = make_bracket(players=8)
    match = playable(tournament)[0]
    play(match, [knock("A", 2, 30)])
    network = Network(desktop)
    desktop.clock.install()
    desktop.goto(f"/t/{tournament.slug}/")
    poll(desktop)
    assert all(not p["again"] for p in network.polls()), network.polls()

    play(match, [knock("B", 3, 40)])
    network.clear()
    desktop.clock.pause_at(desktop.evaluate("Date.now()") + 1000)
    desktop.clock.run_for((POLL_SECONDS + 1) * 1000)
    answered(desktop, settled=False)  # the clock is paused
    stale = network.polls()
    assert {p["region"] for p in stale} == {"bracket", "standings"}, stale
    assert all(p["again"] for p in stale), stale
    seconds = min(float(p["again"]) for p in stale)
    assert 1 <= seconds < POLL_SECONDS

    network.clear()
    desktop.clock.run_for(int(seconds * 1000) + 200)  # sooner than the interval: polled again
    answered(desktop, settled=False)
    assert sorted(p["region"] for p in network.polls()) == ["bracket", "standings"]
