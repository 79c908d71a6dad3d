"""At the venue: every tournament that is not a draft, sent to the club's server as its
numbered changes (see :mod:`.protocol`), in order, none lost or doubled.

:func:`publish_once` is one pass: each tournament with changes the club has not
acknowledged, or not heard from in :data:`protocol.HEARTBEAT_SECONDS`, is sent. Nothing
counts as sent until the club answers 200: a pass cut short (no connection, the laptop
killed) leaves the number unacknowledged, and the next pass sends it again, which the club
applies once. The venue server runs passes in a thread (:func:`start`), a second apart.

Waiting is never longer than it need be. Without a connection a tournament backs off (up
to :data:`LONGEST_WAIT`), but the club is probed every :data:`PROBE_SECONDS` meanwhile (a
``HEAD`` it answers without work), and the first answer sends everything waiting in the
same pass. A refusal waits :data:`REFUSED_WAIT`, unless what it refused changes: a new
destination or token is tried at the next pass, and so is a tournament published under
another name (its refusal cleared, :func:`publishing.services.publish_as`)."""

from __future__ import annotations

import gzip
import json
import logging
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import close_old_connections, transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.export import export_tournament
from scoring.models import Hand
from tournaments.models import AuditEntry, Decision, Tournament

from . import lag, protocol
from .models import Destination, Mirror, Publication

log = logging.getLogger(__name__)

TIMEOUT = 10
LONGEST_WAIT = 30
REFUSED_WAIT = 60
PROBE_SECONDS = 2.0
"""While tournaments wait for the connection, the club is asked this often whether it is
back."""
PROBE_TIMEOUT = 3


@dataclass(frozen=True)
class Reply:
    """What the club said: its status (0: no answer) and its JSON (or the reason there is
    none)."""

    status: int
    body: dict[str, Any]


Post = Callable[[str, bytes, dict[str, str]], Reply]
Probe = Callable[[str], bool]


def http_post(url: str, data: bytes, headers: dict[str, str]) -> Reply:
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return Reply(answer.status, json.loads(answer.read() or b"{}"))
    except urllib.error.HTTPError as error:
        try:
            body = json.loads(error.read() or b"{}")
        except ValueError:
            body = {}
        return Reply(error.code, body if isinstance(body, dict) else {})
    except (OSError, ValueError) as error:
        return Reply(0, {"error": str(error)})


def http_probe(url: str) -> bool:
    """Whether the club's server answers at ``url`` (a ``HEAD`` of the publishing path,
    which it refuses at once, 405: any answer below 500 is a server there; a proxy with
    none behind it answers 502 to 504)."""
    request = urllib.request.Request(url, method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT) as answer:
            return answer.status < 500
    except urllib.error.HTTPError as error:
        return error.code < 500
    except (OSError, ValueError):
        return False


def changes_of(tournaments: list[Tournament]) -> dict[int, int]:
    """Each tournament's change number: how many audit rows it has. One query."""
    rows = (
        AuditEntry.objects.filter(tournament__in=tournaments)
        .values("tournament")
        .annotate(n=Count("pk"))
        .values_list("tournament", "n")
    )
    return dict(rows)


def fingerprints(tournament: Tournament) -> dict[str, str]:
    """Each match's hands and decisions, in a word that changes whenever they do: how
    many there are and the latest change to them (a hand's ``updated_at`` moves with every
    correction). Two queries."""
    marks: dict[str, list[str]] = {}
    counted = (
        (Hand.objects.filter(match__tournament=tournament), Max("updated_at"), 0),
        (Decision.objects.filter(tournament=tournament), Max("pk"), 1),
    )
    for rows, latest, slot in counted:
        for row in rows.values("match__key").annotate(n=Count("pk"), last=latest):
            marks.setdefault(row["match__key"], ["", ""])[slot] = f"{row['n']}@{row['last']}"
    return {key: "/".join(mark) for key, mark in marks.items()}


def published() -> list[Tournament]:
    """What the venue publishes: its own tournaments that are not drafts."""
    mirrored = Mirror.objects.values("tournament")
    return list(
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .exclude(pk__in=mirrored)
        .order_by("pk")
    )


class Publisher:
    """Passes over the tournaments, with each one's wait after a failure (in memory: a
    restart tries at once)."""

    def __init__(self, post: Post = http_post, probe: Probe = http_probe) -> None:
        self.post = post
        self.probe = probe
        self.not_before: dict[int, datetime] = {}
        self.waits: dict[int, float] = {}
        self.offline: set[int] = set()
        """The tournaments whose wait is for the connection (not a refusal): probed."""
        self.let_in: set[int] = set()
        """Those a probe's answer sent early: if that send fails too (the club answers the
        probe but not the changes), their back-off runs its course, unprobed."""
        self.probed_at: datetime | None = None
        self.destination: tuple[int, str, str] | None = None

    def publish_once(self, now: datetime | None = None) -> int:
        """One pass; returns how many requests it sent."""
        destination = Destination.objects.order_by("-pk").first()
        if destination is None:
            return 0
        now = now or timezone.now()
        self._notice(destination, now)
        tournaments = published()
        numbers = changes_of(tournaments)
        kept = {p.tournament_id: p for p in Publication.objects.filter(tournament__in=tournaments)}
        sent = 0
        for tournament in tournaments:
            if self._waiting(tournament.pk, kept.get(tournament.pk), now):
                continue
            publication = kept.get(tournament.pk) or Publication.objects.create(
                tournament=tournament
            )
            number = numbers.get(tournament.pk, 0)
            heard = publication.succeeded_at
            quiet = heard is None or now - heard >= timedelta(seconds=protocol.HEARTBEAT_SECONDS)
            if number <= publication.acknowledged_through and not quiet:
                continue
            news = number > publication.acknowledged_through
            sent += 1
            reply, marks = self._send(destination, tournament, publication, news=news)
            if reply.status == 200 and self._behind(reply, number):
                # The club has less than it was sent or said before (a gap, a copy that
                # did not fit, a backup restored there): the whole archive, at once.
                publication.sent = None
                sent += 1
                reply, marks = self._send(destination, tournament, publication, news=True)
            self._record(tournament, publication, reply, marks, timezone.now())
        return sent

    def _notice(self, destination: Destination, now: datetime) -> None:
        """Every wait forgotten when the destination changed (a new address or token is
        tried at once); the waits for the connection, when a probe finds the club back."""
        seen = (destination.pk, destination.url, destination.token)
        if seen != self.destination:
            self.destination = seen
            self.not_before.clear()
            self.offline.clear()
            self.let_in.clear()
            return
        waiting = {pk for pk in self.offline if self.not_before.get(pk, now) > now}
        if not waiting:
            return
        if self.probed_at is not None and now - self.probed_at < timedelta(seconds=PROBE_SECONDS):
            return
        self.probed_at = now
        if self.probe(destination.url.rstrip("/") + protocol.PATH):
            for pk in waiting:  # the next send keeps the back-off if it fails again
                self.not_before.pop(pk, None)
                self.let_in.add(pk)

    def _waiting(self, pk: int, publication: Publication | None, now: datetime) -> bool:
        """Whether the tournament waits its turn after a failure: only while its
        publication still shows that failure (a rename clears it: tried at once)."""
        if publication is not None and not publication.error:
            return False
        return self.not_before.get(pk, now) > now

    @staticmethod
    def _behind(reply: Reply, number: int) -> bool:
        applied = reply.body.get("applied_through")
        return isinstance(applied, int) and applied < number

    def _send(
        self,
        destination: Destination,
        tournament: Tournament,
        publication: Publication,
        *,
        news: bool,
    ) -> tuple[Reply, dict[str, str] | None]:
        """Send the tournament's changes (``news``: the part the club lacks, or all of
        it when its copy is not known) or a heartbeat. Returns the club's reply and the
        fingerprints of what was sent (None for a heartbeat)."""
        body: dict[str, Any] = {
            "format": protocol.FORMAT,
            "version": protocol.VERSION,
            "venue": destination.venue,
            "slug": publication.slug or tournament.slug,
            "archive": None,
        }
        marks = None
        with transaction.atomic():
            # The number first: the archive read after it holds at least those changes.
            body["through"] = changes_of([tournament]).get(tournament.pk, 0)
            if news:
                marks = fingerprints(tournament)
                body.update(self._changes(tournament, publication, marks))
        # How old its changes are, measured last (after reading the archive) on this clock.
        acknowledged, now = publication.acknowledged_through, timezone.now()
        body.update(
            lag.ages(tournament.pk, through=body["through"], acknowledged=acknowledged, now=now)
        )
        data = gzip.compress(json.dumps(body, ensure_ascii=False).encode())
        headers = {
            "Authorization": f"Bearer {destination.token}",
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
        }
        publication.attempted_at = timezone.now()
        return self.post(destination.url.rstrip("/") + protocol.PATH, data, headers), marks

    @staticmethod
    def _changes(
        tournament: Tournament, publication: Publication, marks: dict[str, str]
    ) -> dict[str, Any]:
        """The archive, whole or the part after what the club acknowledged (the matches
        whose fingerprint ``marks`` differs from the one the club has)."""
        private = {"shows_private": lambda _player: False, "published": True}
        acknowledged = publication.acknowledged_through
        if publication.sent is None or not acknowledged:
            return {"archive": export_tournament(tournament, **private), "since": None}
        hands_of = sorted(key for key, mark in marks.items() if publication.sent.get(key) != mark)
        audit_from = max(acknowledged - protocol.AUDIT_OVERLAP, 0)
        archive = export_tournament(tournament, hands_of=hands_of, audit_from=audit_from, **private)
        return {
            "archive": archive,
            "since": acknowledged,
            "hands_of": hands_of,
            "audit_from": audit_from,
        }

    def _record(
        self,
        tournament: Tournament,
        publication: Publication,
        reply: Reply,
        marks: dict[str, str] | None,
        now: datetime,
    ) -> None:
        fields = ["attempted_at", "succeeded_at", "failing_since", "error", "error_code"]
        if reply.status == 200 and isinstance(reply.body.get("applied_through"), int):
            publication.acknowledged_through = reply.body["applied_through"]
            if marks is not None:  # what the club now has of each match
                publication.sent = marks
                fields.append("sent")
            publication.succeeded_at, publication.failing_since = now, None
            publication.error = publication.error_code = ""
            fields.append("acknowledged_through")
            self.waits.pop(tournament.pk, None)
            self.not_before.pop(tournament.pk, None)
            self.offline.discard(tournament.pk)
            self.let_in.discard(tournament.pk)
        else:
            refused = 400 <= reply.status < 500 and isinstance(reply.body.get("error"), str)
            if refused:
                publication.error = str(reply.body["error"])[:300]
                publication.error_code = str(reply.body.get("code", ""))[:30]
                wait = float(REFUSED_WAIT)
                self.offline.discard(tournament.pk)
            else:
                self._offline(tournament.pk)
                publication.error, publication.error_code = _("no connection"), "connection"
                wait = min(self.waits.get(tournament.pk, 0.5) * 2, LONGEST_WAIT)
            publication.failing_since = publication.failing_since or now
            self.waits[tournament.pk] = wait
            self.not_before[tournament.pk] = now + timedelta(seconds=wait)
        publication.save(update_fields=fields)

    def _offline(self, pk: int) -> None:
        """The club did not take the changes: probed while they wait, unless a probe's
        answer is what sent them (then the back-off runs its course once)."""
        if pk in self.let_in:
            self.let_in.discard(pk)
            self.offline.discard(pk)
        else:
            self.offline.add(pk)


def configure_from_environment() -> Destination | None:
    """The destination ``ginclub venue --publish URL`` and ``GINCLUB_PUBLISH_TOKEN`` name,
    stored (the latest wins); None when the venue does not publish."""
    url = os.environ.get("GINCLUB_PUBLISH_URL", "")
    if not url:
        return None
    token = os.environ.get("GINCLUB_PUBLISH_TOKEN", "")
    venue = os.environ.get("GINCLUB_VENUE_NAME", "")
    Destination.objects.all().delete()
    return Destination.objects.create(url=url, token=token, venue=venue)


def start(interval: float = 1.0) -> Callable[[], None]:
    """The publishing thread of the venue server; returns what stops it."""
    stopping = threading.Event()
    publisher = Publisher()

    def run() -> None:
        while not stopping.wait(interval):
            try:
                close_old_connections()
                publisher.publish_once()
            except Exception:  # a pass that broke: logged, the next one tries again
                log.exception("publishing pass failed")

    threading.Thread(target=run, name="ginclub-publishing", daemon=True).start()
    return stopping.set
