"""The ``score_sheet`` JSON contract (SPEC 3): checking the request, scoring it.

A hand may carry ``"cards": {"knocker": [10 or 11 cards], "defender": [10 cards]}``
(issue 18; ``knocker`` is the hand of ``by``): its counts may then be left out and are
taken from the cards, and its output gains ``cards`` (:meth:`cards.Ruling.to_dict`).

Everything arriving here is untrusted JSON: every key, type and range is checked and a
problem becomes a one-line :class:`ScoringError` (naming the hand, 1-based, when a hand is
at fault). Nothing here reads files or prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import HandCards
from .errors import ScoringError, _
from .hands import Card, HandInput, HandKind, Side
from .match import MatchSheet, score_match
from .rules import RuleSet, resolve_rules

REQUEST_KEYS = frozenset({"rules", "first_dealer", "hands"})
HAND_KEYS = frozenset({"kind", "by", "deadwood", "defender_deadwood", "knock_card", "cards"})


def parse_side(value: object, field: str) -> Side:
    if value not in ("A", "B"):
        raise ScoringError(
            _("%(field)s must be A or B, not %(value)s"),
            {"field": field, "value": _show(value)},
            field=field,
        )
    return Side(str(value))


def parse_hand(data: object) -> HandInput:
    """One hand object from JSON; range and rule checks happen when it is scored."""
    if not isinstance(data, Mapping):
        raise ScoringError(_("a hand must be an object"))
    unknown = sorted(_name(key) for key in data if key not in HAND_KEYS)
    if unknown:
        raise ScoringError(_("unknown field %(name)s"), {"name": ", ".join(unknown)})
    kind_value = data.get("kind")
    kinds = [kind.value for kind in HandKind]
    if kind_value not in kinds:
        raise ScoringError(
            _("kind must be one of %(kinds)s, not %(value)s"),
            {"kinds": ", ".join(kinds), "value": _show(kind_value)},
            field="kind",
        )
    kind = HandKind(str(kind_value))
    if kind is HandKind.DRAW:
        if data.get("cards") is not None:
            raise ScoringError(_("a dead hand has no cards to settle"), field="cards")
        return HandInput(kind)
    cards = None if data.get("cards") is None else HandCards.parse(data["cards"])
    card_text = data.get("knock_card")
    card = None
    if card_text is not None:
        if not isinstance(card_text, str):
            raise ScoringError(_("knock card must be text such as 7S"), field="knock_card")
        card = Card.parse(card_text)
    return HandInput(
        kind=kind,
        by=parse_side(data.get("by"), "by"),
        deadwood=_optional_int(data, "deadwood"),
        defender_deadwood=_optional_int(data, "defender_deadwood"),
        knock_card=card,
        cards=cards,
    )


def parse_request(data: object) -> tuple[RuleSet, list[HandInput], Side | None]:
    if not isinstance(data, Mapping):
        raise ScoringError(_("the input must be a JSON object"))
    unknown = sorted(_name(key) for key in data if key not in REQUEST_KEYS)
    if unknown:
        raise ScoringError(_("unknown field %(name)s"), {"name": ", ".join(unknown)})
    if "rules" not in data:
        raise ScoringError(_("rules is missing (a preset name or an object)"), field="rules")
    rules = resolve_rules(data["rules"])
    first = data.get("first_dealer")
    first_dealer = None if first is None else parse_side(first, "first_dealer")
    hands_data = data.get("hands", [])
    if not isinstance(hands_data, list):
        raise ScoringError(_("hands must be a list"), field="hands")
    hands = []
    for number, hand in enumerate(hands_data, start=1):
        try:
            hands.append(parse_hand(hand))
        except ScoringError as error:
            raise error.at_hand(number) from None
    return rules, hands, first_dealer


def score_request(data: object) -> MatchSheet:
    """Check and score a whole ``score_sheet`` request."""
    rules, hands, first_dealer = parse_request(data)
    return score_match(rules, hands, first_dealer)


def _optional_int(data: Mapping[str, Any], field: str) -> int | None:
    value = data.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(
            _("%(field)s must be a whole number, not %(value)s"),
            {"field": field, "value": _show(value)},
            field=field,
        )
    return value


def _name(key: object) -> str:
    """A field name as given, quoted if it holds a line break or another unprintable
    character (the message must stay one line)."""
    text = str(key)
    return text if text.isprintable() else repr(text)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
