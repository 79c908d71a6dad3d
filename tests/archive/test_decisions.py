"""Decisions that are not hands (issue 28): a match decided on time, a director's ruling on
a level match, a walkover, a lucky loser, a bye. Each is stored as an audited fact (what,
by whom, when, on what basis) that verify_tournament replays with the match's hands and
the archive carries; a decision the hands contradict is reported."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from scoring import timing
from scoring.loading import HandData
from scoring.services import record_hand
from tests.tournaments.test_stages import make_event, play_open
from tournaments import services as tournament_services
from tournaments.models import Decision, Match, Stage, Tournament
from tournaments.stages import services as stage_services

from .test_archive import export, forget, run_import, write
from .test_verify import verify

pytestmark = pytest.mark.django_db

TO_100 = {"game_target": 100, "games_to_win": 1}


def knock(by: str, deadwood: int, defender: int) -> HandData:
    return HandData("knock", by, deadwood, defender)


def swiss_round(director, players: int = 7, **fields) -> tuple[Tournament, Stage, list[Match]]:
    """A Swiss first stage of ``players`` (a bye when odd) with its first round paired;
    the played matches in table order."""
    tournament = make_event(players)
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", rounds=2, rules=TO_100, **fields
    )
    stage_services.start(tournament=tournament, user=director)
    played = list(Match.objects.filter(stage=swiss, is_bye=False, round=1).order_by("position"))
    return tournament, swiss, played


def differences(tournament: Tournament, key: str) -> list[str]:
    status, out, _err = verify(tournament.slug)
    assert status == 1, out
    return [line for line in out.splitlines() if line.startswith(f"{key} ")]


# -- on time ---------------------------------------------------------------------------------


def test_a_match_decided_on_time_agrees_with_its_hands_and_its_decision(director):
    tournament, swiss, (leading, *_rest) = swiss_round(director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    leading.refresh_from_db()
    assert leading.status == "complete" and leading.winner_side == "B"

    decision = Decision.objects.get(match=leading)
    assert decision.kind == Decision.Kind.TIME and decision.side == "B"
    assert decision.decided_by == director and decision.at is not None
    assert decision.hands == 1
    # The basis: the procedure and the score at the call, as time_leader read it.
    assert decision.basis == {
        "procedure": "leader",
        "extra_hands": 0,
        "hands_at_call": 1,
        "games": [0, 0],
        "game_points": [0, 28],
        "points": [0, 0],  # the match's total counts finished games
    }
    assert verify(tournament.slug)[0] == 0


def test_a_time_win_for_the_side_that_trails_is_reported(director):
    tournament, swiss, (leading, *_rest) = swiss_round(director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    # Behind the services' back: A, who trails by 28 points, is made the winner on time.
    Match.objects.filter(pk=leading.pk).update(winner_side="A")
    Decision.objects.filter(match=leading).update(side="A")

    found = differences(tournament, leading.key)

    assert found == [f"{leading.key}  decision: stored on time for A, computed B leads on time"]


def test_the_score_at_the_call_must_be_what_the_hands_say(director):
    tournament, swiss, (leading, *_rest) = swiss_round(director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    decision = Decision.objects.get(match=leading)
    Decision.objects.filter(pk=decision.pk).update(basis={**decision.basis, "game_points": [0, 50]})

    found = differences(tournament, leading.key)

    assert found == [f"{leading.key}  decision basis game_points: stored [0, 50], computed [0, 28]"]


def test_a_match_decided_on_time_without_a_recorded_decision_is_replayed_from_its_hands(
    director,
):
    """An archive from before decisions were stored: the leader on all its hands."""
    tournament, swiss, (leading, *_rest) = swiss_round(director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    Decision.objects.filter(match=leading).delete()
    assert verify(tournament.slug)[0] == 0

    Match.objects.filter(pk=leading.pk).update(winner_side="A")
    assert differences(tournament, leading.key) == [
        f"{leading.key}  winner_side: stored A, computed B (on time)"
    ]


# -- a director's ruling on a level match ----------------------------------------------------


def test_a_level_match_is_ruled_by_the_director_and_verifies(director):
    tournament, swiss, (_leading, level, *_rest) = swiss_round(director)
    record_hand(match=level, number=1, data=knock("A", 2, 12))
    record_hand(match=level, number=2, data=knock("B", 2, 12))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    report = timing.decide(stage=swiss, user=director)
    assert level.pk in {m.pk for m in report.level}

    timing.rule_level(match=level, winner_side="B", user=director, reason="a cut of the cards")

    level.refresh_from_db()
    assert level.status == "complete" and level.winner_side == "B" and level.decided_on_time
    decision = Decision.objects.get(match=level)
    assert decision.kind == Decision.Kind.RULING and decision.side == "B"
    assert decision.decided_by == director and decision.hands == 2
    assert decision.basis["reason"] == "a cut of the cards"
    assert decision.basis["game_points"] == [10, 10]
    row = tournament.audit_entries.get(action="ruling", object_id=str(level.pk))
    assert row.user == director and row.after["winner_side"] == "B"
    assert row.after["reason"] == "a cut of the cards"  # the audit log says why
    assert verify(tournament.slug)[0] == 0


def test_a_level_match_with_no_hands_ruled_by_the_director_verifies(director):
    """Time called before a table played a hand: 0–0 in the current game at the call, as
    the verifier replays it (the event simulator found it stored as no current game)."""
    tournament, swiss, (_leading, level, *_rest) = swiss_round(director)
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    timing.rule_level(match=level, winner_side="A", user=director, reason="no hand played")
    decision = Decision.objects.get(match=level)
    assert decision.hands == 0
    assert (decision.basis["games"], decision.basis["game_points"]) == ([0, 0], [0, 0])
    assert verify(tournament.slug)[0] == 0


def test_a_ruling_is_refused_when_a_side_leads_or_before_time_is_called(director):
    from django.core.exceptions import ValidationError

    _tournament, swiss, (leading, level, *_rest) = swiss_round(director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    with pytest.raises(ValidationError, match="Call time"):
        timing.rule_level(match=level, winner_side="A", user=director)
    timing.call_time(stage=swiss, procedure="extra_hands", extra_hands=1, user=director)
    with pytest.raises(ValidationError, match="extra hands"):
        timing.rule_level(match=leading, winner_side="A", user=director)
    record_hand(match=leading, number=2, data=knock("B", 3, 20))
    with pytest.raises(ValidationError, match="leads on time"):
        timing.rule_level(match=leading, winner_side="A", user=director)
    with pytest.raises(ValidationError):
        timing.rule_level(match=level, winner_side="C", user=director)
    leading.refresh_from_db()
    assert leading.status == "in_play"
    assert not Decision.objects.exclude(kind="bye").exists()  # the bye is the only one


def test_a_ruling_on_a_match_where_one_side_leads_is_reported(director):
    tournament, swiss, (leading, *_rest) = swiss_round(director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    Decision.objects.filter(match=leading).update(kind=Decision.Kind.RULING)

    assert differences(tournament, leading.key) == [
        f"{leading.key}  decision: stored a ruling on a level match for B, computed B leads on time"
    ]


# -- walkovers, lucky losers, byes -----------------------------------------------------------


def test_a_walkover_is_a_decision_with_who_and_why(director):
    tournament, _swiss, (first, second, *_rest) = swiss_round(director)
    record_hand(match=first, number=1, data=knock("A", 2, 30))
    tournament_services.forfeit(match=first, winner_side="B", user=director)
    decision = Decision.objects.get(match=first)
    assert (decision.kind, decision.side) == ("walkover", "B")
    assert decision.decided_by == director and decision.basis == {"reason": "walkover"}

    loser = second.side_a
    tournament_services.withdraw(entry=loser, user=director)
    decision = Decision.objects.get(match=second)
    assert (decision.kind, decision.side, decision.entry_id) == ("walkover", "B", loser.pk)
    assert decision.basis == {"reason": "withdrawal"}
    assert verify(tournament.slug)[0] == 0

    Decision.objects.filter(match=first).update(side="A")
    assert differences(tournament, first.key) == [
        f"{first.key}  decision: stored walkover for A, computed the match's winner is B"
    ]


def test_a_reopened_walkover_takes_its_decision_back(director):
    _tournament, _swiss, (first, *_rest) = swiss_round(director)
    tournament_services.forfeit(match=first, winner_side="B", user=director)
    tournament_services.reopen_match(match=first, user=director)
    assert not Decision.objects.filter(match=first).exists()
    first.refresh_from_db()
    assert not first.forfeit and first.status == "awaiting_confirmation"


def test_a_hand_corrected_after_a_decision_on_time_takes_the_decision_back(director):
    from scoring.services import correct_hand
    from tests.scoring.helpers import named

    tournament, swiss, (leading, *_rest) = swiss_round(director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    leading.refresh_from_db()

    correct_hand(match=leading, **named(leading, 1), data=knock("B", 2, 40), user=director)

    leading.refresh_from_db()
    assert (leading.status, leading.winner_side, leading.decided_on_time) == ("in_play", "", False)
    assert not Decision.objects.filter(match=leading).exists()
    assert verify(tournament.slug)[0] == 0


def test_a_bye_is_a_decision_of_the_pairing(director):
    tournament, swiss, _played = swiss_round(director)
    bye = Match.objects.get(stage=swiss, round=1, is_bye=True)
    decision = Decision.objects.get(match=bye)
    assert (decision.kind, decision.side) == ("bye", bye.winner_side)
    assert decision.entry_id == bye.entry_id(bye.winner_side)
    assert decision.decided_by == director
    assert verify(tournament.slug)[0] == 0

    other = tournament.entries.exclude(pk=decision.entry_id).first()
    Decision.objects.filter(pk=decision.pk).update(entry=other)
    assert differences(tournament, bye.key) == [
        f"{bye.key}  decision: stored a bye for {other.player.name}, "
        f"computed {bye.entry(bye.winner_side).player.name} has the bye"
    ]


def lucky_event(director) -> tuple[Tournament, Stage, Match]:
    tournament = make_event(8)
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", rounds=1, advance=4
    )
    knockout = stage_services.add_stage(
        tournament=tournament, user=director, kind="single_elimination"
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    return tournament, knockout, Match.objects.filter(stage=knockout, round=1).first()


def test_a_lucky_loser_is_a_decision_naming_who_came_in_for_whom(director):
    tournament, knockout, match = lucky_event(director)
    replaced = match.side_b
    outsider = tournament.entries.exclude(pk__in=knockout.entrants).first()
    stage_services.lucky_loser(match=match, side="B", entry=outsider, user=director)

    decision = Decision.objects.get(match=match, kind="lucky_loser")
    assert (decision.side, decision.entry, decision.replaced) == ("B", outsider, replaced)
    assert decision.decided_by == director
    assert verify(tournament.slug)[0] == 0

    Decision.objects.filter(pk=decision.pk).update(side="A")
    assert differences(tournament, match.key) == [
        f"{match.key}  decision: stored lucky loser {outsider.player.name} in side A, "
        f"computed side A is {match.side_a.player.name}"
    ]


# -- the archive -----------------------------------------------------------------------------


def staged_event_with_every_decision(director) -> Tournament:
    """7 players: a Swiss of 2 rounds (a bye each round) into a top-4 knockout. Round 1
    has a match decided on time, a level match ruled by the director and a walkover; the
    knockout a lucky loser."""
    tournament, swiss, (leading, level, walkover) = swiss_round(director, advance=4)
    stage_services.add_stage(tournament=tournament, user=director, kind="single_elimination")
    tournament_services.forfeit(match=walkover, winner_side="A", user=director)
    record_hand(match=leading, number=1, data=knock("B", 2, 30))
    record_hand(match=level, number=1, data=knock("A", 2, 12))
    record_hand(match=level, number=2, data=knock("B", 2, 12))
    timing.call_time(stage=swiss, procedure="leader", user=director)
    timing.decide(stage=swiss, user=director)
    timing.rule_level(match=level, winner_side="A", user=director, reason="cut for high card")
    stage_services.pair_next_round(stage=swiss, user=director)
    play_open(tournament, swiss)
    knockout = stage_services.close_stage(stage=swiss, user=director)
    assert knockout is not None
    match = Match.objects.filter(stage=knockout, round=1).order_by("position").first()
    outsider = tournament.entries.exclude(pk__in=knockout.entrants).first()
    stage_services.lucky_loser(match=match, side="B", entry=outsider, user=director)
    play_open(tournament, knockout)
    stage_services.close_stage(stage=knockout, user=director)
    tournament.refresh_from_db()
    return tournament


def test_round_trip_of_a_staged_event_with_every_kind_of_decision(director, tmp_path):
    tournament = staged_event_with_every_decision(director)
    assert tournament.status == "finished"
    kinds = set(Decision.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds == {"time", "ruling", "walkover", "lucky_loser", "bye"}
    assert verify(tournament.slug)[0] == 0
    first = export(tournament)
    document = json.loads(first)
    rows = document["decisions"]
    assert {row["kind"] for row in rows} == kinds
    ruling = next(row for row in rows if row["kind"] == "ruling")
    assert ruling["by"] == director.get_username() and ruling["side"] == "A"
    assert ruling["basis"]["reason"] == "cut for high card"
    assert isinstance(ruling["match"], str) and ruling["at"].endswith("+00:00")
    lucky = next(row for row in rows if row["kind"] == "lucky_loser")
    assert isinstance(lucky["entry"], int) and isinstance(lucky["replaced"], int)
    forget(tournament)
    assert not Decision.objects.exists()

    run_import(write(tmp_path, first))

    again = Tournament.objects.get(slug=document["tournament"]["slug"])
    assert export(again) == first
    assert verify(again.slug)[0] == 0


def test_an_archive_without_decisions_imports_and_verifies_as_before(director, tmp_path):
    """As an archive made before decisions were stored: its time decision, walkover, byes
    and lucky loser are replayed from the hands and the match rows as they always were.
    Only the ruling, which no hand shows, is then a winner the hands cannot give."""
    tournament = staged_event_with_every_decision(director)
    ruled = Decision.objects.get(kind="ruling").match
    document = json.loads(export(tournament))
    document.pop("decisions")
    forget(tournament)

    run_import(write(tmp_path, document))

    again = Tournament.objects.get(slug=document["tournament"]["slug"])
    assert not Decision.objects.exists()
    status, out, _err = verify(again.slug)
    assert (status, out.splitlines()[:-1]) == (
        1,
        [f"{ruled.key}  winner_side: stored A, computed none (level on time)"],
    )
    assert "decisions" not in json.loads(export(again))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"match": "nope"}, "decisions[0].match refers to no match", id="match"),
        pytest.param({"kind": "coin"}, "decisions[0].kind", id="kind"),
        pytest.param({"side": "C"}, "decisions[0].side", id="side"),
        pytest.param({"entry": 999}, "decisions[0].entry refers to no entry", id="entry"),
        pytest.param({"basis": []}, "decisions[0].basis must be an object", id="basis"),
        pytest.param({"hands": -1}, "decisions[0].hands", id="hands"),
    ],
)
def test_a_bad_decision_in_an_archive_is_refused(director, tmp_path, change, message):
    tournament, _swiss, (first, *_rest) = swiss_round(director)
    tournament_services.forfeit(match=first, winner_side="B", user=director)
    document = json.loads(export(tournament))
    document["decisions"].sort(key=lambda row: row["kind"] != "walkover")
    document["decisions"][0].update(change)
    forget(tournament)
    err = io.StringIO()
    with pytest.raises(SystemExit):
        call_command(
            "import_tournament", write(tmp_path, document), stdout=io.StringIO(), stderr=err
        )
    assert message in err.getvalue()
    assert not Tournament.objects.exists()
