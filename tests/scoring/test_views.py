"""The match sheet and hand entry over HTTP: pages, fragments, table links, permissions."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.loading import HandData
from scoring.models import Hand
from tables import access
from tests.factories import make_director, make_user
from tournaments.models import AuditEntry, Match

from .helpers import gin, hidden_fields, knock, play, post_data, ready_match, win_games

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def sheet_url(match, name="match-sheet", **kwargs):
    return reverse(
        name if ":" in name else f"scoring:{name}",
        kwargs={"slug": match.tournament.slug, "match_id": match.pk, **kwargs},
    )


def table_url(match, name="match-sheet", **kwargs):
    return reverse(f"scoring:table-{name}", kwargs={"token": match.token, **kwargs})


def test_public_page_shows_hands_and_no_form(client):
    match = ready_match()
    play(match, [knock("A", 2, 30), gin("B", 10)])
    response = client.get(sheet_url(match))
    assert response.status_code == 200
    html = response.content.decode()
    assert match.side_name("A") in html and "+28" in html and "+35" in html
    assert 'id="match-entry"' in html and "Save hand" not in html
    assert response["Vary"].count("HX-Request") == 1 or "HX-Request" in response["Vary"]
    assert "@" not in html.split("<main")[1]  # no e-mail addresses on public pages


def test_sheet_fragment(client):
    match = ready_match()
    response = client.get(sheet_url(match), **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="match-sheet"')
    assert "<html" not in html


def test_director_enters_a_hand_without_javascript(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "hand-create"), post_data(1, knock("A", 3, 20)))
    assert response.status_code == 302
    assert Hand.objects.get(match=match).deadwood == 3
    page = client.get(response["Location"]).content.decode()
    assert "Hand 1 saved." in page and "Enter hand 2" in page


def test_htmx_entry_returns_the_entry_region_and_triggers_the_sheet(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "hand-create"), post_data(1, gin("B", 7)), **HTMX)
    assert response.status_code == 200
    assert json.loads(response["HX-Trigger"]) == {"hand-recorded": {}}
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="match-entry"')
    assert "Enter hand 2" in html


def test_engine_errors_show_next_to_the_field(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "hand-create"), post_data(1, knock(deadwood=11)))
    assert response.status_code == 400
    assert "over the knock limit of 10" in response.content.decode()
    assert not Hand.objects.exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_first_hand_records_nothing_not_even_the_dealer(client, htmx):
    # The view and the service share one transaction: a refusal must leave no write
    # behind, although the view goes on to render the form with the error.
    match = ready_match()
    client.force_login(match.tournament.owner)
    data = {**post_data(1, knock(deadwood=11)), "first_dealer": "B"}
    response = client.post(sheet_url(match, "hand-create"), data, **(HTMX if htmx else {}))
    assert "over the knock limit of 10" in response.content.decode()
    match.refresh_from_db()
    assert match.first_dealer == ""
    assert match.status == Match.Status.READY
    assert not Hand.objects.exists()
    assert not AuditEntry.objects.filter(action="hand entered").exists()
    assert match.tournament.__class__.objects.get(pk=match.tournament_id).rules_locked_at is None


def test_double_submission_answers_already_entered(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    url = sheet_url(match, "hand-create")
    client.post(url, post_data(1, knock()), **HTMX)
    response = client.post(url, post_data(1, knock()), **HTMX)
    assert "Hand 1 is already entered." in response.content.decode()
    assert Hand.objects.filter(match=match).count() == 1


def test_preview_shows_points_before_saving(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "hand-preview"), post_data(1, gin("A", 20)), **HTMX)
    assert "Scores 45 for" in response.content.decode()
    assert not Hand.objects.exists()
    # Without JavaScript the "Show points" button does the same on the full page.
    data = {**post_data(1, gin("A", 20)), "preview": "1"}
    response = client.post(sheet_url(match, "hand-create"), data)
    assert "Scores 45 for" in response.content.decode()
    assert not Hand.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "other-director", "other-scorekeeper"])
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("hand-create", {}),
        ("hand-edit", {"number": 1}),
        ("hand-delete", {"number": 1}),
        ("match-confirm", {}),
        ("tables:table-link", {}),
    ],
)
def test_writes_are_refused_to_outsiders(client, who, name, kwargs):
    match = ready_match()
    play(match, [knock()])
    if who == "other-director":
        client.force_login(make_director())
    elif who == "other-scorekeeper":
        other = ready_match()
        keeper = make_user()
        other.tournament.scorekeepers.add(keeper)
        client.force_login(keeper)
    token = match.token
    response = client.post(sheet_url(match, name, **kwargs), {**post_data(1, gin()), "confirm": 1})
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.token == token and not match.token_revoked
    assert list(Hand.objects.values_list("kind", flat=True)) == ["knock"]


def test_scorekeeper_of_the_tournament_may_enter(client):
    match = ready_match()
    keeper = make_user()
    match.tournament.scorekeepers.add(keeper)
    client.force_login(keeper)
    response = client.post(sheet_url(match, "hand-create"), post_data(1, knock()))
    assert response.status_code == 302
    assert Hand.objects.count() == 1


# Table links ------------------------------------------------------------------------------


def test_table_link_enters_hands_without_an_account(client):
    match = ready_match()
    response = client.get(table_url(match))
    assert "Save hand" in response.content.decode()
    response = client.post(table_url(match, "hand-create"), post_data(1, knock()))
    assert response.status_code == 302 and response["Location"] == table_url(match)
    hand = Hand.objects.get()
    assert hand.entered_by is None and "table link" in hand.entered_via


def test_table_link_losing_side_confirms_and_the_link_closes(client):
    match = ready_match()
    play(match, win_games("A", 3))
    page = client.get(table_url(match)).content.decode()
    assert f"I, {match.side_name('B')}, confirm the result" in page
    confirm = table_url(match, "match-confirm")
    response = client.post(confirm, hidden_fields(page, confirm))
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    assert response["Location"] == sheet_url(match)
    assert client.get(table_url(match)).status_code == 410
    assert client.post(table_url(match, "hand-create"), post_data(10, knock())).status_code == 410


def test_revoked_table_link_is_refused(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    client.post(sheet_url(match, "tables:table-link"), {"action": "revoke"})
    client.logout()
    assert client.get(table_url(match)).status_code == 410
    assert client.post(table_url(match, "hand-create"), post_data(1, knock())).status_code == 410
    assert not Hand.objects.exists()


def test_renewed_table_link_kills_the_old_one(client):
    match = ready_match()
    old = match.token
    client.force_login(match.tournament.owner)
    client.post(sheet_url(match, "tables:table-link"), {"action": "renew"})
    match.refresh_from_db()
    assert match.token != old and len(match.token) >= 22
    client.logout()
    assert (
        client.get(reverse("scoring:table-match-sheet", kwargs={"token": old})).status_code == 404
    )
    assert client.get(table_url(match)).status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"action": ""},
        {"action": "REVOKE"},
        {"action": "delete"},
        {"action": "revoke "},
        {"action": ["revoke", "renew"]},
    ],
    ids=["missing", "empty", "upper-case", "unknown", "trailing-space", "two-actions"],
)
def test_bad_table_link_action_is_a_400_and_changes_nothing(client, body):
    match = ready_match()
    token, audit_rows = match.token, AuditEntry.objects.count()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "tables:table-link"), body)
    assert response.status_code == 400
    message = "Choose either “Switch off table link” or “Issue a new table link”."
    assert message in response.content.decode()
    match.refresh_from_db()
    assert match.token == token and not match.token_revoked
    assert AuditEntry.objects.count() == audit_rows
    assert message not in client.get(sheet_url(match)).content.decode()  # shown once
    assert client.get(table_url(match)).status_code == 200


def test_a_table_link_opens_its_own_match_only(client):
    match, other = ready_match(), ready_match()
    # The token grants nothing on another match's URLs, nor on director pages.
    response = client.post(
        sheet_url(other, "hand-create"), post_data(1, knock()), HTTP_REFERER=table_url(match)
    )
    assert response.status_code == 403
    client.get(table_url(match))
    assert (
        client.post(sheet_url(other, "tables:table-link"), {"action": "revoke"}).status_code == 403
    )
    assert client.post(sheet_url(match, "match-confirm")).status_code == 403
    assert not Hand.objects.exists()


def test_guessing_tokens_is_rate_limited(client):
    from django.core.cache import cache

    cache.clear()
    for i in range(20):
        assert client.get(f"/table/{'x' * 30}{i}/").status_code == 404
    assert client.get("/table/also-wrong-but-long-enough/").status_code == 429
    cache.clear()


def test_director_can_correct_a_complete_match_players_cannot(client):
    match = ready_match()
    play(match, win_games("A", 3))
    from scoring.services import confirm_result

    confirm_result(match=match)
    keeper = make_user()
    match.tournament.scorekeepers.add(keeper)
    client.force_login(keeper)
    assert client.post(sheet_url(match, "hand-delete", number=1)).status_code == 403
    client.force_login(match.tournament.owner)
    response = client.get(sheet_url(match, "hand-edit", number=1))
    assert response.status_code == 200


def test_edit_needs_a_confirmation_step(client):
    match = ready_match()
    play(match, [knock("A", 2, 30)])
    client.force_login(match.tournament.owner)
    url = sheet_url(match, "hand-edit", number=1)
    shown = hidden_fields(client.get(url).content.decode(), url)
    response = client.post(url, {**shown, **post_data(1, knock("A", 2, 40))})
    assert "Yes, save the correction" in response.content.decode()
    assert Hand.objects.get().defender_deadwood == 30
    shown = hidden_fields(response.content.decode(), url)
    response = client.post(url, {**shown, **post_data(1, knock("A", 2, 40)), "confirm": "1"})
    assert response.status_code == 302
    assert Hand.objects.get().defender_deadwood == 40


def test_the_corrections_preview_stands_apart_from_the_card_picker(client):
    """ "Hand 1 will become…" is a box of its own before the form, not the last thing in
    the form's box under "Count from the cards"; its button still sends the form."""
    match = ready_match()
    play(match, [knock("A", 2, 30)])
    client.force_login(match.tournament.owner)
    url = sheet_url(match, "hand-edit", number=1)
    shown = hidden_fields(client.get(url).content.decode(), url)
    html = client.post(url, {**shown, **post_data(1, knock("A", 2, 40))}).content.decode()
    box = html.index('class="confirm-box')
    form = html.index('class="hand-form"')
    assert box < form and "will become" in html[box:form]
    button = re.search(r'<button type="submit" name="confirm" value="1"[^>]*>', html).group(0)
    form_id = re.search(r'<form id="([^"]+)"[^>]*class="hand-form"', html).group(1)
    assert f'form="{form_id}"' in button


def test_delete_asks_first(client):
    match = ready_match()
    play(match, [knock(), gin()])
    client.force_login(match.tournament.owner)
    url = sheet_url(match, "hand-delete", number=1)
    page = client.get(url).content.decode()
    assert "Delete hand 1?" in page
    assert Hand.objects.count() == 2
    assert client.post(url, hidden_fields(page, url)).status_code == 302
    assert Hand.objects.count() == 1


def test_unknown_hand_and_match_are_404(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    assert client.get(sheet_url(match, "hand-edit", number=5)).status_code == 404
    assert client.get(f"/t/{match.tournament.slug}/matches/999999/").status_code == 404
    assert client.get(f"/t/no-such-thing/matches/{match.pk}/").status_code == 404


def test_garbage_form_input_is_a_message_not_a_500(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    for data in (
        {"number": "x", "kind": "knock"},
        {"number": 1, "kind": "fold", "by": "Z"},
        {"number": 1, "kind": "knock", "by": "A", "deadwood": "-5", "defender_deadwood": "1e9"},
        {},
    ):
        response = client.post(sheet_url(match, "hand-create"), data)
        assert response.status_code == 400
    assert not Hand.objects.exists()


# Query counts -----------------------------------------------------------------------------


def count_queries(callable_):
    with CaptureQueriesContext(connection) as captured:
        callable_()
    return len(captured)


def test_hand_entry_and_page_use_constant_queries(client):
    match = ready_match(preset="tournament", rules={"game_target": 5000})
    client.force_login(match.tournament.owner)
    url = sheet_url(match, "hand-create")
    play(match, [knock("A", 1, 3)] * 5)
    entry_5 = count_queries(lambda: client.post(url, post_data(6, knock("A", 1, 3)), **HTMX))
    page_6 = count_queries(lambda: client.get(sheet_url(match)))
    play(match, [knock("B", 1, 3)] * 44)
    entry_50 = count_queries(lambda: client.post(url, post_data(51, knock("A", 1, 3)), **HTMX))
    page_51 = count_queries(lambda: client.get(sheet_url(match)))
    assert Hand.objects.count() == 51
    assert entry_5 == entry_50
    assert page_6 == page_51


@pytest.mark.django_db(transaction=True)  # as in production: the view's BEGIN is outermost
def test_hand_entry_reads_the_match_row_once_and_takes_no_savepoint(client):
    # The look-up locks the row the service then writes (SQLite: BEGIN IMMEDIATE; on
    # PostgreSQL SELECT … FOR UPDATE OF the match).
    match = ready_match()
    client.force_login(match.tournament.owner)
    play(match, [knock("A", 1, 3)] * 2)
    with CaptureQueriesContext(connection) as captured:
        response = client.post(sheet_url(match, "hand-create"), post_data(3, knock()), **HTMX)
    assert response.status_code == 200 and Hand.objects.filter(match=match).count() == 3
    sql = [query["sql"] for query in captured]
    match_reads = [q for q in sql if q.startswith("SELECT") and 'FROM "tournaments_match"' in q]
    assert len(match_reads) == 1, match_reads
    # One read per table: nothing the look-up leaves out (access.ENTRY_FIELDS) is loaded
    # afterwards, field by field.
    read = sorted(re.search(r'FROM "(\w+)"', q)[1] for q in sql if q.startswith("SELECT"))
    assert read == ["auth_user", "django_session", "scoring_hand", "tournaments_match"]
    # The look-up's queryset is never filled with one request's rows.
    assert access._matches(True)._result_cache is None
    assert not [q for q in sql if "SAVEPOINT" in q]
    if connection.vendor == "postgresql":
        assert match_reads[0].endswith('FOR UPDATE OF "tournaments_match"')


def test_footer_totals_match_the_engine(client):
    match = ready_match()
    play(match, [knock("A", 2, 30), knock("A", 2, 20), gin("B", 10)])
    html = client.get(sheet_url(match), **HTMX).content.decode()
    points_row = html.split("Points</th>")[1].split("</tr>")[0]
    assert '<td class="num">46</td><td class="num">35</td>' in points_row


def test_first_hand_asks_who_dealt_and_the_sheet_shows_the_deal(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    page = client.get(sheet_url(match)).content.decode()
    assert "Who dealt the first hand?" in page
    data = {**post_data(1, knock("A", 2, 30)), "first_dealer": "B"}
    client.post(sheet_url(match, "hand-create"), data)
    match.refresh_from_db()
    assert match.first_dealer == "B"
    page = client.get(sheet_url(match)).content.decode()
    assert "Who dealt the first hand?" not in page
    assert f"dealt by {match.side_name('B')}" in page
    assert f"Next deal: {match.side_name('A')}" in page


def test_oklahoma_entry_takes_the_knock_card(client):
    match = ready_match(preset="oklahoma")
    client.force_login(match.tournament.owner)
    page = client.get(sheet_url(match)).content.decode()
    assert 'name="knock_card"' in page and "7♠" in page
    url = sheet_url(match, "hand-create")
    missing = client.post(url, post_data(1, knock("A", 5, 19)))
    assert "Pick the knock card." in missing.content.decode()
    client.post(url, post_data(1, knock("A", 5, 19, knock_card="7S")))
    hand = Hand.objects.get()
    assert hand.knock_card == "7S"
    page = client.get(sheet_url(match)).content.decode()
    assert "+28" in page and "spades ×2" in page


def test_repeating_the_deciding_hand_says_already_entered(client):
    match = ready_match(preset="modern")
    client.force_login(match.tournament.owner)
    url = sheet_url(match, "hand-create")
    client.post(url, post_data(1, gin("A", 98)), **HTMX)  # 123: game and match
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING
    response = client.post(url, post_data(1, gin("A", 98)), **HTMX)
    assert "Hand 1 is already entered." in response.content.decode()
    assert Hand.objects.filter(match=match).count() == 1


@pytest.mark.parametrize("kind", ["gin", "big_gin"])
def test_a_gin_with_knocker_deadwood_is_refused_not_silently_dropped(client, kind):
    """score_sheet refuses such a hand; the form must say so too, next to the field."""
    match = ready_match()
    client.force_login(match.tournament.owner)
    hand = HandData(kind, "A", 7, 20)
    response = client.post(sheet_url(match, "hand-create"), post_data(1, hand))
    assert response.status_code == 400  # the form again, with the engine's reason
    assert "has no knocker deadwood (it must be 0 or left out)" in response.content.decode()
    assert not Hand.objects.filter(match=match).exists()
    # 0 or nothing is a gin as usual.
    zero = post_data(1, HandData(kind, "A", 0, 20))
    assert client.post(sheet_url(match, "hand-create"), zero).status_code == 302
    assert Hand.objects.get(match=match).deadwood is None
