"""At the venue: how far a tournament's publishing has gone, in one line for the director
("Published 12 s ago", "37 changes waiting: no connection since 20:14")."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Tournament

from .kept import Kept
from .models import Destination, Publication
from .sending import changes_of

PUBLISHES = "publishing:publishes"


publishes = Kept(PUBLISHES, Destination.objects.exists)
"""Whether this installation publishes (it has a destination), so a director's page at a
venue that does not publish pays no query for the banner's line; forgotten whenever the
destination is saved or deleted."""


def forget_publishes(**_signal: object) -> None:
    publishes.forget()


@dataclass(frozen=True)
class Status:
    line: str
    trouble: bool
    slug_taken: bool = False


def status_of(tournament: Tournament) -> Status | None:
    """The line, or None where the venue does not publish (or the tournament is a draft,
    which is never sent)."""
    return statuses_of([tournament]).get(tournament.pk)


def statuses_of(tournaments: list[Tournament]) -> dict[int, Status]:
    """Each tournament's line by its pk, in two queries however many there are (the
    venue's "Publish to the club's server" page); empty where the venue does not publish."""
    shown = [t for t in tournaments if t.status != Tournament.Status.DRAFT]
    if not shown or not publishes():
        return {}
    numbers = changes_of(shown)
    kept = {p.tournament_id: p for p in Publication.objects.filter(tournament__in=shown)}
    return {t.pk: _status(kept.get(t.pk), numbers.get(t.pk, 0)) for t in shown}


def _status(publication: Publication | None, number: int) -> Status:
    acknowledged = publication.acknowledged_through if publication else 0
    waiting = max(0, number - acknowledged)
    if publication is None or (publication.succeeded_at is None and not publication.error):
        return Status(_("Not published yet: the first changes go within seconds"), False)
    if publication.error_code == "connection" and publication.failing_since is not None:
        since = time_format(timezone.localtime(publication.failing_since))
        line = ngettext(
            "%(n)d change waiting: no connection since %(time)s",
            "%(n)d changes waiting: no connection since %(time)s",
            waiting,
        ) % {"n": waiting, "time": since}
        return Status(line, True)
    if publication.error:
        line = _("Not published: %(reason)s") % {"reason": publication.error}
        return Status(line, True, publication.error_code == "slug-taken")
    assert publication.succeeded_at is not None
    seconds = int((timezone.now() - publication.succeeded_at).total_seconds())
    if waiting:
        line = ngettext(
            "Published %(seconds)d s ago; %(n)d change on its way",
            "Published %(seconds)d s ago; %(n)d changes on their way",
            waiting,
        ) % {"seconds": max(0, seconds), "n": waiting}
        return Status(line, False)
    return Status(_("Published %(seconds)d s ago") % {"seconds": max(0, seconds)}, False)
