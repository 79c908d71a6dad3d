"""A player's statistics over many matches, from the engine's sheets (no queries).

Hands won (of hands played), gin rate (gins and big gins per hand played), undercut rate
(of the player's knocks, the share the opponent undercut), average deadwood of the
player's knocks, shutouts for and against (games or columns won or lost while the loser
won no hand) and big gins.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import HandKind, MatchSheet, Result, Side


@dataclass(slots=True)
class CareerStats:
    hands_played: int = 0
    hands_won: int = 0
    gins: int = 0
    big_gins: int = 0
    knocks: int = 0
    knock_deadwood: int = 0
    undercut: int = 0
    undercuts_won: int = 0
    shutouts_for: int = 0
    shutouts_against: int = 0

    @property
    def gin_rate(self) -> float | None:
        return _share(self.gins, self.hands_played)

    @property
    def undercut_rate(self) -> float | None:
        return _share(self.undercut, self.knocks)

    @property
    def hands_won_rate(self) -> float | None:
        return _share(self.hands_won, self.hands_played)

    @property
    def average_knock_deadwood(self) -> float | None:
        return round(self.knock_deadwood / self.knocks, 1) if self.knocks else None


def _share(part: int, whole: int) -> float | None:
    """A percentage to one decimal, None when there is nothing to divide."""
    return round(100 * part / whole, 1) if whole else None


def add_sheet(stats: CareerStats, sheet: MatchSheet, side: Side) -> None:
    """Count one match's hands and games from ``side``'s point of view."""
    for scored in sheet.hands:
        hand, score = scored.hand, scored.score
        stats.hands_played += 1
        if score.winner is side:
            stats.hands_won += 1
            if score.result in (Result.GIN, Result.BIG_GIN):
                stats.gins += 1
            if score.result is Result.BIG_GIN:
                stats.big_gins += 1
            if score.result is Result.UNDERCUT:
                stats.undercuts_won += 1
        if hand.kind is HandKind.KNOCK and hand.by is side:
            stats.knocks += 1
            stats.knock_deadwood += hand.deadwood or 0
            if score.result is Result.UNDERCUT:
                stats.undercut += 1
    for game in sheet.games:
        if game.complete and game.shutout and game.winner is not None:
            if game.winner is side:
                stats.shutouts_for += 1
            else:
                stats.shutouts_against += 1
