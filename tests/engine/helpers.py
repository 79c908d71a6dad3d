"""Short constructors for engine tests: K("A", 3, 20) reads like a scoresheet line."""

from __future__ import annotations

from engine import Card, HandInput, HandKind, Side


def K(by: str, deadwood: int, defender: int, card: str | None = None) -> HandInput:
    return HandInput(
        HandKind.KNOCK, Side(by), deadwood, defender, Card.parse(card) if card else None
    )


def G(by: str, defender: int, card: str | None = None) -> HandInput:
    return HandInput(HandKind.GIN, Side(by), None, defender, Card.parse(card) if card else None)


def BG(by: str, defender: int, card: str | None = None) -> HandInput:
    return HandInput(HandKind.BIG_GIN, Side(by), None, defender, Card.parse(card) if card else None)


def D() -> HandInput:
    return HandInput(HandKind.DRAW)
