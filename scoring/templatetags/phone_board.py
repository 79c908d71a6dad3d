"""Round control's device board and the director's calls (rendered by tournaments'
``rounds.html``, which must not import scoring: a template may load any app's tags), and
the table link's call region (``scoring/partials/call_director.html``)."""

from __future__ import annotations

import datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from tournaments.models import Match, Tournament

from .. import calls, devices
from ..models import DirectorCall

register = template.Library()


@register.inclusion_tag("scoring/partials/device_board.html")
def device_board(tournament: Tournament) -> dict[str, Any]:
    """Per table in play: its phones, last hand, refusals and resends, and what to check."""
    return {
        "tables": devices.board(tournament),
        "seen_minutes": devices.SEEN_MINUTES,
        "silent_minutes": devices.SILENT_MINUTES,
    }


@register.inclusion_tag("scoring/partials/director_calls.html", takes_context=True)
def director_calls(context: template.Context, tournament: Tournament) -> dict[str, Any]:
    """The open calls, oldest first, with the director's buttons."""
    return {
        "tournament": tournament,
        "calls": calls.open_calls(tournament),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def table_call(match: Match) -> DirectorCall | None:
    """The call the table's phone shows (open, answered, or closed lately)."""
    return calls.latest(match)


@register.simple_tag
def call_reasons() -> list[tuple[str, str]]:
    return list(DirectorCall.Reason.choices)


@register.filter
def ago(moment: datetime.datetime | None) -> str:
    """Says "just now", or "3 minutes ago" (Django's own words for the span, translated)."""
    if moment is None:
        return ""
    if timezone.now() - moment < datetime.timedelta(minutes=1):
        return _("just now")
    return _("%(ago)s ago") % {"ago": timesince(moment)}
