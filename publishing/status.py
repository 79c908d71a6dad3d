"""At the venue: how far a tournament's publishing has gone, in one line for the director,
the club's copy's lag said as the mirror says it (:mod:`.lag`): "Published: the club's
server is up to date", "The club's server is 12 s behind: 3 changes on their way", "The
club's server is 40 s behind: 37 changes waiting, no connection since 20:14"."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Tournament

from . import lag
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
    behind: int | None = None
    """Seconds the club's copy is behind (None: it has none yet): ``data-behind-seconds``."""


def status_of(tournament: Tournament) -> Status | None:
    """The line, or None where the venue does not publish (or the tournament is a draft,
    which is never sent)."""
    return statuses_of([tournament]).get(tournament.pk)


def statuses_of(tournaments: list[Tournament]) -> dict[int, Status]:
    """Each tournament's line by its pk, in two queries however many there are (the
    venue's "Publish to the club's server" page; one more for those the club is behind on);
    empty where the venue does not publish."""
    shown = [t for t in tournaments if t.status != Tournament.Status.DRAFT]
    if not shown or not publishes():
        return {}
    numbers = changes_of(shown)
    kept = {p.tournament_id: p for p in Publication.objects.filter(tournament__in=shown)}
    acknowledged = {pk: p.acknowledged_through for pk, p in kept.items()}
    behind = lag.behind_at_venue(acknowledged, {pk: numbers.get(pk, 0) for pk in kept})
    return {t.pk: _status(kept.get(t.pk), numbers.get(t.pk, 0), behind.get(t.pk, 0)) for t in shown}


def _status(publication: Publication | None, number: int, behind: int) -> Status:
    if publication is None or (publication.succeeded_at is None and not publication.error):
        return Status(_("Not published yet: the first changes go within seconds"), False)
    acknowledged = publication.acknowledged_through
    waiting = max(0, number - acknowledged)
    values = {"n": waiting, "seconds": behind}
    if publication.error_code == "connection" and publication.failing_since is not None:
        values["time"] = time_format(timezone.localtime(publication.failing_since))
        if not waiting:
            line = _("The club's server is up to date; no connection since %(time)s")
            return Status(line % values, True, behind=0)
        line = ngettext(
            "The club's server is %(seconds)d s behind: %(n)d change waiting, "
            "no connection since %(time)s",
            "The club's server is %(seconds)d s behind: %(n)d changes waiting, "
            "no connection since %(time)s",
            waiting,
        )
        return Status(line % values, True, behind=behind)
    if publication.error:
        line = _("Not published: %(reason)s") % {"reason": publication.error}
        return Status(line, True, publication.error_code == "slug-taken", behind)
    if waiting:
        line = ngettext(
            "The club's server is %(seconds)d s behind: %(n)d change on its way",
            "The club's server is %(seconds)d s behind: %(n)d changes on their way",
            waiting,
        )
        return Status(line % values, False, behind=behind)
    return Status(_("Published: the club's server is up to date"), False, behind=0)
