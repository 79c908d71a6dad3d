"""Registration and check-in: entries, seeds, paid, withdrawals."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from web.pages import page

from .. import registration, self_checkin, services
from ..forms import (
    AddEntriesForm,
    AddEntryForm,
    AddTeamForm,
    PlayerForm,
    SeedForm,
)
from ..models import Entry, Player, Tournament
from .base import ENTRIES_CHANGED, PLAYER_REGISTERED, manage_url, manage_view, message_text

# -- registration ----------------------------------------------------------------------------

# The most registry players the registration page lists to tick (search to narrow it).
CANDIDATES_SHOWN = 200


def _entries_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict:
    entries = list(
        tournament.entries.select_related("player")
        .prefetch_related("members__player")
        .order_by("withdrawn", "seed", "player__name")
    )
    entries.sort(key=lambda e: (e.withdrawn, e.seed is None, e.seed or 0, e.name))
    team_size = tournament.ruleset.team_size
    query = request.GET.get("q", "").strip()[:100]
    everyone = not query and request.GET.get("all") == "1"
    candidates: list[Player] = []
    if query or everyone:
        found = Player.objects.exclude(entries__tournament=tournament)
        if query:
            found = found.filter(Q(name__icontains=query) | Q(club_id__icontains=query))
        candidates = list(found.order_by("name", "pk")[: CANDIDATES_SHOWN + 1])
    generated = tournament.matches.exists()
    context = {
        "tournament": tournament,
        "entries": entries,
        "counts": {
            "entered": sum(not e.withdrawn for e in entries),
            "checked_in": sum(e.checked_in and not e.withdrawn for e in entries),
            "paid": sum(e.paid for e in entries),
            "withdrawn": sum(e.withdrawn for e in entries),
        },
        "query": query,
        "everyone": everyone,
        "candidates": candidates[:CANDIDATES_SHOWN],
        "more_candidates": len(candidates) > CANDIDATES_SHOWN,
        "open": not generated and tournament.status != Tournament.Status.FINISHED,
        "generated": generated,
        "new_player_form": PlayerForm(prefix="new"),
        "team_size": team_size,
        "team_form": AddTeamForm(size=team_size) if team_size > 1 else None,
        "team_candidates": (
            Player.objects.exclude(entries__tournament=tournament)
            .exclude(team_memberships__tournament=tournament)
            .only("name", "club_id")
            .order_by("name", "pk")
            if team_size > 1
            else Player.objects.none()
        ),
        "section": "entries",
        "self_checkin": tournament.self_checkin,
        "checkin_code": self_checkin.code_of_today(tournament),
        "checkin_stale": tournament.self_checkin and not self_checkin.code_of_today(tournament),
        "checkin_possible": tournament.status in self_checkin.NOT_STARTED and not generated,
    }
    context.update(extra)
    return context


@require_GET
@manage_view
def entry_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    partial = (
        "registry-results" if request.GET.get("target") == "registry-results" else "entry-list"
    )
    return page(
        request, "tournaments/entries.html", _entries_context(request, tournament), partial=partial
    )


def _entry_result(
    request: HttpRequest, tournament: Tournament, *, ok: str = "", error: str = ""
) -> HttpResponse:
    """After a registration POST: the refreshed list for htmx, else back to the page."""
    if request.htmx:
        context = _entries_context(request, tournament, notice=ok, error=error)
        response = page(request, "tournaments/entries.html", context, partial="entry-list")
        if not error:
            trigger_client_event(response, ENTRIES_CHANGED)
        return response
    if error:
        messages.error(request, error)
    elif ok:
        messages.success(request, ok)
    return redirect(manage_url("entry-list", tournament))


@require_POST
@manage_view
def entry_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = AddEntryForm(request.POST)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return _entry_result(request, tournament, error=problems)
    try:
        entry = registration.add_entry(
            tournament=tournament,
            player=form.cleaned_data["player"],
            seed=form.cleaned_data.get("seed"),
            user=request.user,
        )
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=_("%(name)s entered.") % {"name": entry})


def entered_message(entered: registration.Entered) -> str:
    """ "12 players entered.", and who was left alone because they were entered already:
    what entering several players at once (ticked, or from a CSV file) says."""
    count = len(entered.entries)
    text = ngettext("%(count)d player entered.", "%(count)d players entered.", count) % {
        "count": count
    }
    if entered.already:
        names = ", ".join(player.name for player in entered.already)
        already = len(entered.already)
        text += " " + ngettext(
            "%(names)s was entered already.", "%(names)s were entered already.", already
        ) % {"names": names}
    return text


@require_POST
@manage_view
def entry_add_many(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Enter every registry player ticked on the page, in one write."""
    form = AddEntriesForm(request.POST)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return _entry_result(request, tournament, error=problems)
    try:
        entered = registration.add_entries(
            tournament=tournament, players=list(form.cleaned_data["players"]), user=request.user
        )
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=entered_message(entered))


@require_POST
@manage_view
def team_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Register a team: its name and a registered player for every seat."""
    form = AddTeamForm(request.POST, size=tournament.ruleset.team_size)
    if not form.is_valid():
        problems = " ".join(str(e) for errors in form.errors.values() for e in errors)
        return _entry_result(request, tournament, error=problems)
    try:
        entry = registration.add_team(
            tournament=tournament,
            name=form.cleaned_data["team_name"],
            players=form.players(),
            seed=form.cleaned_data.get("seed"),
            user=request.user,
        )
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=_("%(name)s entered.") % {"name": entry})


@require_POST
@manage_view
def entry_new(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Add a brand-new player to the registry and enter them."""
    form = PlayerForm(request.POST, prefix="new")
    if form.is_valid():
        try:
            entry = registration.register_new_player(
                tournament=tournament, data=form.cleaned_data, user=request.user
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            ok = _("%(name)s entered.") % {"name": entry}
            if not request.htmx:
                messages.success(request, ok)
                return redirect(manage_url("entry-list", tournament))
            context = _entries_context(request, tournament, new_notice=ok)
            response = page(request, "tournaments/entries.html", context, partial="new-player")
            trigger_client_event(response, PLAYER_REGISTERED)
            trigger_client_event(response, ENTRIES_CHANGED)
            return response
    # Invalid: the form again with its errors, nothing saved.
    context = _entries_context(request, tournament, new_player_form=form)
    return page(request, "tournaments/entries.html", context, partial="new-player")


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=tournament
    )


def _entry_write(
    request: HttpRequest, tournament: Tournament, write: Callable[[], object], ok: str = ""
) -> HttpResponse:
    """One registration write: its refusal, or ``ok``, on the refreshed entries."""
    try:
        write()
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    return _entry_result(request, tournament, ok=ok)


@require_POST
@manage_view
def entry_flag(
    request: HttpRequest, tournament: Tournament, entry_id: int, field: str
) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    if field not in registration.ENTRY_FLAGS:
        return _entry_result(request, tournament, error=_("Unknown flag."))
    value = request.POST.get("value") == "1"
    write = partial(
        registration.set_entry_flag, entry=entry, field=field, value=value, user=request.user
    )
    return _entry_write(request, tournament, write)


@require_POST
@manage_view
def entry_seed(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    form = SeedForm(request.POST)
    if not form.is_valid():
        return _entry_result(
            request, tournament, error=_("A seed is a whole number from 1 up, or empty.")
        )
    seed = form.cleaned_data["seed"]
    write = partial(registration.set_seed, entry=entry, seed=seed, user=request.user)
    return _entry_write(request, tournament, write)


@require_POST
@manage_view
def entry_withdraw(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    write = partial(services.withdraw, entry=entry, user=request.user)
    return _entry_write(request, tournament, write, _("%(name)s withdrawn.") % {"name": entry})


@require_POST
@manage_view
def entry_reinstate(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    write = partial(registration.reinstate_entry, entry=entry, user=request.user)
    return _entry_write(request, tournament, write, _("%(name)s is back in.") % {"name": entry})


@require_POST
@manage_view
def entry_remove(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    ok = _("%(name)s removed.") % {"name": entry}  # named before it is gone
    write = partial(registration.remove_entry, entry=entry, user=request.user)
    return _entry_write(request, tournament, write, ok)


@require_POST
@manage_view
def entry_seed_by_rating(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    write = partial(registration.seed_by_rating, tournament=tournament, user=request.user)
    return _entry_write(request, tournament, write, _("Seeded by rating."))


@require_POST
@manage_view
def entry_self_checkin(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Turn self check-in on (a new code of today) or off: the tournament's directors."""
    on = request.POST.get("on") == "1"
    try:
        self_checkin.set_self_checkin(tournament=tournament, on=on, user=request.user)
    except ValidationError as error:
        return _entry_result(request, tournament, error=message_text(error))
    tournament.refresh_from_db()
    if on:
        ok = _("Self check-in is on: the code is %(code)s.") % {"code": tournament.checkin_code}
    else:
        ok = _("Self check-in is off.")
    return _entry_result(request, tournament, ok=ok)
