"""Helpers for scoring tests: a ready match and hand POST data."""

from __future__ import annotations

from typing import Any

from scoring.services import HandData, record_hand
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


def win_games(winner: str, games: int) -> list[HandData]:
    """Hands that win ``games`` games to 250 for ``winner`` (three big gins a game)."""
    return [gin(winner)] * (3 * games)
