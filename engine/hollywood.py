"""Hollywood: which open columns a won hand goes into (SPEC 2.5).

A player's win goes into every open column they have already entered, plus the
lowest-numbered open column they have not entered yet: the first win opens column 1, the
second adds column 2, and so on. A player shut out of a closed column therefore starts
in the next open one.

Which columns are open: under ``hollywood_columns_open: together`` every column that has
not closed; under ``rolling`` only the lowest-numbered ``ROLLING_OPEN`` (three) of them, so
that when a column closes the next one opens, until the match's columns are all played.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games import GameTally
from engine.hands import Side


def open_columns(closed: Sequence[bool], at_once: int | None) -> list[int]:
    """Indexes (0-based) of the open columns: not closed, and among the first ``at_once``
    such (None: no limit)."""
    still = [i for i, done in enumerate(closed) if not done]
    return still if at_once is None else still[:at_once]


def columns_for_win(
    columns: Sequence[GameTally], side: Side, at_once: int | None = None
) -> list[int]:
    """Indexes (0-based) of the columns a hand won by ``side`` is entered in."""
    open_ = open_columns([col.closed for col in columns], at_once)
    chosen = [i for i in open_ if columns[i].has_entered(side)]
    fresh = next((i for i in open_ if not columns[i].has_entered(side)), None)
    if fresh is not None:
        chosen.append(fresh)
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
    last = columns[last_closed(columns)]
    assert last.winner is not None
    return last.winner


def last_closed(columns: Sequence[GameTally]) -> int:
    """Index of the column that closed last; of several closed by the same hand, the
    highest-numbered (the one furthest right on the sheet)."""
    return max(range(len(columns)), key=lambda i: (columns[i].closed_by_hand or 0, i))
