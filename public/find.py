"""The players' own pages (issue 15): "find me" by name, and one player's view.

``/t/<slug>/find/?q=…`` searches the field by name (:func:`public.players.search`): one
player found is shown in full there, several are listed as links, none or a query too
short to look for gets a message and no list. ``/t/<slug>/players/<entry>/`` is one
player's view, to bookmark: where to play next and the matches so far.

Read only, and nobody logs in. Each view makes the queries of the public page and no more
(the tournament, then :func:`public.data.load`: matches with both players, hands),
whatever the field size. Names and seeds only: no personal data.

With htmx the search box asks for the results region as you type (and puts the query in
the address), and a player's view refreshes itself while the tournament runs. Without
JavaScript both are plain pages: a GET form with a button, and links.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from tournaments.models import Tournament

from .data import PublicData, load, published
from .players import MIN_QUERY, player_view, search

FIND = "public/find.html"
PLAYER = "public/player.html"
PLAYER_REGION = "public/partials/player_view.html"


def _fragment(request: HttpRequest) -> bool:
    """An htmx request for one region (not htmx restoring a page from its history)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _respond(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    # Only the small dataclasses of one search or one player go into the context, never the
    # whole tournament: a RequestContext lives until the cycle collector frees it.
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request", "HX-History-Restore-Request"))
    return response


def _context(data: PublicData) -> dict[str, Any]:
    tournament = data.tournament
    return {
        "tournament": tournament,
        "live": tournament.status == Tournament.Status.RUNNING,
        "min_query": MIN_QUERY,
    }


@require_GET
def find(request: HttpRequest, slug: str) -> HttpResponse:
    """The search form and what ``?q=`` finds. An htmx request gets the results region."""
    data = load(published(request, slug))
    found = search(data, request.GET.get("q", ""))
    player = player_view(data, found.hits[0].entry_id) if len(found.hits) == 1 else None
    context = {**_context(data), "search": found, "player": player}
    template = f"{FIND}#find-results" if _fragment(request) else FIND
    return _respond(request, template, context)


@require_GET
def player(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """One player's view. An htmx request (its own refresh) gets the view's region."""
    data = load(published(request, slug))
    view = player_view(data, entry_id)
    if view is None:
        raise Http404
    context = {**_context(data), "player": view}
    return _respond(request, PLAYER_REGION if _fragment(request) else PLAYER, context)
