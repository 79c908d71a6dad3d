"""Self check-in (issue 33): players check in from their own page with a short code.

The director turns it on (:func:`set_self_checkin`); each time it is turned on a new code
is made (:data:`CODE_LENGTH` letters and digits, none of 0/O/1/I to misread), stored with
the day it was made. The door and the projector show it; a player types it on their page
(:func:`check_in_self`). A code works on the day it was made only: the next evening,
check-in is closed until the director turns it on again, with a new code.

Refusals change nothing and say why (:class:`Refused`, its ``code`` for the tests): the
check-in is closed, the bracket is drawn or the tournament has started, the player is
already checked in (or withdrew), the code is wrong. Wrong codes are counted per phone
and per address by the caller (:mod:`public.views.checkin`). Checking in or out by hand
(:func:`tournaments.registration.set_entry_flag`) still works, and forgets that the player
checked themselves in.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import audit
from .models import Entry, Tournament
from .movement import lock_tournament
from .public_version import changed, changing

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits without 0, O, 1 and I, which a phone's font makes look alike."""
CODE_LENGTH = 4
NOT_STARTED = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


class Refused(ValidationError):
    """A self check-in refused: nothing changed."""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _n in range(CODE_LENGTH))


def code_of_today(tournament: Tournament) -> str:
    """The code players can check in with now ("" when self check-in is closed)."""
    if not tournament.self_checkin or tournament.checkin_code_date != timezone.localdate():
        return ""
    return tournament.checkin_code


def is_open(tournament: Tournament) -> bool:
    """Whether a player can check in themselves now: self check-in on, its code made
    today, and the tournament not drawn nor started."""
    return bool(code_of_today(tournament)) and tournament.status in NOT_STARTED


def set_self_checkin(*, tournament: Tournament, on: bool, user: Any) -> Tournament:
    """Turn self check-in on (with a new code of today) or off. The caller checks that
    ``user`` directs the tournament."""
    with changing(tournament):
        lock_tournament(tournament)
        locked = Tournament.objects.get(pk=tournament.pk)
        if on and locked.status not in NOT_STARTED:
            raise ValidationError(_("The tournament has started: check-in is over."))
        if on:
            locked.self_checkin = True
            locked.checkin_code = new_code()
            locked.checkin_code_date = timezone.localdate()
        else:
            locked.self_checkin = False
        locked.save(update_fields=["self_checkin", "checkin_code", "checkin_code_date"])
        audit.record(
            tournament=locked,
            action="self check-in on" if on else "self check-in off",
            obj=locked,
            user=user,
        )
    return locked


def check_in_self(*, tournament: Tournament, entry_id: int, code: str) -> Entry:
    """Check the player of ``entry_id`` in with ``code``; :class:`Refused` says why not."""
    with transaction.atomic():
        lock_tournament(tournament)
        locked = Tournament.objects.get(pk=tournament.pk)
        if not code_of_today(locked):
            raise Refused(_("Self check-in is closed: ask the director."), code="closed")
        if locked.status not in NOT_STARTED or locked.matches.exists():
            raise Refused(
                _("Check-in is over: the tournament has started. Ask the director."),
                code="started",
            )
        entry = (
            Entry.objects.select_for_update(no_key=True)
            .select_related("player")
            .filter(tournament=locked, pk=entry_id)
            .first()
        )
        if entry is None or entry.withdrawn:
            raise Refused(_("You are not entered in this tournament."), code="not_entered")
        if entry.checked_in:
            raise Refused(_("You are already checked in."), code="already")
        typed = "".join(code.split()).upper()
        if not hmac.compare_digest(typed.encode(), locked.checkin_code.encode()):
            raise Refused(_("That is not the code: look again at the door."), code="wrong")
        entry.checked_in = True
        entry.self_checked_in = True
        entry.save(update_fields=["checked_in", "self_checked_in"])
        audit.record(
            tournament=locked,
            action="entry checked in by the player",
            obj=entry,
            before={"checked_in": False},
            after={"checked_in": True},
            via="player's page",
        )
        changed(locked)
    return entry
