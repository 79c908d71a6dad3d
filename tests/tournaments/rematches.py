"""Losers'-bracket rematches, ours against brackets-manager.js's default, by simulation.

Shared by ``test_drop_order.py`` (a sample) and ``make bench`` (the full sweep). The
peer's default is written here from its source (``src/ordering.ts`` and
``createLowerBracket`` in ``src/base/stage/creator.ts``, brackets-manager.js 1.8), not
from :mod:`pairing.drop_order`: the orders by name, its ``defaultMinorOrdering``
table, and its way of building the losers' bracket over the same winners' bracket
(losers of a bye are BYEs; a BYE passes its opponent on).

Every match is a fair coin toss; the toss for a meeting of two players depends only on
the result set, the two players and how often they have met, so that both brackets see
the same tosses wherever they pair the same players (common random numbers).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pairing.brackets import Bracket, Section, Source, double_elimination

Order = Callable[[list[object]], list[object]]

ORDERINGS: dict[str, Order] = {
    "natural": lambda a: list(a),
    "reverse": lambda a: list(reversed(a)),
    "half_shift": lambda a: a[len(a) // 2 :] + a[: len(a) // 2],
    "reverse_half_shift": lambda a: a[: len(a) // 2][::-1] + a[len(a) // 2 :][::-1],
    "pair_flip": lambda a: [x for i in range(0, len(a), 2) for x in (a[i + 1], a[i])],
}
DEFAULT_MINOR_ORDERING: dict[int, list[str]] = {
    4: ["natural", "reverse"],
    8: ["natural", "reverse", "natural"],
    16: ["natural", "reverse_half_shift", "reverse", "natural"],
    32: ["natural", "reverse", "half_shift", "natural", "natural"],
    64: ["natural", "reverse", "half_shift", "reverse", "natural", "natural"],
    128: ["natural", "reverse", "half_shift", "pair_flip", "pair_flip", "pair_flip", "natural"],
}

# A side of a losers' match: ("loser", winners' key), ("winner", losers' match index), None.
Side = tuple[str, object] | None


@dataclass(frozen=True)
class Losers:
    """A losers' bracket as a list of matches, each two sides, the last the final."""

    matches: tuple[tuple[Side, Side], ...]


def ours(players: int) -> Losers:
    bracket = double_elimination(players)
    matches = [m for m in bracket.matches if m.section is Section.LOSERS]  # playing order
    index = {m.key: i for i, m in enumerate(matches)}

    def side(source: Source) -> Side:
        if source.loser_of is not None:
            return ("loser", source.loser_of)
        assert source.winner_of is not None
        return ("winner", index[source.winner_of])

    return Losers(tuple((side(m.a), side(m.b)) for m in matches))


def peer(players: int) -> Losers:
    """brackets-manager.js's losers' bracket for this field (its default orderings)."""
    bracket = double_elimination(players)  # the winners' bracket is the same as theirs
    winners = bracket.rounds(Section.WINNERS)
    size = 2 * len(winners[0])
    names = DEFAULT_MINOR_ORDERING.get(size, [])

    def named(position: int) -> str:
        return names[position] if position < len(names) else "natural"

    losers: list[list[Side]] = [
        [None if m.is_bye else ("loser", m.key) for m in rnd] for rnd in winners
    ]
    matches: list[tuple[Side, Side]] = []

    def bye_winner(duel: tuple[Side, Side]) -> Side:
        a, b = duel
        if a is None or b is None:
            return b if a is None else a
        matches.append(duel)
        return ("winner", len(matches) - 1)

    duels = _pairs(ORDERINGS[named(0)](list(losers[0])))
    pair_rounds = len(winners) - 1
    for i in range(pair_rounds):
        if i > 0:  # minor to major: winners of neighbouring duels
            winners_of = [bye_winner(d) for d in duels]
            duels = list(zip(winners_of[::2], winners_of[1::2], strict=True))
        last_minor = i == pair_rounds - 1
        dropped = list(losers[i + 1])
        ordered = dropped if last_minor else ORDERINGS[named(1 + i)](dropped)
        duels = [(ordered[j], bye_winner(duels[j])) for j in range(len(duels))]
    for duel in duels:
        bye_winner(duel)
    return Losers(tuple(matches))


def _pairs(items: Sequence[Side]) -> list[tuple[Side, Side]]:
    return list(zip(items[::2], items[1::2], strict=True))


def _mix(value: int) -> int:
    """splitmix64: a well-spread 64-bit hash of an integer."""
    value = (value + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return value ^ (value >> 31)


@dataclass
class Count:
    early: int = 0
    immediate: int = 0


def play(bracket: Bracket, losers: Losers, result_set: int, count: Count) -> None:
    """Play the winners' bracket, then ``losers``, tossing coins; count the rematches."""
    met: dict[tuple[int, int], int] = {}
    salt = _mix(result_set)

    def toss(a: int, b: int) -> int:
        pair = (a, b) if a < b else (b, a)
        times = met.get(pair, 0)
        met[pair] = times + 1
        heads = _mix(salt ^ (pair[0] << 40) ^ (pair[1] << 20) ^ times) & 1
        return pair[heads]

    winner: dict[str, int] = {}
    loser: dict[str, int] = {}
    for match in bracket.matches:
        if match.section is not Section.WINNERS:
            continue
        a = match.a.seed if match.a.seed is not None else winner.get(str(match.a.winner_of))
        b = match.b.seed if match.b.seed is not None else winner.get(str(match.b.winner_of))
        if a is None or b is None:
            winner[match.key] = a if b is None else b  # type: ignore[assignment]
            continue
        won = toss(a, b)
        winner[match.key], loser[match.key] = won, b if won == a else a

    lb_winner: list[int] = []
    seen: set[int] = set()
    last = len(losers.matches) - 1
    for index, (side_a, side_b) in enumerate(losers.matches):
        a, b = (
            loser[str(s[1])] if s[0] == "loser" else lb_winner[int(s[1])]  # type: ignore[index, call-overload]
            for s in (side_a, side_b)
        )
        if (min(a, b), max(a, b)) in met and index != last:
            count.early += 1
            if a not in seen or b not in seen:
                count.immediate += 1
        seen |= {a, b}
        lb_winner.append(toss(a, b))


def sweep(sizes: Sequence[int], result_sets: int) -> dict[int, tuple[Count, Count]]:
    """(ours, peer) rematch counts per field size over ``result_sets`` random results."""
    table: dict[int, tuple[Count, Count]] = {}
    for size in sizes:
        bracket = double_elimination(size)
        mine, theirs = ours(size), peer(size)
        counts = (Count(), Count())
        for result_set in range(result_sets):
            seed = random.Random(f"{size}-{result_set}").getrandbits(62)
            play(bracket, mine, seed, counts[0])
            play(bracket, theirs, seed, counts[1])
        table[size] = counts
    return table


def table_lines(table: dict[int, tuple[Count, Count]], result_sets: int) -> list[str]:
    lines = [
        f"losers'-bracket rematches over {result_sets} random result sets per size",
        "players   early: ours  peer   immediate: ours  peer",
    ]
    for size, (mine, theirs) in table.items():
        lines.append(
            f"{size:7}  {mine.early:11} {theirs.early:5}  {mine.immediate:15} {theirs.immediate:5}"
        )
    total = [
        sum(getattr(c[k], a) for c in table.values())
        for a in ("early", "immediate")
        for k in (0, 1)
    ]
    lines.append(f"{'total':>7}  {total[0]:11} {total[1]:5}  {total[2]:15} {total[3]:5}")
    return lines
