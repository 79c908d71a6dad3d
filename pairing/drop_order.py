"""Where a double elimination drops winners'-bracket losers into the losers' bracket.

Pure Python, standard library only; :func:`pairing.brackets.double_elimination`
asks it once per field. The losers' bracket alternates two kinds of round: a *drop-in*
round, where the losers of a winners' round (side A) meet the losers'-bracket survivors
(side B), and a round halving the survivors. Which survivor each dropped player meets
is free; this module chooses it so that two players who met in the winners' bracket
meet again as late as the field allows.

How it is chosen
----------------
For a bracket shape it computes exactly, with every match a fair coin toss, the
expected number of **early rematches** (two players meet in a losers'-bracket match
before the losers' final having met before) and of **immediate** ones (for one of
them it is their first losers'-bracket match). Two players can only meet again there
after meeting in the winners' bracket: ``w`` where one beat the other, then ``w'``
further up where the winner lost. The chance that they then meet at the losers'
match where the two drop paths join is ``2^-(d + i + j)``: ``d`` winners' matches the
winner of ``w`` must win and lose, ``i`` and ``j`` losers' matches each must win to
get there, all different coins; the expectation is the sum over every such ``w, w'``.

It starts from the default of brackets-manager.js (the "superior" losers'-bracket
seeding: per winners' round an order among natural, reverse, half shift, reverse
half shift and pair flip; for fields of more than 64 lines, reverse, half shift,
then pair flips), and then, for fields of up to :data:`SEARCHED_UP_TO` players, tries
every XOR mask and every rotation of each round's order in turn, keeping a change only
when neither count grows and their sum falls by at least :data:`WORTH_IT`. The byes
(who has none in round 1) change the shape, so each pattern of byes is searched on its
own. The result never has more of either kind than that default.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Final

__all__ = ["SEARCHED_UP_TO", "WORTH_IT", "drop_orders", "rematch_risk"]

SEARCHED_UP_TO: Final = 64
"""Fields with more round-1 lines than this keep the default orders (searching costs
about n² log n)."""
WORTH_IT: Final = Fraction(1, 64)
"""The least fall in expected early plus immediate rematches worth leaving the default."""

Order = tuple[int, ...]
"""Position ``p`` of a drop-in round takes the loser of that winners' round's match
``order[p]`` (0-based, top to bottom)."""


def drop_orders(byes: Sequence[bool]) -> tuple[Order, ...]:
    """The order of each drop-in round (winners' rounds 2, 3 …) for a winners' bracket
    whose round-1 matches are byes where ``byes`` is true (its length a power of two)."""
    return _drop_orders(tuple(byes))


@lru_cache(maxsize=512)
def _drop_orders(byes: tuple[bool, ...]) -> tuple[Order, ...]:
    lines = 2 * len(byes)
    if lines & (lines - 1):
        raise ValueError(f"round 1 has a power of two of matches, not {len(byes)}")
    orders = _default_orders(lines)
    if lines > 2 * SEARCHED_UP_TO or not orders:
        return orders
    start = rematch_risk(byes, orders)
    best = start
    improved = True
    while improved:
        improved = False
        for index, order in enumerate(orders):
            for candidate in _candidates(len(order)):
                if candidate == orders[index]:
                    continue
                trial = (*orders[:index], candidate, *orders[index + 1 :])
                early, immediate = rematch_risk(byes, trial)
                if (
                    early <= start[0]
                    and immediate <= start[1]
                    and early + immediate <= sum(best) - WORTH_IT
                ):
                    orders, best, improved = trial, (early, immediate), True
    return orders


def _default_orders(lines: int) -> tuple[Order, ...]:
    """brackets-manager.js's default drop-in orders, as XOR masks per round."""
    counts = []
    drops = lines // 4
    while drops >= 1:
        counts.append(drops)
        drops //= 2
    masks = {
        4: [0],
        8: [1, 0],
        16: [1, 1, 0],
        32: [7, 2, 0, 0],
        64: [15, 4, 3, 0, 0],
    }.get(lines)
    if masks is None:  # reverse, half shift, then pair flips; one drop is one drop
        masks = [
            count - 1 if r == 0 else count // 2 if r == 1 else 1 for r, count in enumerate(counts)
        ]
        masks = [m if count > 1 else 0 for m, count in zip(masks, counts, strict=True)]
    return tuple(tuple(p ^ m for p in range(count)) for m, count in zip(masks, counts, strict=True))


def _candidates(count: int) -> list[Order]:
    orders = [tuple(p ^ m for p in range(count)) for m in range(count)]
    orders += [tuple((p + shift) % count for p in range(count)) for shift in range(1, count)]
    return list(dict.fromkeys(orders))


def rematch_risk(byes: Sequence[bool], orders: Sequence[Order]) -> tuple[Fraction, Fraction]:
    """Expected early and immediate losers'-bracket rematches with fair coin tosses.

    The losers' bracket is built exactly as :func:`~pairing.brackets.double_elimination`
    builds it: losers' round 1 pairs neighbouring round-1 losers, a pairing with nobody on
    one side is no match, each drop-in round places the drops by ``orders``.
    """
    rounds = len(orders) + 1
    # winners' match (round, index) → the losers' match its loser plays first
    enters: dict[tuple[int, int], int] = {}
    parent: dict[int, int] = {}
    matches = 0

    Slot = tuple[int, int] | int | None  # a drop (round, index), a losers' match, nobody

    def play(pairs: Sequence[tuple[Slot, Slot]]) -> list[Slot]:
        nonlocal matches
        out: list[Slot] = []
        for a, b in pairs:
            if a is None or b is None:
                out.append(b if a is None else a)
                continue
            match = matches
            matches += 1
            for side in (a, b):
                if isinstance(side, tuple):
                    enters[side] = match
                else:
                    parent[side] = match
            out.append(match)
        return out

    if rounds < 2:
        return Fraction(0), Fraction(0)
    first: list[Slot] = [None if bye else (1, j) for j, bye in enumerate(byes)]
    survivors = play(list(zip(first[::2], first[1::2], strict=True)))
    for number, order in enumerate(orders, start=2):
        placed: list[Slot] = [(number, i) for i in order]
        survivors = play(list(zip(placed, survivors, strict=True)))
        if len(survivors) > 1:
            survivors = play(list(zip(survivors[::2], survivors[1::2], strict=True)))
    final = matches - 1

    def path(match: int) -> list[int]:
        out = [match]
        while out[-1] in parent:
            out.append(parent[out[-1]])
        return out

    paths = {drop: path(match) for drop, match in enters.items()}
    scale = 4 * rounds  # no chance is smaller than 2^-scale: count in those units
    early = immediate = 0
    for (number, index), lower in paths.items():
        steps = {match: i for i, match in enumerate(lower)}
        distance = 0
        above = (number, index)
        while above[0] < rounds:
            above = (above[0] + 1, above[1] // 2)
            distance += 1
            for j, match in enumerate(paths[above]):
                if match in steps:
                    i = steps[match]
                    if match != final:
                        chance = 1 << (scale - distance - i - j)
                        early += chance
                        if i == 0 or j == 0:
                            immediate += chance
                    break
    return Fraction(early, 1 << scale), Fraction(immediate, 1 << scale)
