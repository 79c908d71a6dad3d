"""The players call the director from their table link (a dispute, a missing player, a
phone problem). A call is open until the director answers it ("On my way"), then closed;
each step is in the audit log, and an open call is a badge on the projector ("Table 7
calls the director"), so every step counts the public version.

One call at a time per match (the database holds it too), and at most
:data:`CALLS_PER_HOUR` calls a match in an hour: a phone cannot flood the director.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import audit, public_version
from tournaments.models import Match, Tournament

from .models import DirectorCall

CALLS_PER_HOUR = 6
OPEN = (DirectorCall.Status.OPEN, DirectorCall.Status.ANSWERED)
SHOWN_CLOSED = datetime.timedelta(minutes=30)
"""How long the phone still shows its call as closed."""


def _audit(call: DirectorCall, action: str, *, user: Any = None, via: str = "") -> None:
    match = call.match
    audit.record(
        tournament=match.tournament,
        action=action,
        obj=match,
        after={
            "call": call.pk,
            "table": match.table,
            "reason": call.reason,
            "note": call.note,
            "status": call.status,
        },
        user=user,
        via=via,
    )


def make(*, match: Match, reason: str, note: str, device: str, via: str) -> DirectorCall:
    """A new call from ``match``'s table; refused (ValidationError) while one is open or
    past the hourly limit."""
    if reason not in DirectorCall.Reason.values:
        raise ValidationError(_("Choose why you call the director."))
    note = " ".join(note.split())[:140]
    with transaction.atomic():
        calls = DirectorCall.objects.filter(match=match)
        if calls.filter(status__in=OPEN).exists():
            raise ValidationError(_("The director has been called already."))
        hour_ago = timezone.now() - datetime.timedelta(hours=1)
        if calls.filter(made_at__gte=hour_ago).count() >= CALLS_PER_HOUR:
            raise ValidationError(
                _("This table has called the director often this hour: wave to them instead.")
            )
        try:
            with transaction.atomic():
                call = DirectorCall.objects.create(
                    match=match, reason=reason, note=note, device=device
                )
        except IntegrityError as twin:  # another phone of the table, at the same moment
            raise ValidationError(_("The director has been called already.")) from twin
        _audit(call, "director called", via=via)
        public_version.changed(match.tournament_id)
    return call


def _move(
    call: DirectorCall, *, to: str, allowed: tuple[str, ...], user: Any, action: str
) -> DirectorCall:
    with transaction.atomic():
        locked = (
            DirectorCall.objects.select_for_update()
            .select_related("match__tournament")
            .get(pk=call.pk)
        )
        if locked.status not in allowed:
            raise ValidationError(_("This call was already answered or closed."))
        now = timezone.now()
        locked.status = to
        if to == DirectorCall.Status.ANSWERED:
            locked.answered_at = now
        else:
            locked.closed_at = now
        locked.save(update_fields=["status", "answered_at", "closed_at"])
        _audit(locked, action, user=user)
        public_version.changed(locked.match.tournament_id)
    return locked


def answer(call: DirectorCall, *, user: Any) -> DirectorCall:
    """The director is on the way."""
    return _move(
        call,
        to=DirectorCall.Status.ANSWERED,
        allowed=(DirectorCall.Status.OPEN,),
        user=user,
        action="director call answered",
    )


def close(call: DirectorCall, *, user: Any) -> DirectorCall:
    """Dealt with (answered or not)."""
    return _move(
        call, to=DirectorCall.Status.CLOSED, allowed=OPEN, user=user, action="director call closed"
    )


def open_calls(tournament: Tournament) -> list[DirectorCall]:
    """The tournament's open and answered calls, oldest first (one query)."""
    return list(
        DirectorCall.objects.filter(match__tournament=tournament, status__in=OPEN)
        .select_related("match")
        .order_by("made_at", "pk")
    )


def calling_tables(tournament: Tournament) -> list[int]:
    """The tables whose call the director has not answered yet, for the projector."""
    return sorted(
        {
            table
            for table in DirectorCall.objects.filter(
                match__tournament=tournament, status=DirectorCall.Status.OPEN
            ).values_list("match__table", flat=True)
            if table is not None
        }
    )


def latest(match: Match) -> DirectorCall | None:
    """What the table's phone shows: its open call, or the last one closed lately."""
    call = DirectorCall.objects.filter(match=match).order_by("-made_at", "-pk").first()
    if call is None:
        return None
    if call.status == DirectorCall.Status.CLOSED and (
        call.closed_at is None or timezone.now() - call.closed_at > SHOWN_CLOSED
    ):
        return None
    return call
