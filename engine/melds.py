"""The search behind settling a count from the cards: melds, deadwood and lay-offs on bit
masks (:mod:`engine.cards` puts cards and rulings around it).

A card is numbered 0..51 (:attr:`Card.index`: suit × 13 + rank, ace 0) and a set of cards
is an int with those bits set, so a hand is one int and a meld is one int; per-suit tables
(13-bit patterns) give a hand's value and runs without looking at its cards one by one.

- :func:`deadwood`: the least deadwood of a hand (disjoint melds holding the most value);
- :func:`arrangements`: every arrangement of melds that leaves it (runs that touch joined);
- :func:`defend`: the defender's best own melds and lay-offs on the knocker's melds (a set
  of three completed, runs extended card by card at either end; none on gin).

Ace low only (:class:`Scheme`); :func:`scheme_for` refuses other rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.errors import ScoringError, _
from engine.rules import RuleSet

SUIT_BITS = 13
FULL_SUIT = (1 << SUIT_BITS) - 1


# -- how ranks count ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scheme:
    """How ranks count: each rank's value (ace first) and whether a run may turn the
    corner (Q-K-A, K-A-2). Every table below is built from one scheme; only ace low
    (ace 1, no corner) is built today. Another scheme would need its own tables and, for
    the corner, runs that wrap from bit 12 to bit 0 of a suit in :func:`_suit_runs`."""

    values: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
    corner: bool = False


ACE_LOW = Scheme()


def scheme_for(rules: RuleSet) -> Scheme:
    """The scheme of ``rules``; a ScoringError for rules this module does not support.

    The rules have no ace or corner knob today; should one be added (``ace_value``,
    ``runs_around_the_corner``), anything but ace low is refused here, not miscounted.
    """
    ace_value = getattr(rules, "ace_value", 1)
    corner = getattr(rules, "runs_around_the_corner", False)
    if ace_value != 1 or corner:
        raise ScoringError(
            _(
                "settling a hand from its cards works only with aces low (ace 1, no runs "
                "around the corner); enter the counts instead"
            ),
            field="cards",
        )
    return ACE_LOW


def _suit_values(scheme: Scheme) -> tuple[int, ...]:
    """The value of every 13-bit pattern of one suit's cards."""
    table = [0] * (1 << SUIT_BITS)
    for pattern in range(1, 1 << SUIT_BITS):
        low = pattern & -pattern
        table[pattern] = table[pattern ^ low] + scheme.values[low.bit_length() - 1]
    return tuple(table)


_SUIT_VALUE = _suit_values(ACE_LOW)
_RUNS: dict[int, tuple[int, ...]] = {}


def value_of(mask: int) -> int:
    """The deadwood value of the cards in ``mask``."""
    table = _SUIT_VALUE
    return (
        table[mask & FULL_SUIT]
        + table[(mask >> 13) & FULL_SUIT]
        + table[(mask >> 26) & FULL_SUIT]
        + table[mask >> 39]
    )


def _suit_runs(pattern: int) -> tuple[int, ...]:
    """Every run (3 or more in a row, ace low) among one suit's cards, as 13-bit masks."""
    runs = _RUNS.get(pattern)
    if runs is None:
        found = []
        rank = 0
        while rank < SUIT_BITS:
            if not pattern >> rank & 1:
                rank += 1
                continue
            start = rank
            while rank < SUIT_BITS and pattern >> rank & 1:
                rank += 1
            for low in range(start, rank - 2):
                for high in range(low + 2, rank):
                    found.append(((1 << (high - low + 1)) - 1) << low)
        runs = _RUNS[pattern] = tuple(found)
    return runs


def candidate_melds(mask: int) -> list[int]:
    """Every meld that can be made from the cards in ``mask``: all runs (sub-runs too) and
    all sets of three and four, overlapping one another."""
    melds: list[int] = []
    suits = [(mask >> (13 * suit)) & FULL_SUIT for suit in range(4)]
    for suit, pattern in enumerate(suits):
        if pattern & (pattern >> 1) & (pattern >> 2):  # three in a row somewhere
            shift = 13 * suit
            melds.extend(run << shift for run in _suit_runs(pattern))
    a, b, c, d = suits
    three = (a & b & (c | d)) | (c & d & (a | b))  # ranks held in 3 or 4 suits
    while three:
        rank = three & -three
        three ^= rank
        cards = [rank << (13 * suit) for suit in range(4) if suits[suit] & rank]
        whole = sum(cards)
        melds.append(whole)
        if len(cards) == 4:
            melds.extend(whole ^ card for card in cards)
    return melds


def _max_melded(melds: Sequence[int]) -> int:
    """The most value that disjoint melds of ``melds`` can hold."""
    values = [value_of(meld) for meld in melds]
    count = len(melds)

    def best(start: int, used: int) -> int:
        top = 0
        for i in range(start, count):
            meld = melds[i]
            if not meld & used:
                total = values[i] + best(i + 1, used | meld)
                if total > top:
                    top = total
        return top

    return best(0, 0)


@lru_cache(maxsize=65536)
def deadwood(mask: int) -> int:
    """The least deadwood the cards in ``mask`` can leave (ace low)."""
    melds = candidate_melds(mask)
    if not melds:
        return value_of(mask)
    return value_of(mask) - _max_melded(melds)


def _partitions(melds: Sequence[int]) -> Iterable[tuple[int, tuple[int, ...]]]:
    """Every choice of disjoint melds from ``melds`` (none included), with the cards it
    uses: ``(used mask, melds)``."""
    count = len(melds)

    def walk(
        start: int, used: int, chosen: tuple[int, ...]
    ) -> Iterable[tuple[int, tuple[int, ...]]]:
        yield used, chosen
        for i in range(start, count):
            meld = melds[i]
            if not meld & used:
                yield from walk(i + 1, used | meld, (*chosen, meld))

    return walk(0, 0, ())


def _suit_of(meld: int) -> int:
    """The suit of a run (a set spans three or four suits: -1)."""
    low_suit = ((meld & -meld).bit_length() - 1) // 13
    return low_suit if meld >> (13 * low_suit) <= FULL_SUIT else -1


def canonical(melds: Iterable[int]) -> tuple[int, ...]:
    """The same melds with runs that touch in one suit joined (A-2-3 and 4-5-6 are one run
    A-6: the same cards, the same ends to lay off on), in card order."""
    ordered = sorted(melds, key=lambda meld: meld & -meld)
    joined: list[int] = []
    for meld in ordered:
        if joined:
            last = joined[-1]
            suit = _suit_of(meld)
            if suit >= 0 and suit == _suit_of(last) and (1 << last.bit_length()) == meld & -meld:
                joined[-1] = last | meld
                continue
        joined.append(meld)
    return tuple(sorted(joined, key=lambda meld: meld & -meld))


@lru_cache(maxsize=16384)
def arrangements(mask: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The least deadwood of ``mask`` and every arrangement of melds that leaves it
    (runs joined, each arrangement once), in a fixed order."""
    melds = candidate_melds(mask)
    total = value_of(mask)
    if not melds:
        return total, ((),)
    best = _max_melded(melds)
    found = {canonical(chosen) for used, chosen in _partitions(melds) if value_of(used) == best}
    return total - best, tuple(sorted(found))


# -- lay-offs --------------------------------------------------------------------------------


def extensions(melds: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Where the defender may lay off on ``melds``: the cards that complete a set of three
    (mask), and for each run its two chains of cards outwards, nearest first."""
    fourths = 0
    chains: list[tuple[int, ...]] = []
    for meld in melds:
        suit = _suit_of(meld)
        if suit < 0:
            if meld.bit_count() == 3:
                low = meld & -meld
                rank = (low.bit_length() - 1) % 13
                whole = sum(1 << (13 * s + rank) for s in range(4))
                fourths |= whole ^ meld
            continue
        low_rank = ((meld & -meld).bit_length() - 1) % 13
        high_rank = (meld.bit_length() - 1) % 13
        base = 13 * suit
        chains.append(tuple(1 << (base + rank) for rank in range(low_rank - 1, -1, -1)))
        chains.append(tuple(1 << (base + rank) for rank in range(high_rank + 1, 13)))
    return fourths, tuple(chain for chain in chains if chain)


def laid_off(remaining: int, fourths: int, chains: tuple[tuple[int, ...], ...]) -> int:
    """The cards of ``remaining`` that can be laid off: fourth cards of sets, and each
    run's chain as far as the defender holds it unbroken (a lay-off on a lay-off)."""
    laid = remaining & fourths
    for chain in chains:
        for card in chain:
            if not remaining & card:
                break
            laid |= card
    return laid


@dataclass(frozen=True, slots=True)
class Defence:
    deadwood: int
    melds: tuple[int, ...]
    layoffs: int
    """Mask of the cards laid off on the knocker's melds."""


@lru_cache(maxsize=16384)
def defend(knocker_melds: tuple[int, ...], mask: int) -> Defence:
    """The defender's best: own melds and lay-offs on ``knocker_melds`` (empty for gin:
    no lay-offs) that leave the least deadwood; on a tie, the most own melds."""
    fourths, chains = extensions(knocker_melds)
    reach = fourths
    for chain in chains:
        reach |= chain[0]  # two runs can wait for the same card: or, never add
    melds = candidate_melds(mask)
    if not mask & reach:  # nothing can be laid off: the least deadwood is the answer
        count, options = arrangements(mask)
        return Defence(count, options[0], 0)
    best: tuple[int, int] | None = None
    chosen_melds: tuple[int, ...] = ()
    chosen_laid = 0
    for used, melded in _partitions(melds):
        remaining = mask & ~used
        laid = laid_off(remaining, fourths, chains)
        key = (value_of(remaining & ~laid), -value_of(used))
        if best is None or key < best:
            best, chosen_melds, chosen_laid = key, melded, laid
    assert best is not None
    return Defence(best[0], canonical(chosen_melds), chosen_laid)
