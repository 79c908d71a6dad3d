"""One hand: what is entered (:class:`HandInput`, with both hands' cards as
:class:`HandCards` when it is settled from them) and what it scores (:class:`HandScore`).

:func:`score_counts` scores a hand from its counts; settling the counts from the cards is
:mod:`engine.cards`, which stands on this module (its :func:`~engine.cards.score_hand`
settles, then scores here). Scoring a hand needs only the rules; whether the match still
takes hands, which game or column the points go to, and who deals are the match's business
(``match.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.errors import ScoringError, _
from engine.rules import KNOB_RANGES, OklahomaAce, RuleSet, Tie, largest_deadwood

MAX_DEADWOOD = largest_deadwood(KNOB_RANGES["ace_value"][1])
"""The most deadwood any rules allow (110: aces at 15); a rule set's own is
``RuleSet.max_deadwood`` (98 with aces at 1)."""
HAND_SIZE = 10
BIG_GIN_SIZE = 11


class Side(StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


class HandKind(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DRAW = "draw"


class Result(StrEnum):
    KNOCK = "knock"
    UNDERCUT = "undercut"
    TIE = "tie"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DRAW = "draw"


RANK_VALUES: dict[str, int] = {
    "A": 1,
    **{str(n): n for n in range(2, 11)},
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}
SUITS = ("S", "H", "D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
"""Ranks in run order, ace low (``cards.py`` numbers a card by suit and this order)."""
NOT_A_CARD = {
    "knock_card": _(
        "knock card %(card)s is not a card (use rank A, 2-9, T or 10, J, Q, K "
        "and suit S, H, D, C, e.g. 7S)"
    ),
    "cards": _(
        "%(card)s is not a card (use rank A, 2-9, T or 10, J, Q, K and suit S, H, D, C, e.g. TS)"
    ),
}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card, e.g. ``Card("7", "S")``; ten is ``T``. The Oklahoma knock card, and
    the cards of a hand settled from its cards (:mod:`engine.cards`)."""

    rank: str
    suit: str

    @classmethod
    def parse(cls, text: str, *, field: str = "knock_card") -> Card:
        """Parse ``"7S"``, ``"TD"``, ``"10D"`` or ``"qh"``; raise ScoringError if malformed
        (the message and ``field`` name ``field``: ``knock_card`` or ``cards``)."""
        cleaned = text.strip().upper()
        rank, suit = cleaned[:-1], cleaned[-1:]
        if rank == "10":
            rank = "T"
        if rank not in RANK_VALUES or rank == "10" or suit not in SUITS:
            raise ScoringError(NOT_A_CARD[field], {"card": repr(text)}, field=field)
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``index`` (see :attr:`index`)."""
        return cls(RANKS[index % 13], SUITS[index // 13])

    @property
    def index(self) -> int:
        """0..51: suit (S, H, D, C) × 13 + rank (A = 0 … K = 12)."""
        return SUITS.index(self.suit) * 13 + RANKS.index(self.rank)

    @property
    def value(self) -> int:
        return RANK_VALUES[self.rank]

    @property
    def is_spade(self) -> bool:
        return self.suit == "S"

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


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
        not_a_list = {
            "knocker": _('cards: the knocker\'s cards must be a list such as ["7S", "TD"]'),
            "defender": _('cards: the defender\'s cards must be a list such as ["7S", "TD"]'),
        }
        for name, texts in (("knocker", knocker), ("defender", defender)):
            if not isinstance(texts, list | tuple) or not all(isinstance(t, str) for t in texts):
                raise ScoringError(not_a_list[name], field="cards")
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
class HandInput:
    """A hand as entered at the table. ``by`` and the deadwood counts are unused on a draw."""

    kind: HandKind
    by: Side | None = None
    deadwood: int | None = None
    defender_deadwood: int | None = None
    knock_card: Card | None = None
    cards: HandCards | None = None
    """Both hands' cards, when the hand is settled from them: the counts left out are
    taken from the cards, and the counts given must agree (:mod:`engine.cards`)."""


@dataclass(frozen=True, slots=True)
class HandScore:
    """What one hand is worth. ``points`` and ``boxes`` go to ``winner`` (None: nobody)."""

    result: Result
    winner: Side | None
    points: int
    multiplier: int
    boxes: int


DRAW_SCORE = HandScore(Result.DRAW, None, 0, 1, 0)


def knock_limit(rules: RuleSet, card: Card | None) -> int:
    """The most deadwood a knock may have in this hand (0: gin only)."""
    if not rules.oklahoma:
        return rules.knock_limit
    assert card is not None
    if card.rank == "A":
        return 0 if rules.oklahoma_ace is OklahomaAce.GIN_ONLY else 1
    return card.value


def score_counts(rules: RuleSet, hand: HandInput) -> HandScore:
    """Score one hand under ``rules`` from its counts (its cards, if any, are not read:
    :func:`engine.cards.score_hand` settles the counts from them first); raise
    ScoringError for a hand the rules forbid."""
    if hand.kind is HandKind.DRAW:
        if hand.cards is not None:
            raise ScoringError(_("a dead hand has no cards to settle"), field="cards")
        return DRAW_SCORE
    if hand.by is None:
        raise ScoringError(_("say who went out (A or B)"), field="by")
    card = hand.knock_card if rules.oklahoma else None
    if rules.oklahoma and card is None:
        raise ScoringError(_("the knock card is missing (Oklahoma rules)"), field="knock_card")
    defender = _deadwood(hand.defender_deadwood, "defender_deadwood", rules.max_deadwood)
    spade = card is not None and card.is_spade and rules.spade_double
    multiplier = 2 if spade else 1

    if hand.kind is HandKind.KNOCK:
        knocker = _knocker_deadwood(rules, hand, card)
        if knocker < defender or (knocker == defender and rules.tie is Tie.KNOCKER):
            # A tie that goes to the knocker is a won knock worth 0 (plus the knock base).
            result, winner = Result.KNOCK, hand.by
            points = defender - knocker + rules.knock_base
        elif knocker == defender and rules.tie is Tie.NO_SCORE:
            return HandScore(Result.TIE, None, 0, multiplier, 0)
        else:
            result, winner = Result.UNDERCUT, hand.by.other
            points = knocker - defender + rules.undercut_bonus
    else:
        if hand.deadwood not in (None, 0):
            if hand.kind is HandKind.GIN:
                problem = _("a gin has no knocker deadwood (it must be 0 or left out)")
            else:
                problem = _("a big gin has no knocker deadwood (it must be 0 or left out)")
            raise ScoringError(problem, field="deadwood")
        if hand.kind is HandKind.GIN:
            result, bonus = Result.GIN, rules.gin_bonus
        else:
            if rules.big_gin_bonus is None:
                raise ScoringError(_("these rules have no big gin: record it as gin"), field="kind")
            result, bonus = Result.BIG_GIN, rules.big_gin_bonus
        winner, points = hand.by, bonus + defender

    boxes = 1
    if result in (Result.GIN, Result.BIG_GIN):
        boxes += rules.gin_extra_boxes
    elif result is Result.UNDERCUT:
        boxes += rules.undercut_extra_boxes
    if spade and rules.spade_double_boxes:
        boxes *= 2
    return HandScore(result, winner, points * multiplier, multiplier, boxes)


def _knocker_deadwood(rules: RuleSet, hand: HandInput, card: Card | None) -> int:
    knocker = _deadwood(hand.deadwood, "deadwood", rules.max_deadwood)
    limit = knock_limit(rules, card)
    if knocker == 0:
        raise ScoringError(_("a knock with 0 deadwood is gin: record it as gin"), field="deadwood")
    if limit == 0:
        if rules.oklahoma:
            raise ScoringError(
                _("the knock card is an ace: only gin is allowed in this hand"), field="kind"
            )
        raise ScoringError(_("knocking is not allowed under straight gin rules"), field="kind")
    if knocker > limit:
        raise ScoringError(
            _("knocker deadwood %(deadwood)d is over the knock limit of %(limit)d"),
            {"deadwood": knocker, "limit": limit},
            field="deadwood",
        )
    return knocker


def _deadwood(value: int | None, field: str, most: int) -> int:
    if value is None:
        raise ScoringError(_("%(field)s is missing"), {"field": field}, field=field)
    if not 0 <= value <= most:
        raise ScoringError(
            _("%(field)s must be between 0 and %(max)d, not %(value)d"),
            {"field": field, "max": most, "value": value},
            field=field,
        )
    return value
