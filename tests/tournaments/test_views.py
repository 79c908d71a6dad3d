"""The director's screens through the test client: each htmx view as a full page and as a
fragment, POST flows with and without htmx, and bad input that changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import (
    finish_match,
    make_bracket,
    make_entries,
    make_player,
    make_tournament,
    make_user,
)
from tests.factories import (
    tournament_url as url,
)
from tournaments import services
from tournaments.models import AuditEntry, Entry, Match, Player, Tournament

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def fragment_of(response, element_id):
    body = response.content.decode()
    return "<html" not in body and f'id="{element_id}"' in body.split(">", 1)[0]


def is_page(response):
    return "<html" in response.content.decode()


# -- page and fragment for every htmx view ----------------------------------------------------


def started_tournament(owner):
    t = make_bracket(players=6, owner=owner, tables=2, third_place=True)
    finish_match(Match.objects.get(tournament=t, key="W1-2"))
    match = Match.objects.get(tournament=t, key="W1-4")
    services.set_match_progress(
        match=match,
        score_a=0,
        score_b=2,
        total_a=80,
        total_b=300,
        decided_winner="B",
        has_hands=True,
    )
    return t


HTMX_PAGES = [
    ("entry-list", "entry-list", {}),
    ("entry-list", "registry-results", {"target": "registry-results", "q": "zed"}),
    ("bracket", "bracket-view", {}),
    ("round-control", "round-control", {}),
    ("accounts:roles", "role-list", {}),
    ("audit-log", "audit-list", {}),
]


# Searching the registry to add players only exists while the field is open.
PAGE_CASES = [
    (*p, generated)
    for generated in (False, True)
    for p in HTMX_PAGES
    if not (generated and p[1] == "registry-results")
]


@pytest.mark.parametrize(
    ("name", "element", "query", "generated"),
    PAGE_CASES,
    ids=[f"{c[1]}-{'running' if c[3] else 'before-bracket'}" for c in PAGE_CASES],
)
def test_page_and_fragment(client, director, name, element, query, generated):
    if generated:
        t = started_tournament(director)
    else:
        t = make_tournament(owner=director)
        make_entries(tournament=t, count=5)
    make_player(name="Zed Registry")
    page = client.get(url(name, t), query)
    assert page.status_code == 200 and is_page(page)
    assert f'id="{element}"' in page.content.decode()
    fragment = client.get(url(name, t), query, **HTMX)
    assert fragment.status_code == 200
    assert fragment_of(fragment, element), fragment.content.decode()[:300]
    for response in (page, fragment):
        assert "HX-Request" in response["Vary"]


def test_dashboard_lists_my_tournaments_only(client, director):
    mine = make_tournament(owner=director, name="Mine")
    shared = make_tournament(name="Shared", co_directors=(director,))
    make_tournament(name="Someone else's")
    body = client.get(reverse("tournaments:dashboard")).content.decode()
    assert mine.name in body and shared.name in body and "Someone else" not in body


def test_dashboard_for_a_scorekeeper(client):
    keeper = make_user()
    t = make_tournament(name="Kept", scorekeepers=(keeper,))
    client.force_login(keeper)
    body = client.get(reverse("tournaments:dashboard")).content.decode()
    assert t.name in body and "New tournament" not in body


def test_dashboard_needs_login(client):
    response = client.get(reverse("tournaments:dashboard"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_home_lists_public_tournaments_without_personal_data(client):
    t = make_tournament(name="Open Day", venue="Hall")
    make_tournament(name="Secret draft", status=Tournament.Status.DRAFT)
    Entry.objects.create(
        tournament=t, player=make_player(name="Pat", email="pat@example.com", phone="555-1")
    )
    body = client.get("/").content.decode()
    assert "Open Day" in body and "Secret draft" not in body
    assert "pat@example.com" not in body and "555-1" not in body


# -- registration -----------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_add_from_registry_check_in_pay_seed(client, director, htmx):
    t = make_tournament(owner=director)
    ana = make_player(name="Ana", rating=1500)
    headers = HTMX if htmx else {}
    response = client.post(url("entry-add", t), {"player": ana.pk}, **headers)
    if htmx:
        assert fragment_of(response, "entry-list")
        assert "entries-changed" in response["HX-Trigger"]
    else:
        assert response.status_code == 302
    entry = Entry.objects.get(tournament=t, player=ana)
    client.post(
        url("entry-flag", t, entry_id=entry.pk, field="checked_in"), {"value": "1"}, **headers
    )
    client.post(url("entry-flag", t, entry_id=entry.pk, field="paid"), {"value": "1"}, **headers)
    client.post(url("entry-seed", t, entry_id=entry.pk), {"seed": "4"}, **headers)
    entry.refresh_from_db()
    assert (entry.checked_in, entry.paid, entry.seed) == (True, True, 4)
    client.post(url("entry-flag", t, entry_id=entry.pk, field="paid"), {"value": "0"}, **headers)
    entry.refresh_from_db()
    assert not entry.paid
    actions = set(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert {"entry added", "entry checked in", "entry paid", "seed changed"} <= actions


def test_entering_twice_is_refused_with_a_message(client, director):
    t = make_tournament(owner=director)
    ana = make_player(name="Ana")
    client.post(url("entry-add", t), {"player": ana.pk})
    response = client.post(url("entry-add", t), {"player": ana.pk}, **HTMX)
    assert "Ana is already entered" in response.content.decode()
    assert Entry.objects.filter(tournament=t).count() == 1
    response = client.post(url("entry-add", t), {"player": "9999"}, follow=True)
    assert "Choose a player from the registry" in response.content.decode()


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_new_player_is_registered_and_entered(client, director, htmx):
    t = make_tournament(owner=director)
    headers = HTMX if htmx else {}
    response = client.post(
        url("entry-new", t), {"new-name": "Brand New", "new-rating": "1400"}, **headers
    )
    assert Entry.objects.get(tournament=t).player.name == "Brand New"
    if htmx:
        assert fragment_of(response, "new-player")
        assert "player-registered" in response["HX-Trigger"]
    else:
        assert response.status_code == 302
    bad = client.post(url("entry-new", t), {"new-name": "", "new-email": "nope"}, **headers)
    assert bad.status_code == 200
    assert "Enter a valid email address" in bad.content.decode()
    assert Player.objects.count() == 1


def test_seed_swap_and_bad_seed(client, director):
    t = make_tournament(owner=director)
    first, second = make_entries(tournament=t, count=2)
    client.post(url("entry-seed", t, entry_id=second.pk), {"seed": "1"})
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.seed, second.seed) == (2, 1)
    response = client.post(url("entry-seed", t, entry_id=first.pk), {"seed": "-3"}, **HTMX)
    assert "whole number" in response.content.decode()
    first.refresh_from_db()
    assert first.seed == 2


def test_seed_by_rating(client, director):
    t = make_tournament(owner=director)
    for name, rating in [("Low", 1000), ("None", None), ("High", 1800), ("Mid", 1400)]:
        Entry.objects.create(tournament=t, player=make_player(name=name, rating=rating))
    client.post(url("entry-seed-by-rating", t))
    seeds = dict(Entry.objects.filter(tournament=t).values_list("player__name", "seed"))
    assert seeds == {"High": 1, "Mid": 2, "Low": 3, "None": 4}


def test_withdraw_reinstate_remove_before_the_bracket(client, director):
    t = make_tournament(owner=director)
    first, second = make_entries(tournament=t, count=2)
    client.post(url("entry-withdraw", t, entry_id=first.pk))
    first.refresh_from_db()
    assert first.withdrawn
    response = client.post(
        url("entry-flag", t, entry_id=first.pk, field="checked_in"), {"value": "1"}, follow=True
    )
    assert "cannot check in" in response.content.decode()
    client.post(url("entry-reinstate", t, entry_id=first.pk))
    first.refresh_from_db()
    assert not first.withdrawn
    client.post(url("entry-remove", t, entry_id=second.pk))
    assert list(Entry.objects.filter(tournament=t)) == [first]


def test_late_entries_close_when_the_bracket_is_generated(client, director):
    t = make_bracket(players=4, owner=director)
    late = make_player(name="Late")
    response = client.post(url("entry-add", t), {"player": late.pk}, follow=True)
    assert "the field is closed" in response.content.decode()
    assert not Entry.objects.filter(player=late).exists()
    entry = Entry.objects.filter(tournament=t).first()
    response = client.post(url("entry-remove", t, entry_id=entry.pk), **HTMX)
    assert "the field is closed" in response.content.decode()
    assert Entry.objects.filter(tournament=t).count() == 4


def test_unknown_flag_is_refused(client, director):
    t = make_tournament(owner=director)
    (entry,) = make_entries(tournament=t, count=1)
    response = client.post(
        url("entry-flag", t, entry_id=entry.pk, field="withdrawn"), {"value": "1"}, follow=True
    )
    assert "Unknown flag" in response.content.decode()
    entry.refresh_from_db()
    assert not entry.withdrawn


def test_withdrawal_after_generation_gives_walkovers(client, director):
    t = make_bracket(players=4, owner=director)
    top = Entry.objects.get(tournament=t, seed=1)
    client.post(url("entry-withdraw", t, entry_id=top.pk))
    match = Match.objects.get(tournament=t, key="W1-1")
    assert match.status == Match.Status.COMPLETE and match.forfeit and match.winner.seed == 4


# -- bracket ----------------------------------------------------------------------------------


def test_preview_then_generate(client, director):
    t = make_tournament(owner=director, tables=2)
    make_entries(tournament=t, count=5)
    page = client.get(url("bracket", t)).content.decode()
    assert "Preview" in page and "Nothing is saved" in page
    assert Match.objects.filter(tournament=t).count() == 0
    response = client.post(url("bracket-generate", t))
    assert response.status_code == 302 and response["Location"] == url("round-control", t)
    assert Match.objects.filter(tournament=t).count() == 7
    again = client.post(url("bracket-generate", t), follow=True)
    assert "already been generated" in again.content.decode()
    assert Match.objects.filter(tournament=t).count() == 7


def test_preview_explains_why_it_cannot_generate(client, director):
    t = make_tournament(owner=director)
    make_entries(tournament=t, count=1)
    body = client.get(url("bracket", t)).content.decode()
    assert "at least two players" in body
    response = client.post(url("bracket-generate", t), follow=True)
    assert "at least two players" in response.content.decode()
    assert not Match.objects.filter(tournament=t).exists()


def test_clear_bracket(client, director):
    t = make_bracket(players=4, owner=director)
    client.post(url("bracket-clear", t))
    assert not Match.objects.filter(tournament=t).exists()
    assert client.post(url("bracket-clear", t), follow=True).status_code == 200


# -- round control ----------------------------------------------------------------------------


def test_round_control_says_which_tables_are_still_playing(client, director):
    t = make_bracket(players=8, owner=director, tables=3)
    finish_match(Match.objects.get(tournament=t, table=2))
    body = client.get(url("round-control", t)).content.decode()
    # Table 2 went to the queued fourth match; 1, 2 and 3 are still playing.
    assert "Waiting on tables 1, 2 and 3" in body
    assert "1 of 4 complete" in body


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_confirm_and_walkover_from_round_control(client, director, htmx):
    t = make_bracket(players=4, owner=director)
    headers = HTMX if htmx else {}
    first = Match.objects.get(tournament=t, key="W1-1")
    services.set_match_progress(
        match=first,
        score_a=2,
        score_b=0,
        total_a=400,
        total_b=100,
        decided_winner="A",
        has_hands=True,
    )
    version = {"version": first.version}  # what round control shows
    response = client.post(url("match-confirm", t, match_id=first.pk), version, **headers)
    if htmx:
        assert fragment_of(response, "round-control")
        assert "confirmed" in response.content.decode()
    first.refresh_from_db()
    assert first.status == Match.Status.COMPLETE
    second = Match.objects.get(tournament=t, key="W1-2")
    walkover = {"winner_side": "B", "version": second.version, "confirmed": "1"}
    client.post(url("match-walkover", t, match_id=second.pk), walkover, **headers)
    second.refresh_from_db()
    assert second.forfeit and second.winner_side == "B"
    final = Match.objects.get(tournament=t, key="W2-1")
    assert final.status == Match.Status.READY
    # Confirming a match that is not awaiting confirmation is refused with a message.
    response = client.post(
        url("match-confirm", t, match_id=final.pk),
        {"version": final.version},
        follow=not htmx,
        **headers,
    )
    assert "awaiting confirmation" in response.content.decode()
    bad = client.post(
        url("match-walkover", t, match_id=final.pk),
        {"winner_side": "Z"},
        follow=not htmx,
        **headers,
    )
    assert "Choose who wins" in bad.content.decode()
    final.refresh_from_db()
    assert final.status == Match.Status.READY


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_a_walkover_is_chosen_then_confirmed_by_the_winners_name(client, director, htmx):
    t = make_bracket(players=4, owner=director)
    match = Match.objects.get(tournament=t, key="W1-2")
    # Nobody is preselected: one click on "Walkover" awards nothing.
    page_html = client.get(url("round-control", t)).content.decode()
    select = page_html[page_html.index(f'id="wo-{match.pk}"') :]
    select = select[: select.index("</select>")]
    assert "selected" not in select and '<option value="">' in select
    headers = HTMX if htmx else {}
    choice = {"winner_side": "B", "version": match.version}
    response = client.post(url("match-walkover", t, match_id=match.pk), choice, **headers)
    html = response.content.decode()
    if htmx:
        assert fragment_of(response, "round-control")
    assert f"Award the walkover to {match.name_b}?" in html
    assert 'name="confirmed" value="1"' in html and 'hx-trigger="every 15s"' not in html
    match.refresh_from_db()
    assert match.status == Match.Status.READY and not match.forfeit
    client.post(
        url("match-walkover", t, match_id=match.pk), {**choice, "confirmed": "1"}, **headers
    )
    match.refresh_from_db()
    assert match.forfeit and match.winner_side == "B"


def test_assign_tables_button(client, director):
    t = make_bracket(players=8, owner=director, tables=2)
    Tournament.objects.filter(pk=t.pk).update(tables=4)
    response = client.post(url("tables-assign", t), **HTMX)
    assert "2 matches given a table" in response.content.decode()
    assert Match.objects.filter(tournament=t, table__isnull=False).count() == 4


# -- audit log --------------------------------------------------------------------------------


def test_audit_log_shows_who_did_what(client, director):
    t = make_bracket(players=4, owner=director)
    body = client.get(url("audit-log", t)).content.decode()
    assert "bracket generated" in body and director.username in body
    filtered = client.get(url("audit-log", t), {"action": "nothing-like-this"}, **HTMX)
    assert "Nothing recorded yet" in filtered.content.decode()


# -- admin ------------------------------------------------------------------------------------


def test_admin_pages_for_every_model(client):
    admin = make_user(is_superuser=True, is_staff=True)
    t = make_bracket(players=4)
    client.force_login(admin)
    for model in ("player", "tournament", "entry", "match", "auditentry"):
        assert client.get(f"/admin/tournaments/{model}/").status_code == 200, model
    match = Match.objects.filter(tournament=t).first()
    assert client.get(f"/admin/tournaments/match/{match.pk}/change/").status_code == 200
    assert client.get(f"/admin/tournaments/tournament/{t.pk}/change/").status_code == 200
    assert client.get("/admin/tournaments/player/add/").status_code == 200


# -- hostile input ----------------------------------------------------------------------------

HUGE = str(10**30)


def test_hostile_input_gets_an_answer_not_a_500(client, director):
    t = make_bracket(players=4, owner=director)
    s = t.slug
    setup = {
        "name": "x",
        "date": "2030-01-01",
        "page_size": "A4",
        "language": "en",
        "bracket_kind": "round_robin",
    }
    cases = [
        ("post", f"/t/{s}/manage/entries/add/", {"player": HUGE, "seed": HUGE}),
        ("post", f"/t/{s}/manage/roles/remove/", {"user": HUGE, "role": "scorekeeper"}),
        ("post", f"/t/{s}/manage/entries/{HUGE}/seed/", {"seed": "2"}),
        ("post", f"/t/{s}/manage/matches/{HUGE}/confirm/", {}),
        ("get", f"/director/players/{HUGE}/edit/", {}),
        ("get", f"/director/players/?page={HUGE}", {}),
        ("get", f"/t/{s}/manage/audit/?page=abc", {}),
        ("post", "/director/tournaments/new/", {**setup, "tables": HUGE, "draw_seed": HUGE}),
        ("post", f"/t/{s}/manage/", {**setup, "tables": "3", "draw_seed": "-1", "preset": "?"}),
        ("get", f"/director/rules-summary/?gin_bonus={HUGE}&big_gin_bonus=%00", {}),
        ("post", f"/t/{s}/manage/entries/new/", {"new-name": "A\x00B", "new-rating": HUGE}),
    ]
    before = (Tournament.objects.count(), Entry.objects.count(), Player.objects.count())
    for method, path, data in cases:
        response = getattr(client, method)(path, data)
        assert response.status_code < 500, path
    assert (Tournament.objects.count(), Entry.objects.count(), Player.objects.count()) == before
    t.refresh_from_db()
    assert t.name != "x"


def test_rule_values_are_bounded(client, director):
    from engine import KNOB_RANGES
    from tournaments.forms import TournamentForm

    data = {
        "name": "x",
        "date": "2030-01-01",
        "tables": "4",
        "page_size": "A4",
        "language": "en",
        "bracket_kind": "round_robin",
        "preset": "modern",
    }
    form = TournamentForm(data={**data, "game_target": HUGE, "big_gin_bonus": HUGE})
    assert not form.is_valid()
    assert {"game_target", "big_gin_bonus"} <= set(form.errors)
    form = TournamentForm(data={**data, "game_target": str(KNOB_RANGES["game_target"][1])})
    assert form.is_valid(), form.errors
