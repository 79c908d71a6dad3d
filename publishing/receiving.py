"""At the club's server: a venue's change, applied to its mirror (see :mod:`.protocol`).

:func:`receive` is the whole rule: who may publish what, and what a change does. The view
(:mod:`.views`) reads the request (the token, the body) and writes the answer."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.refresh import Misfit, refresh_copy
from archive.restore import write_copy
from archive.schema import ArchiveError
from tournaments import public_version
from tournaments.models import AuditEntry, Tournament

from . import lag, protocol
from .models import Mirror, PublishToken

log = logging.getLogger(__name__)
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,80}")
"""A slug as the venue's are (Django's slug characters), at most as long as its column."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]


def refused(code: str, message: str) -> Answer:
    return Answer(protocol.STATUS[code], {"error": message, "code": code})


@dataclass(frozen=True)
class Part:
    """A change that carries only what changed after change ``since`` (the hands and
    decisions of the matches ``hands_of``, the audit from row ``audit_from``)."""

    since: int
    hands_of: list[str]
    audit_from: int


def _number(value: Any) -> bool:
    """Whether ``value`` is a change number: a whole number the database can hold."""
    return (
        isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= protocol.MAX_CHANGE
    )


def _part(body: dict[str, Any], through: int) -> Part | Answer | None:
    since = body.get("since")
    if since is None:
        return None
    hands_of, audit_from = body.get("hands_of"), body.get("audit_from")
    if (
        not _number(since)
        or not _number(audit_from)
        or audit_from > since
        or since > through
        or not isinstance(hands_of, list)
        or not all(isinstance(key, str) for key in hands_of)
    ):
        return refused(protocol.BAD_REQUEST, _("The request's change is not well formed."))
    return Part(since, hands_of, audit_from)


def _request(body: Any) -> tuple[str, str, int, Any, Part | None] | Answer:
    """The request's slug, venue name, change number, archive (or None) and part (None:
    the whole archive), or why not."""
    if not isinstance(body, dict):
        return refused(protocol.BAD_REQUEST, _("The request is not a publishing request."))
    if body.get("format") != protocol.FORMAT or body.get("version") != protocol.VERSION:
        return refused(
            protocol.BAD_REQUEST,
            _("This club server reads publishing version %(version)s: update the venue's ginclub.")
            % {"version": protocol.VERSION},
        )
    slug, venue, through = body.get("slug"), body.get("venue", ""), body.get("through")
    if not isinstance(slug, str) or not SLUG.fullmatch(slug):
        return refused(protocol.BAD_REQUEST, _("The request names no tournament."))
    if not isinstance(venue, str):
        venue = ""
    if not _number(through):
        return refused(protocol.BAD_REQUEST, _("The request has no change number."))
    part = _part(body, through)
    if isinstance(part, Answer):
        return part
    return slug, venue[:120], through, body.get("archive"), part


def receive(token: PublishToken, body: Any) -> Answer:
    """Apply one request from the venue that ``token`` is, as the protocol says."""
    parsed = _request(body)
    if isinstance(parsed, Answer):
        return parsed
    try:
        return _receive(token, body, *parsed)
    except _SlugTakenMeanwhile:
        # Another venue's first change made a tournament at this slug while ours was
        # being written: asked again, the slug is another's (409, the rename offered) or,
        # published by the same director from elsewhere, this mirror's.
        return _receive(token, body, *parsed)


class _SlugTakenMeanwhile(Exception):
    """A new mirror's slug was taken by another request between the look and the write."""


def _receive(
    token: PublishToken,
    body: dict[str, Any],
    slug: str,
    venue: str,
    through: int,
    archive: Any,
    part: Part | None,
) -> Answer:
    """Apply the request ``body`` (read by :func:`_request` into the rest)."""
    now = timezone.now()
    with transaction.atomic():
        # First, and held to the end: one token's requests are applied one at a time, so
        # two first deliveries of a tournament at once make one mirror, not a refusal.
        PublishToken.objects.filter(pk=token.pk).update(last_used_at=now)
        tournament = Tournament.objects.select_for_update().filter(slug=slug).first()
        mirror = (
            Mirror.objects.select_for_update().filter(tournament=tournament).first()
            if tournament is not None
            else None
        )
        if tournament is not None and (mirror is None or mirror.owner_id != token.user_id):
            return refused(
                protocol.SLUG_TAKEN,
                _(
                    "The club's server already has a tournament at %(slug)s: publish it "
                    "under another name."
                )
                % {"slug": slug},
            )
        if mirror is None:
            if archive is None or part is not None:
                return Answer(200, {"applied_through": 0})  # "send me all of it"
            try:
                copy = write_copy(archive, slug=slug, owned_by=token.user)
            except ArchiveError as error:
                if Tournament.objects.filter(slug=slug).exists():
                    raise _SlugTakenMeanwhile from error
                return refused(protocol.BAD_REQUEST, _("The archive was refused: %s") % error)
            if _claims_more(copy, through):
                transaction.set_rollback(True)
                return _claimed_more(through)
            mirror = Mirror.objects.create(
                tournament=copy,
                owner=token.user,
                token=token,
                venue=venue,
                applied_through=through,
                received_at=now,
                applied_at=now,
                **lag.told(body, through, now),
            )
            return Answer(200, {"applied_through": through})
        mirror.received_at, mirror.token = now, token
        if venue:
            mirror.venue = venue
        for name, value in lag.told(body, through, now).items():  # how far behind it is
            setattr(mirror, name, value)
        if archive is not None and through > mirror.applied_through:
            try:
                applied = _apply(tournament, archive, part, mirror.applied_through, token)
            except ArchiveError as error:
                return refused(protocol.BAD_REQUEST, _("The archive was refused: %s") % error)
            if applied and _claims_more(tournament, through):
                transaction.set_rollback(True)
                return _claimed_more(through)
            if applied:
                mirror.applied_through, mirror.applied_at = through, now
        mirror.save()
        # The mirror's pages say how fresh they are: rendered again with each word from
        # the venue (a heartbeat every few seconds), not only with each change.
        public_version.changed(tournament)
        return Answer(200, {"applied_through": mirror.applied_through})


def _claims_more(tournament: Tournament, through: int) -> bool:
    """Whether the change just applied to ``tournament`` carried fewer changes (audit rows)
    than its number says: acknowledging that number would skip the venue's real changes
    up to it."""
    return AuditEntry.objects.filter(tournament=tournament).count() < through


def _claimed_more(through: int) -> Answer:
    return refused(
        protocol.BAD_REQUEST,
        _("The request says it is at change %(number)s but carries fewer changes.")
        % {"number": through},
    )


def _apply(
    tournament: Tournament, archive: Any, part: Part | None, applied: int, token: PublishToken
) -> bool:
    """The change applied to the mirror; False when it cannot be (a part starting after
    what the mirror has, or not fitting it): the answer then asks for all of it."""
    if part is None:
        write_copy(archive, slug=tournament.slug, owned_by=token.user, replacing=tournament)
        return True
    if part.since > applied:
        return False
    try:
        refresh_copy(
            archive, tournament=tournament, hands_of=part.hands_of, audit_from=part.audit_from
        )
    except (Misfit, ArchiveError) as error:
        # The whole archive will say it again if it is the venue's data that is wrong.
        log.warning(
            "publishing: a change to %s not applied (%s): asking for all of it",
            tournament.slug,
            error,
        )
        return False
    return True
