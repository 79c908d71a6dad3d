"""When the tables should be done, on Round control (issue 33): rendered by tournaments'
``rounds.html``, which must not import standings (a template may load any app's tags).
The projector and ``tables.json`` read the same :func:`standings.tables.room`."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from tournaments.models import Tournament

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
