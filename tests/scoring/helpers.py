"""Helpers for scoring tests: a ready match and hand POST data."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from scoring.loading import HandData
from scoring.services import record_hand
from tests.factories import make_entries, make_match, make_tournament


def ready_match(*, preset: str = "tournament", rules: dict[str, Any] | None = None, **extra: Any):
    tournament = make_tournament(preset=preset, rules=rules, status="running")
    a, b = make_entries(tournament=tournament, count=2)
    return make_match(tournament=tournament, a=a, b=b, table=1, **extra)


def knock(by: str = "A", deadwood: int = 2, defender: int = 30, **extra: Any) -> HandData:
    return HandData("knock", by, deadwood, defender, **extra)


def gin(by: str = "A", defender: int = 98) -> HandData:
    return HandData("gin", by, None, defender)


def post_data(number: int, data: HandData) -> dict[str, Any]:
    fields = {"number": number, "kind": data.kind, "by": data.by}
    if data.deadwood is not None:
        fields["deadwood"] = data.deadwood
    if data.defender_deadwood is not None:
        fields["defender_deadwood"] = data.defender_deadwood
    if data.knock_card:
        fields["knock_card"] = data.knock_card
    return fields


def play(match, hands: list[HandData], *, user: Any = None) -> None:
    start = match.hands.count()
    for offset, hand in enumerate(hands, start=1):
        record_hand(match=match, number=start + offset, data=hand, user=user)


def named(match, number: int) -> dict[str, Any]:
    """How a correction or deletion names hand ``number`` as it is now (scoring.versions)."""
    from scoring.models import Hand
    from scoring.versions import hand_version

    hand = Hand.objects.get(match=match, number=number)
    return {"hand_id": hand.pk, "version": hand_version(hand)}


def win_games(winner: str, games: int) -> list[HandData]:
    """Hands that win ``games`` games to 250 for ``winner`` (three big gins a game)."""
    return [gin(winner)] * (3 * games)


class _Forms(HTMLParser):
    """The hidden inputs of each form on a page, by the form's action."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._fields: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "form":
            self._fields = {}
            self.forms.append((values.get("action") or "", self._fields))
        elif tag == "input" and self._fields is not None and values.get("type") == "hidden":
            name = values.get("name") or ""
            if name and name != "csrfmiddlewaretoken":
                self._fields[name] = values.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._fields = None


def hidden_fields(html: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` (what the page says it showed)."""
    parser = _Forms()
    parser.feed(html)
    for form_action, fields in parser.forms:
        if form_action == action:
            return fields
    return {}
