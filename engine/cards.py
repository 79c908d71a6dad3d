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
lay-offs"). The search itself works on bit masks (:mod:`engine.melds`); this
module turns cards into masks and the answer back into cards, and checks a hand's counts.

:func:`score_hand` scores any hand: one with cards is settled here first, then the counts
go to :func:`engine.hands.score_counts`, which checks a knock against the knock limit and
scores it. The cards themselves (:class:`~engine.hands.HandCards`) are a hand's data, in
``hands.py``. What this module does not do: support aces high or runs around the corner
(K-A-2): :func:`scheme_for` refuses such rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from engine.errors import ScoringError, _
from engine.hands import BIG_GIN_SIZE, Card, HandCards, HandInput, HandKind, HandScore, score_counts
from engine.melds import arrangements, defend, extensions, laid_off, scheme_for
from engine.rules import RuleSet

# -- a hand's cards and the ruling -----------------------------------------------------------


_CARDS = tuple(Card.from_index(i) for i in range(52))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in ``mask``, in card order."""
    found = []
    while mask:
        low = mask & -mask
        found.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(found)


_BITS = {card: 1 << i for i, card in enumerate(_CARDS)}


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= _BITS[card]
    return mask


def _meld_cards(meld: int) -> tuple[Card, ...]:
    """A meld's cards in reading order: a run by rank, a set by suit (S, H, D, C)."""
    return cards_of(meld)


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
    bit = _BITS[card]
    for i, meld in enumerate(melds):
        fourths, chains = extensions((meld,))
        if bit & fourths or bit & laid_off(laid, 0, chains):
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


def score_hand(rules: RuleSet, hand: HandInput) -> HandScore:
    """Score one hand under ``rules``, its counts settled from its cards first when it has
    them (:func:`settle_input`); raise ScoringError for a hand the rules forbid."""
    if hand.cards is not None and hand.kind is not HandKind.DRAW:
        hand = settle_input(rules, hand)
    return score_counts(rules, hand)
