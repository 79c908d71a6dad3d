"""Two write paths meet on one match at the same moment: real concurrent requests.

Every pair of write paths that can meet on one match (hand entry, correction, deletion,
confirmation at the table and by the director, walkover, reopening a confirmed result by
a correction, table-link renewal) is started together several times. Each person first
opens the page they act from, so the form carries what they saw; then two threads, each
with its own database connection and test Client, are released by one barrier.

Whatever the order the database picks: no 500 (on PostgreSQL a lock-order mistake shows
as "deadlock detected"), each request that loses gets a clear answer, the two never both
win when they exclude each other, and every stored summary agrees with the hands
(``archive.verify``). CI runs this file on SQLite and again on PostgreSQL.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from archive.verify import verify
from scoring.loading import HandData
from scoring.models import Hand
from scoring.services import confirm_result
from tests.factories import make_bracket
from tournaments.models import Match

from .helpers import gin, hidden_fields, knock, play, post_data, win_games

pytestmark = pytest.mark.django_db(transaction=True)

REPEATS = 3
HTMX = {"HTTP_HX_REQUEST": "true"}

# What a request that lost its race may answer, besides its own success.
CLEAR_ANSWERS = (
    "This hand changed since you opened it",
    "This hand has already been deleted",
    "The result was confirmed meanwhile",
    "The match changed since you opened this page",
    "This match is already complete",
    "This match is complete",
    "This table link does not work",  # renewed meanwhile: the old link is gone
    "is already entered",
    "cannot be entered yet",
    "after the match is complete",  # the engine: a hand once the match is decided
    "Only a match awaiting confirmation can be confirmed",
)


@dataclass
class Scene:
    match: Match
    tokens: list[str] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.match.tournament.slug

    def director(self) -> Client:
        client = Client()
        client.force_login(self.match.tournament.owner)
        return client

    def table(self, name: str, **kwargs) -> str:
        return reverse(f"scoring:table-{name}", kwargs={"token": self.match.token, **kwargs})

    def sheet(self, name: str, **kwargs) -> str:
        kwargs = {"slug": self.slug, "match_id": self.match.pk, **kwargs}
        return reverse(name if ":" in name else f"scoring:{name}", kwargs=kwargs)

    def manage(self, name: str) -> str:
        return reverse(f"tournaments:{name}", kwargs={"slug": self.slug, "match_id": self.match.pk})


IN_PLAY = [knock("A", 1, 10), knock("B", 2, 20), knock("A", 3, 30), knock("B", 4, 40)]


def scene(state: str) -> Scene:
    """A four-player bracket; its first semi-final ready (no hand yet in the tournament,
    so the first one locks the rules), in play (5 hands), awaiting confirmation (A won
    3–0) or complete (confirmed)."""
    tournament = make_bracket(players=4, preset="tournament")
    match = Match.objects.filter(tournament=tournament, round=1).order_by("position").first()
    if state == "in_play":
        play(match, [*IN_PLAY, knock("A", 5, 50)])
    elif state != "ready":
        play(match, win_games("A", 3))
    if state == "complete":
        confirm_result(match=match)
    match.refresh_from_db()
    return Scene(match)


@dataclass
class Request:
    """One person's POST, prepared from the page they had open."""

    name: str
    client: Client
    path: str
    data: dict
    htmx: bool = False
    ok: Callable[[object], bool] = lambda response: response.status_code == 302

    def send(self):
        return self.client.post(self.path, self.data, **(HTMX if self.htmx else {}))


def _message_ok(text: str) -> Callable[[object], bool]:
    def ok(response) -> bool:
        if response.status_code != 302:
            return False
        return any(text in str(m) for m in get_messages(response.wsgi_request))

    return ok


def enter(s: Scene) -> Request:
    client = Client()
    html = client.get(s.table("match-sheet")).content.decode()
    number = int(re.search(r'name="number" value="(\d+)"', html)[1])
    return Request("enter", client, s.table("hand-create"), post_data(number, knock("B", 1, 60)))


def _correct(s: Scene, number: int, data: HandData, *, director: bool = False) -> Request:
    client = s.director() if director else Client()
    name = "hand-edit"
    url = s.sheet(name, number=number) if director else s.table(name, number=number)
    html = client.get(url).content.decode()
    post = {**hidden_fields(html, url), **post_data(number, data), "confirm": "1"}
    return Request("correct", client, url, post)


def _delete(s: Scene, number: int, *, director: bool = False) -> Request:
    client = s.director() if director else Client()
    name = "hand-delete"
    url = s.sheet(name, number=number) if director else s.table(name, number=number)
    html = client.get(url).content.decode()
    return Request("delete", client, url, hidden_fields(html, url))


def correct(s: Scene) -> Request:
    return _correct(s, 2, gin("B", 90))  # the correction


def correct_again(s: Scene) -> Request:
    return _correct(s, 2, gin("B", 80))  # a second tab, other values


def correct_third(s: Scene) -> Request:
    return _correct(s, 3, knock("A", 3, 35))


def delete(s: Scene) -> Request:
    return _delete(s, 2)


def confirm(s: Scene) -> Request:
    client = Client()
    url = s.table("match-confirm")
    html = client.get(s.table("match-sheet")).content.decode()
    return Request("confirm", client, url, hidden_fields(html, url), ok=_message_ok("confirmed"))


def _round_control(s: Scene, client: Client, action: str) -> dict[str, str]:
    html = client.get(reverse("tournaments:round-control", args=[s.slug])).content.decode()
    return hidden_fields(html, action)


def director_confirm(s: Scene) -> Request:
    client, url = s.director(), s.manage("match-confirm")
    data = _round_control(s, client, url)
    return Request(
        "director confirm", client, url, data, htmx=True, ok=lambda r: b"confirmed:" in r.content
    )


def walkover(s: Scene) -> Request:
    client, url = s.director(), s.manage("match-walkover")
    data = {**_round_control(s, client, url), "winner_side": "B", "confirmed": "1"}
    return Request("walkover", client, url, data, htmx=True, ok=lambda r: b"Walkover:" in r.content)


def reopen(s: Scene) -> Request:
    # A director corrects the last hand of a confirmed 3–0: the match is undecided again.
    return _correct(s, 9, knock("A", 1, 2), director=True)


def reopen_other(s: Scene) -> Request:
    return _correct(s, 8, knock("A", 1, 2), director=True)


def director_delete(s: Scene) -> Request:
    return _delete(s, 9, director=True)


def renew(s: Scene) -> Request:
    client = s.director()
    return Request("renew", client, s.sheet("tables:table-link"), {"action": "renew"})


# (state, first, second, whether they exclude each other: exactly one may win)
PAIRS = [
    ("ready", enter, walkover, True),  # the first hand writes the tournament row too
    ("ready", enter, renew, False),
    ("in_play", enter, correct, False),
    ("in_play", enter, delete, False),
    ("in_play", delete, correct_third, False),  # delete hand 2 while a tab corrects hand 3
    ("in_play", correct, correct_again, True),  # two tabs, one hand
    ("in_play", delete, delete, True),  # a double tap
    ("in_play", enter, walkover, True),
    ("in_play", correct, walkover, True),
    ("in_play", delete, walkover, True),
    ("in_play", enter, renew, False),
    ("in_play", correct, renew, False),
    ("in_play", delete, renew, False),
    ("awaiting", correct, confirm, True),  # the deadlock
    ("awaiting", correct, director_confirm, True),
    ("awaiting", delete, confirm, True),
    ("awaiting", delete, director_confirm, True),
    ("awaiting", confirm, walkover, True),
    ("awaiting", director_confirm, walkover, True),
    ("awaiting", confirm, renew, False),
    ("awaiting", director_confirm, renew, False),
    ("complete", reopen, reopen_other, False),
    ("complete", reopen, director_delete, False),
    ("complete", reopen, renew, False),
]


def race(requests: list[Request]) -> list:
    barrier = threading.Barrier(len(requests))
    responses: list = [None] * len(requests)
    errors: list[BaseException] = []

    def worker(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            responses[index] = requests[index].send()
        except BaseException as error:  # a 500 raises in the test client
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return responses


def answer(response) -> str:
    """What the person reads: the page, or the messages a redirect carries."""
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    return " ".join([response.content.decode(), *texts])


@pytest.mark.parametrize("repeat", range(REPEATS))
@pytest.mark.parametrize(
    ("state", "first", "second", "exclusive"),
    PAIRS,
    ids=[f"{state}-{a.__name__}-{b.__name__}" for state, a, b, _ in PAIRS],
)
def test_two_writes_at_once(state, first, second, exclusive, repeat):
    s = scene(state)
    hands_before = list(Hand.objects.filter(match=s.match).order_by("number"))
    requests = [first(s), second(s)]
    responses = race(requests)
    won = []
    for request, response in zip(requests, responses, strict=True):
        assert response.status_code < 500, (request.name, response.status_code)
        if request.ok(response):
            won.append(request.name)
            continue
        text = answer(response)
        assert any(clear in text for clear in CLEAR_ANSWERS), (request.name, text[-3000:])
    assert won, "one of the two must go through"
    if exclusive:
        assert len(won) == 1, won
    _, differences = verify(s.match.tournament)
    assert differences == []
    after = list(Hand.objects.filter(match=s.match).order_by("number"))
    assert [h.number for h in after] == list(range(1, len(after) + 1))
    if first is delete and second is delete:
        # One tap deleted hand 2; the hands around it are the ones that were there.
        kept = [h.pk for h in hands_before if h.number != 2]
        assert [h.pk for h in after] == kept
    if first is delete and second is correct_third and "correct" not in won:
        # Refused, the correction landed nowhere (it used to land on the next hand).
        assert [(h.kind, h.by, h.deadwood, h.defender_deadwood) for h in after] == [
            (h.kind, h.by, h.deadwood, h.defender_deadwood) for h in hands_before if h.number != 2
        ]
    if first is delete and second is correct_third and len(won) == 2:
        # Both went through only if the correction came first: on the hand it named.
        corrected = next(h for h in after if h.pk == hands_before[2].pk)
        assert (corrected.deadwood, corrected.defender_deadwood) == (3, 35)
        assert [h.pk for h in after] == [h.pk for h in hands_before if h.number != 2]


def test_the_tournaments_first_hand_locks_the_tournament_before_its_match():
    # It locks the rules, a write of the tournament row: the lock order wants that row
    # locked before the match's (tournaments.movement). Later hands lock only the match.
    s = scene("ready")
    client = Client()
    with CaptureQueriesContext(connection) as captured:
        response = client.post(s.table("hand-create"), post_data(1, knock("A", 2, 30)))
    assert response.status_code == 302
    assert Hand.objects.filter(match=s.match).count() == 1
    s.match.tournament.refresh_from_db()
    assert s.match.tournament.rules_locked_at is not None
    if connection.vendor == "postgresql":
        sql = [query["sql"] for query in captured]
        tournament_lock = max(
            i for i, q in enumerate(sql) if q.endswith("FOR NO KEY UPDATE") and "tournament" in q
        )
        match_lock = max(
            i for i, q in enumerate(sql) if q.endswith('FOR UPDATE OF "tournaments_match"')
        )
        assert tournament_lock < match_lock
    with CaptureQueriesContext(connection) as captured:
        client.post(s.table("hand-create"), post_data(2, knock("B", 2, 30)))
    assert not [q for q in captured if "FOR NO KEY UPDATE" in q["sql"]]
