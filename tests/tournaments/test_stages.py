"""Stages through the services: the worked formats of issue 16, end to end."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from pairing import brackets
from pairing.tiebreaks import Tiebreak
from scoring.loading import HandData
from scoring.services import record_hand
from tests.factories import make_entries, make_tournament
from tournaments import services
from tournaments.models import Match, Stage, Tournament
from tournaments.stages import services as stage_services
from tournaments.stages.results import stage_results

pytestmark = pytest.mark.django_db

ONE_GAME_TO_100 = {"game_target": 100, "games_to_win": 1}
BEST_OF_3_TO_100 = {"game_target": 100, "games_to_win": 2}
BEST_OF_5_TO_100 = {"game_target": 100, "games_to_win": 3}


def make_event(players: int) -> Tournament:
    tournament = make_tournament(status="registration", tables=players // 2)
    make_entries(tournament=tournament, count=players)
    return tournament


def seed_of(tournament: Tournament) -> dict[int, int]:
    return {e.pk: e.seed for e in tournament.entries.all()}


def play(match: Match, winner: str) -> None:
    """Big gins (98 deadwood against) for ``winner`` until the match is decided, confirmed."""
    number = match.hands.count()
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.AWAITING:
            break
        number += 1
        record_hand(match=match, number=number, data=HandData("gin", winner, None, 98))
    services.confirm_match(match=match)


def play_open(tournament: Tournament, stage: Stage, *, upset_every: int = 5) -> int:
    """Play every playable match of ``stage``: the better seed wins, except that every
    ``upset_every``-th match goes the other way. Returns how many were played."""
    seeds = seed_of(tournament)
    played = 0
    while True:
        ready = list(
            Match.objects.filter(stage=stage, status=Match.Status.READY).order_by("round", "pk")
        )
        if not ready:
            return played
        for match in ready:
            match.refresh_from_db()
            if match.status != Match.Status.READY:
                continue
            better = "A" if seeds[match.side_a_id] < seeds[match.side_b_id] else "B"
            upset = (match.pk % upset_every) == 0
            play(match, {"A": "B", "B": "A"}[better] if upset else better)
            played += 1


def champion(tournament: Tournament, stage: Stage) -> int:
    final = Match.objects.filter(stage=stage, next_match__isnull=True).exclude(
        section=Match.Section.THIRD_PLACE
    )
    final = [m for m in final if not m.is_skipped][-1]
    return final.entry_id(final.winner_side)


def test_64_players_8_swiss_rounds_then_top_16_best_of_3_with_a_best_of_5_final(director):
    tournament = make_event(64)
    swiss = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="swiss",
        name="Qualifying",
        rounds=8,
        advance=16,
        rules=ONE_GAME_TO_100,
    )
    knockout = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="single_elimination",
        name="Knockout",
        rules=BEST_OF_3_TO_100,
        round_rules={"4": BEST_OF_5_TO_100},
    )
    stage_services.start(tournament=tournament, user=director)
    met: set[frozenset[int]] = set()
    for round_ in range(1, 9):
        if round_ > 1:
            stage_services.pair_next_round(stage=swiss, user=director)
        pairs = list(Match.objects.filter(stage=swiss, round=round_))
        assert len(pairs) == 32
        seated = [pk for m in pairs for pk in (m.side_a_id, m.side_b_id)]
        assert sorted(seated) == sorted(set(seated)) and len(seated) == 64
        for m in pairs:
            assert frozenset((m.side_a_id, m.side_b_id)) not in met, "an avoidable rematch"
            met.add(frozenset((m.side_a_id, m.side_b_id)))
            assert m.ruleset.games_to_win == 1 and m.ruleset.game_target == 100
        with pytest.raises(ValidationError):
            stage_services.close_stage(stage=swiss, user=director)  # unfinished
        assert play_open(tournament, swiss) == 32
        tournament.refresh_from_db()
        assert tournament.status == Tournament.Status.RUNNING
    with pytest.raises(ValidationError):
        stage_services.pair_next_round(stage=swiss, user=director)

    matches = list(Match.objects.filter(tournament=tournament))
    table = stage_results(swiss, matches).tables[0]
    top16 = [row.player for row in table[:16]]
    assert stage_services.close_stage(stage=swiss, user=director) == knockout
    knockout.refresh_from_db()
    assert knockout.entrants == top16
    ko = list(Match.objects.filter(stage=knockout))
    assert len(ko) == 15
    first = {m.position: m for m in ko if m.round == 1}
    assert (first[1].side_a_id, first[1].side_b_id) == (top16[0], top16[15])
    assert all(m.ruleset.games_to_win == 2 for m in ko if m.round < 4)
    final = next(m for m in ko if m.round == 4)
    assert final.ruleset.games_to_win == 3 and final.ruleset.game_target == 100
    play_open(tournament, knockout)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    final.refresh_from_db()
    assert final.score_a + final.score_b == 3  # a best of five, three straight games
    assert champion(tournament, knockout) in top16


def test_24_players_in_4_pools_of_6_top_2_of_each_into_an_8_player_bracket(director):
    tournament = make_event(24)
    pools = stage_services.add_stage(
        tournament=tournament, user=director, kind="round_robin", pool_size=6, advance=2
    )
    knockout = stage_services.add_stage(
        tournament=tournament, user=director, kind="single_elimination"
    )
    stage_services.start(tournament=tournament, user=director)
    pools.refresh_from_db()
    seeds = seed_of(tournament)
    assert [[seeds[pk] for pk in pool] for pool in pools.pools] == [
        [1, 8, 9, 16, 17, 24],
        [2, 7, 10, 15, 18, 23],
        [3, 6, 11, 14, 19, 22],
        [4, 5, 12, 13, 20, 21],
    ]
    assert Match.objects.filter(stage=pools).count() == 4 * 15
    play_open(tournament, pools, upset_every=7)
    tables = stage_results(pools, list(Match.objects.filter(tournament=tournament))).tables
    winners = {rows[0].player for rows in tables}
    pool_of = {int(pk): n for n, pool in enumerate(pools.pools) for pk in pool}
    stage_services.close_stage(stage=pools, user=director)
    knockout.refresh_from_db()
    assert len(knockout.entrants) == 8
    assert set(knockout.entrants[:4]) == winners
    first = list(Match.objects.filter(stage=knockout, round=1).order_by("position"))
    for m in first:
        assert pool_of[m.side_a_id] != pool_of[m.side_b_id], "pool mates meet at once"
    # The four pool winners are in four different quarters.
    assert sorted(
        next(n for n, m in enumerate(first) if w in (m.side_a_id, m.side_b_id)) for w in winners
    ) == [0, 1, 2, 3]
    play_open(tournament, knockout)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_double_elimination_cuts_final_length_is_the_grand_finals(director):
    # "final" of a double elimination is its grand final (and reset): not the winners'
    # final, and not the losers' round that shares the winners' final's round number.
    tournament = make_event(8)
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", rounds=1, advance=8
    )
    knockout = stage_services.add_stage(
        tournament=tournament,
        user=director,
        kind="double_elimination",
        rules=ONE_GAME_TO_100,
        round_rules={"final": BEST_OF_5_TO_100},
    )
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    assert set(knockout.round_rules) == {"final"}  # kept by that name at the cut
    matches = list(Match.objects.filter(stage=knockout))
    length = {(m.section, m.round): m.ruleset.games_to_win for m in matches}
    finals = {key: games for key, games in length.items() if key[0] in ("final", "reset")}
    assert finals and set(finals.values()) == {3}
    others = {key: games for key, games in length.items() if key not in finals}
    assert ("winners", 3) in others and ("losers", 3) in others
    assert set(others.values()) == {1}
    play_open(tournament, knockout)
    grand_final = Match.objects.get(stage=knockout, section="final")
    assert grand_final.score_a + grand_final.score_b >= 3  # played as a best of five


def test_acc_style_top_quarter_with_byes_to_the_top_qualifiers(director):
    tournament = make_event(20)
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", rounds=4, advance=5
    )
    knockout = stage_services.add_stage(
        tournament=tournament, user=director, kind="single_elimination"
    )
    stage_services.start(tournament=tournament, user=director)
    for round_ in range(1, 5):
        if round_ > 1:
            stage_services.pair_next_round(stage=swiss, user=director)
        play_open(tournament, swiss)
    stage_services.close_stage(stage=swiss, user=director)
    knockout.refresh_from_db()
    ko = list(Match.objects.filter(stage=knockout, round=1).order_by("position"))
    byes = [m for m in ko if m.is_bye]
    # 5 into a bracket of 8: the top three qualifiers have byes.
    assert sorted(m.entry_id(m.winner_side) for m in byes) == sorted(knockout.entrants[:3])
    play_open(tournament, knockout)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_drops_late_entries_and_a_walkover_between_rounds(director):
    tournament = make_event(8)
    swiss = stage_services.add_stage(tournament=tournament, user=director, kind="swiss", rounds=3)
    stage_services.start(tournament=tournament, user=director)
    round_one = list(Match.objects.filter(stage=swiss, round=1))
    no_show = round_one[0]
    services.forfeit(match=no_show, winner_side="A", user=director)
    play_open(tournament, swiss)
    dropped = tournament.entries.get(seed=8)
    services.withdraw(entry=dropped, user=director)
    late = make_entries(tournament=tournament, count=1)[0]
    round_two = stage_services.pair_next_round(stage=swiss, user=director)
    seated = {pk for m in round_two for pk in (m.side_a_id, m.side_b_id)}
    assert late.pk in seated and dropped.pk not in seated
    assert len(round_two) == 4  # 8 players again: no bye
    swiss.refresh_from_db()
    table = stage_results(swiss, list(Match.objects.filter(stage=swiss))).tables[0]
    assert {row.player for row in table} >= {late.pk, dropped.pk}


def test_same_seed_same_pairings(director):
    def run(seed: int) -> list[tuple[int | None, int | None]]:
        tournament = make_event(10)
        swiss = stage_services.add_stage(
            tournament=tournament, user=director, kind="swiss", rounds=2
        )
        Stage.objects.filter(pk=swiss.pk).update(pairing_seed=seed)
        stage_services.start(tournament=tournament, user=director)
        play_open(tournament, swiss)
        stage_services.pair_next_round(stage=swiss, user=director)
        seeds = seed_of(tournament)
        return [
            (seeds.get(m.side_a_id), seeds.get(m.side_b_id))
            for m in Match.objects.filter(stage=swiss).order_by("round", "position")
        ]

    assert run(7) == run(7)


def test_stage_rules_lock_with_the_first_hand_and_bad_settings_are_refused(director):
    tournament = make_event(4)
    with pytest.raises(ValidationError):
        stage_services.add_stage(tournament=tournament, user=director, kind="swiss")  # no rounds
    with pytest.raises(ValidationError):
        stage_services.add_stage(
            tournament=tournament, user=director, kind="swiss", rounds=2, tiebreaks=["luck"]
        )
    with pytest.raises(ValidationError):
        stage_services.add_stage(
            tournament=tournament,
            user=director,
            kind="swiss",
            rounds=2,
            rules={"game_target": 0},
        )
    assert not tournament.stages.exists()
    swiss = stage_services.add_stage(
        tournament=tournament, user=director, kind="swiss", rounds=2, rules=ONE_GAME_TO_100
    )
    stage_services.start(tournament=tournament, user=director)
    match = Match.objects.filter(stage=swiss, status="ready").first()
    record_hand(match=match, number=1, data=HandData("knock", "A", 2, 30))
    swiss.refresh_from_db()
    assert swiss.rules_locked_at is not None


def test_a_one_bracket_tournament_cannot_add_stages_after_its_draw(director):
    from tournaments.draw import generate_bracket

    tournament = make_event(4)
    generate_bracket(tournament=tournament, user=director)
    with pytest.raises(ValidationError):
        stage_services.add_stage(tournament=tournament, user=director, kind="swiss", rounds=2)


def test_lucky_loser_replaces_a_no_show_in_the_knockout(director):
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
    match = Match.objects.filter(stage=knockout, round=1).first()
    outsider = tournament.entries.exclude(pk__in=knockout.entrants).first()
    stage_services.lucky_loser(match=match, side="B", entry=outsider, user=director)
    match.refresh_from_db()
    assert match.side_b_id == outsider.pk
    inside = tournament.entries.get(pk=knockout.entrants[0])
    with pytest.raises(ValidationError):
        stage_services.lucky_loser(match=match, side="A", entry=inside, user=director)
    assert brackets.MIN_PLAYERS == 2


def test_a_late_entry_through_registration_between_swiss_rounds(director):
    from tournaments import registration
    from tournaments.models import Player

    tournament = make_event(6)
    swiss = stage_services.add_stage(tournament=tournament, user=director, kind="swiss", rounds=2)
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    late = registration.add_entry(
        tournament=tournament, player=Player.objects.create(name="Late Comer"), user=director
    )
    round_two = stage_services.pair_next_round(stage=swiss, user=director)
    assert late.pk in {pk for m in round_two for pk in (m.side_a_id, m.side_b_id)}
    assert any(m.is_bye for m in round_two)  # seven players now


def test_a_late_entry_joins_with_the_points_the_director_gives(director):
    from tournaments import registration
    from tournaments.models import Player

    tournament = make_event(7)
    swiss = stage_services.add_stage(tournament=tournament, user=director, kind="swiss", rounds=3)
    stage_services.start(tournament=tournament, user=director)
    play_open(tournament, swiss)
    late = registration.add_entry(
        tournament=tournament, player=Player.objects.create(name="Late Comer"), user=director
    )
    with pytest.raises(ValidationError):
        stage_services.set_start_points(
            stage=swiss, entry=late, points=2, user=director
        )  # 1 played
    stage_services.set_start_points(stage=swiss, entry=late, points=1, user=director)
    swiss.refresh_from_db()
    table = stage_results(swiss, list(Match.objects.filter(stage=swiss))).tables[0]
    row = next(r for r in table if r.player == late.pk)
    assert row.won == 1 and row.value(Tiebreak.MATCH_POINTS) == 1
    round_two = stage_services.pair_next_round(stage=swiss, user=director)
    # Eight players, five on one point (the late entry among them), three on none: no
    # bye, and exactly one pair across the two score groups.
    points = {r.player: r.won for r in table}
    assert all(m.has_both_sides for m in round_two) and len(round_two) == 4
    assert sum(points[m.side_a_id] != points[m.side_b_id] for m in round_two) == 1
