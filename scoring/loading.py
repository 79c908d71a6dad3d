"""Loading hands for the engine: the only place that reads Hand rows and turns them into
engine input (the writes are :mod:`scoring.services`).

:func:`load_inputs` reads any set of hands (a match's, a round's, a tournament's) as plain
rows and converts them with :func:`engine_input`, the one conversion, into engine input by
match; :func:`score_matches` scores many matches at once. Pages that list hands (with
their ids, who entered them) load model instances with :func:`load_hands`, and
:func:`hand_inputs` puts those through the same conversion. :class:`HandData` is a hand as
a form or an archive gives it, before it is engine input.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import (
    Card,
    HandCards,
    HandInput,
    HandKind,
    HandScore,
    MatchSheet,
    RuleSet,
    ScoredHand,
    ScoringError,
    Side,
    preview_hand,
    score_played,
)
from tournaments.models import Match

from .models import Hand

HAND_FIELDS = ("kind", "by", "deadwood", "defender_deadwood", "knock_card", "cards")

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class HandData:
    """A hand as a form or archive gives it (strings and numbers, not yet engine types)."""

    kind: str
    by: str = ""
    deadwood: int | None = None
    defender_deadwood: int | None = None
    knock_card: str = ""
    cards: dict[str, list[str]] | None = None  # {"knocker": […], "defender": […]} or None

    @classmethod
    def of(cls, hand: Hand) -> HandData:
        return cls(*(getattr(hand, name) for name in HAND_FIELDS))

    def to_input(self) -> HandInput:
        return engine_input(
            self.kind, self.by, self.deadwood, self.defender_deadwood, self.knock_card, self.cards
        )

    def cleaned(self) -> HandData:
        """Only the fields that matter for this kind (a draw keeps none but its cards, for
        the engine to refuse); cards in card order."""
        cards = HandCards.parse(self.cards).to_dict() if self.cards is not None else None
        if self.kind == HandKind.DRAW:
            return HandData(self.kind, cards=cards)
        card = str(Card.parse(self.knock_card)) if self.knock_card else ""
        # A gin's knocker deadwood is 0 or absent; any other number stays, so that the
        # engine refuses the hand (as score_sheet does) rather than it vanishing unseen.
        deadwood = self.deadwood
        if self.kind != HandKind.KNOCK and deadwood == 0:
            deadwood = None
        return HandData(self.kind, self.by, deadwood, self.defender_deadwood, card, cards)


def engine_input(
    kind: str,
    by: str,
    deadwood: int | None,
    defender_deadwood: int | None,
    knock_card: str,
    cards: Mapping[str, Any] | None = None,
) -> HandInput:
    """A hand's stored fields (HAND_FIELDS, in that order) as the engine's input."""
    hand_kind = HandKind(kind)
    hand_cards = HandCards.parse(cards) if cards is not None else None
    if hand_kind is HandKind.DRAW:
        return HandInput(hand_kind, cards=hand_cards)
    return HandInput(
        hand_kind,
        Side(by) if by in ("A", "B") else None,
        deadwood,
        defender_deadwood,
        Card.parse(knock_card) if knock_card else None,
        hand_cards,
    )


def first_dealer(match: Match, chosen: str | None = None) -> Side | None:
    """The match's first dealer, or ``chosen`` when the match has none recorded yet."""
    value = match.first_dealer or chosen
    return Side(value) if value in ("A", "B") else None


def hand_inputs(hands: Iterable[Hand]) -> list[HandInput]:
    """Loaded Hand instances as engine input (the same conversion as :func:`load_inputs`)."""
    return [engine_input(*(getattr(hand, name) for name in HAND_FIELDS)) for hand in hands]


def load_hands(match: Match) -> list[Hand]:
    """The match's hands as model instances, for pages that list and link them."""
    return list(Hand.objects.filter(match=match).order_by("number"))


def load_inputs(*, stream: bool = False, **where: Any) -> dict[int, list[HandInput]]:
    """Engine input of the hands that ``where`` selects (``match=``, ``match__in=``,
    ``match__tournament=``), by match id, each match's in hand order. One query of plain
    rows, not model instances; ``stream`` reads them in chunks (a whole tournament).

    Equal rows share one :class:`HandInput` (it is immutable): a tournament repeats the
    same few hundred hands thousands of times, and converting each row anew was most of
    the cost of loading them.
    """
    rows = (
        Hand.objects.filter(**where)
        .order_by("match_id", "number")  # the column: "match" would join for its ordering
        .values_list("match_id", *HAND_FIELDS)
    )
    converted: dict[tuple[Any, ...], HandInput] = {}
    by_match: dict[int, list[HandInput]] = defaultdict(list)
    for match_id, *fields in rows.iterator() if stream else rows:
        cards = fields[-1]  # a dict (unhashable) for a hand settled from its cards
        key = tuple(fields) if cards is None else (*fields[:-1], json.dumps(cards, sort_keys=True))
        hand = converted.get(key)
        if hand is None:
            hand = converted[key] = engine_input(*fields)
        by_match[match_id].append(hand)
    return by_match


def match_inputs(match: Match) -> list[HandInput]:
    """One match's hands as engine input (the hottest read: once per hand entered)."""
    return load_inputs(match=match).get(match.pk, [])


def sheet_for(match: Match, hands: Sequence[Hand] | None = None) -> MatchSheet:
    """The engine's view of ``match`` (one query for the hands unless they are given)."""
    inputs = match_inputs(match) if hands is None else hand_inputs(hands)
    return score_played(match.ruleset, inputs, first_dealer(match))


def score_matches(
    rules: RuleSet, matches: Iterable[Match], inputs: Mapping[int, Sequence[HandInput]]
) -> dict[int, MatchSheet]:
    """The engine's sheet of every match that has hands in ``inputs``, by match id."""
    sheets: dict[int, MatchSheet] = {}
    scores: dict[HandInput, HandScore] = {}  # one rule set: each distinct hand scored once
    for match in matches:
        hands = inputs.get(match.pk)
        if not hands:
            continue
        try:
            sheets[match.pk] = score_played(rules, hands, first_dealer(match), scores=scores)
        except ScoringError:
            # Stored hands always passed the engine; if one no longer does (a data fix
            # gone wrong), pages and PDFs leave that match out rather than failing.
            logger.warning("match %s: stored hands do not score", match.pk)
    return sheets


def preview(
    match: Match, hands: Sequence[Hand], data: HandData, *, dealer: str | None = None
) -> ScoredHand:
    """What ``data`` would score as the next hand; raises ScoringError if the rules refuse."""
    return preview_hand(
        match.ruleset, hand_inputs(hands), data.to_input(), first_dealer(match, dealer)
    )
