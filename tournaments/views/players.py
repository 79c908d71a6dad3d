"""The club's player registry: list, search, add, edit, CSV import."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from .. import player_csv, registry
from ..forms import (
    PlayerForm,
    PlayerImportForm,
    PlayerSearchForm,
)
from ..models import Player
from .base import (
    director_view,
    message_text,
    page,
)

# -- player registry -------------------------------------------------------------------------


def _player_page(request: HttpRequest) -> dict[str, Any]:
    search = PlayerSearchForm(request.GET or None)
    players = Player.objects.all()
    query = ""
    if search.is_valid():
        query = search.cleaned_data["q"].strip()
    if query:
        players = players.filter(
            Q(name__icontains=query) | Q(email__icontains=query) | Q(club_id__icontains=query)
        )
    paginator = Paginator(players.order_by("name", "pk"), 50)
    return {
        "search": search,
        "query": query,
        "players": paginator.get_page(request.GET.get("page")),
    }


@require_GET
@director_view
def player_list(request: HttpRequest) -> HttpResponse:
    return page(request, "tournaments/players.html", _player_page(request), partial="player-list")


@require_http_methods(["GET", "POST"])
@director_view
def player_create(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = registry.create_player(data=form.cleaned_data, user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s added to the registry.") % {"name": player})
            return redirect("tournaments:player-list")
    return page(request, "tournaments/player_form.html", {"form": form, "player": None})


@require_http_methods(["GET", "POST"])
@director_view
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    form = PlayerForm(request.POST or None, instance=Player.objects.get(pk=player.pk))
    if request.method == "POST" and form.is_valid():
        try:
            registry.update_player(player=player, data=form.cleaned_data, user=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": player})
            return redirect("tournaments:player-list")
    return page(request, "tournaments/player_form.html", {"form": form, "player": player})


@require_http_methods(["GET", "POST"])
@director_view
def player_import(request: HttpRequest) -> HttpResponse:
    """Upload, preview, confirm: a file is checked and shown; only the "import" button
    under the preview saves it, exactly as shown."""
    if request.method == "POST" and "confirm" in request.POST:
        return _player_import_confirm(request)
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"form": form, "result": None}
    if request.method == "POST" and form.is_valid():
        try:
            text = player_csv.decode_csv(form.cleaned_data["file"].read())
        except ValidationError as error:
            form.add_error("file", error)
        else:
            context["result"] = result = player_csv.check_players_csv(text=text)
            if result.ok:
                context["confirm"] = player_csv.confirmation(text=text, user=request.user)
    return page(request, "tournaments/player_import.html", context)


def _player_import_confirm(request: HttpRequest) -> HttpResponse:
    context: dict[str, Any] = {"form": PlayerImportForm(), "result": None}
    try:
        text = player_csv.confirmed_text(token=request.POST["confirm"], user=request.user)
    except ValidationError as error:
        context["problem"] = message_text(error)
    else:
        result = player_csv.import_players_csv(text=text, user=request.user)
        if result.ok:
            messages.success(
                request, _("Imported %(count)d players.") % {"count": len(result.players)}
            )
            return redirect("tournaments:player-list")
        context["result"] = result
    return page(request, "tournaments/player_import.html", context)
