"""Calling the director from a table link (issue 32): the table's form, the call on Round
control ("On my way", "Close"), the projector's badge, the audit log, who may answer, and
the limits (one open call per table, a few an hour; a closed link calls nobody)."""

from __future__ import annotations

import datetime
import html as html_module

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tables import calls
from tables.models import DirectorCall
from tests.factories import make_director, make_entries, make_match, make_user
from tests.scoring.helpers import hidden_fields, knock, play, ready_match
from tournaments.models import AuditEntry, Match
from web.submissions import FIELD

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def call_url(match) -> str:
    return reverse("tables:table-call-director", kwargs={"token": match.token})


def sheet_url(match) -> str:
    return reverse("scoring:table-match-sheet", kwargs={"token": match.token})


def text(response) -> str:
    return html_module.unescape(response.content.decode())


def call_form(client: Client, match) -> dict[str, str]:
    """The call form's hidden fields, as the table page gives them."""
    page = client.get(sheet_url(match))
    assert page.status_code == 200
    html = page.content.decode()
    region = html[html.index('id="director-call"') :]
    assert 'name="csrfmiddlewaretoken"' in region.split("</form>")[0]
    fields = hidden_fields(html, call_url(match))
    assert FIELD in fields
    return fields


def director_of(match) -> Client:
    client = Client()
    client.force_login(match.tournament.owner)
    return client


def round_control(client: Client, match) -> str:
    response = client.get(reverse("tournaments:round-control", args=[match.tournament.slug]))
    assert response.status_code == 200
    return text(response)


def projector(match) -> str:
    response = Client().get(reverse("public:display", args=[match.tournament.slug]))
    assert response.status_code == 200
    return text(response)


def action(match, call, name: str) -> str:
    return reverse(f"tables:call-{name}", args=[match.tournament.slug, call.pk])


def test_a_call_goes_to_round_control_and_the_projector_then_is_answered_and_closed():
    match = ready_match()
    play(match, [knock("A", 2, 20)])
    phone = Client()
    form = call_form(phone, match)
    sent = phone.post(call_url(match), {**form, "reason": "dispute", "note": "  Knock  at 11? "})
    assert sent.status_code == 302 and sent["Location"].startswith(sheet_url(match))
    page = text(phone.get(sent["Location"]))
    assert "The director has been called." in page
    assert "Sent: the director has been called." in page and "A dispute" in page
    call = DirectorCall.objects.get()
    assert (call.match_id, call.reason, call.note, call.status) == (
        match.pk,
        "dispute",
        "Knock at 11?",
        "open",
    )
    director = director_of(match)
    board = round_control(director, match)
    calls_region = board[board.index('id="director-calls"') : board.index('id="device-board"')]
    assert "Table 1" in calls_region and "A dispute" in calls_region
    assert "“Knock at 11?”" in calls_region and "just now" in calls_region
    assert action(match, call, "answer") in calls_region
    assert "Table 1 calls the director" in projector(match)
    assert match.side_name("A") not in projector(match).split("pj-calls")[1].split("</p>")[0]

    answered = director.post(action(match, call, "answer"))
    assert answered.status_code == 302
    assert answered["Location"] == reverse(
        "tournaments:round-control", args=[match.tournament.slug]
    )
    call.refresh_from_db()
    assert call.status == "answered" and call.answered_at is not None
    assert "The director is coming." in text(phone.get(sheet_url(match)))
    assert "Table 1 calls the director" not in projector(match)
    board = round_control(director, match)
    assert "On your way" in board and action(match, call, "answer") not in board

    closed = director.post(action(match, call, "close"))
    assert closed.status_code == 302
    call.refresh_from_db()
    assert call.status == "closed" and call.closed_at is not None
    assert 'id="director-calls"' not in round_control(director, match)
    page = text(phone.get(sheet_url(match)))
    assert "Your call was closed." in page and call_url(match) in page  # it may call again

    rows = AuditEntry.objects.filter(tournament=match.tournament, action__startswith="director")
    assert list(rows.order_by("pk").values_list("action", "user_id", "via")) == [
        ("director called", None, "table link, table 1"),
        ("director call answered", match.tournament.owner.pk, ""),
        ("director call closed", match.tournament.owner.pk, ""),
    ]
    assert rows.first().after["reason"] == "dispute"
    log = text(director.get(reverse("tournaments:audit-log", args=[match.tournament.slug])))
    assert "director called from the table" in log and "director on the way" in log


def test_the_htmx_call_answers_its_region_and_polls_while_open():
    match = ready_match()
    phone = Client()
    form = call_form(phone, match)
    sent = phone.post(call_url(match), {**form, "reason": "missing"}, **HTMX)
    assert sent.status_code == 200
    region = text(sent)
    assert region.lstrip().startswith('<section id="director-call"')
    assert "Sent: the director has been called." in region and "A missing player" in region
    assert 'hx-trigger="every 20s"' in region
    DirectorCall.objects.update(made_at=timezone.now() - datetime.timedelta(minutes=5))
    polled = phone.get(call_url(match), **HTMX)
    assert "Sent: the director has been called." in text(polled)
    assert "A missing player, 5\xa0minutes ago. Stay at the table." in text(polled)


def test_one_open_call_per_table_and_a_few_an_hour():
    match = ready_match()
    phone, other_phone = Client(), Client()
    first = call_form(phone, match)
    second = call_form(other_phone, match)
    phone.post(call_url(match), {**first, "reason": "phone"})
    again = other_phone.post(call_url(match), {**second, "reason": "other"}, **HTMX)
    assert "The director has been called already." in text(again)
    assert DirectorCall.objects.count() == 1
    director = match.tournament.owner
    calls.close(DirectorCall.objects.get(), user=director)
    for _n in range(calls.CALLS_PER_HOUR - 1):
        call = calls.make(match=match, reason="other", note="", device="", via="")
        calls.close(call, user=director)
    refused = other_phone.post(
        call_url(match), {**call_form(other_phone, match), "reason": "other"}
    )
    assert refused.status_code == 302
    assert "called the director often this hour" in text(other_phone.get(refused["Location"]))
    assert DirectorCall.objects.count() == calls.CALLS_PER_HOUR


def test_a_call_without_a_reason_is_refused_and_writes_nothing():
    match = ready_match()
    phone = Client()
    sent = phone.post(call_url(match), {**call_form(phone, match), "reason": "bored"}, **HTMX)
    assert "Choose why you call the director." in text(sent)
    assert not DirectorCall.objects.exists()


def test_a_closed_or_guessed_link_calls_nobody():
    match = ready_match()
    phone = Client()
    form = call_form(phone, match)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.COMPLETE, winner_side="A")
    closed = phone.post(call_url(match), {**form, "reason": "dispute"})
    assert closed.status_code == 410
    guessed = phone.post(
        reverse("tables:table-call-director", kwargs={"token": "x" * 30}),
        {**form, "reason": "dispute"},
    )
    assert guessed.status_code == 404
    assert not DirectorCall.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="director").exists()


def test_only_the_tournaments_directors_answer_or_close_a_call():
    match = ready_match()
    call = calls.make(match=match, reason="dispute", note="", device="K7QF", via="")
    scorer = make_user()
    match.tournament.scorekeepers.add(scorer)
    for name in ("answer", "close"):
        anonymous = Client().post(action(match, call, name))
        assert anonymous.status_code == 302 and "login" in anonymous["Location"]
        for user in (make_director(), scorer):
            client = Client()
            client.force_login(user)
            assert client.post(action(match, call, name)).status_code == 403
        # The phone at the table is no director either.
        assert Client().get(action(match, call, name)).status_code == 405
    call.refresh_from_db()
    assert call.status == "open"
    # Another tournament's director cannot reach the call through their own tournament.
    other = ready_match()
    client = director_of(other)
    wrong = reverse("tables:call-answer", args=[other.tournament.slug, call.pk])
    assert client.post(wrong).status_code == 404
    call.refresh_from_db()
    assert call.status == "open"


def test_the_projector_names_tables_only_and_each_unanswered_call():
    match = ready_match()
    a, b = make_entries(tournament=match.tournament, count=2)
    other = make_match(tournament=match.tournament, a=a, b=b, table=7)
    calls.make(match=match, reason="dispute", note="Ana cheats", device="", via="")
    calls.make(match=other, reason="phone", note="", device="", via="")
    shown = projector(match)
    badge = shown[shown.index('class="pj-calls"') :].split("</p>")[0]
    assert "Table 1 calls the director" in badge and "Table 7 calls the director" in badge
    assert "Ana" not in badge and "dispute" not in badge.lower()
