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

from .hands import Side
from .match import MatchSheet

__all__ = ["time_leader"]


def time_leader(sheet: MatchSheet) -> Side | None:
    """The side leading ``sheet`` on time, or ``None`` when the match is level."""
    if sheet.match.winner is not None:
        return sheet.match.winner
    won = sheet.match.won
    current = sheet.games[-1].points if sheet.games and not sheet.rules.is_hollywood else None
    for a, b in ((won.a, won.b), (current.a, current.b) if current else (0, 0)):
        if a != b:
            return Side.A if a > b else Side.B
    total = sheet.match.total
    if total.a != total.b:
        return Side.A if total.a > total.b else Side.B
    return None
