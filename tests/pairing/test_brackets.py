"""Bracket structures: worked examples, and the invariants for every field of 2 to 64.

Pure tests: no database, no Django.
"""

from __future__ import annotations

import ast
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing import brackets
from pairing.brackets import (
    BYE,
    MAX_DRAW_SEED,
    Bracket,
    BracketKind,
    MatchSpec,
    Section,
    Source,
    double_elimination,
    round_robin,
    single_elimination,
    standard_order,
)

SIZES = range(2, 65)
POWERS_OF_TWO = [2, 4, 8, 16, 32, 64, 128]

Build = Callable[[int], Bracket]
ELIMINATION: dict[str, Build] = {
    "single": single_elimination,
    "single-3p": lambda n: single_elimination(n, third_place=True),
    "single-cons": lambda n: single_elimination(n, consolation=True),
    "single-3p-cons": lambda n: single_elimination(n, third_place=True, consolation=True),
    "double": double_elimination,
    "double-noreset": lambda n: double_elimination(n, reset=False),
}
DRAWN: dict[str, Build] = {
    "single-draw": lambda n: single_elimination(
        n, third_place=True, consolation=True, draw_seed=1000 + n
    ),
    "double-draw": lambda n: double_elimination(n, draw_seed=2000 + n),
}
EVERY_KIND: dict[str, Build] = {**ELIMINATION, **DRAWN, "round-robin": round_robin}


def cases(builds: dict[str, Build], sizes: Iterable[int] = SIZES) -> list[object]:
    return [
        pytest.param(build, n, id=f"{name}-n{n}") for name, build in builds.items() for n in sizes
    ]


def next_power_of_two(n: int) -> int:
    return 1 << (n - 1).bit_length()


def sources(match: MatchSpec) -> tuple[tuple[str, Source], tuple[str, Source]]:
    return (("A", match.a), ("B", match.b))


def seeds_in_round_one(bracket: Bracket) -> list[int]:
    return [
        source.seed
        for match in bracket.rounds(Section.WINNERS)[0]
        for _side, source in sources(match)
        if source.seed is not None
    ]


# --- simulating a bracket --------------------------------------------------------------

Pick = Callable[[MatchSpec, int, int], int]


def lower_seed_wins(_match: MatchSpec, a: int, b: int) -> int:
    return min(a, b)


def higher_seed_wins(_match: MatchSpec, a: int, b: int) -> int:
    return max(a, b)


def coin(seed: int) -> Pick:
    rng = random.Random(seed)
    return lambda _match, a, b: rng.choice((a, b))


@dataclass
class Run:
    """What happened when a bracket was played out by following its sources."""

    winner: dict[str, int] = field(default_factory=dict)
    loser: dict[str, int] = field(default_factory=dict)
    players: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    void: set[str] = field(default_factory=set)

    def losses(self, sections: Iterable[Section] = tuple(Section)) -> Counter[int]:
        return Counter(self.loser[key] for key in self.loser if key_section(key) in sections)


def key_section(key: str) -> Section:
    prefixes = {
        "W": Section.WINNERS,
        "L": Section.LOSERS,
        "C": Section.CONSOLATION,
        "RR": Section.ROUND_ROBIN,
    }
    fixed = {"GF": Section.FINAL, "GF2": Section.RESET, "3P": Section.THIRD_PLACE}
    if key in fixed:
        return fixed[key]
    prefix = re.match(r"[A-Z]+", key)
    assert prefix is not None
    return prefixes[prefix.group()]


def simulate(bracket: Bracket, pick: Pick) -> Run:
    run = Run()
    by_key = bracket.by_key()

    def who(source: Source) -> int | None:
        if source.seed is not None:
            return source.seed
        if source.winner_of is not None:
            return run.winner[source.winner_of]
        if source.loser_of is not None:
            return run.loser[source.loser_of]
        return None

    for match in bracket.matches:
        if match.conditional:
            feeder = by_key[str(match.b.winner_of)]
            if run.winner[feeder.key] == who(feeder.a):
                run.void.add(match.key)
                continue
        a, b = who(match.a), who(match.b)
        run.players[match.key] = (a, b)
        if match.is_bye:
            assert (a is None) != (b is None), f"{match.key} is a bye of {a} and {b}"
            run.winner[match.key] = a if a is not None else b or 0
            continue
        assert a is not None and b is not None, f"{match.key} is missing a player"
        won = pick(match, a, b)
        run.winner[match.key] = won
        run.loser[match.key] = b if won == a else a
    return run


def champion(bracket: Bracket, run: Run) -> int:
    if bracket.kind is BracketKind.DOUBLE:
        return run.winner["GF2"] if "GF2" in run.winner else run.winner["GF"]
    (final,) = bracket.rounds(Section.WINNERS)[-1]
    return run.winner[final.key]


def title_match(bracket: Bracket) -> str:
    if bracket.kind is BracketKind.DOUBLE:
        return "GF"
    return bracket.rounds(Section.WINNERS)[-1][0].key


# Factories, so that every test tosses the same coins whatever runs before it.
OUTCOMES: dict[str, Callable[[], Pick]] = {
    "lower-wins": lambda: lower_seed_wins,
    "higher-wins": lambda: higher_seed_wins,
    "coin0": lambda: coin(0),
    "coin1": lambda: coin(1),
    "coin2": lambda: coin(2),
}


# --- standard seeding ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (1, [1]),
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
    ids=lambda v: f"size{v}" if isinstance(v, int) else None,
)
def test_standard_order(size: int, expected: list[int]) -> None:
    assert standard_order(size) == expected


@pytest.mark.parametrize("size", [*POWERS_OF_TWO, 256, 1024], ids=lambda s: f"size{s}")
def test_standard_order_keeps_top_seeds_apart_until_late(size: int) -> None:
    order = standard_order(size)
    assert sorted(order) == list(range(1, size + 1))
    blocks = 2
    while blocks <= size:
        # The top `blocks` seeds each sit in a different block of size/blocks lines.
        width = size // blocks
        found = {order.index(seed) // width for seed in range(1, blocks + 1)}
        assert len(found) == blocks
        blocks *= 2
    for index in range(0, size, 2):
        assert order[index] + order[index + 1] == size + 1
        assert order[index] < order[index + 1]


@pytest.mark.parametrize("size", [0, 3, 6, 12, -8], ids=lambda s: f"size{s}")
def test_standard_order_needs_a_power_of_two(size: int) -> None:
    with pytest.raises(ValueError, match="power of two"):
        standard_order(size)


@pytest.mark.parametrize(
    "build", [single_elimination, double_elimination], ids=["single", "double"]
)
def test_eight_players_pair_one_eight_four_five_two_seven_three_six(build: Build) -> None:
    bracket = build(8)
    pairs = [{m.a.seed, m.b.seed} for m in bracket.rounds(Section.WINNERS)[0]]
    assert pairs == [{1, 8}, {4, 5}, {2, 7}, {3, 6}]
    top, bottom = bracket.placement[:4], bracket.placement[4:]
    assert (1 in top and 2 in bottom) or (1 in bottom and 2 in top)


def test_sixteen_players_put_the_top_four_in_different_quarters() -> None:
    placement = single_elimination(16).placement
    quarters = {placement.index(seed) // 4 for seed in (1, 2, 3, 4)}
    assert quarters == {0, 1, 2, 3}


# --- worked examples -------------------------------------------------------------------


def describe(bracket: Bracket, section: Section) -> list[str]:
    def side(source: Source) -> str:
        if source.seed is not None:
            return str(source.seed)
        if source.winner_of is not None:
            return f"w:{source.winner_of}"
        if source.loser_of is not None:
            return f"l:{source.loser_of}"
        return "bye"

    return [f"{m.key} {side(m.a)} v {side(m.b)}" for rnd in bracket.rounds(section) for m in rnd]


def test_five_players_single_elimination_with_consolation() -> None:
    bracket = single_elimination(5, third_place=True, consolation=True)
    assert describe(bracket, Section.WINNERS) == [
        "W1-1 1 v bye",
        "W1-2 4 v 5",
        "W1-3 2 v bye",
        "W1-4 3 v bye",
        "W2-1 w:W1-1 v w:W1-2",
        "W2-2 w:W1-3 v w:W1-4",
        "W3-1 w:W2-1 v w:W2-2",
    ]
    assert describe(bracket, Section.THIRD_PLACE) == ["3P l:W2-1 v l:W2-2"]
    # One first-round loser only: no consolation bracket.
    assert bracket.rounds(Section.CONSOLATION) == []
    assert bracket.placement == (1, 4, 5, 2, 3)


def test_six_players_consolation_seeds_the_stronger_loser_first() -> None:
    bracket = single_elimination(6, consolation=True)
    assert describe(bracket, Section.CONSOLATION) == ["C1-1 l:W1-2 v l:W1-4"]
    assert bracket.by_key()["W1-2"].loser_to == ("C1-1", "A")  # 4 v 5: loser 5 expected


def test_four_players_third_place_match_replaces_the_identical_consolation() -> None:
    bracket = single_elimination(4, third_place=True, consolation=True)
    assert [m.key for m in bracket.matches] == ["W1-1", "W1-2", "W2-1", "3P"]
    assert [m.key for m in single_elimination(4, consolation=True).matches] == [
        "W1-1",
        "W1-2",
        "W2-1",
        "C1-1",
    ]


def test_three_players_have_no_third_place_match() -> None:
    assert "3P" not in single_elimination(3, third_place=True).by_key()


def test_eight_players_double_elimination_drops_losers_opposite_the_other_half() -> None:
    bracket = double_elimination(8)
    assert describe(bracket, Section.LOSERS) == [
        "L1-1 l:W1-1 v l:W1-2",
        "L1-2 l:W1-3 v l:W1-4",
        "L2-1 l:W2-2 v w:L1-1",
        "L2-2 l:W2-1 v w:L1-2",
        "L3-1 w:L2-1 v w:L2-2",
        "L4-1 l:W3-1 v w:L3-1",
    ]
    assert describe(bracket, Section.FINAL) == ["GF w:W3-1 v w:L4-1"]
    assert describe(bracket, Section.RESET) == ["GF2 l:GF v w:GF"]
    by_key = bracket.by_key()
    assert by_key["GF"].winner_to == ("GF2", "B")
    assert by_key["GF"].loser_to == ("GF2", "A")
    assert by_key["GF2"].conditional
    assert not any(m.conditional for m in bracket.matches if m.key != "GF2")


def test_five_players_double_elimination_collapses_slots_only_byes_could_fill() -> None:
    bracket = double_elimination(5)
    # W1-1, W1-3 and W1-4 are byes: only 4 v 5 has a loser in round 1, who goes straight
    # on to meet a round-2 loser.
    assert describe(bracket, Section.LOSERS) == [
        "L1-1 l:W2-2 v l:W1-2",
        "L2-1 w:L1-1 v l:W2-1",
        "L3-1 l:W3-1 v w:L2-1",
    ]
    assert bracket.by_key()["W1-2"].loser_to == ("L1-1", "B")
    assert bracket.by_key()["W1-1"].loser_to is None


def test_two_players_double_elimination_is_a_rematch_in_the_grand_final() -> None:
    bracket = double_elimination(2)
    assert [m.key for m in bracket.matches] == ["W1-1", "GF", "GF2"]
    assert describe(bracket, Section.FINAL) == ["GF w:W1-1 v l:W1-1"]


def test_rounds_and_by_key() -> None:
    bracket = single_elimination(5)
    assert [[m.key for m in rnd] for rnd in bracket.rounds(Section.WINNERS)] == [
        ["W1-1", "W1-2", "W1-3", "W1-4"],
        ["W2-1", "W2-2"],
        ["W3-1"],
    ]
    assert bracket.rounds(Section.LOSERS) == []
    assert bracket.by_key()["W2-2"].a == Source(winner_of="W1-3")


def test_a_source_is_one_thing_at_most() -> None:
    assert BYE.is_bye and Source().is_bye
    assert not Source(seed=3).is_bye
    with pytest.raises(ValueError, match="one of"):
        Source(seed=1, winner_of="W1-1")


# --- invariants for every field size ---------------------------------------------------


@pytest.mark.parametrize(("build", "n"), cases(EVERY_KIND))
def test_keys_rounds_and_positions_are_tidy(build: Build, n: int) -> None:
    bracket = build(n)
    assert bracket.size == n
    keys = [m.key for m in bracket.matches]
    assert len(keys) == len(set(keys))
    for match in bracket.matches:
        assert key_section(match.key) is match.section
        if match.section in (Section.FINAL, Section.RESET, Section.THIRD_PLACE):
            assert (match.round, match.position) == (1, 1)
        else:
            assert match.key.endswith(f"{match.round}-{match.position}")
    for section in Section:
        rounds = bracket.rounds(section)
        assert [rnd[0].round for rnd in rounds] == list(range(1, len(rounds) + 1))
        for rnd in rounds:
            assert [m.position for m in rnd] == list(range(1, len(rnd) + 1))


@pytest.mark.parametrize(("build", "n"), cases(EVERY_KIND))
def test_routing_agrees_both_ways(build: Build, n: int) -> None:
    bracket = build(n)
    by_key = bracket.by_key()
    order = {m.key: index for index, m in enumerate(bracket.matches)}
    targets: Counter[tuple[str, str]] = Counter()
    for match in bracket.matches:
        for side, source in sources(match):
            if source.winner_of is not None:
                assert by_key[source.winner_of].winner_to == (match.key, side)
            if source.loser_of is not None:
                assert by_key[source.loser_of].loser_to == (match.key, side)
            if source.winner_of or source.loser_of:
                # Playing order: a match comes after the ones it draws players from.
                assert order[source.winner_of or source.loser_of or ""] < order[match.key]
        if match.winner_to is not None:
            key, side = match.winner_to
            target = by_key[key]
            assert (target.a if side == "A" else target.b).winner_of == match.key
            targets[match.winner_to] += 1
            if target.section is match.section:
                assert target.round == match.round + 1
        if match.loser_to is not None:
            key, side = match.loser_to
            target = by_key[key]
            assert (target.a if side == "A" else target.b).loser_of == match.key
            targets[match.loser_to] += 1
            # A loser leaves the section, so nobody can be in one round twice.
            assert target.section is not match.section
    assert all(count == 1 for count in targets.values())

    ends = {m.key for m in bracket.matches if m.winner_to is None}
    if bracket.kind is BracketKind.ROUND_ROBIN:
        assert ends == set(by_key)
        assert all(m.loser_to is None for m in bracket.matches)
    elif bracket.kind is BracketKind.DOUBLE:
        assert ends == {"GF2" if "GF2" in by_key else "GF"}
    else:
        # Each section (winners, third place, consolation) ends in one match.
        last_rounds = [rounds[-1] for s in Section if (rounds := bracket.rounds(s))]
        assert all(len(last) == 1 for last in last_rounds)
        assert ends == {last[0].key for last in last_rounds}


@pytest.mark.parametrize(("build", "n"), cases(ELIMINATION))
def test_byes_go_to_the_top_seeds_in_round_one_only(build: Build, n: int) -> None:
    bracket = build(n)
    byes = [m for m in bracket.matches if m.is_bye]
    for match in bracket.matches:
        assert match.is_bye == (match.a.is_bye or match.b.is_bye)
        assert not (match.a.is_bye and match.b.is_bye)
    assert all(m.round == 1 for m in byes)
    assert all(m.section in (Section.WINNERS, Section.CONSOLATION) for m in byes)
    assert all(m.loser_to is None for m in byes)
    winners_byes = [m for m in byes if m.section is Section.WINNERS]
    assert len(winners_byes) == next_power_of_two(n) - n
    assert {m.a.seed or m.b.seed for m in winners_byes} == set(range(1, len(winners_byes) + 1))
    assert sorted(seeds_in_round_one(bracket)) == list(range(1, n + 1))
    first_round_losers = sum(1 for m in bracket.rounds(Section.WINNERS)[0] if not m.is_bye)
    consolation = bracket.rounds(Section.CONSOLATION)
    if consolation:
        assert first_round_losers >= 2
        assert len([m for m in byes if m.section is Section.CONSOLATION]) == (
            next_power_of_two(first_round_losers) - first_round_losers
        )


@pytest.mark.parametrize(("build", "n"), cases(ELIMINATION))
def test_lower_seed_always_winning(build: Build, n: int) -> None:
    bracket = build(n)
    run = simulate(bracket, lower_seed_wins)
    assert champion(bracket, run) == 1
    assert set(run.players[title_match(bracket)]) == {1, 2}
    assert run.void <= {"GF2"}
    if bracket.kind is BracketKind.DOUBLE:
        assert run.losses() == Counter(dict.fromkeys(range(2, n + 1), 2))
        return
    assert run.losses([Section.WINNERS]) == Counter(range(2, n + 1))
    if "3P" in run.players:
        assert sorted(run.players["3P"]) == [3, 4]  # type: ignore[type-var]
        assert run.winner["3P"] == 3
    consolation = bracket.rounds(Section.CONSOLATION)
    if consolation:
        first_round = bracket.rounds(Section.WINNERS)[0]
        first_round_losers = {run.loser[m.key] for m in first_round if not m.is_bye}
        entered = {p for m in consolation[0] for p in run.players[m.key]} - {None}
        assert entered == first_round_losers
        assert run.winner[consolation[-1][0].key] == min(first_round_losers)


@pytest.mark.parametrize(("build", "n"), cases({**ELIMINATION, **DRAWN}))
def test_any_results_keep_every_player_once_per_round(build: Build, n: int) -> None:
    bracket = build(n)
    for name, outcome in OUTCOMES.items():
        run = simulate(bracket, outcome())
        for section in Section:
            for rnd in bracket.rounds(section):
                present = [p for m in rnd if m.key in run.players for p in run.players[m.key]]
                present = [p for p in present if p is not None]
                assert len(present) == len(set(present)), (name, section, rnd[0].round)
        won = champion(bracket, run)
        if bracket.kind is BracketKind.SINGLE:
            assert run.losses([Section.WINNERS]) == Counter(set(range(1, n + 1)) - {won})
            continue
        losses = run.losses()
        gf_a, gf_b = run.players["GF"]
        runner_up = run.loser["GF2"] if "GF2" in run.loser else run.loser["GF"]
        reset_played = "GF2" in run.players
        if "GF2" in bracket.by_key():
            # The reset is played exactly when the losers' champion wins the grand final.
            assert reset_played == (run.winner["GF"] == gf_b)
            assert ("GF2" in run.void) != reset_played
        else:
            assert not reset_played
        assert losses[won] <= 1
        for seed in range(1, n + 1):
            if seed == won:
                continue
            if seed == runner_up == gf_a and not reset_played:
                # No reset: the winners' champion is out after a single defeat.
                assert losses[seed] == 1
            else:
                assert losses[seed] == 2, (name, seed)
        assert sum(losses.values()) == 2 * (n - 1) + reset_played


# --- random draw -----------------------------------------------------------------------


@pytest.mark.parametrize(("build", "n"), cases(DRAWN))
def test_a_draw_keeps_the_shape_and_places_everyone_once(build: Build, n: int) -> None:
    drawn = build(n)
    plain = (single_elimination if drawn.kind is BracketKind.SINGLE else double_elimination)(
        n,
        **({"third_place": True, "consolation": True} if drawn.kind is BracketKind.SINGLE else {}),
    )
    assert drawn.draw_seed is not None and plain.draw_seed is None
    assert sorted(drawn.placement) == list(range(1, n + 1))
    assert sorted(seeds_in_round_one(drawn)) == list(range(1, n + 1))
    # The same matches and routes; only who stands on which line changes.
    shape = [
        (m.key, m.winner_to, m.loser_to, m.is_bye, m.a.is_bye, m.b.is_bye) for m in drawn.matches
    ]
    assert shape == [
        (m.key, m.winner_to, m.loser_to, m.is_bye, m.a.is_bye, m.b.is_bye) for m in plain.matches
    ]
    assert build(n) == drawn


def test_the_same_draw_seed_gives_the_same_bracket() -> None:
    assert single_elimination(8, draw_seed=2024).placement == (4, 8, 3, 5, 7, 2, 1, 6)
    assert double_elimination(6, draw_seed=7).placement == (5, 4, 2, 1, 6, 3)
    assert double_elimination(37, draw_seed=99) == double_elimination(37, draw_seed=99)


def test_different_draw_seeds_give_different_placements() -> None:
    placements = {single_elimination(16, draw_seed=seed).placement for seed in range(20)}
    assert len(placements) >= 19


@given(n=st.integers(2, 64), seed=st.integers(0, MAX_DRAW_SEED))
def test_any_draw_seed_places_every_player_once(n: int, seed: int) -> None:
    bracket = single_elimination(n, draw_seed=seed)
    assert bracket.draw_seed == seed
    assert sorted(bracket.placement) == list(range(1, n + 1))
    assert simulate(bracket, lower_seed_wins).winner[title_match(bracket)] == 1


@pytest.mark.parametrize(
    ("draw_seed", "error"),
    [(-1, ValueError), (MAX_DRAW_SEED + 1, ValueError), (True, TypeError), ("7", TypeError)],
    ids=["negative", "too-big", "bool", "str"],
)
def test_bad_draw_seeds_are_refused(draw_seed: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="draw_seed"):
        single_elimination(8, draw_seed=draw_seed)  # type: ignore[arg-type]
    with pytest.raises(error, match="draw_seed"):
        double_elimination(8, draw_seed=draw_seed)  # type: ignore[arg-type]


def test_new_draw_seed_fits_the_recorded_range() -> None:
    seed = brackets.new_draw_seed()
    assert 0 <= seed <= MAX_DRAW_SEED
    assert single_elimination(8, draw_seed=seed).draw_seed == seed


# --- double elimination: no early rematches ---------------------------------------------


def who_can_reach(bracket: Bracket) -> dict[str, int]:
    """Per match, the seeds (as a bit mask) that could possibly play in it."""
    reach: dict[str, int] = {}

    def mask(source: Source) -> int:
        if source.seed is not None:
            return 1 << source.seed
        key = source.winner_of or source.loser_of
        return reach[key] if key else 0

    for match in bracket.matches:
        reach[match.key] = mask(match.a) | mask(match.b)
    return reach


# Up to 16 lines the drop order keeps every dropped player's first losers' match clear
# of anyone they could have met. From 32 up no order does that while also having as few
# early rematches as brackets-manager.js's default (its own order allows some): the drop
# order now trades the two as that default does or better, which
# tests/tournaments/test_drop_order.py measures.
@pytest.mark.parametrize("n", [2, 4, 8, 16], ids=lambda n: f"n{n}")
def test_a_dropped_player_meets_nobody_they_could_have_beaten_first(n: int) -> None:
    bracket = double_elimination(n)
    reach = who_can_reach(bracket)
    winners_final = bracket.rounds(Section.WINNERS)[-1][0].key
    checked = 0
    for match in bracket.rounds(Section.LOSERS):
        for m in match:
            for dropped, other in ((m.a, m.b), (m.b, m.a)):
                if dropped.loser_of is None or dropped.loser_of == winners_final:
                    continue
                # Everyone the dropped player could have met in the winners' bracket is in
                # that match's subtree; none of them may be on the other side.
                other_key = other.winner_of or other.loser_of
                assert other_key is not None
                assert reach[dropped.loser_of] & reach[other_key] == 0, m.key
                checked += 1
    assert checked == (n - 2 if n > 2 else 0)


@pytest.mark.parametrize("n", [n for n in SIZES if n not in POWERS_OF_TWO], ids=lambda n: f"n{n}")
def test_collapsed_losers_brackets_only_hold_matches_two_players_can_reach(n: int) -> None:
    bracket = double_elimination(n)
    reach = who_can_reach(bracket)
    for match in bracket.matches:
        if match.section is not Section.WINNERS:
            for source in (match.a, match.b):
                key = source.winner_of or source.loser_of
                assert key is not None, match.key
                assert reach[key], match.key


# --- round robin -----------------------------------------------------------------------


@pytest.mark.parametrize("n", SIZES, ids=lambda n: f"n{n}")
def test_round_robin_circle_method(n: int) -> None:
    bracket = round_robin(n)
    rounds = bracket.rounds(Section.ROUND_ROBIN)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    assert len(bracket.sits_out) == len(rounds)
    pairs = Counter(frozenset((m.a.seed, m.b.seed)) for m in bracket.matches)
    assert len(pairs) == n * (n - 1) // 2
    assert set(pairs.values()) == {1}
    assert all(len(pair) == 2 and None not in pair for pair in pairs)
    for rnd, sitter in zip(rounds, bracket.sits_out, strict=True):
        playing = [m.a.seed for m in rnd] + [m.b.seed for m in rnd]
        assert len(playing) == len(set(playing))
        assert sitter not in playing
        assert ({*playing, sitter} - {None}) == set(range(1, n + 1))
    if n % 2:
        assert sorted(s for s in bracket.sits_out if s is not None) == list(range(1, n + 1))
    else:
        assert set(bracket.sits_out) == {None}
    appearances = Counter(p for m in bracket.matches for p in (m.a.seed, m.b.seed))
    assert set(appearances.values()) == {n - 1}
    # Sides (who deals first, say) are shared out evenly.
    side_a = Counter(m.a.seed for m in bracket.matches)
    assert all(abs(2 * side_a[seed] - (n - 1)) <= 1 for seed in range(1, n + 1))
    assert all(not m.is_bye and m.loser_to is None for m in bracket.matches)
    assert bracket.placement == tuple(range(1, n + 1))
    assert bracket.draw_seed is None


def test_round_robin_of_five_sits_one_player_out_per_round() -> None:
    bracket = round_robin(5)
    assert bracket.sits_out == (1, 2, 3, 4, 5)
    assert describe(bracket, Section.ROUND_ROBIN)[:4] == [
        "RR1-1 2 v 5",
        "RR1-2 3 v 4",
        "RR2-1 3 v 1",
        "RR2-2 4 v 5",
    ]


# --- errors, purity, speed -------------------------------------------------------------

BUILDERS: dict[str, Callable[[int], Bracket]] = {
    "single": single_elimination,
    "double": double_elimination,
    "round-robin": round_robin,
}


@pytest.mark.parametrize("name", BUILDERS)
@pytest.mark.parametrize(
    ("players", "error", "message"),
    [
        (1, ValueError, "at least 2 players, got 1"),
        (0, ValueError, "at least 2 players"),
        (-8, ValueError, "at least 2 players"),
        (10**9, ValueError, "more than this bracket allows"),
        (True, TypeError, "players must be an int"),
        ("8", TypeError, "players must be an int"),
        (8.0, TypeError, "players must be an int"),
    ],
    ids=["one", "zero", "negative", "huge", "bool", "str", "float"],
)
def test_bad_field_sizes_are_refused(
    name: str, players: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        BUILDERS[name](players)  # type: ignore[arg-type]


def test_round_robin_has_a_lower_limit_than_elimination() -> None:
    assert round_robin(brackets.MAX_ROUND_ROBIN_PLAYERS).size == brackets.MAX_ROUND_ROBIN_PLAYERS
    with pytest.raises(ValueError, match="more than"):
        round_robin(brackets.MAX_ROUND_ROBIN_PLAYERS + 1)
    assert single_elimination(brackets.MAX_PLAYERS).size == brackets.MAX_PLAYERS


def test_the_bracket_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(brackets.__file__).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports: the module stands alone"
            if node.module == "pairing.drop_order":
                continue  # pure as well (tests/tournaments/test_drop_order.py checks it)
            imported.add(str(node.module).split(".")[0])
    assert "random" in imported
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(
            lambda: single_elimination(1024, third_place=True, consolation=True),
            id="single-1024",
        ),
        pytest.param(lambda: single_elimination(1000, draw_seed=1), id="single-1000-draw"),
        pytest.param(lambda: double_elimination(1024), id="double-1024"),
        pytest.param(lambda: double_elimination(1000, draw_seed=1), id="double-1000-draw"),
        pytest.param(lambda: round_robin(128), id="round-robin-128"),
    ],
)
def test_large_fields_generate_well_within_a_second(build: Callable[[], Bracket]) -> None:
    # CPU time, not wall time: on a shared, loaded machine waiting for a core is not slowness.
    start = time.process_time()
    bracket = build()
    assert time.process_time() - start < 1.0
    assert bracket.matches
