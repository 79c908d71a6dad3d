"""Swiss pairing: worked examples, and whole events played out with random results.

Pure tests: no database, no Django. Each round of a simulated event is checked against
answers worked out here without the module's weights: by trying every pairing of small
fields, and by a plain networkx matching (its own simple weights) on larger ones.
"""

from __future__ import annotations

import ast
import itertools
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
import pytest

from pairing import swiss
from pairing.swiss import SwissPlayer, SwissRound, pair_round

BYE = None


def field_of(scores: list[int], **extra: dict[int, object]) -> list[SwissPlayer]:
    """Players 1..n ranked 1..n with these scores; ``extra`` maps a field to {id: value}."""
    players = []
    for rank, score in enumerate(scores, start=1):
        values = {name: by_id[rank] for name, by_id in extra.items() if rank in by_id}
        players.append(SwissPlayer(id=rank, score=score, rank=rank, **values))  # type: ignore[arg-type]
    return players


# --- worked examples -------------------------------------------------------------------


def test_round_one_top_half_meets_bottom_half() -> None:
    result = pair_round(field_of([0] * 8), seed=1)
    assert result.pairs == ((1, 5), (2, 6), (3, 7), (4, 8))
    assert (result.deviation, result.max_stray, result.rematches) == (0, 0, ())


def test_boards_run_from_the_top_score_group_down() -> None:
    result = pair_round(field_of([0, 0, 2, 2, 1, 1]), seed=3)
    assert result.pairs == ((3, 4), (5, 6), (1, 2))


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked() -> None:
    result = pair_round(field_of([1, 1, 1, 0, 0, 0, 0]), seed=1)
    assert result.pairs[-1] == (7, BYE)
    assert result.deviation == 1  # group 1 is odd: its lowest, 3, meets 0-point 4
    assert (3, 4) in result.pairs


def test_the_bye_skips_players_who_had_one() -> None:
    result = pair_round(field_of([0, 0, 0, 0, 0], had_bye={5: True, 4: True}), seed=1)
    assert result.pairs[-1] == (3, BYE)
    assert not result.repeat_bye


def test_the_bye_stays_in_the_lowest_group_if_anyone_there_can_take_it() -> None:
    scores = [2, 2, 1, 1, 1, 0, 0, 0, 0]
    result = pair_round(field_of(scores, had_bye={9: True, 8: True, 7: True}), seed=1)
    assert result.pairs[-1] == (6, BYE)


def test_everyone_had_a_bye_so_someone_has_a_second() -> None:
    result = pair_round(field_of([1, 1, 1], had_bye={1: True, 2: True, 3: True}), seed=1)
    assert result.repeat_bye
    assert result.pairs[-1] == (3, BYE)


def test_a_rematch_is_avoided_by_swapping_partners() -> None:
    # 1 v 3 and 2 v 4 is the ideal, but 1 and 3 have met: 1 v 4, 2 v 3 instead.
    players = field_of([1, 1, 1, 1], opponents={1: frozenset({3}), 3: frozenset({1})})
    result = pair_round(players, seed=1)
    assert result.pairs == ((1, 4), (2, 3))
    assert result.rematches == ()


def test_a_rematch_is_avoided_even_across_score_groups() -> None:
    # 1 and 2 are the only 2-point players and have met: both float.
    met = {1: frozenset({2}), 2: frozenset({1})}
    result = pair_round(field_of([2, 2, 0, 0], opponents=met), seed=1)
    assert result.rematches == ()
    assert result.deviation == 8  # two pairs two points apart
    assert result.max_stray == 2


def test_an_unavoidable_rematch_is_played_and_reported() -> None:
    result = pair_round(field_of([1, 0], opponents={1: frozenset({2}), 2: frozenset({1})}), seed=1)
    assert result.pairs == ((1, 2),)
    assert result.rematches == ((1, 2),)


def test_two_floaters_one_group_down_beat_one_floating_two() -> None:
    # Groups 3 | 2 2 | 1 … the 3-pointer must float; it meets a 2-pointer (the best of
    # that group), whose partner floats on to the 1-pointers: 1 + 1 = 2 < 2² = 4.
    result = pair_round(field_of([3, 2, 2, 1, 1, 1]), seed=1)
    assert result.deviation == 2
    assert result.pairs == ((1, 2), (3, 4), (5, 6))


def test_dropped_players_are_not_paired() -> None:
    players = field_of([1, 1, 0, 0, 0], dropped={2: True})
    result = pair_round(players, seed=1)
    paired = {p for pair in result.pairs for p in pair if p is not None}
    assert paired == {1, 3, 4, 5}
    assert len(result.pairs) == 2 and BYE not in {b for _, b in result.pairs}


def test_a_late_entry_with_a_given_score_joins_that_group() -> None:
    players = [*field_of([2, 2, 1, 1]), SwissPlayer(id=9, score=2, rank=5)]
    result = pair_round(players, seed=1)
    assert result.pairs[-1][1] is BYE
    groups = {frozenset(pair) for pair in result.pairs}
    assert frozenset({1, 2}) in groups or frozenset({1, 9}) in groups


def test_the_seed_only_breaks_ties() -> None:
    # 1,2,3,5 after 4 takes the bye: 1 v 3 + 2 v 5 and 1 v 2 + 3 v 5 are equally Dutch.
    players = field_of([0] * 5, had_bye={5: True})
    seen = {pair_round(players, seed=seed).pairs for seed in range(30)}
    assert len(seen) == 2
    assert all(pairs[-1] == (4, BYE) for pairs in seen)
    # and without a tie, every seed agrees
    assert len({pair_round(field_of([0] * 10), seed=s).pairs for s in range(10)}) == 1


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([SwissPlayer(1, 0, 1), SwissPlayer(1, 0, 2)], "different id"),
        ([SwissPlayer(1, 0, 1), SwissPlayer(2, 0, 1)], "different rank"),
        ([SwissPlayer(-1, 0, 1)], "reserved"),
    ],
    ids=["same-id", "same-rank", "bye-id"],
)
def test_bad_input_is_refused(players: list[SwissPlayer], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pair_round(players, seed=1)


def test_nobody_left_pairs_nobody() -> None:
    assert pair_round([], seed=1).pairs == ()
    assert pair_round([SwissPlayer(4, 0, 1)], seed=1).pairs == ((4, BYE),)


# --- the checks, worked out independently ----------------------------------------------

Cost = tuple[int, int, int]
"""(rematches, second byes, deviation): what rules 1–3 count, most important first."""


def pair_cost(players: dict[int, SwissPlayer], a: int, b: int | None) -> Cost:
    lowest = min(p.score for p in players.values())
    if b is None:
        return (0, int(players[a].had_bye), (players[a].score - lowest) ** 2)
    rematch = int(b in players[a].opponents or a in players[b].opponents)
    return (rematch, 0, (players[a].score - players[b].score) ** 2)


def round_cost(players: dict[int, SwissPlayer], result: SwissRound) -> Cost:
    costs = [pair_cost(players, a, b) for a, b in result.pairs]
    return (sum(c[0] for c in costs), sum(c[1] for c in costs), sum(c[2] for c in costs))


def every_pairing(ids: list[int | None]) -> Iterator[list[tuple[int | None, int | None]]]:
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for i, other in enumerate(rest):
        for more in every_pairing(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def best_by_brute_force(players: dict[int, SwissPlayer]) -> Cost:
    ids: list[int | None] = list(players)
    if len(ids) % 2:
        ids.append(None)
    best: Cost | None = None
    for pairing in every_pairing(ids):
        costs = [
            pair_cost(players, a, b) if a is not None else pair_cost(players, b, a)
            for a, b in pairing
        ]  # type: ignore[arg-type]
        total = (sum(c[0] for c in costs), sum(c[1] for c in costs), sum(c[2] for c in costs))
        best = total if best is None or total < best else best
    assert best is not None
    return best


def best_by_matching(players: dict[int, SwissPlayer]) -> Cost:
    """Rules 1–3 on the complete graph with plain weights: a rematch costs more than
    any round's byes and strays, a second bye more than any round's strays."""
    ids: list[int | None] = list(players)
    if len(ids) % 2:
        ids.append(None)
    strays = len(ids) * max(pair_cost(players, a, None)[2] for a in players) * 4 + 1
    byes = strays * 2
    rematches = byes * 2
    graph = nx.Graph()
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            x, y = (b, a) if a is None else (a, b)
            assert x is not None
            r, s, d = pair_cost(players, x, y)
            graph.add_edge(i, ids.index(b), weight=10 * rematches - (r * rematches + s * byes + d))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    assert len(matching) * 2 == len(ids)
    totals = [0, 0, 0]
    for i, j in matching:
        x, y = ids[i], ids[j]
        x, y = (y, x) if x is None else (x, y)
        assert x is not None
        for k, value in enumerate(pair_cost(players, x, y)):
            totals[k] += value
    return (totals[0], totals[1], totals[2])


def rematch_free_pairing_exists(players: dict[int, SwissPlayer]) -> bool:
    ids: list[int | None] = list(players)
    if len(ids) % 2:
        ids.append(None)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(ids)))
    for i, a in enumerate(ids):
        for j in range(i + 1, len(ids)):
            b = ids[j]
            if a is None or b is None or b not in players[a].opponents:
                graph.add_edge(i, j)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(ids)


def deviation_floor(players: dict[int, SwissPlayer]) -> int:
    """Every cut between score groups with an odd number above must be crossed."""
    scores = sorted({p.score for p in players.values()}, reverse=True)
    floor = 0
    for upper, lower in itertools.pairwise(scores):
        above = sum(1 for p in players.values() if p.score >= upper)
        if above % 2:
            floor += (upper - lower) ** 2
    return floor


# --- whole events with random results --------------------------------------------------


@dataclass
class Event:
    """A Swiss event played out with seeded random results, late entries and drops."""

    size: int
    seed: int
    scores: dict[int, int] = field(default_factory=dict)
    met: dict[int, set[int]] = field(default_factory=dict)
    byes: dict[int, int] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)
    seeds: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for player in range(1, self.size + 1):
            self.enter(player, score=0)

    def enter(self, player: int, *, score: int) -> None:
        self.scores[player] = score
        self.met[player] = set()
        self.byes[player] = 0
        self.seeds[player] = len(self.seeds) + 1

    def players(self) -> dict[int, SwissPlayer]:
        standings = sorted(self.scores, key=lambda p: (-self.scores[p], self.seeds[p]))
        return {
            p: SwissPlayer(
                id=p,
                score=self.scores[p],
                rank=rank,
                opponents=frozenset(self.met[p]),
                had_bye=self.byes[p] > 0,
                dropped=p in self.dropped,
            )
            for rank, p in enumerate(standings, start=1)
        }

    def play(self, result: SwissRound, rng: random.Random) -> None:
        for a, b in result.pairs:
            if b is None:
                self.byes[a] += 1
                self.scores[a] += 1
                continue
            self.met[a].add(b)
            self.met[b].add(a)
            self.scores[rng.choice((a, b))] += 1


def check_round(players: dict[int, SwissPlayer], result: SwissRound, *, brute: bool) -> None:
    active = {p: player for p, player in players.items() if not player.dropped}
    paired = [p for pair in result.pairs for p in pair if p is not None]
    assert sorted(paired) == sorted(active), "everyone still playing is paired once"
    byes = [a for a, b in result.pairs if b is None]
    assert len(byes) == len(active) % 2
    assert all(b is not None for _, b in result.pairs[:-1]), "the bye is last"
    # Boards from the top groups down.
    tops = [max(active[a].score, active[b].score if b else -1) for a, b in result.pairs if b]
    assert tops == sorted(tops, reverse=True)

    cost = round_cost(active, result)
    assert cost == (len(result.rematches), int(result.repeat_bye), result.deviation)
    if result.rematches:
        assert not rematch_free_pairing_exists(active), "an avoidable rematch"
    if result.repeat_bye and not brute:
        assert all(p.had_bye for p in active.values())
    assert result.deviation >= deviation_floor(active)
    if brute:
        best = best_by_brute_force(active) if len(active) <= 10 else best_by_matching(active)
        assert cost == best


SIMULATED = [4, 5, 6, 7, 9, 10, 11, 16, 23, 31, 48, 64, 101, 256]


@pytest.mark.parametrize("size", SIMULATED, ids=lambda n: f"n{n}")
def test_events_of_random_results_pair_by_the_rules(size: int) -> None:
    rounds = 9 if size <= 128 else 6
    for event_seed in range(3 if size <= 64 else 1):
        event = Event(size, seed=event_seed)
        rng = random.Random(f"{size}-{event_seed}")
        for number in range(1, rounds + 1):
            if number == 3:  # two late entries: one on zero, one on the median score
                event.enter(1000, score=0)
                event.enter(1001, score=sorted(event.scores.values())[len(event.scores) // 2])
            if number == 5 and size > 4:  # two players drop
                event.dropped |= set(rng.sample(sorted(set(event.scores) - event.dropped), 2))
            players = event.players()
            result = pair_round(players.values(), seed=event_seed * 100 + number)
            check_round(players, result, brute=size <= 64)
            assert pair_round(players.values(), seed=event_seed * 100 + number) == result
            event.play(result, rng)


@pytest.mark.parametrize("size", [9, 24], ids=lambda n: f"n{n}")
def test_another_seed_changes_nothing_the_rules_decide(size: int) -> None:
    event = Event(size, seed=7)
    rng = random.Random(size)
    for _round in range(7):
        players = event.players()
        results = [pair_round(players.values(), seed=seed) for seed in range(6)]
        costs = {round_cost(players, r) for r in results}
        assert len(costs) == 1
        event.play(results[0], rng)


def test_the_pairing_module_imports_only_the_standard_library_and_networkx() -> None:
    tree = ast.parse(Path(swiss.__file__).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0
            imported.add(str(node.module).split(".")[0])
    assert "networkx" in imported
    assert imported <= set(sys.stdlib_module_names) | {"__future__", "networkx"}
