"""The director's device board on Round control (issue 32): per table in play, the phones
seen lately (named by a short code), the last hand and when, the submissions refused
(taken, stale) or resent, two phones entering at once, a table silent for long. Built in
a fixed number of queries however many tables play."""

from __future__ import annotations

import datetime
import html as html_module

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import devices
from scoring.models import Hand, PhoneEvent
from scoring.services import correct_hand
from scoring.versions import hand_version
from tests.factories import make_entries, make_match

from .helpers import hidden_fields, knock, play, post_data, ready_match

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def table(match, name="match-sheet"):
    return reverse(f"scoring:table-{name}", kwargs={"token": match.token})


def open_form(client: Client, match) -> dict[str, str]:
    response = client.get(table(match))
    assert response.status_code == 200
    return hidden_fields(response.content.decode(), table(match, "hand-create"))


def code_of(client: Client) -> str:
    return client.cookies[devices.COOKIE].value


def board_of(match) -> devices.TableBoard:
    (row,) = [r for r in devices.board(match.tournament) if r.match.pk == match.pk]
    return row


def round_control(match) -> str:
    director = Client()
    director.force_login(match.tournament.owner)
    response = director.get(reverse("tournaments:round-control", args=[match.tournament.slug]))
    assert response.status_code == 200
    return html_module.unescape(response.content.decode())


def test_two_phones_at_a_table_are_listed_by_their_codes_and_nothing_else():
    match = ready_match()
    play(match, [knock("A", 2, 20)])
    first, second = Client(), Client()
    open_form(first, match)
    open_form(second, match)
    row = board_of(match)
    assert {p.code for p in row.phones} == {code_of(first), code_of(second)}
    page = round_control(match)
    board = page[page.index('id="device-board"') :]
    assert code_of(first) in board and code_of(second) in board
    assert "Hand 1 at" in board
    # No personal data: the players' names are not on the board.
    assert match.side_name("A") not in board and match.side_name("B") not in board


def test_a_phone_seen_long_ago_is_no_longer_listed():
    match = ready_match()
    long_ago = timezone.now().timestamp() - (devices.SEEN_MINUTES * 60 + 5)
    devices.seen(match.token, "K7QF", now=long_ago)
    devices.seen(match.token, "3MNP")
    assert [p.code for p in board_of(match).phones] == ["3MNP"]


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_refused_hand_is_counted_with_its_phone_and_two_phones_at_once_are_flagged(htmx):
    match = ready_match()
    first, second = Client(), Client()
    first_form, second_form = open_form(first, match), open_form(second, match)
    extra = HTMX if htmx else {}
    saved = first.post(
        table(match, "hand-create"), {**first_form, **post_data(1, knock("A", 5, 31))}, **extra
    )
    assert saved["Submission-Outcome"] == "saved"
    assert not PhoneEvent.objects.exists()  # a hand stored is its own row, nothing more
    refused = second.post(
        table(match, "hand-create"), {**second_form, **post_data(1, knock("B", 7, 40))}, **extra
    )
    assert refused["Submission-Outcome"] == "taken"
    # Written after the submission's transaction: a whole page's 409 rolls that back.
    event = PhoneEvent.objects.get()
    assert (event.match_id, event.device, event.kind) == (match.pk, code_of(second), "taken")
    row = board_of(match)
    assert (row.taken, row.stale, row.resent, row.last_hand) == (1, 0, 0, 1)
    assert row.clash is not None and row.clash.codes == (code_of(first), code_of(second))
    board = round_control(match)
    assert "1 already entered" in board
    assert f"Two phones at once: {code_of(first)} and {code_of(second)}" in board


def test_a_hand_against_an_old_score_is_counted_as_stale():
    match = ready_match()
    play(match, [knock("A", 2, 20), knock("B", 3, 30)])
    client = Client()
    form = open_form(client, match)
    hand = Hand.objects.get(match=match, number=2)
    correct_hand(match=match, hand_id=hand.pk, version=hand_version(hand), data=knock("B", 3, 60))
    refused = client.post(table(match, "hand-create"), {**form, **post_data(3, knock("A", 4, 44))})
    assert refused["Submission-Outcome"] == "stale"
    row = board_of(match)
    assert (row.taken, row.stale, row.refused) == (0, 1, 1)
    assert row.clash is None  # one phone
    assert "1 against an old score" in round_control(match)


def test_a_resend_is_counted_once_per_resend_and_the_first_save_not_at_all():
    match = ready_match()
    client = Client()
    form = {**open_form(client, match), **post_data(1, knock("A", 5, 31))}
    client.post(table(match, "hand-create"), form)
    assert not PhoneEvent.objects.exists()
    for _n in range(2):
        again = client.post(table(match, "hand-create"), form, **HTMX)
        assert again["Submission-Outcome"] == "saved"
    assert list(PhoneEvent.objects.values_list("kind", "device")) == [
        ("resent", code_of(client)),
        ("resent", code_of(client)),
    ]
    assert board_of(match).resent == 2
    assert Hand.objects.filter(match=match).count() == 1


def test_a_table_in_play_without_a_hand_for_long_is_silent():
    match = ready_match()
    play(match, [knock("A", 2, 20), knock("B", 3, 30)])
    a, b = make_entries(tournament=match.tournament, count=2)
    busy = make_match(tournament=match.tournament, a=a, b=b, table=2)
    play(busy, [knock("A", 2, 20)])
    Hand.objects.filter(match=match).update(
        entered_at=timezone.now() - datetime.timedelta(minutes=devices.SILENT_MINUTES + 5)
    )
    row, fresh = board_of(match), board_of(busy)
    assert row.silent and row.silent_minutes == devices.SILENT_MINUTES + 5
    assert not fresh.silent
    board = round_control(match)
    assert f"Silent for {devices.SILENT_MINUTES + 5} minutes" in board
    assert board.count("Silent for") == 1


def test_the_board_takes_the_same_queries_for_two_tables_as_for_six(django_assert_num_queries):
    match = ready_match()
    tournament = match.tournament
    matches = [match]
    for number in range(2, 7):
        a, b = make_entries(tournament=tournament, count=2)
        matches.append(make_match(tournament=tournament, a=a, b=b, table=number))
    for m in matches[:2]:
        play(m, [knock("A", 2, 20)])
        PhoneEvent.objects.create(match=m, device="K7QF", kind="taken")
        devices.seen(m.token, "K7QF")
    # Matches, hands, refusals and resends; the phones come from the cache.
    with django_assert_num_queries(3):
        two = devices.board(tournament)
    for m in matches[2:]:
        play(m, [knock("B", 3, 30), knock("A", 1, 12)])
        PhoneEvent.objects.create(match=m, device="3MNP", kind="resent")
        devices.seen(m.token, "3MNP")
    with django_assert_num_queries(3):
        six = devices.board(tournament)
    assert len(two) == len(six) == 6
    assert [r.match.table for r in six] == [1, 2, 3, 4, 5, 6]
    assert [len(r.phones) for r in six] == [1] * 6


class CacheSpy:
    """The cache, with its writes listed."""

    def __init__(self, real):
        self.real, self.writes = real, []

    def get(self, *args, **kwargs):
        return self.real.get(*args, **kwargs)

    def set(self, key, *args, **kwargs):
        self.writes.append(key)
        return self.real.set(key, *args, **kwargs)


def test_a_hand_entry_writes_no_cache_and_a_phone_is_noted_at_most_once_a_step(monkeypatch):
    match = ready_match()
    client = Client()
    spy = CacheSpy(devices.cache)
    monkeypatch.setattr(devices, "cache", spy)
    form = open_form(client, match)
    assert len(spy.writes) == 1  # the phone's first page: seen
    client.post(table(match, "hand-create"), {**form, **post_data(1, knock("A", 5, 31))})
    client.get(table(match))  # seen a moment ago: not written again
    assert len(spy.writes) == 1
    later = timezone.now().timestamp() + devices.SEEN_STEP + 1
    devices.seen(match.token, code_of(client), now=later)
    assert len(spy.writes) == 2


def test_round_control_with_the_board_and_calls_takes_the_same_queries_for_more_tables():
    """The whole page (its rounds, the calls and the board): no query per table."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring import calls

    match = ready_match()
    tournament = match.tournament
    director = Client()
    director.force_login(tournament.owner)
    url = reverse("tournaments:round-control", args=[tournament.slug])

    def add_table(number: int) -> None:
        a, b = make_entries(tournament=tournament, count=2)
        m = make_match(tournament=tournament, a=a, b=b, table=number, round=1)
        play(m, [knock("A", 2, 20)])
        PhoneEvent.objects.create(match=m, device="K7QF", kind="taken")
        devices.seen(m.token, "K7QF")
        calls.make(match=m, reason="dispute", note="", device="K7QF", via="")

    add_table(2)
    director.get(url)  # the session and the caches warm
    with CaptureQueriesContext(connection) as two:
        assert director.get(url).status_code == 200
    for number in range(3, 9):
        add_table(number)
    director.get(url)  # the new tables' sheets scored once (standings.data keeps them)
    with CaptureQueriesContext(connection) as eight:
        page = director.get(url)
    assert page.status_code == 200
    assert page.content.decode().count("Two phones at once") == 0
    assert page.content.decode().count('class="director-call-row') == 7
    assert len(eight) == len(two), [q["sql"] for q in eight.captured_queries]
