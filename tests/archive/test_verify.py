"""verify_tournament: a tournament played through the services agrees with its hands; a
stored summary changed behind the services' back is reported, field by field."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from scoring.models import Hand
from tests.factories import make_bracket
from tournaments import services as tournament_services
from tournaments.models import Match

from .test_archive import play_out, played_tournament

pytestmark = pytest.mark.django_db


def verify(slug: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_tournament", slug, stdout=out, stderr=err)
    except SystemExit as exit_info:
        return exit_info.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def tournament():
    return played_tournament()


def test_a_played_tournament_agrees(tournament):
    count = tournament.matches.count()
    assert verify(tournament.slug) == (0, f"All {count} matches agree with their hands.\n", "")


def test_a_tournament_in_progress_with_a_walkover_agrees():
    tournament = make_bracket(players=6, preset="modern")
    play_out(tournament, limit=1)
    walkover = tournament.matches.filter(status="ready").order_by("pk").first()
    tournament_services.forfeit(match=walkover, winner_side="B", user=tournament.owner)
    assert verify(tournament.slug)[0] == 0


def test_a_tampered_total_is_reported(tournament):
    match = tournament.matches.filter(is_bye=False).order_by("pk").first()
    Match.objects.filter(pk=match.pk).update(total_a=match.total_a + 7)

    status, out, err = verify(tournament.slug)

    assert status == 1 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"{match.key}  total_a: stored {match.total_a + 7}, computed {match.total_a}"
    assert lines[-1] == f"1 difference in 1 of {tournament.matches.count()} matches."


def test_a_tampered_winner_and_status_are_reported(tournament):
    match = tournament.matches.filter(is_bye=False).order_by("pk").last()
    loser = "B" if match.winner_side == "A" else "A"
    Match.objects.filter(pk=match.pk).update(winner_side=loser)
    first = tournament.matches.filter(is_bye=False).order_by("pk").first()
    Match.objects.filter(pk=first.pk).update(status="in_play")

    status, out, _err = verify(tournament.slug)

    assert status == 1
    assert f"{match.key}  winner_side: stored {loser}, computed {match.winner_side}" in out
    assert f"{first.key}  status: stored in_play, computed awaiting_confirmation or complete" in out
    # The match the winner went on to now holds somebody else.
    assert f"  side_{match.next_slot.lower()}: should hold the winner of {match.key}" in out
    assert out.splitlines()[-1].startswith("3 differences in 3 of")


def test_a_tampered_hand_is_reported(tournament):
    match = tournament.matches.filter(is_bye=False).order_by("pk").first()
    hand = match.hands.order_by("number").last()  # the deciding hand: never a draw
    Hand.objects.filter(pk=hand.pk).update(by="B" if hand.by == "A" else "A")
    status, out, _err = verify(tournament.slug)
    assert status == 1 and f"{hand.match.key}  total_" in out


def test_hands_the_engine_refuses_are_reported(tournament):
    hand = Hand.objects.filter(match__tournament=tournament, kind="knock").order_by("pk").first()
    Hand.objects.filter(pk=hand.pk).update(deadwood=0)  # "that is gin"
    status, out, _err = verify(tournament.slug)
    assert status == 1
    assert f"{hand.match.key}  hands:" in out and "refused by the engine" in out
    assert f"hand {hand.number}:" in out


def test_a_bye_with_hands_is_reported():
    tournament = make_bracket(players=3, preset="modern")
    bye = tournament.matches.get(is_bye=True)
    Hand.objects.create(match=bye, number=1, kind="draw")
    status, out, _err = verify(tournament.slug)
    assert status == 1 and f"{bye.key}  hands: stored 1" in out


def test_unknown_slug():
    assert verify("nope") == (1, "", "error: there is no tournament with the slug 'nope'\n")
