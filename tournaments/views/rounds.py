"""Round control: which tables are still playing, confirmations, walkovers."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from web.pages import page

from .. import calling, services
from ..forms import WalkoverForm
from ..match_names import name_of
from ..models import Match, Tournament
from ..rounds import round_overview
from .base import manage_url, manage_view, message_text

# -- round control ---------------------------------------------------------------------------


def _rounds_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "overview": round_overview(tournament),
        "walkover_form": WalkoverForm(),
        "section": "rounds",
        **extra,
    }


@require_GET
@manage_view
def round_control(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return page(
        request, "tournaments/rounds.html", _rounds_context(tournament), partial="round-control"
    )


def _round_result(
    request: HttpRequest, tournament: Tournament, *, ok: str = "", error: str = ""
) -> HttpResponse:
    if request.htmx:
        context = _rounds_context(tournament, notice=ok, error=error)
        return page(request, "tournaments/rounds.html", context, partial="round-control")
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(manage_url("round-control", tournament))


def _match(tournament: Tournament, match_id: int) -> Match:
    """The match, named as the pages name it in what Round control says of it."""
    match = get_object_or_404(
        Match.objects.select_related("side_a__player", "side_b__player", "stage"),
        pk=match_id,
        tournament=tournament,
    )
    match.named = name_of(match)
    return match


@require_POST
@manage_view
def match_confirm(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    match = _match(tournament, match_id)
    try:
        services.confirm_match(
            match=match, user=request.user, version=request.POST.get("version", "")
        )
    except ValidationError as error:
        return _round_result(request, tournament, error=message_text(error))
    return _round_result(
        request,
        tournament,
        ok=_("%(match)s confirmed: %(winner)s wins.")
        % {"match": match.label, "winner": match.winner},
    )


@require_POST
@manage_view
def match_walkover(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    match = _match(tournament, match_id)
    form = WalkoverForm(request.POST)
    if not form.is_valid():
        return _round_result(request, tournament, error=_("Choose who wins the walkover."))
    if not form.cleaned_data["confirmed"]:
        # A walkover ends the match without play: the director first sees whom it names.
        side = form.cleaned_data["winner_side"]
        context = _rounds_context(
            tournament,
            walkover_confirm={
                "match": match,
                "winner_side": side,
                "winner": match.name_a if side == "A" else match.name_b,
                "loser": match.name_b if side == "A" else match.name_a,
                "version": request.POST.get("version", ""),
            },
        )
        return page(request, "tournaments/rounds.html", context, partial="round-control")
    try:
        services.forfeit(
            match=match,
            winner_side=form.cleaned_data["winner_side"],
            user=request.user,
            version=request.POST.get("version", ""),
        )
    except ValidationError as error:
        return _round_result(request, tournament, error=message_text(error))
    return _round_result(
        request, tournament, ok=_("Walkover: %(winner)s goes through.") % {"winner": match.winner}
    )


@require_POST
@manage_view
def tables_assign(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    changed = services.assign_tables(tournament=tournament, user=request.user, call=True)
    return _round_result(
        request,
        tournament,
        ok=ngettext(
            "%(count)d match given a table.", "%(count)d matches given a table.", len(changed)
        )
        % {"count": len(changed)},
    )


@require_POST
@manage_view
def match_send(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    match = _match(tournament, match_id)
    try:
        table = int(request.POST.get("table", ""))
    except ValueError:
        return _round_result(request, tournament, error=_("Choose a table."))
    try:
        calling.send_to_table(match=match, table=table, user=request.user)
    except ValidationError as error:
        return _round_result(request, tournament, error=message_text(error))
    return _round_result(
        request,
        tournament,
        ok=_("%(match)s sent to table %(table)s: its players are called.")
        % {"match": match.label, "table": table},
    )
