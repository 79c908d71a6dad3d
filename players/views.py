"""The club's player registry: list, search, add, edit, CSV import; and a CSV file
entered in one tournament (its directors' screen: the registry's import, entering).

Who sees and changes what is :mod:`players.registry`'s ownership model: every view
here applies it (contact details and the email search only for the players the user owns,
editing only those), whatever the page shows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import registration
from tournaments.forms import PlayerForm
from tournaments.models import AuditEntry, Player, Tournament
from tournaments.permissions import is_registrar, may_use_registry, owns_player
from tournaments.views.base import login_redirect, manage_url, manage_view, message_text
from tournaments.views.entries import entered_message
from web.pages import page

from . import csv_entries, csv_import, registry
from .forms import PlayerImportForm, PlayerSearchForm

# -- player registry -------------------------------------------------------------------------


def registry_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the player registry's screens: directors and registrars only (which player
    each may read or change is the view's business)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return login_redirect(request)
        if not may_use_registry(request.user):
            raise PermissionDenied(_("Only tournament directors and registrars can do this."))
        response = view(request, *args, **kwargs)
        patch_vary_headers(response, ("HX-Request",))
        return response

    return wrapper


def _player_page(request: HttpRequest) -> dict[str, Any]:
    user = request.user
    registrar = is_registrar(user)
    search = PlayerSearchForm(request.GET or None)
    players = Player.objects.all()
    query = ""
    if search.is_valid():
        query = search.cleaned_data["q"].strip()
    if query:
        # An email is only searched where it may be read: the search is no way to test
        # which player has an address.
        by_email = Q(email__icontains=query)
        if not registrar:
            by_email &= Q(created_by=user)
        players = players.filter(Q(name__icontains=query) | Q(club_id__icontains=query) | by_email)
    paginator = Paginator(players.order_by("name", "pk"), 50)
    listed = paginator.get_page(request.GET.get("page"))
    for player in listed:
        player.owned = registrar or owns_player(user, player)
    return {
        "search": search,
        "query": query,
        "players": listed,
        "registrar": registrar,
    }


@require_GET
@registry_view
def player_list(request: HttpRequest) -> HttpResponse:
    return page(request, "players/players.html", _player_page(request), partial="player-list")


@require_http_methods(["GET", "POST"])
@registry_view
def player_create(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = registration.create_player(data=form.cleaned_data, user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s added to the registry.") % {"name": player})
            return redirect("players:player-list")
    return page(request, "players/player_form.html", {"form": form, "player": None})


@require_http_methods(["GET", "POST"])
@registry_view
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    if not owns_player(request.user, player):
        raise PermissionDenied(
            _("Only a registrar or the director who added this player can open or edit it.")
        )
    form = PlayerForm(request.POST or None, instance=Player.objects.get(pk=player.pk))
    if request.method == "POST" and form.is_valid():
        try:
            saved = registry.update_player(player=player, data=form.cleaned_data, user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": saved})
            return redirect("players:player-list")
    history = (
        AuditEntry.objects.filter(tournament=None, object_type="player", object_id=str(player.pk))
        .select_related("user")
        .order_by("-at", "-pk")[:50]
    )
    context = {"form": form, "player": player, "history": history}
    return page(request, "players/player_form.html", context)


@require_http_methods(["GET", "POST"])
@registry_view
def player_import(request: HttpRequest) -> HttpResponse:
    """Upload, preview, confirm: a file is checked and shown; only the "import" button
    under the preview saves it, exactly as shown."""
    if request.method == "POST" and "confirm" in request.POST:
        return _player_import_confirm(request)
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"form": form, "result": None}
    if request.method == "POST" and form.is_valid():
        try:
            text = csv_import.decode_csv(form.cleaned_data["file"].read())
        except ValidationError as error:
            form.add_error("file", error)
        else:
            context["result"] = result = csv_import.check_players_csv(text=text)
            if result.ok:
                context["confirm"] = csv_import.confirmation(text=text, user=request.user)
    return page(request, "players/player_import.html", context)


def _player_import_confirm(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"form": PlayerImportForm(), "result": None}
    try:
        text = csv_import.confirmed_text(token=request.POST["confirm"], user=request.user)
    except ValidationError as error:
        context["problem"] = message_text(error)
    else:
        result = csv_import.import_players_csv(text=text, user=request.user)
        if result.ok:
            messages.success(
                request,
                ngettext(
                    "Imported %(count)d player.", "Imported %(count)d players.", len(result.players)
                )
                % {"count": len(result.players)},
            )
            return redirect("players:player-list")
        context["result"] = result
    return page(request, "players/player_import.html", context)


# -- a CSV file entered in a tournament ------------------------------------------------------


@require_http_methods(["GET", "POST"])
@manage_view
def entry_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload, preview, confirm, as the registry's import; the confirmation adds the new
    players to the registry and enters everyone, while the field is open (the tournament's
    directors only)."""
    context: dict[str, Any] = {
        "tournament": tournament,
        "section": "entries",
        "form": PlayerImportForm(),
        "result": None,
    }
    try:
        registration.check_open_for_players(tournament)
    except ValidationError as error:
        context["closed"] = message_text(error)
        return page(request, "players/entry_import.html", context)
    if request.method == "POST" and "confirm" in request.POST:
        return _entry_import_confirm(request, tournament, context)
    form = context["form"] = PlayerImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            text = csv_import.decode_csv(form.cleaned_data["file"].read())
        except ValidationError as error:
            form.add_error("file", error)
        else:
            result = csv_entries.check_entries_csv(text=text, tournament=tournament)
            context["result"] = result
            if result.ok and result.to_enter:
                context["confirm"] = csv_entries.confirmation(
                    text=text, user=request.user, tournament=tournament
                )
    return page(request, "players/entry_import.html", context)


def _entry_import_confirm(
    request: HttpRequest, tournament: Tournament, context: dict[str, Any]
) -> HttpResponse:
    try:
        text = csv_entries.confirmed_text(
            token=request.POST["confirm"], user=request.user, tournament=tournament
        )
        result = csv_entries.import_entries_csv(text=text, tournament=tournament, user=request.user)
    except ValidationError as error:
        context["problem"] = message_text(error)
        return page(request, "players/entry_import.html", context)
    if not result.ok or result.entered is None:
        context["result"] = result
        return page(request, "players/entry_import.html", context)
    ok = entered_message(result.entered)
    if result.new:
        ok += " " + ngettext(
            "%(count)d new player added to the registry.",
            "%(count)d new players added to the registry.",
            result.new,
        ) % {"count": result.new}
    messages.success(request, ok)
    return redirect(manage_url("entry-list", tournament))
