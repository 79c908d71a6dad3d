"""Deciding a match on time: when the round's time is called, who leads.

Pure Python, standard library only. Tournament rules for a round with a time limit (the
Gin Rummy Association's and the club practice this site follows) decide an unfinished
match by, in order:

1. **games won** (in Hollywood, columns won);
2. **the current game's points** (the game being played when time was called; in
   Hollywood, points over all columns);
3. **total points** over the match.

Equal on all three, nobody leads: the director decides (another hand, a walkover).
Which hands count is the caller's business: the hand in play is finished first, or a
set number of extra hands is played, and only then is the sheet read.
"""

from __future__ import annotations

from engine.games import Pair
from engine.hands import Side
from engine.match import MatchSheet

__all__ = ["points_at_call", "time_basis", "time_leader"]


def time_basis(sheet: MatchSheet) -> dict[str, list[int] | None]:
    """What :func:`time_leader` reads, as ``[A, B]`` pairs: ``games`` won, the current
    game's points (``game_points``; ``None`` in Hollywood, whose columns run together) and
    total ``points``. A decision on time stores it as the score at the call."""
    won, total = sheet.match.won, sheet.match.total
    current = sheet.games[-1].points if sheet.games and not sheet.rules.is_hollywood else None
    return {
        "games": [won.a, won.b],
        "game_points": [current.a, current.b] if current is not None else None,
        "points": [total.a, total.b],
    }


def time_leader(sheet: MatchSheet) -> Side | None:
    """The side leading ``sheet`` on time, or ``None`` when the match is level."""
    if sheet.match.winner is not None:
        return sheet.match.winner
    basis = time_basis(sheet)
    for pair in (basis["games"], basis["game_points"], basis["points"]):
        if pair is not None and pair[0] != pair[1]:
            return Side.A if pair[0] > pair[1] else Side.B
    return None


def points_at_call(sheet: MatchSheet) -> Pair:
    """The points of a match decided on time, as its sheet shows them: each finished
    game's total, and the game being played when time was called at its points so far
    (a finished game's bonuses are in its total; an unfinished one has none)."""
    return sum((g.total if g.complete else g.points for g in sheet.games), Pair())
