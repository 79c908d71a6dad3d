"""Round control's open calls to the director (rendered by tournaments' ``rounds.html``,
which must not import this app: a template may load any app's tags), the table link's call
region (``tables/partials/call_director.html``), and ``ago``, which the device board
(``scoring.templatetags.phone_board``) says its times with too."""

from __future__ import annotations

import datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from tournaments.models import Match, Tournament

from .. import calls
from ..models import DirectorCall

register = template.Library()


@register.inclusion_tag("tables/partials/director_calls.html", takes_context=True)
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
