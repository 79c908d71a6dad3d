"""The players' own pages (issue 15): "find me" by name, and one player's view.

``/t/<slug>/find/?q=…`` searches the field by name (:func:`public.players.search`): one
player found is shown in full there, several are listed as links, none or a query too
short to look for gets a message and no list. ``/t/<slug>/players/<entry>/`` is one
player's view, to bookmark: where to play next and the matches so far.

Read only, and nobody logs in. Each view makes the queries of the public page and no more
(the tournament, then :func:`standings.data.load`: matches with both players, hands),
whatever the field size. Names and seeds only: no personal data.

With htmx the search box asks for the results region as you type (and puts the query in
the address), and a player's view refreshes itself while the tournament runs. Without
JavaScript both are plain pages: a GET form with a button, and links.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils import timezone
from django.views.decorators.http import condition, require_GET

from public import live as live_pages
from public.companion import Companion, companion
from public.live import Live, headers, last_modified, live, not_modified, visitor_tag
from public.players import MIN_QUERY, PlayerView, people, player_views, search
from standings.data import Results, load, team_rosters
from standings.tables import room
from tournaments import self_checkin
from tournaments.models import Tournament
from web.pages import template_for, wants_region

FIND = "public/find.html"
PLAYER = "public/player.html"
PLAYER_REGION = "public/partials/player_view.html"


def _players(tournament: Tournament) -> dict[str, Any]:
    """Everyone a visitor can look up, and each one's view: worked out once per public
    version from one load, then every search and every player's page reads them."""
    data = load(tournament)
    rosters = team_rosters(tournament)
    found = [
        replace(hit, members=", ".join(name for name, _page in rosters[hit.entry_id]))
        if hit.entry_id in rosters
        else hit
        for hit in people(data)
    ]
    views: dict[int, PlayerView] = player_views(data)
    for entry_id, members in rosters.items():
        if entry_id in views:
            views[entry_id] = replace(views[entry_id], members=members)
    return {
        "people": found,
        "views": views,
        "companions": _companions(data, views),
        "checkin_open": self_checkin.is_open(data.tournament),
    }


def _companions(data: Results, views: dict[int, PlayerView]) -> dict[int, Companion]:
    """What each player should do now (:mod:`public.companion`), from the same load."""
    checked_in = {entry.pk for entry in data.entries if entry.checked_in}
    status = data.tournament.status
    size = len(data.standings.rows)
    free: dict[int, tuple[int, datetime]] = {}
    for queued in room(data, timezone.now()).queue:
        if queued.table is not None and queued.estimated_start is not None:
            free[queued.match.pk] = (queued.table, queued.estimated_start)
    return {
        entry_id: companion(
            view,
            status,
            checked_in=entry_id in checked_in,
            field_size=size,
            free_table=free.get(view.next.match_id or 0),
        )
        for entry_id, view in views.items()
    }


def _group(found: Live) -> live_pages.Rendered:
    return live_pages.group(found, "players", lambda: _players(found.tournament))


def _what(request: HttpRequest, kind: str) -> str | None:
    """What the ``ETag`` names besides the version: the region, or the whole page for
    this visitor (None: a message waits, no validators)."""
    if wants_region(request):
        return f"{kind}.region"
    visitor = visitor_tag(request)
    return f"{kind}.page.{visitor}" if visitor is not None else None


def _query_tag(request: HttpRequest) -> str:
    query = request.GET.get("q", "")
    return hashlib.blake2s(query.encode(), digest_size=6).hexdigest()


def _find_etag(request: HttpRequest, slug: str) -> str | None:
    what = _what(request, f"find.{_query_tag(request)}")
    return live(request, slug).etag(what) if what else None


def _player_etag(request: HttpRequest, slug: str, entry_id: int) -> str | None:
    what = _what(request, f"player.{entry_id}")
    return live(request, slug).etag(what) if what else None


def _modified(request: HttpRequest, slug: str, **kwargs: Any) -> Any:
    return last_modified(request, slug) if _what(request, "") is not None else None


def _respond(
    request: HttpRequest,
    found: Live,
    rendered: live_pages.Rendered,
    template: str,
    context: dict[str, Any],
    kind: str,
) -> HttpResponse:
    context = {
        "tournament": found,  # its slug and name are all these pages show of it
        "live": found.running,
        "min_query": MIN_QUERY,
        "poll_seconds": live_pages.POLL_SECONDS,
        **context,
    }
    what = _what(request, kind)
    region = wants_region(request)
    if region and what is not None:
        unchanged = not_modified(request, found, what, rendered.tag)
        if unchanged is not None:
            return live_pages.poll_again(unchanged, found, rendered)
    response = TemplateResponse(request, template, context).render()
    if what is None:
        return response  # a message waits: no validators (condition() adds none either)
    response = headers(response, found, what, rendered.tag, private=not region)
    return live_pages.poll_again(response, found, rendered) if region else response


@require_GET
@condition(etag_func=_find_etag, last_modified_func=_modified)
def find(request: HttpRequest, slug: str) -> HttpResponse:
    """The search form and what ``?q=`` finds. An htmx request gets the results region."""
    found = live(request, slug)
    rendered = _group(found)
    result = search(rendered.parts["people"], request.GET.get("q", ""))
    player = rendered.parts["views"].get(result.hits[0].entry_id) if len(result.hits) == 1 else None
    template = template_for(request, FIND, "find-results")
    context = {"search": result, "player": player}
    return _respond(request, found, rendered, template, context, f"find.{_query_tag(request)}")


@require_GET
@condition(etag_func=_player_etag, last_modified_func=_modified)
def player(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """One player's view. An htmx request (its own refresh) gets the view's region."""
    found = live(request, slug)
    rendered = _group(found)
    view = rendered.parts["views"].get(entry_id)
    if view is None:
        raise Http404
    template = PLAYER_REGION if wants_region(request) else PLAYER
    context = {
        "player": view,
        "companion": rendered.parts["companions"][entry_id],
        "checkin_open": rendered.parts["checkin_open"],
    }
    return _respond(request, found, rendered, template, context, f"player.{entry_id}")
