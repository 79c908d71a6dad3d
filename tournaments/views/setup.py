"""Creating a tournament, its rules and format, and its status."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine import PRESETS, resolve_rules
from web import repeats
from web.pages import page

from .. import organising
from ..forms import (
    TournamentForm,
    rules_from_query,
)
from ..models import Tournament
from ..models.tournaments import DEFAULT_PRESET
from ..permissions import can_direct
from ..rules_text import rules_summary
from .base import director_view, manage_url, manage_view, message_text

# -- tournaments -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@director_view
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    context: dict[str, Any] = {}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data

        def find(seen: int) -> repeats.Made | None:
            return _same_tournament(request.user, data["name"], data["date"], seen)

        try:
            with repeats.guard(Tournament, seen=repeats.besides(request), find=find):
                tournament = organising.create_tournament(owner=request.user, data=data)
        except repeats.Repeat as repeat:
            context = repeats.question(repeat.made)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Tournament created. Now register the players."))
            return redirect(manage_url("entry-list", tournament))
    return page(request, "tournaments/setup.html", {**_setup_context(form, None), **context})


def _same_tournament(user: Any, name: str, date: Any, seen: int) -> repeats.Made | None:
    """The newest tournament of the same name and date any director made lately (after
    the one ``seen``): almost surely the same night entered twice."""
    found = (
        Tournament.objects.filter(
            name__iexact=name.strip(), date=date, created__gte=repeats.since(), pk__gt=seen
        )
        .select_related("owner")
        .order_by("-pk")
        .first()
    )
    if found is None:
        return None
    mine = found.owner_id == user.pk
    return repeats.Made(
        pk=found.pk,
        name=found.name,
        at=found.created,
        url=manage_url("tournament-setup", found) if can_direct(user, found) else "",
        by="" if mine else found.owner.get_username(),
    )


def _setup_context(form: TournamentForm, tournament: Tournament | None) -> dict[str, Any]:
    """The summary shows the rules as submitted (when valid), else as stored."""
    submitted = getattr(form, "cleaned_data", {}).get("rules") if form.is_bound else None
    if submitted:
        ruleset = resolve_rules(submitted)
    elif tournament is not None:
        ruleset = tournament.ruleset
    else:
        ruleset = PRESETS[DEFAULT_PRESET]
    return {
        "form": form,
        "tournament": tournament,
        "summary": rules_summary(ruleset),
        "section": "setup",
    }


@require_http_methods(["GET", "POST"])
@manage_view
def tournament_setup(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST":
        if form.is_valid():
            try:
                organising.update_tournament(
                    tournament=tournament, data=form.cleaned_data, user=request.user
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(request, _("Tournament saved."))
                return redirect(manage_url("tournament-setup", tournament))
        tournament.refresh_from_db()
    return page(request, "tournaments/setup.html", _setup_context(form, tournament))


@require_GET
@director_view
def rules_summary_view(request: HttpRequest) -> HttpResponse:
    """The live one-line summary for the setup form (htmx swaps it in as you pick)."""
    ruleset = rules_from_query(request.GET)
    context = {
        "summary": rules_summary(ruleset) if ruleset else "",
        "invalid": ruleset is None,
    }
    return page(request, "tournaments/rules_summary.html", context, partial="rules-summary")


@require_POST
@manage_view
def tournament_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        organising.set_status(
            tournament=tournament, status=request.POST.get("status", ""), user=request.user
        )
    except ValidationError as error:
        messages.error(request, message_text(error))
    else:
        messages.success(request, _("Status changed."))
    return redirect(manage_url("tournament-setup", tournament))
