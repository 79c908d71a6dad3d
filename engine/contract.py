"""The ``score_sheet`` JSON contract (SPEC 3): checking the request, scoring it.

A hand may carry ``"cards": {"knocker": [10 or 11 cards], "defender": [10 cards]}``
(issue 18; ``knocker`` is the hand of ``by``): its counts may then be left out and are
taken from the cards, and its output gains ``cards`` (:meth:`cards.Ruling.to_dict`).

Everything arriving here is untrusted JSON: every key, type and range is checked and a
problem becomes a one-line :class:`ScoringError` (naming the hand, 1-based, when a hand is
at fault; the deal and board in a partnership match). Nothing here reads files or prints.

A head-to-head match (``team_size`` 1) is a list of ``hands``; a partnership match
(``team_size`` 2 to 4) is a list of ``deals``, each a list of ``team_size`` boards, each
board a hand as above plus an optional ``player`` (the seat of team ``by`` that went out).
The two forms are exclusive.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import ScoringError, _
from engine.hands import Card, HandCards, HandInput, HandKind, Side
from engine.match import MatchSheet, score_match
from engine.rules import RuleSet, resolve_rules
from engine.teams import BoardInput, TeamSheet, score_team_match

REQUEST_KEYS = frozenset({"rules", "first_dealer", "hands", "deals"})
HAND_KEYS = frozenset({"kind", "by", "deadwood", "defender_deadwood", "knock_card", "cards"})
BOARD_KEYS = HAND_KEYS | {"player"}


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
    return _hand(data, HAND_KEYS)


def parse_board(data: object) -> BoardInput:
    """One board of a deal from JSON: a hand plus an optional ``player`` (a seat)."""
    if not isinstance(data, Mapping):
        raise ScoringError(_("a board must be an object"))
    return BoardInput(_hand(data, BOARD_KEYS), _optional_int(data, "player"))


def _hand(data: Mapping[Any, Any], keys: frozenset[str]) -> HandInput:
    unknown = sorted(_name(key) for key in data if key not in keys)
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
    """A head-to-head request: its rules, hands and first dealer."""
    rules, first_dealer = _rules_and_dealer(data)
    assert isinstance(data, Mapping)
    _check_form(data, rules)
    if rules.is_team:
        # No hands and no deals: still a partnership match, and not one this form takes.
        raise _hands_for_teams(rules)
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


def parse_team_request(data: object) -> tuple[RuleSet, list[list[BoardInput]], Side | None]:
    """A partnership request: its rules (``team_size`` 2 to 4), deals and first dealer."""
    rules, first_dealer = _rules_and_dealer(data)
    assert isinstance(data, Mapping)
    _check_form(data, rules)
    if not rules.is_team:
        raise _deals_need_teams()
    deals_data = data.get("deals", [])
    if not isinstance(deals_data, list):
        raise ScoringError(_("deals must be a list"), field="deals")
    deals: list[list[BoardInput]] = []
    for number, deal in enumerate(deals_data, start=1):
        if not isinstance(deal, list):
            raise ScoringError(_("a deal must be a list of boards"), field="deals").at_deal(number)
        boards = []
        for board, board_data in enumerate(deal, start=1):
            try:
                boards.append(parse_board(board_data))
            except ScoringError as error:
                raise error.at_deal(number, board) from None
        deals.append(boards)
    return rules, deals, first_dealer


def score_request(data: object) -> MatchSheet | TeamSheet:
    """Check and score a whole ``score_sheet`` request: hands under head-to-head rules,
    deals under partnership rules (``team_size`` 2 to 4)."""
    rules, _dealer = _rules_and_dealer(data)
    if rules.is_team:
        rules, deals, first_dealer = parse_team_request(data)
        return score_team_match(rules, deals, first_dealer)
    rules, hands, first_dealer = parse_request(data)
    return score_match(rules, hands, first_dealer)


def _rules_and_dealer(data: object) -> tuple[RuleSet, Side | None]:
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
    return rules, first_dealer


def _check_form(data: Mapping[Any, Any], rules: RuleSet) -> None:
    """Refuse a request whose form does not fit its rules: hands and deals together, deals
    under head-to-head rules, hands under partnership rules."""
    if "hands" in data and "deals" in data:
        raise ScoringError(_("give hands or deals, not both"), field="deals")
    if "deals" in data and not rules.is_team:
        raise _deals_need_teams()
    if "hands" in data and rules.is_team:
        raise _hands_for_teams(rules)


def _deals_need_teams() -> ScoringError:
    return ScoringError(
        _("deals are for teams: set team_size (2 to 4) in the rules, or give hands"),
        field="deals",
    )


def _hands_for_teams(rules: RuleSet) -> ScoringError:
    return ScoringError(
        _("these rules are for teams of %(size)d: give deals (each a list of %(size)d boards)"),
        {"size": rules.team_size},
        field="hands",
    )


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
