"""When the tables should be done, on Round control (issue 33): rendered by tournaments'
``rounds.html``, which must not import standings (a template may load any app's tags).
The projector and ``tables.json`` read the same :func:`standings.tables.room`.

Also where a queued match stands (issue 41), on its table link and match sheet (scoring's
templates): the table expected to free for it, and when."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Match, Tournament

from ..data import load
from ..tables import room

register = template.Library()


@register.inclusion_tag("standings/partials/table_estimates.html")
def table_estimates(tournament: Tournament) -> dict[str, Any]:
    """Each table in play with its likely finish and whether it runs far behind the room,
    and each queued match with when it should get a table."""
    found = room(load(tournament), timezone.now())
    return {
        "tables": found.tables,
        "queue": found.queue,
        "minutes_per_hand": found.minutes_per_hand,
    }


@register.simple_tag
def wait_for_table(match: Match) -> str:
    """What a queued match's players read: the table expected to free for it and about
    when, else how many matches are ahead of it. A match out of the queue (it has its
    table, or is decided) is told only to wait for the director."""
    found = room(load(match.tournament), timezone.now())
    ahead = next((n for n, queued in enumerate(found.queue) if queued.match.pk == match.pk), None)
    if ahead is None:
        return _("Wait for a table: the director will give you one.")
    queued = found.queue[ahead]
    if queued.table is not None and queued.estimated_start is not None:
        start = time_format(timezone.localtime(queued.estimated_start))
        return _("Wait for a table: you are next after table %(table)s (about %(time)s).") % {
            "table": queued.table,
            "time": start,
        }
    if ahead == 0:
        return _("Wait for a table: you are first in the queue.")
    return ngettext(
        "Wait for a table: %(count)d match is ahead of you in the queue.",
        "Wait for a table: %(count)d matches are ahead of you in the queue.",
        ahead,
    ) % {"count": ahead}
