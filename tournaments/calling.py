"""Calling matches to tables by hand: the director's choice when the tournament's "call
tables automatically" is off (a free table then stays free; :meth:`Board.assign_tables`
queues every playable match without a table)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from . import audit
from .models import Match
from .movement import Board, Status, copy_state
from .public_version import changing


def send_to_table(*, match: Match, table: int, user: Any, via: str = "") -> Match:
    """Send the queued ``match`` to the free ``table``: its players' pages and the
    projector call them (the public version moves on). Refused, changing nothing, if the
    match is not waiting for a table or the table is taken or does not exist."""
    with changing(match.tournament_id):
        board = Board.load(match.tournament, focus=match)
        current = board.get(match)
        if current.table is not None or current.status not in (Status.READY, Status.IN_PLAY):
            raise ValidationError(
                _("%(match)s is not waiting for a table.") % {"match": current.label},
                code="not_queued",
            )
        if table not in board.free_tables():
            raise ValidationError(_("Table %(table)s is not free.") % {"table": table}, code="busy")
        current.table = table
        board.touch(current)
        board.save()
        audit.record(
            tournament=board.tournament,
            action="sent to table",
            obj=current,
            after={"table": table},
            user=user,
            via=via,
        )
        copy_state(current, match)
    return match
