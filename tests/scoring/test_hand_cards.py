"""Hands entered from their cards keep them: the services store them with the counts the
engine takes from them, corrections carry them, and the archive round trip keeps them."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from archive import api as archive
from engine import ScoringError
from scoring.loading import HandData, sheet_for
from scoring.models import Hand
from scoring.services import correct_hand, record_hand
from scoring.versions import hand_version
from tests.archive.test_archive import export, forget, run_import, write
from tests.factories import make_bracket
from tests.scoring.helpers import knock, named, ready_match
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

KNOCKER = ["5S", "6S", "7S", "2H", "2D", "2C", "AD", "AC", "3H", "4D"]  # deadwood 9
DEFENDER = ["8S", "9S", "KH", "KC", "QD", "QH", "JC", "JD", "4C", "6D"]  # 70 after 8♠ 9♠
CARDS = {"knocker": KNOCKER, "defender": DEFENDER}


def from_cards(by: str = "A", **counts) -> HandData:
    return HandData("knock", by, counts.get("deadwood"), counts.get("defender"), cards=CARDS)


def test_a_hand_from_cards_is_stored_with_its_cards_and_derived_counts():
    match = ready_match()
    sheet = record_hand(match=match, number=1, data=from_cards(deadwood=9, defender=70))
    hand = Hand.objects.get(match=match)
    assert (hand.deadwood, hand.defender_deadwood) == (9, 70)
    assert hand.cards == {"knocker": sorted_cards(KNOCKER), "defender": sorted_cards(DEFENDER)}
    assert sheet.hands[0].score.points == 61
    assert sheet_for(match).hands[0].hand.cards is not None  # loaded back for the engine


def sorted_cards(cards: list[str]) -> list[str]:
    order = {
        f"{r}{s}": i for i, (s, r) in enumerate((s, r) for s in "SHDC" for r in "A23456789TJQK")
    }
    return sorted(cards, key=order.__getitem__)


def test_counts_that_contradict_the_cards_are_refused_and_nothing_is_stored():
    match = ready_match()
    with pytest.raises(ScoringError, match="the cards give the knocker 9 deadwood, not 7"):
        record_hand(match=match, number=1, data=from_cards(deadwood=7, defender=70))
    assert not Hand.objects.filter(match=match).exists()


def test_a_typed_hand_keeps_its_version_digest_and_stores_no_cards():
    match = ready_match()
    record_hand(match=match, number=1, data=knock("A", 3, 20))
    hand = Hand.objects.get(match=match)
    assert hand.cards is None
    before = hand_version(hand)
    hand.cards = CARDS
    assert hand_version(hand) != before  # cards changed: a page showing them is stale


def test_a_correction_adds_and_removes_cards():
    match = ready_match()
    record_hand(match=match, number=1, data=knock("A", 3, 20))
    correct_hand(match=match, **named(match, 1), data=from_cards(deadwood=9, defender=70))
    hand = Hand.objects.get(match=match)
    assert hand.cards is not None and (hand.deadwood, hand.defender_deadwood) == (9, 70)
    correct_hand(match=match, **named(match, 1), data=knock("A", 3, 20))
    hand.refresh_from_db()
    assert hand.cards is None and hand.deadwood == 3


def test_the_archive_round_trip_keeps_the_cards(tmp_path):
    tournament = make_bracket(players=2, preset="modern", name="Cards")
    match = Match.objects.get(tournament=tournament, status="ready")
    record_hand(match=match, number=1, data=from_cards(deadwood=9, defender=70))
    record_hand(match=match, number=2, data=knock("B", 3, 20))
    first = export(tournament)
    hands = json.loads(first)["hands"]
    assert hands[0]["cards"]["knocker"] == sorted_cards(KNOCKER)
    assert "cards" not in hands[1]  # typed: the archive is as it always was
    forget(tournament)

    run_import(write(tmp_path, first))

    again = Tournament.objects.get(name="Cards")
    assert export(again) == first
    stored = Hand.objects.get(match__tournament=again, number=1)
    assert stored.cards["defender"] == sorted_cards(DEFENDER)
    call_command("verify_tournament", again.slug, stdout=io.StringIO())


def test_an_archive_hand_whose_cards_contradict_its_counts_is_refused(tmp_path):
    tournament = make_bracket(players=2, preset="modern", name="Cards")
    match = Match.objects.get(tournament=tournament, status="ready")
    record_hand(match=match, number=1, data=from_cards(deadwood=9, defender=70))
    document = json.loads(export(tournament))
    forget(tournament)
    document["hands"][0]["defender_deadwood"] = 69
    path = write(tmp_path, document)
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("import_tournament", path, stdout=io.StringIO(), stderr=err)
    assert "hand 1: the cards give the defender 70 deadwood after lay-offs, not 69" in (
        err.getvalue()
    )
    document["hands"][0]["defender_deadwood"] = 70
    document["hands"][0]["cards"]["defender"][0] = "AD"  # the knocker holds it too
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("import_tournament", write(tmp_path, document), stderr=err)
    assert "hand 1: card AD is given twice" in err.getvalue()
    assert not Tournament.objects.filter(name="Cards").exists()
    assert archive.HAND_OPTIONAL_FIELDS == ("cards",)
