"""Recording, correcting and deleting hands: one transaction, derived summaries, refusals."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from engine import ScoringError
from scoring import loading
from scoring.loading import HandData, sheet_for
from scoring.models import Hand
from scoring.services import HandConflict, confirm_result, correct_hand, delete_hand, record_hand
from tournaments.draw import generate_bracket
from tournaments.models import AuditEntry, Match

from .helpers import gin, knock, named, play, ready_match, win_games

pytestmark = pytest.mark.django_db


def test_record_hand_stores_the_row_and_the_summary():
    match = ready_match()
    sheet = record_hand(match=match, number=1, data=knock("A", 2, 30))
    assert sheet.hands[0].score.points == 28
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY
    assert match.started_at is not None
    assert Hand.objects.get(match=match, number=1).defender_deadwood == 30
    assert match.tournament.__class__.objects.get(
        pk=match.tournament_pk if False else match.tournament_id
    ).rules_locked_at
    assert AuditEntry.objects.filter(action="hand entered").count() == 1


def test_a_repeated_hand_number_is_refused_not_doubled():
    match = ready_match()
    record_hand(match=match, number=1, data=knock())
    with pytest.raises(HandConflict, match="Hand 1 is already entered"):
        record_hand(match=match, number=1, data=gin())
    assert Hand.objects.filter(match=match).count() == 1


def test_a_hand_number_from_the_future_is_refused():
    match = ready_match()
    with pytest.raises(HandConflict, match="next hand is 1"):
        record_hand(match=match, number=3, data=knock())
    assert not Hand.objects.exists()


def test_a_hand_the_rules_refuse_changes_nothing():
    match = ready_match()
    with pytest.raises(ScoringError, match="knock limit"):
        record_hand(match=match, number=1, data=knock(deadwood=12))
    match.refresh_from_db()
    assert match.status == Match.Status.READY
    assert not Hand.objects.exists()
    assert match.tournament.rules_locked_at is None


def test_deciding_hand_awaits_confirmation_then_confirm_advances():
    tournament = generate_bracket_for(players=4)
    first = tournament.matches.get(key="W1-1")
    play(first, win_games("A", 3))
    first.refresh_from_db()
    assert first.status == Match.Status.AWAITING
    assert (first.score_a, first.score_b, first.winner_side) == (3, 0, "A")
    assert first.total_a == sheet_for(first).match.total.a
    with pytest.raises(ScoringError, match="already complete"):
        record_hand(match=first, number=10, data=knock())
    confirm_result(match=first)
    first.refresh_from_db()
    assert first.status == Match.Status.COMPLETE
    final = first.next_match
    assert final.entry(first.next_slot) == first.side_a


def test_a_correction_recomputes_and_can_undecide_the_match():
    match = ready_match()
    play(match, win_games("A", 3))
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING
    correct_hand(match=match, **named(match, 9), data=knock("B", 1, 5))
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY
    assert (match.score_a, match.score_b, match.winner_side) == (2, 0, "")
    assert AuditEntry.objects.filter(action="hand corrected").count() == 1


def test_a_correction_that_breaks_a_later_hand_is_refused():
    match = ready_match(preset="modern")  # one game to 100
    play(match, [knock("A", 1, 31), knock("B", 1, 31), knock("A", 1, 31)])
    # As a 123-point gin, hand 1 would end the match, leaving hands 2 and 3 impossible.
    with pytest.raises(ScoringError, match=r"later hand invalid.*hand 2"):
        correct_hand(match=match, **named(match, 1), data=gin("A", 98))
    assert Hand.objects.get(match=match, number=1).kind == "knock"
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PLAY


def test_correcting_into_an_invalid_hand_reports_that_hand():
    match = ready_match()
    play(match, [knock()])
    with pytest.raises(ScoringError) as caught:
        correct_hand(match=match, **named(match, 1), data=knock(deadwood=11))
    assert caught.value.field == "deadwood"
    assert Hand.objects.get(match=match, number=1).deadwood == 2


def test_delete_renumbers_later_hands():
    match = ready_match()
    play(match, [knock("A", 1, 10), knock("B", 1, 20), knock("A", 1, 30)])
    sheet = delete_hand(match=match, **named(match, 1))
    assert [h.score.points for h in sheet.hands] == [19, 29]
    assert list(Hand.objects.filter(match=match).values_list("number", "defender_deadwood")) == [
        (1, 20),
        (2, 30),
    ]
    assert AuditEntry.objects.filter(action="hand deleted").count() == 1


def test_correction_changing_a_winner_whose_next_match_started_is_refused():
    tournament = generate_bracket_for(players=4)
    w1, w2 = tournament.matches.get(key="W1-1"), tournament.matches.get(key="W1-2")
    for match in (w1, w2):
        play(match, win_games("A", 3))
        confirm_result(match=match)
    final = tournament.matches.get(section="winners", round=2)
    play(final, [knock()])
    w1.refresh_from_db()
    with pytest.raises(ValidationError) as caught:
        correct_hand(match=w1, **named(w1, 9), data=knock("B", 1, 5))
    assert final.label in " ".join(caught.value.messages)
    w1.refresh_from_db()
    assert w1.status == Match.Status.COMPLETE and w1.winner_side == "A"
    assert Hand.objects.get(match=w1, number=9).kind == "gin"


def test_correction_keeping_the_winner_of_a_complete_match_updates_totals():
    match = ready_match()
    play(match, win_games("A", 3))
    confirm_result(match=match)
    correct_hand(match=match, **named(match, 1), data=gin("A", 90))
    match.refresh_from_db()
    assert match.status == Match.Status.COMPLETE
    assert match.total_a == sheet_for(match).match.total.a


def test_entering_in_a_match_without_players_is_refused():
    tournament = generate_bracket_for(players=4)
    final = tournament.matches.get(section="winners", round=2)
    with pytest.raises(HandConflict, match="not known yet"):
        record_hand(match=final, number=1, data=knock())


def generate_bracket_for(*, players: int):
    from tests.factories import make_entries, make_tournament

    tournament = make_tournament()
    make_entries(tournament=tournament, count=players)
    generate_bracket(tournament=tournament, user=tournament.owner)
    return tournament


def test_load_inputs_reads_what_the_orm_reads():
    # load_inputs reads plain rows; they must agree with the Hand instances, nulls and
    # knock cards included, in the order of the hands, one match apart from another.
    match = ready_match(preset="oklahoma", rules={"game_target": 5000})
    hands = [knock("A", 3, 40, knock_card="7S"), HandData("gin", "B", None, 12, "KH")] * 3
    hands += [HandData("draw")]
    play(match, hands)
    direct = loading.match_inputs(match)
    assert len(direct) == 7 and direct[6].by is None and direct[1].deadwood is None
    assert loading.match_inputs(ready_match()) == []
    other = ready_match()
    play(other, [HandData("draw")])
    both = loading.load_inputs(match__in=[match.pk, other.pk], stream=True)
    assert both == {match.pk: direct, other.pk: loading.match_inputs(other)}
    assert direct == loading.hand_inputs(Hand.objects.filter(match=match).order_by("number"))
