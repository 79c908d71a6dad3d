"""Hollywood: which open columns a won hand goes into (SPEC 2.5).

A player's win goes into every open column they have already entered, plus the
lowest-numbered open column they have not entered yet: the first win opens column 1, the
second adds column 2, and so on. A player shut out of a closed column therefore starts
in the next open one.
"""

from __future__ import annotations

from collections.abc import Sequence

from .games import GameTally
from .hands import Side


def columns_for_win(columns: Sequence[GameTally], side: Side) -> list[int]:
    """Indexes (0-based) of the columns a hand won by ``side`` is entered in."""
    chosen = [i for i, col in enumerate(columns) if not col.closed and col.has_entered(side)]
    for i, col in enumerate(columns):
        if not col.closed and not col.has_entered(side):
            chosen.append(i)
            break
    return sorted(chosen)


def decide(columns: Sequence[GameTally], totals: dict[Side, int]) -> Side:
    """The winner of a finished Hollywood match.

    More columns won; on an even split the higher match total; if that is equal too, the
    winner of the column that closed last.
    """
    won = {side: sum(1 for col in columns if col.winner is side) for side in Side}
    if won[Side.A] != won[Side.B]:
        return Side.A if won[Side.A] > won[Side.B] else Side.B
    if totals[Side.A] != totals[Side.B]:
        return Side.A if totals[Side.A] > totals[Side.B] else Side.B
    last = max(columns, key=lambda col: (col.closed_by_hand or 0, col.number))
    assert last.winner is not None
    return last.winner
