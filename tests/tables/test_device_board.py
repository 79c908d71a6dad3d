"""The director's device board on Round control (issue 32): per table in play, the phones
seen lately (named by a short code), the last hand and when, the submissions refused
(taken, stale) or resent, two phones entering at once, a table silent for long. Built in
a fixed number of queries however many tables play, and however often one phone is
refused (issue 41: a match keeps its latest refusals as rows and counts the rest)."""

from __future__ import annotations

import datetime
import html as html_module
import importlib

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.models import Count
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.models import Hand
from scoring.services import correct_hand
from scoring.templatetags.phone_board import stored_hands
from scoring.versions import hand_version
from tables import devices
from tables.models import PhoneEvent, PhoneTally
from tests.factories import make_entries, make_match
from tests.scoring.helpers import hidden_fields, knock, play, post_data, ready_match
from web.submissions import FIELD, new_id

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


def refused(match, device: str, kind: str = "taken") -> None:
    """A refusal (or resend) from phone ``device`` at ``match``'s table, noted as the sheet
    notes it."""
    request = RequestFactory().post("/")
    request.COOKIES[devices.COOKIE] = device
    devices.note(request, match.pk, kind)


def board_of(match) -> devices.TableBoard:
    (row,) = [r for r in devices.board(match.tournament, stored_hands) if r.match.pk == match.pk]
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
        refused(m, "K7QF")
        devices.seen(m.token, "K7QF")
    # Matches, hands, the refusals and resends counted, the latest of them; the phones
    # come from the cache.
    with django_assert_num_queries(4):
        two = devices.board(tournament, stored_hands)
    for m in matches[2:]:
        play(m, [knock("B", 3, 30), knock("A", 1, 12)])
        refused(m, "3MNP", "resent")
        devices.seen(m.token, "3MNP")
    with django_assert_num_queries(4):
        six = devices.board(tournament, stored_hands)
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

    from tables import calls

    match = ready_match()
    tournament = match.tournament
    director = Client()
    director.force_login(tournament.owner)
    url = reverse("tournaments:round-control", args=[tournament.slug])

    def add_table(number: int) -> None:
        a, b = make_entries(tournament=tournament, count=2)
        m = make_match(tournament=tournament, a=a, b=b, table=number, round=1)
        play(m, [knock("A", 2, 20)])
        refused(m, "K7QF")
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


def test_a_phone_refused_over_and_over_leaves_a_bounded_number_of_rows_all_counted():
    """Issue 41: every refused hand wrote a row, and Round control read them all."""
    match = ready_match()
    first, second = Client(), Client()
    form = {**open_form(first, match), **post_data(1, knock("A", 5, 31))}
    first.post(table(match, "hand-create"), form)
    flood = open_form(second, match)
    times = devices.EVENTS_KEPT + 5
    for _n in range(times):  # the same hand again and again, each a new submission
        again = {**flood, **post_data(1, knock("B", 7, 40)), FIELD: new_id()}
        answer = second.post(table(match, "hand-create"), again)
        assert answer["Submission-Outcome"] == "taken"
    assert PhoneEvent.objects.filter(match=match).count() == devices.EVENTS_KEPT
    tally = PhoneTally.objects.get(match=match)
    assert (tally.kind, tally.count) == ("taken", times)
    row = board_of(match)
    assert (row.taken, row.stale, row.resent) == (times, 0, 0)
    assert row.clash is not None and row.clash.codes == (code_of(first), code_of(second))
    assert f"{times} already entered" in round_control(match)


def test_round_control_reads_the_same_rows_and_queries_after_a_flood_of_refusals():
    match = ready_match()
    play(match, [knock("A", 2, 20)])
    director = Client()
    director.force_login(match.tournament.owner)
    url = reverse("tournaments:round-control", args=[match.tournament.slug])
    refused(match, "K7QF")
    director.get(url)  # the session and the caches warm
    with CaptureQueriesContext(connection) as one:
        assert "1 already entered" in director.get(url).content.decode()
    for _n in range(300):
        refused(match, "K7QF")
    refused(match, "3MNP", "stale")
    for _n in range(40):
        refused(match, "3MNP", "resent")
    with CaptureQueriesContext(connection) as flooded:
        page = html_module.unescape(director.get(url).content.decode())
    assert len(flooded) == len(one), [q["sql"] for q in flooded.captured_queries]
    assert "301 already entered, 1 against an old score" in page
    # The rows the board reads: the latest EVENTS_KEPT of each kind, never the flood.
    kept = PhoneEvent.objects.filter(match=match).values_list("kind").annotate(n=Count("pk"))
    assert dict(kept) == {"taken": devices.EVENTS_KEPT, "stale": 1, "resent": devices.EVENTS_KEPT}
    row = board_of(match)
    assert (row.taken, row.stale, row.resent) == (301, 1, 40)
    # The latest refusals were K7QF's then 3MNP's: still seen as two phones at once.
    assert row.clash is not None and row.clash.codes == ("K7QF", "3MNP")


def test_the_migration_counts_the_events_there_were_and_keeps_the_latest():
    migration = importlib.import_module("scoring.migrations.0007_phone_tallies")
    # The models as they were then (scoring's: tables 0001 moved them, on the same tables).
    loader = MigrationLoader(connection)
    apps = loader.project_state(("scoring", "0007_phone_tallies")).apps
    match, other = ready_match(), ready_match()
    for n in range(migration.KEPT + 10):
        PhoneEvent.objects.create(match=match, device="K7QF", kind="taken")
        if n < 3:
            PhoneEvent.objects.create(match=match, device="3MNP", kind="stale")
    PhoneEvent.objects.create(match=other, device="3MNP", kind="resent")
    taken = PhoneEvent.objects.filter(match=match, kind="taken").order_by("-pk")
    latest = list(taken.values_list("pk", flat=True))[: migration.KEPT]
    migration.tally_and_trim(apps, None)
    assert list(taken.values_list("pk", flat=True)) == latest
    assert PhoneEvent.objects.filter(match=match, kind="stale").count() == 3
    assert PhoneEvent.objects.filter(match=other).count() == 1
    assert sorted(PhoneTally.objects.values_list("match_id", "kind", "count")) == sorted(
        [(match.pk, "stale", 3), (match.pk, "taken", migration.KEPT + 10), (other.pk, "resent", 1)]
    )
