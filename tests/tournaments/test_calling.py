"""Tables called automatically (the default) or by the director: "Send to table N" on
Round control when the tournament's "call tables automatically" is off (issue 33)."""

from __future__ import annotations

import re

import pytest

from tests.factories import finish_match, make_bracket, make_user
from tests.factories import tournament_url as url
from tournaments.models import AuditEntry, Match, PublicVersion, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def get(t, key):
    return Match.objects.get(tournament=t, key=key)


def version(t):
    return PublicVersion.objects.get(tournament=t).number


def freed_table(director, *, auto_call):
    """Eight players on two tables; W1-1 (table 1) finishes."""
    t = make_bracket(players=8, owner=director, tables=2)
    Tournament.objects.filter(pk=t.pk).update(auto_call=auto_call)
    t.refresh_from_db()
    assert get(t, "W1-1").table == 1 and get(t, "W1-3").table is None
    finish_match(get(t, "W1-1"))
    return t


def test_on_a_free_table_goes_to_the_next_queued_match(director):
    t = freed_table(director, auto_call=True)
    assert get(t, "W1-3").table == 1


def test_off_a_free_table_stays_free_until_the_director_sends_a_match(client, director):
    t = freed_table(director, auto_call=False)
    queued = get(t, "W1-3")
    assert queued.table is None and queued.queued_at is not None
    page = client.get(url("round-control", t)).content.decode()
    assert "Send to table 1" in page
    assert url("match-send", t, match_id=queued.pk) in page
    before = version(t)
    response = client.post(url("match-send", t, match_id=queued.pk), {"table": "1"}, **HTMX)
    assert "sent to table 1" in response.content.decode()
    assert get(t, "W1-3").table == 1
    assert version(t) == before + 1
    entry = AuditEntry.objects.filter(tournament=t, action="sent to table").get()
    assert entry.user == director and entry.after == {"table": 1}
    # The next queued match is offered no table: none is free.
    assert "Send to table" not in client.get(url("round-control", t)).content.decode()


def test_off_the_draw_calls_nobody_and_the_button_still_assigns(client, director):
    t = make_bracket(players=4, owner=director, tables=2, auto_call=False)
    assert not Match.objects.filter(tournament=t, table__isnull=False).exists()
    client.post(url("tables-assign", t))
    assert get(t, "W1-1").table == 1 and get(t, "W1-2").table == 2


@pytest.mark.parametrize(
    ("key", "table", "message"),
    [
        ("W1-3", "2", "Table 2 is not free."),
        ("W1-3", "3", "Table 3 is not free."),
        ("W1-3", "x", "Choose a table."),
        ("W1-2", "1", "is not waiting for a table."),
        ("W2-1", "1", "is not waiting for a table."),
    ],
)
def test_refusals_change_nothing(client, director, key, table, message):
    t = freed_table(director, auto_call=False)
    match = get(t, key)
    tables = dict(Match.objects.filter(tournament=t).values_list("key", "table"))
    before, audits = version(t), AuditEntry.objects.count()
    response = client.post(url("match-send", t, match_id=match.pk), {"table": table}, **HTMX)
    assert message in response.content.decode()
    assert dict(Match.objects.filter(tournament=t).values_list("key", "table")) == tables
    assert version(t) == before and AuditEntry.objects.count() == audits


def test_not_a_director_is_refused(client, director):
    t = freed_table(director, auto_call=False)
    client.force_login(make_user(username="stranger"))
    match = get(t, "W1-3")
    assert client.post(url("match-send", t, match_id=match.pk), {"table": "1"}).status_code == 403
    assert get(t, "W1-3").table is None


def test_turning_it_back_on_calls_the_queue(client, director):
    t = freed_table(director, auto_call=False)
    from tournaments import organising

    organising.update_tournament(tournament=t, data={"auto_call": True}, user=director)
    assert get(t, "W1-3").table == 1


def test_the_setting_is_on_the_setup_form_and_the_button_is_translated(client, director):
    t = freed_table(director, auto_call=False)
    setup = client.get(url("tournament-setup", t)).content.decode()
    assert 'name="auto_call"' in setup and "Call tables automatically" in setup
    assert re.search(r'name="auto_call" value="hand"[^>]* checked', setup)
    client.cookies["django_language"] = "es"
    assert "Enviar a la mesa 1" in client.get(url("round-control", t)).content.decode()


def test_a_form_that_does_not_send_the_setting_keeps_it(client, director):
    """A setup form posted without the choice (a script, an older page) changes nothing of
    it, on a new tournament (on) or an existing one (off stays off); sent, it is obeyed."""
    from tournaments.forms import TournamentForm

    new = TournamentForm(
        data={
            "name": "X",
            "date": "2026-11-28",
            "tables": 4,
            "page_size": "A4",
            "language": "en",
            "preset": "modern",
            "bracket_kind": "single_elimination",
        }
    )
    assert new.is_valid(), new.errors
    assert new.cleaned_data["auto_call"] is True
    t = freed_table(director, auto_call=False)
    kept = TournamentForm(data={"name": t.name}, instance=t)
    kept.is_valid()
    assert kept.cleaned_data["auto_call"] is False
    on = TournamentForm(data={"auto_call": "auto"}, instance=t)
    on.is_valid()
    assert on.cleaned_data["auto_call"] is True
