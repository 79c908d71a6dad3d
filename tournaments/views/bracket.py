"""Bracket preview, generation and clearing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from web.pages import page

from .. import draw
from ..models import Match, Tournament
from ..rounds import play_order
from .base import manage_url, manage_view, message_text

# -- bracket ---------------------------------------------------------------------------------


@require_GET
@manage_view
def bracket(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Before generation: a preview of exactly what will be stored. After: the bracket."""
    context: dict[str, Any] = {"tournament": tournament, "section": "bracket"}
    matches = list(
        tournament.matches.select_related("side_a__player", "side_b__player").order_by("pk")
    )
    if matches:
        context["generated"] = True
        context["groups"] = _groups(matches)
        context["played_into"] = draw.first_played(matches)
    else:
        context["generated"] = False
        try:
            plan = draw.generate_bracket(tournament=tournament, user=request.user, preview=True)
        except ValidationError as error:
            context["problem"] = message_text(error)
        else:
            context["plan"] = plan
            context["groups"] = _groups(plan.matches)
    return page(request, "tournaments/bracket.html", context, partial="bracket-view")


def _groups(matches: list[Match]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, int], list[Match]] = {}
    for match in matches:
        groups.setdefault((match.section, match.round), []).append(match)
    return [
        {
            "section": Match.Section(section).label,
            "round": round_,
            "matches": sorted(group, key=lambda m: m.position),
        }
        for (section, round_), group in sorted(groups.items(), key=lambda g: play_order(*g[0]))
    ]


@require_POST
@manage_view
def bracket_generate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        plan = draw.generate_bracket(tournament=tournament, user=request.user)
    except ValidationError as error:
        messages.error(request, message_text(error))
        return redirect(manage_url("bracket", tournament))
    messages.success(
        request,
        ngettext(
            "Bracket generated: %(count)d match. Tables are assigned; print the round.",
            "Bracket generated: %(count)d matches. Tables are assigned; print the round.",
            len(plan.matches),
        )
        % {"count": len(plan.matches)},
    )
    return redirect(manage_url("round-control", tournament))


@require_POST
@manage_view
def bracket_clear(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        draw.clear_bracket(tournament=tournament, user=request.user)
    except ValidationError as error:
        messages.error(request, message_text(error))
    else:
        messages.success(request, _("Bracket cleared. Registration is open again."))
    return redirect(manage_url("bracket", tournament))
