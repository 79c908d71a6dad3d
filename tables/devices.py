"""The phones at a table: each browser that opens a table link gets a short label in a
cookie (four letters or digits, e.g. ``K7QF``), so a hand stored through the link says
which phone sent it ("phone K7QF at table 7"). No personal data: a random code, scoped to
the table links' paths; a phone without cookies simply has no label.

The director's device board (Round control, :func:`board`) shows, per table in play, the
phones seen lately (each table-link page or poll a phone GETs notes its label and the
time in the shared cache, at most every :data:`SEEN_STEP` seconds: no database write, and
nothing at all on a hand's POST), the last hand stored and when, the submissions refused
or resent (counted in :class:`~tables.models.PhoneTally`, the latest :data:`EVENTS_KEPT`
of each kind a match kept as :class:`~tables.models.PhoneEvent` rows: noted where a refusal
is decided, and by :func:`count_answer` once the submission's transaction has ended, for a
resend and for a refusal whose transaction was rolled back), two phones entering at once,
and a table silent for :data:`SILENT_MINUTES`.

The hands stored are scoring's, which stands on this app: :func:`board` does not read
them itself but asks its caller for them (``hands``, a :data:`StoredHands`), so this app
imports nothing above it and knows no hand model. Round control's tag
(``scoring.templatetags.phone_board``) passes scoring's look-up down.
"""

from __future__ import annotations

import datetime
import itertools
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Subquery
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Match, Tournament

from .models import PhoneEvent, PhoneTally

COOKIE = "ginclub_phone"
# No 0/O, 1/I: read aloud across a table without doubt.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE = re.compile(r"^[A-HJ-NP-Z2-9]{4}$")
MAX_AGE = 60 * 60 * 24 * 365


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _n in range(4))


def device_of(request: HttpRequest) -> str:
    """The phone's label from its cookie, or "" when it has none (or a malformed one)."""
    code = request.COOKIES.get(COOKIE, "")
    return code if CODE.match(code) else ""


def remember(request: HttpRequest, response: HttpResponse) -> None:
    """Give a phone that has no label one (on any table-link answer), and note that it
    was seen at its table (a page or a poll that opened)."""
    code = device_of(request)
    if not code:
        code = new_code()
        response.set_cookie(
            COOKIE, code, max_age=MAX_AGE, path="/table/", httponly=True, samesite="Lax"
        )
    if request.method == "GET" and response.status_code < 400:
        resolved = request.resolver_match
        token = resolved.kwargs.get("token") if resolved is not None else None
        if token:
            seen(token, code)


def entered_from(request: HttpRequest, device: str, by_account: bool, table: object) -> str:
    """Where a stored hand came from, as the phone that was refused is told: "this phone",
    "phone K7QF at table 7", a scorer's or the director's screen, or another phone."""
    if device and device == device_of(request):
        return _("this phone")
    if device:
        return label(device, table)
    if by_account:
        return _("a scorer's or the director's screen")
    return _("another phone")


def label(code: str, table: object) -> str:
    """How a phone is named to the players: "phone K7QF at table 7"."""
    return _("phone %(code)s at table %(table)s") % {"code": code, "table": table or "?"}


# -- the director's device board ---------------------------------------------------------------

SEEN_STEP = 30
"""A phone's "seen" time is written again at most this often (seconds): its page polls
every 20 s, so this is one cache write a phone every other poll or so."""
SEEN_KEPT = 2 * 60 * 60
SEEN_MINUTES = 5
"""The board lists the phones seen in the last five minutes."""
SILENT_MINUTES = 15
"""A table in play with no hand for a quarter of an hour is flagged: a hand of gin takes
a few minutes, so fifteen without one means a dispute, a break or a phone that gave up."""
CLASH_SECONDS = 120
"""Two phones storing or refused on one match within two minutes: entering at once."""
# The header sheet.hand_create puts on a hand's answer (saved, taken, stale, invalid).
OUTCOME_HEADER = "Submission-Outcome"


def _seen_key(token: str) -> str:
    return f"phones-seen:{token}"


def seen(token: str, code: str, now: float | None = None) -> None:
    """Note that phone ``code`` opened table link ``token`` (cheaply: a cache read, and a
    write only when its last note is older than :data:`SEEN_STEP`)."""
    now = time.time() if now is None else now
    key = _seen_key(token)
    phones: dict[str, float] = cache.get(key) or {}
    if now - phones.get(code, 0) < SEEN_STEP:
        return
    cutoff = now - SEEN_KEPT
    phones = {c: t for c, t in phones.items() if t >= cutoff}
    phones[code] = now
    cache.set(key, phones, SEEN_KEPT)


EVENTS_KEPT = 20
"""A match keeps its latest twenty events of each kind as rows (the refusals are what the
board's "two phones at once" looks at); older ones live on only in its
:class:`PhoneTally` counts, so one phone refused a thousand times costs the board no more
rows than one refused twenty times."""


def note(request: HttpRequest, match_id: int, kind: str) -> None:
    """A phone's submission to ``match_id`` refused (``taken``, ``stale``) or resent, for
    the board; called where the outcome is decided (scoring's hand views). Three small
    writes: the row, its kind counted, the match's rows of that kind past
    :data:`EVENTS_KEPT` dropped."""
    with transaction.atomic():
        PhoneEvent.objects.create(match_id=match_id, device=device_of(request), kind=kind)
        _count(match_id, kind)
        same = PhoneEvent.objects.filter(match_id=match_id, kind=kind)
        newest = same.order_by("-pk").values("pk")
        same.filter(pk__lte=Subquery(newest[EVENTS_KEPT : EVENTS_KEPT + 1])).delete()


def _count(match_id: int, kind: str) -> None:
    """One more ``kind`` in the match's tally (its row made by the first; two phones
    making it at once: the second counts on the row the first made)."""
    tally = PhoneTally.objects.filter(match_id=match_id, kind=kind)
    if tally.update(count=F("count") + 1):
        return
    try:
        with transaction.atomic():
            PhoneTally.objects.create(match_id=match_id, kind=kind, count=1)
    except IntegrityError:
        tally.update(count=F("count") + 1)


def count_answer(
    sender: Any, *, request: HttpRequest, response: HttpResponse, replayed: bool, **kwargs: Any
) -> None:
    """A table-link submission answered (``web.submissions.answered``), after its
    transaction: a resend becomes a ``resent`` :class:`PhoneEvent`; a hand refused with a
    whole page (409) too, since that answer's transaction was rolled back with the row its
    view noted (an htmx refusal, 200, kept its own). A hand stored costs nothing here (its
    row says which phone sent it)."""
    resolved = request.resolver_match
    token = resolved.kwargs.get("token") if resolved is not None else None
    if not token:
        return
    if replayed:
        kind = PhoneEvent.Kind.RESENT
    else:
        outcome = response.get(OUTCOME_HEADER, "")
        if response.status_code < 400 or outcome not in (
            PhoneEvent.Kind.TAKEN,
            PhoneEvent.Kind.STALE,
        ):
            return
        kind = PhoneEvent.Kind(outcome)
    match_id = Match.objects.filter(token=token).values_list("pk", flat=True).first()
    if match_id is not None:
        note(request, match_id, kind)


@dataclass
class Phone:
    code: str
    seen: datetime.datetime


@dataclass
class Clash:
    codes: tuple[str, str]
    at: datetime.datetime


@dataclass
class TableBoard:
    """One table in play, as the device board shows it."""

    match: Match
    phones: list[Phone] = field(default_factory=list)
    last_hand: int | None = None
    last_at: datetime.datetime | None = None
    taken: int = 0
    stale: int = 0
    resent: int = 0
    clash: Clash | None = None
    silent_minutes: int = 0

    @property
    def refused(self) -> int:
        return self.taken + self.stale

    @property
    def silent(self) -> bool:
        return self.silent_minutes >= SILENT_MINUTES


StoredHands = Callable[[list[int]], Iterable[tuple[int, int, str, datetime.datetime]]]
"""The hands of the matches whose ids it is given, oldest first in each match, as
``(match id, hand number, phone label or "", stored at)``: one query."""


def board(
    tournament: Tournament, hands: StoredHands, now: datetime.datetime | None = None
) -> list[TableBoard]:
    """The device board: every match being played at a table (in play, or ready at its
    table), in table order, with its hands from ``hands``. Four queries (one of them
    ``hands``') and one cache read, however many tables and however many refusals
    (:data:`EVENTS_KEPT`)."""
    now = timezone.now() if now is None else now
    matches = list(
        Match.objects.filter(tournament=tournament, table__isnull=False)
        .filter(status__in=(Match.Status.IN_PLAY, Match.Status.READY))
        .only("pk", "key", "table", "token", "status", "started_at", "tournament_id")
        .order_by("table", "pk")
    )
    if not matches:
        return []
    rows = {m.pk: TableBoard(m) for m in matches}
    moments: dict[int, list[tuple[datetime.datetime, str]]] = {pk: [] for pk in rows}
    for match_id, number, device, entered_at in hands(list(rows)):
        row = rows[match_id]
        row.last_hand, row.last_at = number, entered_at
        if device:
            moments[match_id].append((entered_at, device))
    tallies = PhoneTally.objects.filter(match_id__in=rows).values_list("match_id", "kind", "count")
    for match_id, kind, count in tallies:
        setattr(rows[match_id], kind, count)
    # At most EVENTS_KEPT of each kind a match, however often its phones were refused.
    events = PhoneEvent.objects.filter(match_id__in=rows).exclude(kind=PhoneEvent.Kind.RESENT)
    for match_id, device, at in events.exclude(device="").values_list("match_id", "device", "at"):
        moments[match_id].append((at, device))
    found = cache.get_many([_seen_key(m.token) for m in matches])
    since = now.timestamp() - SEEN_MINUTES * 60
    for row in rows.values():
        phones = found.get(_seen_key(row.match.token)) or {}
        row.phones = [
            Phone(code, datetime.datetime.fromtimestamp(at, tz=datetime.UTC))
            for code, at in sorted(phones.items(), key=lambda item: -item[1])
            if at >= since
        ]
        row.clash = _clash(moments[row.match.pk])
        quiet_since = row.last_at or row.match.started_at
        if row.match.status == Match.Status.IN_PLAY and quiet_since is not None:
            row.silent_minutes = int((now - quiet_since).total_seconds() // 60)
    return list(rows.values())


def _clash(moments: Iterable[tuple[datetime.datetime, str]]) -> Clash | None:
    """The latest moment two different phones stored or were refused on one match within
    :data:`CLASH_SECONDS` of each other."""
    found = None
    ordered = sorted(moments)
    for (before, first), (after, second) in itertools.pairwise(ordered):
        if first != second and (after - before).total_seconds() <= CLASH_SECONDS:
            found = Clash((first, second), after)
    return found
