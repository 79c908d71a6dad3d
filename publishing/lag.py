"""How far a mirror is behind its venue, said the same way at both ends: the age of the
oldest change it lacks ("12 s behind": everything it shows is at least that old), 0 when
it lacks none ("up to date", with the time of the venue's last change), nothing when the
venue is silent ("Last news from the venue at 20:14").

Only ages cross between the machines, never times: the venue's clock and the club's may
differ. With each request the venue says how old its newest change is (``age``) and, when
the club has not acknowledged them all, how old the oldest it has not acknowledged is
(``waiting``), in seconds on its own clock as it sends (:func:`ages`). The club subtracts
them from when it received the request, on its own clock (:func:`told`). Both are
optional: a venue of before sends neither (the club then counts from its last word), and
one that is not a number in range is ignored, so a word about freshness never stops a
change."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Case, F, Value, When, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from tournaments.models import AuditEntry

from . import protocol
from .models import Mirror

LONGEST_AGE = 10 * 365 * 24 * 3600.0
"""An age beyond this (ten years) is not believed."""
LARGEST_NUMBER = 2**31 - 1
"""The largest change number every database's integer column holds."""


@dataclass(frozen=True)
class Freshness:
    """A mirror's line and how many seconds behind it is (None: not known, the venue is
    silent), what its ``data-behind-seconds`` says."""

    line: str
    behind: int | None


# At the venue.


def change_at(tournament_id: int, number: int) -> datetime | None:
    """When the venue made change ``number`` (its ``number``-th audit row); None before
    the first or past the last."""
    if number < 1:
        return None
    rows = AuditEntry.objects.filter(tournament_id=tournament_id).order_by("pk")
    return next(iter(rows.values_list("at", flat=True)[number - 1 : number]), None)


def seconds_since(then: datetime | None, now: datetime) -> float | None:
    return None if then is None else round(max((now - then).total_seconds(), 0.0), 1)


def ages(tournament_id: int, *, through: int, acknowledged: int, now: datetime) -> dict[str, float]:
    """What a request says of freshness: the age of the venue's newest change (``age``)
    and, when the club has not acknowledged every change, of the oldest it has not
    (``waiting``). At most two queries."""
    told = {"age": seconds_since(change_at(tournament_id, through), now)}
    if through > acknowledged:
        told["waiting"] = seconds_since(change_at(tournament_id, acknowledged + 1), now)
    return {name: age for name, age in told.items() if age is not None}


def behind_at_venue(acknowledged: dict[int, int], numbers: dict[int, int]) -> dict[int, int]:
    """How many seconds behind the club's copy of each tournament is, seen from the venue
    (by the tournament's pk, from what the club acknowledged and the venue's number): the
    age of the oldest change it has not acknowledged, 0 when it has them all. One query
    for those behind, however many."""
    now = timezone.now()
    behind = dict.fromkeys(numbers, 0)
    wanted = {
        pk: acknowledged.get(pk, 0) + 1 for pk, n in numbers.items() if n > acknowledged.get(pk, 0)
    }
    if not wanted:
        return behind
    position = Window(RowNumber(), partition_by=[F("tournament_id")], order_by=F("pk").asc())
    target = Case(*(When(tournament_id=pk, then=Value(n)) for pk, n in wanted.items()))
    rows = (
        AuditEntry.objects.filter(tournament_id__in=wanted)
        .annotate(position=position, target=target)
        .filter(position=F("target"))
        .values_list("tournament_id", "at")
    )
    for pk, at in rows:
        behind[pk] = int(seconds_since(at, now) or 0)
    return behind


# At the club's server.


def _age(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if not math.isfinite(value) or not 0 <= value <= LONGEST_AGE:
        return None
    return float(value)


def told(body: dict[str, Any], through: int, now: datetime) -> dict[str, Any]:
    """The mirror's freshness fields from a request of its venue received at ``now``: the
    venue's newest number, when it made that change and the oldest it may lack (without
    ``waiting``, the newest change's: the least it is behind)."""
    age, waiting = _age(body.get("age")), _age(body.get("waiting"))
    newest = None if age is None else now - timedelta(seconds=age)
    lacking = newest if waiting is None else now - timedelta(seconds=waiting)
    return {
        "venue_through": min(through, LARGEST_NUMBER),
        "last_change_at": newest,
        "lacking_since": lacking,
    }


def behind(mirror: Mirror, now: datetime) -> int | None:
    """Seconds behind the venue: 0 when the mirror has the venue's newest change as last
    told, None when the venue is silent (not heard from in ``LIVE_SECONDS``)."""
    if mirror.received_at is None:
        return None
    if (now - mirror.received_at).total_seconds() > protocol.LIVE_SECONDS:
        return None
    if mirror.applied_through >= mirror.venue_through:
        return 0
    # At least 1: a mirror that lacks a change is never "up to date".
    return max(1, math.ceil(seconds_since(mirror.lacking_since or mirror.received_at, now) or 0))


def freshness(mirror: Mirror, now: datetime | None = None) -> Freshness:
    """ "Live from the venue · up to date (last change at 20:14)", "Live from the venue ·
    12 s behind" or "Last news from the venue at 20:14"."""
    seconds = behind(mirror, now or timezone.now())
    if mirror.received_at is None:
        return Freshness(_("No news from the venue yet"), None)
    if seconds is None:
        at = time_format(timezone.localtime(mirror.received_at))
        return Freshness(_("Last news from the venue at %(time)s") % {"time": at}, None)
    if seconds:
        line = _("Live from the venue · %(seconds)d s behind") % {"seconds": seconds}
        return Freshness(line, seconds)
    if mirror.last_change_at is None:
        return Freshness(_("Live from the venue · up to date"), 0)
    at = time_format(timezone.localtime(mirror.last_change_at))
    return Freshness(
        _("Live from the venue · up to date (last change at %(time)s)") % {"time": at}, 0
    )
