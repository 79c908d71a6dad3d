"""Settling a count from the cards: optimal melds, lay-offs and deadwood.

Given both hands of a hand that ended in a knock, gin or big gin, this works out what the
players would count at the table when both play their cards as well as the rules allow:

- the knocker's melds (sets of 3 or 4 of a rank, runs of 3 or more in a suit, ace low, no
  card in two melds) leaving the least deadwood; 11 cards all melded are a big gin;
- the defender's melds and lay-offs on the knocker's melds (a set of three completed to
  four, a run extended at either end, card after card) leaving the least deadwood; no
  lay-offs on gin or big gin;
- where the knocker has several arrangements with the same least deadwood, the one that
  leaves the defender the most deadwood counts (the knocker lays the melds down).

The rules this relies on, with their sources, are in ``docs/rules.md`` ("Cards, melds and
lay-offs"). A card is numbered 0..51 (:attr:`Card.index`: suit × 13 + rank, ace 0) and a
set of cards is a bit mask of those numbers, so a hand is one int and a meld is one int.

What this module does not do: check a knock against the knock limit or score the hand
(``hands.py`` does, with the counts worked out here), or support aces high or runs around
the corner (K-A-2): :func:`scheme_for` refuses such rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .errors import ScoringError, _
from .hands import Card, HandInput, HandKind
from .rules import RuleSet

HAND_SIZE = 10
BIG_GIN_SIZE = 11
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


def _extensions(melds: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
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


def _laid(remaining: int, fourths: int, chains: tuple[tuple[int, ...], ...]) -> int:
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
    fourths, chains = _extensions(knocker_melds)
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
        laid = _laid(remaining, fourths, chains)
        key = (value_of(remaining & ~laid), -value_of(used))
        if best is None or key < best:
            best, chosen_melds, chosen_laid = key, melded, laid
    assert best is not None
    return Defence(best[0], canonical(chosen_melds), chosen_laid)


# -- a hand's cards and the ruling -----------------------------------------------------------


def cards_of(mask: int) -> tuple[Card, ...]:
    return tuple(Card.from_index(i) for i in range(52) if mask >> i & 1)


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def _meld_cards(meld: int) -> tuple[Card, ...]:
    """A meld's cards in reading order: a run by rank, a set by suit (S, H, D, C)."""
    return cards_of(meld)


@dataclass(frozen=True, slots=True)
class HandCards:
    """Both hands of a hand settled from its cards, each in card order. ``knocker`` is the
    hand of the player who went out (the hand's ``by``): 10 cards, or 11 for a big gin."""

    knocker: tuple[Card, ...]
    defender: tuple[Card, ...]

    @classmethod
    def parse(cls, data: object) -> HandCards:
        """``{"knocker": ["7S", …], "defender": [...]}`` (JSON, a form, a stored hand),
        checked: known cards, the right number of each, no card twice."""
        if not isinstance(data, Mapping) or set(data) != {"knocker", "defender"}:
            raise ScoringError(
                _("cards must be an object with a knocker list and a defender list"),
                field="cards",
            )
        return cls.of(data["knocker"], data["defender"])

    @classmethod
    def of(cls, knocker: object, defender: object) -> HandCards:
        hands = []
        seen: set[Card] = set()
        for name, texts in (("knocker", knocker), ("defender", defender)):
            if not isinstance(texts, list | tuple) or not all(isinstance(t, str) for t in texts):
                raise ScoringError(
                    _('cards: the %(hand)s\'s cards must be a list such as ["7S", "TD"]'),
                    {"hand": name},
                    field="cards",
                )
            hand = []
            for text in texts:
                card = Card.parse(text, field="cards")
                if card in seen:
                    raise ScoringError(
                        _("card %(card)s is given twice"), {"card": str(card)}, field="cards"
                    )
                seen.add(card)
                hand.append(card)
            hands.append(tuple(sorted(hand, key=lambda card: card.index)))
        count_k, count_d = len(hands[0]), len(hands[1])
        if count_k not in (HAND_SIZE, BIG_GIN_SIZE):
            raise ScoringError(
                _("the knocker has %(count)d cards: 10, or 11 for a big gin"),
                {"count": count_k},
                field="cards",
            )
        if count_d != HAND_SIZE:
            raise ScoringError(
                _("the defender has %(count)d cards: 10"), {"count": count_d}, field="cards"
            )
        return cls(hands[0], hands[1])

    def to_dict(self) -> dict[str, list[str]]:
        return {
            "knocker": [str(card) for card in self.knocker],
            "defender": [str(card) for card in self.defender],
        }


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the cards say: the kind of the hand, the knocker's melds and deadwood, the
    defender's melds, lay-offs (each with the knocker's meld it goes on) and deadwood."""

    kind: HandKind
    knocker_melds: tuple[tuple[Card, ...], ...]
    knocker_unmatched: tuple[Card, ...]
    knocker_deadwood: int
    defender_melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, int], ...]
    defender_unmatched: tuple[Card, ...]
    defender_deadwood: int

    @property
    def layoffs_by_meld(self) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], ...]:
        """``(knocker's meld, cards laid off on it)`` for each meld that took some."""
        return tuple(
            (meld, tuple(card for card, target in self.layoffs if target == i))
            for i, meld in enumerate(self.knocker_melds)
            if any(target == i for _card, target in self.layoffs)
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``cards`` of a hand in the ``score_sheet`` output."""
        return {
            "knocker": {
                "melds": [[str(c) for c in meld] for meld in self.knocker_melds],
                "deadwood": self.knocker_deadwood,
            },
            "defender": {
                "melds": [[str(c) for c in meld] for meld in self.defender_melds],
                "layoffs": [str(card) for card, _target in self.layoffs],
                "deadwood": self.defender_deadwood,
            },
        }


@lru_cache(maxsize=4096)
def rule(cards: HandCards) -> Ruling:
    """The ruling on ``cards`` (see the module's docstring); a ScoringError for 11 cards
    that are not all melded."""
    knocker = mask_of(cards.knocker)
    defender = mask_of(cards.defender)
    count, options = arrangements(knocker)
    if len(cards.knocker) == BIG_GIN_SIZE:
        if count:
            raise ScoringError(
                _(
                    "the knocker's 11 cards leave %(deadwood)d deadwood: 11 cards are only "
                    "for a big gin (all melded); give the 10 kept after the discard"
                ),
                {"deadwood": count},
                field="cards",
            )
        kind = HandKind.BIG_GIN
    else:
        kind = HandKind.GIN if count == 0 else HandKind.KNOCK
    if kind is HandKind.KNOCK:
        # The knocker lays down the arrangement that leaves the defender the most.
        melds, defence = max(
            ((option, defend(option, defender)) for option in options),
            key=lambda pair: pair[1].deadwood,
        )
    else:
        melds, defence = options[0], defend((), defender)
    unmatched = knocker & ~sum(melds)
    laid = cards_of(defence.layoffs)
    return Ruling(
        kind=kind,
        knocker_melds=tuple(_meld_cards(meld) for meld in melds),
        knocker_unmatched=cards_of(unmatched),
        knocker_deadwood=count,
        defender_melds=tuple(_meld_cards(meld) for meld in defence.melds),
        layoffs=tuple((card, _target(card, melds, defence.layoffs)) for card in laid),
        defender_unmatched=cards_of(defender & ~sum(defence.melds) & ~defence.layoffs),
        defender_deadwood=defence.deadwood,
    )


def _target(card: Card, melds: tuple[int, ...], laid: int) -> int:
    """Which of the knocker's ``melds`` (index) ``card`` is laid off on."""
    bit = 1 << card.index
    for i, meld in enumerate(melds):
        fourths, chains = _extensions((meld,))
        if bit & fourths or bit & _laid(laid, 0, chains):
            return i
    raise AssertionError(f"{card} is laid off on no meld")


# -- the counts of a hand from its cards -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settled:
    kind: HandKind
    deadwood: int | None
    defender_deadwood: int
    ruling: Ruling


def settle(
    rules: RuleSet,
    cards: HandCards,
    *,
    kind: HandKind | None = None,
    deadwood: int | None = None,
    defender_deadwood: int | None = None,
) -> Settled:
    """The kind and counts of a hand from its cards; those given must agree with them.

    ``kind`` None takes it from the cards. Under rules without a big gin, 11 melded cards
    are recorded as gin. A ScoringError names the field that disagrees.
    """
    scheme_for(rules)
    ruling = rule(cards)
    derived = ruling.kind
    if derived is HandKind.BIG_GIN and rules.big_gin_bonus is None and kind is not derived:
        derived = HandKind.GIN  # "record it as gin", as these rules say
    if kind is not None and kind is not derived:
        raise ScoringError(*_kind_problem(ruling, kind), field="kind")
    if derived is HandKind.KNOCK:
        if deadwood is not None and deadwood != ruling.knocker_deadwood:
            raise ScoringError(
                _("the cards give the knocker %(derived)d deadwood, not %(given)d"),
                {"derived": ruling.knocker_deadwood, "given": deadwood},
                field="deadwood",
            )
        knocker: int | None = ruling.knocker_deadwood
    else:
        knocker = None if deadwood in (None, 0) else deadwood  # hands.py refuses the rest
    if defender_deadwood is not None and defender_deadwood != ruling.defender_deadwood:
        if derived is HandKind.KNOCK:
            template = _(
                "the cards give the defender %(derived)d deadwood after lay-offs, not %(given)d"
            )
        else:
            template = _("the cards give the defender %(derived)d deadwood, not %(given)d")
        raise ScoringError(
            template,
            {"derived": ruling.defender_deadwood, "given": defender_deadwood},
            field="defender_deadwood",
        )
    return Settled(derived, knocker, ruling.defender_deadwood, ruling)


def _kind_problem(ruling: Ruling, given: HandKind) -> tuple[str, dict[str, object]]:
    if ruling.kind is HandKind.BIG_GIN:
        return _("the knocker's 11 cards are all melded: that is a big gin"), {}
    if given is HandKind.BIG_GIN:
        return _("a big gin needs the knocker's 11 cards, all melded"), {}
    if ruling.kind is HandKind.GIN:
        return _("the knocker's cards leave no deadwood: that is gin, not a knock"), {}
    return (
        _("the knocker's cards leave %(deadwood)d deadwood: that is a knock, not gin"),
        {"deadwood": ruling.knocker_deadwood},
    )


def settle_input(rules: RuleSet, hand: HandInput) -> HandInput:
    """``hand`` with its counts taken from its cards (checked against those it gives)."""
    assert hand.cards is not None
    settled = settle(
        rules,
        hand.cards,
        kind=hand.kind,
        deadwood=hand.deadwood,
        defender_deadwood=hand.defender_deadwood,
    )
    return replace(hand, deadwood=settled.deadwood, defender_deadwood=settled.defender_deadwood)
