"""At the club's server: a venue's change, applied to its mirror (see :mod:`.protocol`).

:func:`receive` is the whole rule: who may publish what, and what a change does. The view
(:mod:`.views`) reads the request (the token, the body) and writes the answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive.restore import write_copy
from archive.schema import ArchiveError
from tournaments import public_version
from tournaments.models import Tournament

from . import protocol
from .models import Mirror, PublishToken


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]


def refused(code: str, message: str) -> Answer:
    return Answer(protocol.STATUS[code], {"error": message, "code": code})


def _request(body: Any) -> tuple[str, str, int, Any] | Answer:
    """The request's slug, venue name, change number and archive (or None), or why not."""
    if not isinstance(body, dict):
        return refused(protocol.BAD_REQUEST, _("The request is not a publishing request."))
    if body.get("format") != protocol.FORMAT or body.get("version") != protocol.VERSION:
        return refused(
            protocol.BAD_REQUEST,
            _("This club server reads publishing version %(version)s: update the venue's ginclub.")
            % {"version": protocol.VERSION},
        )
    slug, venue, through = body.get("slug"), body.get("venue", ""), body.get("through")
    if not isinstance(slug, str) or not slug or len(slug) > 80:
        return refused(protocol.BAD_REQUEST, _("The request names no tournament."))
    if not isinstance(venue, str):
        venue = ""
    if not isinstance(through, int) or isinstance(through, bool) or through < 0:
        return refused(protocol.BAD_REQUEST, _("The request has no change number."))
    return slug, venue[:120], through, body.get("archive")


def receive(token: PublishToken, body: Any) -> Answer:
    """Apply one request from the venue that ``token`` is, as the protocol says."""
    parsed = _request(body)
    if isinstance(parsed, Answer):
        return parsed
    slug, venue, through, archive = parsed
    now = timezone.now()
    with transaction.atomic():
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
        PublishToken.objects.filter(pk=token.pk).update(last_used_at=now)
        if mirror is None:
            if archive is None:
                return Answer(200, {"applied_through": 0})
            try:
                copy = write_copy(archive, slug=slug, owned_by=token.user)
            except ArchiveError as error:
                return refused(protocol.BAD_REQUEST, _("The archive was refused: %s") % error)
            mirror = Mirror.objects.create(
                tournament=copy,
                owner=token.user,
                token=token,
                venue=venue,
                applied_through=through,
                received_at=now,
                applied_at=now,
            )
            return Answer(200, {"applied_through": through})
        mirror.received_at, mirror.token = now, token
        if venue:
            mirror.venue = venue
        # The mirror's pages say how fresh they are: rendered again with each word from
        # the venue (a heartbeat every few seconds), not only with each change.
        public_version.changed(tournament)
        if archive is not None and through > mirror.applied_through:
            try:
                write_copy(archive, slug=slug, owned_by=token.user, replacing=tournament)
            except ArchiveError as error:
                return refused(protocol.BAD_REQUEST, _("The archive was refused: %s") % error)
            mirror.applied_through, mirror.applied_at = through, now
        mirror.save()
        return Answer(200, {"applied_through": mirror.applied_through})
