"""Standings: elimination placings (byes, third place, consolation, double elimination),
round-robin tie-breaks, and per-player statistics from hands entered through the services.

The helpers at the top play whole tournaments through ``record_hand`` and
``confirm_result``; the public view tests use them too.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scoring import services
from scoring.loading import HandData, load_inputs, score_matches
from standings.standings import compute, place_label
from tests.factories import finish_match, make_bracket, make_entries, make_match, make_tournament
from tests.scoring.helpers import gin, knock, play, win_games
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

Winner = Callable[[Match], str]


# -- playing whole tournaments ---------------------------------------------------------------


def normal_game(w: str, other: str) -> list[HandData]:
    """``w`` wins to 250; ``other`` wins one knock: no shutout."""
    return [gin(w), knock(other, 5, 20), gin(w), knock(w, 2, 12)]


def shutout_game(w: str) -> list[HandData]:
    return [gin(w)] * 3


def undercut_game(w: str, other: str) -> list[HandData]:
    """``w`` wins the game: it undercuts ``other``'s knock; ``other`` wins one knock."""
    return [knock(other, 9, 4), knock(other, 3, 13), gin(w), gin(w)]


def full_match(w: str) -> list[HandData]:
    """A 3–1 win for ``w`` with knocks, gins, an undercut and a shutout (15 hands)."""
    o = "B" if w == "A" else "A"
    return [*normal_game(w, o), *undercut_game(o, w), *shutout_game(w), *normal_game(w, o)]


def quick_match(w: str) -> list[HandData]:
    return win_games(w, 3)


def better_seed(match: Match) -> str:
    return "A" if match.side_a.seed < match.side_b.seed else "B"


def playable(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(
            tournament=tournament,
            status__in=[Match.Status.READY, Match.Status.IN_PLAY],
            side_a__isnull=False,
            side_b__isnull=False,
        )
        .select_related("side_a", "side_b", "tournament")
        .order_by("round", "section", "position")
    )


def play_match(match: Match, winner: str, hands: Callable[[str], list[HandData]]) -> None:
    play(match, hands(winner))
    match.refresh_from_db()
    services.confirm_result(match=match)


def play_out(
    tournament: Tournament,
    *,
    winner: Winner = better_seed,
    hands: Callable[[str], list[HandData]] = full_match,
    stop: Callable[[Match], bool] | None = None,
) -> Tournament:
    """Play every match (hand by hand) until none is left, or ``stop(match)`` says so."""
    while matches := playable(tournament):
        for match in matches:
            if stop is not None and stop(match):
                tournament.refresh_from_db()
                return tournament
            play_match(match, winner(match), hands)
    tournament.refresh_from_db()
    return tournament


def standings_of(tournament: Tournament):
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("side_a__player", "side_b__player")
        .order_by("round", "section", "position", "pk")
    )
    inputs = load_inputs(match__tournament=tournament)
    return compute(tournament, matches, score_matches(tournament.ruleset, matches, inputs))


def places(result) -> dict[int | None, str]:
    """seed -> place label."""
    return {row.stats.seed: row.place_label for row in result.rows}


# -- elimination -----------------------------------------------------------------------------


def test_eight_players_single_elimination_placings():
    t = play_out(make_bracket(players=8), hands=quick_match)
    result = standings_of(t)
    assert t.status == Tournament.Status.FINISHED
    assert result.complete and result.champion.seed == 1
    assert [row.place_label for row in result.rows] == ["1", "2", "3–4", "3–4"] + ["5–8"] * 4
    assert places(result)[2] == "2"
    assert {places(result)[s] for s in (3, 4)} == {"3–4"}
    assert result.rows[0].progress == "Champion"
    assert result.rows[1].progress == "Runner-up"
    assert result.rows[2].progress == "Out in: Semifinals"
    assert result.rows[-1].progress == "Out in: Quarterfinals"
    assert [row.place for row in result.rows] == [1, 2, 3, 3, 5, 5, 5, 5]


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (5, ["1", "2", "3–4", "3–4", "5"]),
        (6, ["1", "2", "3–4", "3–4", "5–6", "5–6"]),
        (11, ["1", "2", "3–4", "3–4", *["5–8"] * 4, *["9–11"] * 3]),
    ],
    ids=["five", "six", "eleven"],
)
def test_byes_make_the_place_ranges_fit_the_field(players, expected):
    t = play_out(make_bracket(players=players), hands=quick_match)
    result = standings_of(t)
    assert [row.place_label for row in result.rows] == expected
    assert result.champion.seed == 1
    assert len(result.rows) == players


def test_upsets_place_the_players_by_where_they_went_out():
    def lower_seed(match):
        return "B" if match.side_a.seed < match.side_b.seed else "A"

    t = play_out(make_bracket(players=8), winner=lower_seed, hands=quick_match)
    labels = places(standings_of(t))
    # Seed 8 beats 1, 5 beats 8 … the worst seeds of each pairing win.
    assert labels[1] == "5–8" and labels[2] == "5–8"
    assert sorted(labels.values()) == sorted(["1", "2", "3–4", "3–4"] + ["5–8"] * 4)


def test_third_place_match_decides_three_and_four():
    t = make_bracket(players=8, third_place=True)

    def third_place_pending(match):
        return match.section == Match.Section.THIRD_PLACE

    t = play_out(t, hands=quick_match, stop=third_place_pending)
    result = standings_of(t)
    assert places(result)[3] == places(result)[4] == "3–4"
    assert {row.progress for row in result.rows if row.stats.seed in (3, 4)} == {
        "Plays for third place"
    }
    third = Match.objects.get(tournament=t, section=Match.Section.THIRD_PLACE)
    play_match(third, "B" if third.side_b.seed == 4 else "A", quick_match)  # seed 4 wins
    result = standings_of(t)
    assert places(result)[4] == "3" and places(result)[3] == "4"
    assert [row.stats.seed for row in result.rows[:4]] == [1, 2, 4, 3]
    assert result.rows[2].progress == "Third place"


def test_consolation_results_order_the_first_round_losers():
    t = play_out(make_bracket(players=8, consolation=True), hands=quick_match)
    result = standings_of(t)
    assert [row.place_label for row in result.rows] == ["1", "2", "3–4", "3–4"] + ["5–8"] * 4
    group = [row.stats for row in result.rows if row.place == 5]
    # The consolation winner (two more match wins) heads the 5–8 group.
    assert group[0].matches_won == 2 and group[0].matches_played == 3
    assert [s.matches_won for s in group] == sorted((s.matches_won for s in group), reverse=True)


def test_double_elimination_of_eight_places_every_player():
    t = make_bracket(players=8, bracket_kind=Tournament.BracketKind.DOUBLE_ELIMINATION)
    t = play_out(t, hands=quick_match)
    result = standings_of(t)
    assert t.status == Tournament.Status.FINISHED
    assert [row.place_label for row in result.rows] == [
        "1",
        "2",
        "3",
        "4",
        "5–6",
        "5–6",
        "7–8",
        "7–8",
    ]
    assert result.champion.seed == 1
    assert result.rows[1].progress == "Runner-up"
    assert result.rows[2].progress == "Out in: Losers' final"


def test_double_elimination_bracket_reset_decides_the_title():
    t = make_bracket(players=4, bracket_kind=Tournament.BracketKind.DOUBLE_ELIMINATION)

    def losers_champion_wins_finals(match):
        if match.section in (Match.Section.FINAL, Match.Section.RESET):
            return "B"
        return better_seed(match)

    t = play_out(t, winner=losers_champion_wins_finals, hands=quick_match)
    reset = Match.objects.get(tournament=t, section=Match.Section.RESET)
    assert reset.status == Match.Status.COMPLETE and not reset.is_bye
    result = standings_of(t)
    assert result.complete
    assert [row.place_label for row in result.rows] == ["1", "2", "3", "4"]
    assert result.champion.entry_id == reset.side_b_id


def test_running_bracket_shows_progress_and_no_place_for_players_still_in():
    t = make_bracket(players=8)
    for match in playable(t)[:2]:
        play_match(match, better_seed(match), quick_match)
    in_play = playable(t)[0]
    play(in_play, [gin("A")])
    result = standings_of(t)
    assert not result.complete and result.champion is None
    alive = [row for row in result.rows if row.place is None]
    out = [row for row in result.rows if row.place is not None]
    assert len(alive) == 6 and len(out) == 2
    assert list(result.rows[:6]) == alive  # players still in come first
    assert {row.place_label for row in out} == {"5–8"}
    progress = {row.stats.entry_id: row.progress for row in alive}
    assert progress[in_play.side_a_id].startswith("Playing: Quarterfinals, table")
    assert any(p.startswith("Next: Semifinals") for p in progress.values())


def test_walkovers_and_withdrawals_are_placed_where_they_lost():
    from tournaments.services import forfeit, withdraw

    t = make_bracket(players=4)
    first = playable(t)[0]
    withdraw(entry=first.side_b, user=t.owner)
    forfeit(match=playable(t)[0], winner_side="A", user=t.owner)
    t = play_out(t, hands=quick_match)
    result = standings_of(t)
    assert [row.place_label for row in result.rows] == ["1", "2", "3–4", "3–4"]
    withdrawn = next(row for row in result.rows if row.stats.withdrawn)
    assert withdrawn.progress.endswith("(withdrew)")
    assert withdrawn.stats.matches_played == 1 and withdrawn.stats.matches_won == 0


def test_a_bracket_nobody_has_played_yet():
    result = standings_of(make_bracket(players=4))
    assert not result.complete
    assert all(row.place is None for row in result.rows)
    assert [row.stats.seed for row in result.rows] == [1, 2, 3, 4]


def test_no_matches_no_rows():
    result = standings_of(make_tournament())
    assert result.rows == () and not result.complete


# -- round robin -----------------------------------------------------------------------------


def round_robin(players: int):
    tournament = make_tournament(status="running", bracket_kind=Tournament.BracketKind.ROUND_ROBIN)
    entries = make_entries(tournament=tournament, count=players)
    return tournament, entries


def rr_match(t, a, b, *, winner: str, games=(3, 1), totals=(900, 400)):
    """A stored, confirmed round-robin result (``games``/``totals`` from the winner's side)."""
    m = make_match(tournament=t, a=a, b=b, section=Match.Section.ROUND_ROBIN)
    won, lost = games
    win_total, lose_total = totals
    m.status = Match.Status.COMPLETE
    m.winner_side = winner
    m.score_a, m.score_b = (won, lost) if winner == "A" else (lost, won)
    m.total_a, m.total_b = (win_total, lose_total) if winner == "A" else (lose_total, win_total)
    m.save()
    return m


def test_round_robin_orders_by_match_wins():
    t, (p1, p2, p3) = round_robin(3)
    rr_match(t, p3, p1, winner="A")
    rr_match(t, p3, p2, winner="A")
    rr_match(t, p2, p1, winner="A")
    result = standings_of(t)
    assert [row.stats.seed for row in result.rows] == [3, 2, 1]
    assert [row.place_label for row in result.rows] == ["1", "2", "3"]
    assert result.complete and result.champion.seed == 3
    assert result.rows[0].stats.matches_won == 2


def test_round_robin_head_to_head_breaks_a_two_way_tie():
    t, (p1, p2, p3, p4) = round_robin(4)
    # p1 and p2 both win twice; p2 beat p1, though p1 won more games overall.
    rr_match(t, p2, p1, winner="A", games=(3, 2))
    rr_match(t, p1, p3, winner="A", games=(3, 0))
    rr_match(t, p1, p4, winner="A", games=(3, 0))
    rr_match(t, p2, p3, winner="A", games=(3, 2))
    rr_match(t, p4, p2, winner="A", games=(3, 0))
    rr_match(t, p3, p4, winner="A", games=(3, 2))
    result = standings_of(t)
    assert [row.stats.seed for row in result.rows[:2]] == [2, 1]
    assert result.rows[1].stats.games_won > result.rows[0].stats.games_won


def test_round_robin_cycle_level_on_games_goes_to_margin():
    t, (p1, p2, p3) = round_robin(3)
    rr_match(t, p1, p2, winner="A", games=(3, 2), totals=(800, 700))
    rr_match(t, p2, p3, winner="A", games=(3, 2), totals=(900, 100))
    rr_match(t, p3, p1, winner="A", games=(3, 2), totals=(800, 700))
    # One win each, a head-to-head cycle, five games each: the margin decides.
    result = standings_of(t)
    margins = {row.stats.seed: row.stats.margin for row in result.rows}
    assert margins == {1: 0, 2: 700, 3: -700}
    assert [row.stats.seed for row in result.rows] == [2, 1, 3]
    assert [row.place_label for row in result.rows] == ["1", "2", "3"]


def test_round_robin_games_won_come_before_margin():
    t, (p1, p2, p3) = round_robin(3)
    rr_match(t, p1, p2, winner="A", games=(3, 0), totals=(500, 100))
    rr_match(t, p2, p3, winner="A", games=(3, 2), totals=(2000, 100))
    rr_match(t, p3, p1, winner="A", games=(3, 2), totals=(800, 700))
    result = standings_of(t)
    games = {row.stats.seed: row.stats.games_won for row in result.rows}
    assert games == {1: 5, 2: 3, 3: 5}
    best_margin = max(result.rows, key=lambda row: row.stats.margin).stats.seed
    assert best_margin == 2
    # p2 has the best margin but the fewest games: last. p1 and p3 are then a two-way
    # tie, which head-to-head decides: p3 beat p1.
    assert [row.stats.seed for row in result.rows] == [3, 1, 2]


def test_round_robin_dead_level_players_share_a_place():
    t, (p1, p2, p3) = round_robin(3)
    rr_match(t, p1, p2, winner="A")
    rr_match(t, p2, p3, winner="A")
    rr_match(t, p3, p1, winner="A")
    result = standings_of(t)
    assert [row.place_label for row in result.rows] == ["1–3"] * 3
    assert [row.place for row in result.rows] == [1, 1, 1]
    assert [row.stats.seed for row in result.rows] == [1, 2, 3]
    assert result.complete and result.champion is None


def test_round_robin_three_way_cycle_falls_to_games():
    t, (p1, p2, p3, p4) = round_robin(4)
    # p1, p2, p3 win twice each (all beat p4) and beat each other in a cycle.
    rr_match(t, p1, p2, winner="A", games=(3, 0))
    rr_match(t, p2, p3, winner="A", games=(3, 1))
    rr_match(t, p3, p1, winner="A", games=(3, 2))
    for p in (p1, p2, p3):
        rr_match(t, p, p4, winner="A", games=(3, 0))
    result = standings_of(t)
    # Games: p1 3+2+3 = 8, p3 1+3+3 = 7, p2 0+3+3 = 6.
    assert [row.stats.seed for row in result.rows] == [1, 3, 2, 4]
    assert [row.place_label for row in result.rows] == ["1", "2", "3", "4"]


def test_round_robin_in_progress_counts_played_matches():
    t, (p1, p2, p3) = round_robin(3)
    rr_match(t, p1, p2, winner="A")
    make_match(tournament=t, a=p2, b=p3, section=Match.Section.ROUND_ROBIN)
    result = standings_of(t)
    assert not result.complete and result.champion is None
    progress = {row.stats.seed: row.progress for row in result.rows}
    assert progress[1] == "1 of 1 match played"
    assert progress[2] == "1 of 2 matches played"
    assert progress[3] == "0 of 1 match played"


def test_round_robin_generated_and_played_through_the_services():
    t = make_bracket(players=5, bracket_kind=Tournament.BracketKind.ROUND_ROBIN)
    t = play_out(t, hands=quick_match)
    result = standings_of(t)
    assert t.status == Tournament.Status.FINISHED and result.complete
    assert [row.stats.seed for row in result.rows] == [1, 2, 3, 4, 5]
    assert [row.stats.matches_won for row in result.rows] == [4, 3, 2, 1, 0]
    assert all(row.stats.matches_played == 4 for row in result.rows)


# -- statistics from hands -------------------------------------------------------------------


def test_statistics_come_from_the_hands():
    t = make_bracket(players=2)
    match = playable(t)[0]
    winner = better_seed(match)
    play_match(match, winner, full_match)
    result = standings_of(t)
    champion, runner_up = result.rows
    w, lo = champion.stats, runner_up.stats
    assert (w.seed, lo.seed) == (1, 2)
    assert (w.matches_played, w.matches_won, lo.matches_played, lo.matches_won) == (1, 1, 1, 0)
    assert (w.games_won, w.games_lost, lo.games_won, lo.games_lost) == (3, 1, 1, 3)
    # The winner: gin, gin, knock in each normal game; three gins in the shutout; in the
    # game it lost, one knock won and one knock undercut.
    assert w.hands_won == 3 + 1 + 3 + 3
    assert w.gins == 2 + 0 + 3 + 2
    assert w.undercuts == 0
    assert w.shutouts == 1
    assert w.knocks == 4 and w.knock_deadwood == 2 + 9 + 3 + 2
    assert w.average_knock_deadwood == 4.0
    assert lo.hands_won == 1 + 3 + 0 + 1
    assert lo.gins == 2 and lo.undercuts == 1 and lo.shutouts == 0
    assert lo.knocks == 2 and lo.average_knock_deadwood == 5.0
    match.refresh_from_db()
    assert (w.points_for, w.points_against) == (match.total_a, match.total_b)
    assert w.margin == -lo.margin > 0


def test_average_knock_deadwood_is_none_without_knocks_and_rounded():
    t = make_bracket(players=2)
    match = playable(t)[0]
    play(match, [knock("A", 1, 30), knock("A", 2, 30), knock("A", 2, 30), gin("B")])
    result = standings_of(t)
    by_side = {row.stats.entry_id: row.stats for row in result.rows}
    a, b = by_side[match.side_a_id], by_side[match.side_b_id]
    assert a.average_knock_deadwood == 1.7  # 5 / 3
    assert b.average_knock_deadwood is None
    assert (a.hands_won, b.hands_won, b.gins) == (3, 1, 1)
    # The match is still being played: no match counted, games none closed yet.
    assert a.matches_played == 0 and a.games_won == 0


def test_big_gin_counts_as_gin_and_hollywood_columns_as_games():
    t = make_bracket(players=2, preset="hollywood")
    match = playable(t)[0]
    hands = [HandData("big_gin", "A", None, 40)] * 2 + [gin("A", 60)] * 2
    play(match, hands)
    result = standings_of(t)
    a = next(row.stats for row in result.rows if row.stats.entry_id == match.side_a_id)
    assert a.gins == 4 and a.hands_won == 4
    sheet = result.sheets[match.pk]
    assert a.shutouts == sum(1 for g in sheet.games if g.complete and g.shutout)
    assert a.shutouts >= 1


def test_a_match_finished_without_hands_counts_its_stored_result():
    t = make_bracket(players=2)
    finish_match(playable(t)[0], winner="A")
    result = standings_of(t)
    champion = result.rows[0].stats
    assert (champion.games_won, champion.games_lost, champion.points_for) == (3, 1, 900)
    assert champion.hands_won == 0 and champion.average_knock_deadwood is None


@pytest.mark.parametrize(
    ("first", "last", "label"), [(1, 1, "1"), (3, 4, "3–4"), (9, 16, "9–16")], ids=str
)
def test_place_label(first, last, label):
    assert place_label(first, last) == label
