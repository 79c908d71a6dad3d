"""Entering a hand from its cards (no JavaScript: plain checkboxes), the picker on the
match and table pages, and the director's dispute page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Hand
from tests.factories import make_director, make_user
from tournaments.models import AuditEntry

from .helpers import knock, play, ready_match
from .test_views import HTMX, sheet_url, table_url

pytestmark = pytest.mark.django_db

# 5-6-7♠ and three 2s (deadwood 9); the defender lays off 8♠ then 9♠ and keeps 70.
KNOCKER = ["5S", "6S", "7S", "2H", "2D", "2C", "AD", "AC", "3H", "4D"]
DEFENDER = ["8S", "9S", "KH", "KC", "QD", "QH", "JC", "JD", "4C", "6D"]
GIN = ["5S", "6S", "7S", "9H", "9D", "9C", "2D", "3D", "4D", "5D"]
GIN_DEFENDER = ["8S", "4S", "9S", "TD", "KH", "KC", "QC", "JD", "AS", "AH"]  # 73


def cards_post(number=1, by="A", knocker=KNOCKER, defender=DEFENDER, **typed):
    return {
        "number": number,
        "by": by,
        "knocker_cards": knocker,
        "defender_cards": defender,
        **typed,
    }


def test_the_picker_is_on_the_match_page_closed_and_without_script_needs(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    html = client.get(sheet_url(match)).content.decode()
    assert '<details class="card-picker">' in html  # collapsed: typed entry stays as quick
    assert html.count('type="checkbox" name="knocker_cards"') == 52
    assert html.count('type="checkbox" name="defender_cards"') == 52
    assert 'value="TH"' in html and "10♥" in html
    assert "js/cards.js" in html


def test_a_hand_from_cards_without_javascript_saves_the_derived_counts_and_the_cards(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "hand-create"), cards_post())
    assert response.status_code == 302, response.content.decode()[:2000]
    hand = Hand.objects.get(match=match)
    assert (hand.kind, hand.by, hand.deadwood, hand.defender_deadwood) == ("knock", "A", 9, 70)
    assert sorted(hand.cards["knocker"]) == sorted(KNOCKER)
    assert sorted(hand.cards["defender"]) == sorted(DEFENDER)
    entered = AuditEntry.objects.get(action="hand entered")
    assert entered.after["cards"] == hand.cards
    page = client.get(sheet_url(match)).content.decode()
    assert "+61" in page


def test_gin_from_cards_from_the_table_link(client):
    match = ready_match()
    response = client.post(
        table_url(match, "hand-create"), cards_post(by="B", knocker=GIN, defender=GIN_DEFENDER)
    )
    assert response.status_code == 302
    hand = Hand.objects.get(match=match)
    assert (hand.kind, hand.by, hand.deadwood, hand.defender_deadwood) == ("gin", "B", None, 73)


def test_typed_counts_that_disagree_with_the_cards_are_refused_before_saving(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(
        sheet_url(match, "hand-create"),
        cards_post(kind="knock", deadwood="7", defender_deadwood="70"),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The cards give the knocker 9 deadwood, not 7." in html
    assert not Hand.objects.exists()
    # the cards stay ticked and the picker open, the ruling shown
    assert '<details class="card-picker" open>' in html
    assert 'name="knocker_cards" value="5S" checked' in html
    assert 'class="ruling"' in html and "8♠" in html


def test_the_preview_shows_the_melds_and_lay_offs_and_the_points(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "hand-preview"), cards_post(), **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="hand-preview"')
    ruling = re.search(r'<div class="ruling"[^>]*>', html).group(0)
    assert 'data-kind="knock"' in ruling and 'data-deadwood="9"' in ruling
    assert 'data-defender-deadwood="70"' in ruling
    assert "laid off" in html and "Scores 61" in html
    assert not Hand.objects.exists()


def test_the_preview_with_too_few_cards_says_how_many(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(
        sheet_url(match, "hand-preview"), cards_post(knocker=KNOCKER[:7]), **HTMX
    )
    html = response.content.decode()
    assert "Cards picked: 7 of 10 for the player who went out, 10 of 10" in html
    assert "preview-error" not in html
    saved = client.post(sheet_url(match, "hand-create"), cards_post(knocker=KNOCKER[:7]))
    assert "The knocker has 7 cards" in saved.content.decode()


@pytest.mark.parametrize(
    ("post", "message"),
    [
        pytest.param(
            cards_post(knocker=GIN, defender=GIN_DEFENDER, kind="knock"),
            "that is gin, not a knock",
            id="gin-as-knock",
        ),
        pytest.param(cards_post(kind="draw"), "A dead hand has no cards", id="draw"),
        pytest.param(cards_post(defender=[]), "The defender has 0 cards", id="one-hand"),
        pytest.param(cards_post(defender=[*DEFENDER[:9], "5S"]), "5S is given twice", id="dup"),
        pytest.param(cards_post(knocker=[*KNOCKER[:9], "ZZ"]), "ZZ is not a card", id="bad"),
    ],
)
def test_bad_cards_are_refused_with_a_message_and_nothing_saved(client, post, message):
    match = ready_match()
    client.force_login(match.tournament.owner)
    response = client.post(sheet_url(match, "hand-create"), post)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Hand.objects.exists()


def test_typed_entry_still_works_without_cards(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    post = {"number": 1, "kind": "knock", "by": "A", "deadwood": 3, "defender_deadwood": 20}
    assert client.post(sheet_url(match, "hand-create"), post).status_code == 302
    assert Hand.objects.get().cards is None
    missing = client.post(sheet_url(match, "hand-create"), {"number": 2, "by": "A"})
    assert "Say how the hand ended." in missing.content.decode()


def test_correcting_a_hand_shows_its_cards_ticked(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    client.post(sheet_url(match, "hand-create"), cards_post())
    page = client.get(sheet_url(match, "hand-edit", number=1)).content.decode()
    assert '<details class="card-picker" open>' in page
    assert 'name="defender_cards" value="8S" checked' in page
    assert 'name="knocker_cards" value="8S"' in page and "pick taken" in page


# -- the dispute page --------------------------------------------------------------------------


def dispute_url(tournament) -> str:
    return reverse("scoring:dispute", kwargs={"slug": tournament.slug})


def test_the_dispute_page_is_for_the_tournaments_directors_only(client):
    match = ready_match()
    tournament = match.tournament
    url = dispute_url(tournament)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    client.force_login(make_director())
    assert client.get(url).status_code == 403
    client.force_login(make_user())
    assert client.get(url).status_code == 403
    tournament.scorekeepers.add(keeper := make_user())
    client.force_login(keeper)
    assert client.get(url).status_code == 403
    client.force_login(tournament.owner)
    page = client.get(url)
    assert page.status_code == 200
    assert client.post(url).status_code == 405
    match_page = client.get(sheet_url(match)).content.decode()
    assert url in match_page  # linked from the director's box on the match page


def test_the_dispute_page_rules_on_the_cards(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    query = {"knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    html = client.get(dispute_url(match.tournament), query).content.decode()
    assert "A legal knock: deadwood 9, knock limit 10." in html
    assert "knock: 61 points to the player who went out" in html
    assert '<span class="pc pc-H">2♥</span>' in html  # drawn, red hearts with the symbol
    assert "laid off" in html and "deadwood 70 after lay-offs" in html
    assert Hand.objects.count() == 0


def test_the_dispute_page_finds_an_illegal_knock_and_an_undercut(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    over = ["5S", "6S", "7S", "2H", "2D", "2C", "KD", "QC", "3H", "4D"]
    html = client.get(
        dispute_url(match.tournament), {"knocker_cards": over, "defender_cards": DEFENDER}
    ).content.decode()
    assert "Not a legal knock:" in html and "over the knock limit of 10" in html
    # the defender undercuts: 9 against 9 - 0 (ties go to the defender under these rules)
    low = ["8S", "9S", "TS", "KH", "KD", "KC", "AH", "4C", "3C", "AS"]
    html = client.get(
        dispute_url(match.tournament), {"knocker_cards": KNOCKER, "defender_cards": low}
    ).content.decode()
    assert "undercut:" in html and "points to the opponent" in html


def test_the_dispute_page_under_straight_gin_and_with_gin(client):
    match = ready_match(preset="straight")
    client.force_login(match.tournament.owner)
    query = {"knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    html = client.get(dispute_url(match.tournament), query).content.decode()
    assert "knocking is not allowed under straight gin rules" in html
    query = {"knocker_cards": GIN, "defender_cards": GIN_DEFENDER}
    html = client.get(dispute_url(match.tournament), query).content.decode()
    assert "gin: 98 points to the player who went out" in html
    assert "no lay-offs on gin" in html


def test_the_dispute_page_refuses_a_card_in_both_hands(client):
    match = ready_match()
    client.force_login(match.tournament.owner)
    query = {"knocker_cards": KNOCKER, "defender_cards": [*DEFENDER[:9], "AC"]}
    html = client.get(dispute_url(match.tournament), query).content.decode()
    assert "card AC is given twice" in html and "Ruling" not in html.split("</form>")[1]


def test_play_is_unchanged_for_matches_with_typed_hands(client):
    match = ready_match()
    play(match, [knock("A", 3, 20)])
    client.force_login(match.tournament.owner)
    html = client.get(sheet_url(match)).content.decode()
    assert "+17" in html
