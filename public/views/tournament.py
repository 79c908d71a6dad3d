"""Public tournament pages: the bracket and standings, ``standings.json`` (the projector is
:mod:`public.views.display`).

Nobody logs in here and nothing is written. What a page shows is computed from the
tournament's data (:func:`standings.data.load`: its matches with both players, all of its
hands; standings from :mod:`standings.standings`, the bracket as drawn, the round-robin
cross-table and the tables in play from :mod:`standings.board`) once per public version and
language, and kept in the shared cache (:mod:`public.live`). Every response carries an
``ETag`` and ``Last-Modified``; a poll that finds nothing new gets a 304.

With htmx the pages refresh small regions every :data:`public.live.POLL_SECONDS`: the
tournament page's ``bracket`` and ``standings`` (the region named by ``HX-Target``), and
the projector's one ``panel``, which comes back as the next panel every few seconds.
Without JavaScript the tournament page is complete and the projector shows every panel
one under the other.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template import Context, Engine, RequestContext
from django.utils.safestring import mark_safe
from django.views.decorators.http import condition, require_GET

from club.standings_ratings import entry_ratings, with_club_ratings
from money.pool import standing_prizes
from public import live as live_pages
from public.live import (
    headers,
    last_modified,
    live,
    not_modified,
    packed,
    sent,
    unpacked,
    visitor_tag,
)
from standings.board import bracket_sections, cross_table
from standings.data import Results, format_line, load, team_members
from standings.stage_views import QUALIFYING
from standings.stats import seed_key
from tournaments.match_names import withdrawals
from tournaments.models import Stage, Tournament
from tournaments.rules_text import rules_summary
from tournaments.stages.progress import current_stage

PAGE = "public/tournament.html"
PAGE_PARTS = ("bracket", "standings")


def render_page(request: HttpRequest | None, template_name: str, context: dict[str, Any]) -> str:
    """The template rendered with ``context``, and nothing of ``context`` kept after.

    A RequestContext sits in a reference cycle of its own (each ``push`` adds a
    ContextDict that points back at it), so a page's context handed to ``render()`` is
    freed only by the cyclic garbage collector: ~32,000 objects for a 256-player bracket
    on every request, and the full collections they bring on walk the whole heap. Pushed
    for the render and popped after, the page's objects go as soon as it is sent. Only
    the template language's documented Python API is used (``Engine``, ``Context``,
    ``Context.push`` as a context manager); partials load as ``page.html#name`` there too.

    Without a request, the plain ``Context`` has no context processors: what is rendered
    so is the same for every visitor, and may be cached for all of them.
    """
    template = Engine.get_default().get_template(template_name)
    base = RequestContext(request) if request is not None else Context()
    with base.push(context):
        return template.render(base)


def page_context(data: Results, *, club_columns: bool = True) -> dict[str, Any]:
    """What the tournament page's regions (and the projector's panels) show;
    ``club_columns``: the standings' prize and club rating columns (the projector's
    standings have neither)."""
    tournament = data.tournament
    context: dict[str, Any] = {
        "tournament": tournament,
        "data": data,
        "standings": data.standings,
        "live": tournament.status == Tournament.Status.RUNNING,
        "poll_seconds": live_pages.POLL_SECONDS,
        "prizes": None,
        "ratings": None,
    }
    if club_columns:
        context["prizes"] = standing_prizes(tournament, data.standings.places)
        if not tournament.ruleset.is_team:  # a team is no club player: no rating column
            context["ratings"] = entry_ratings(data)
            context["ratings_provisional"] = any(
                rating.provisional for rating in (context["ratings"] or {}).values()
            )
    if data.stages:
        views = data.stage_views
        current = current_stage(data.stages)
        view = next(v for v in views if current is not None and v.number == current.number)
        context["stage_views"] = views
        context["current_view"] = view
        context["earlier_views"] = [
            v for v in views if v.number < view.number and v.kind in QUALIFYING
        ]
        if current is not None and current.is_knockout:
            mine = [m for m in data.matches if m.stage_id == current.pk]
            context["sections"] = bracket_sections(
                mine, double=current.kind == Stage.Kind.DOUBLE_ELIMINATION
            )
    elif data.round_robin:
        players = sorted((row.stats for row in data.standings.rows), key=seed_key)
        context["cross_table"] = cross_table(data.matches, players)
    else:
        context["sections"] = bracket_sections(data.matches, double=data.double)
    return context


def _page_regions(tournament: Tournament) -> dict[str, Any]:
    """The tournament page's live regions, as every visitor gets them."""
    data = load(tournament)
    context = page_context(data)
    parts: dict[str, Any] = {
        part: packed(render_page(None, f"{PAGE}#{part}", context)) for part in PAGE_PARTS
    }
    parts["has_bracket"] = bool(data.matches)
    parts["has_stages"] = bool(data.stages)
    current = current_stage(data.stages) or next(iter(data.planned), None)
    if current is not None:  # the match length being played now (or first, before the start)
        parts["rules_line"] = rules_summary(current.ruleset_for_round(None))
    parts["format_line"] = data.format_line
    return parts


def _page_part(request: HttpRequest) -> str:
    """The region an htmx request asks for: ``?region=`` (each region polls a URL of its
    own, so that the browser keeps each one's validators), else ``HX-Target``;
    ``bracket`` by default."""
    for asked in (request.GET.get("region"), request.htmx.target):
        if asked in PAGE_PARTS:
            return asked
    return PAGE_PARTS[0]


def _page_etag(request: HttpRequest, slug: str) -> str | None:
    if request.htmx:
        return None  # a region's validators name its content: live_pages.region()
    visitor = visitor_tag(request)
    return live(request, slug).etag(f"page.{visitor}") if visitor is not None else None


def _page_modified(request: HttpRequest, slug: str) -> datetime | None:
    if request.htmx or visitor_tag(request) is None:
        return None
    return last_modified(request, slug)


@require_GET
@condition(etag_func=_page_etag, last_modified_func=_page_modified)
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The public page: header, bracket (or cross-table) and standings with statistics.

    An htmx request gets one region back: ``?region=bracket`` or ``?region=standings``
    (or the one named by ``HX-Target``). The regions come from the cache (:mod:`public.live`);
    the page around them (the visitor's log-in links and CSRF token) is rendered here.
    """
    found = live(request, slug)
    rendered = live_pages.group(found, "page", lambda: _page_regions(found.tournament))
    if request.htmx:
        return live_pages.region(request, found, rendered, _page_part(request))
    tournament = found.tournament
    context = {
        "tournament": tournament,
        # .get: a render cached by a version of the site from before stages lacks these.
        "format_line": rendered.parts.get("format_line") or format_line(tournament),
        "rules_line": rendered.parts.get("rules_line") or rules_summary(tournament.ruleset),
        "has_bracket": rendered.parts["has_bracket"],
        "has_stages": rendered.parts.get("has_stages", False),
        "round_robin": tournament.bracket_kind == Tournament.BracketKind.ROUND_ROBIN,
        **{f"{part}_region": mark_safe(unpacked(rendered.parts[part])) for part in PAGE_PARTS},
    }
    response = HttpResponse(render_page(request, PAGE, context))
    visitor = visitor_tag(request)
    if visitor is None:
        return response  # a message waits: no validators (condition() adds none either)
    return headers(response, found, f"page.{visitor}", rendered.tag, private=True)


def _json_etag(request: HttpRequest, slug: str) -> str:
    return live(request, slug).etag("json")


def _standings_payload(tournament: Tournament) -> dict[str, Any]:
    data = load(tournament)
    walked = withdrawals(tournament.pk) if data.matches else set()
    champion = data.standings.champion
    payload = {
        "tournament": {
            "slug": tournament.slug,
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "venue": tournament.venue,
            "status": tournament.status,
            "format": tournament.bracket_kind,
            "complete": data.standings.complete,
            "champion": champion.name if champion is not None else None,
        },
        "standings": [row.as_json() for row in data.standings.rows],
        "stages": [view.as_json(walked) for view in data.stage_views],
    }
    with_club_ratings(payload["standings"], data)
    members = team_members(tournament)
    if members:  # a team tournament: the team size, and each team's players
        payload["tournament"]["team_size"] = tournament.ruleset.team_size
        for row, standing in zip(payload["standings"], data.standings.rows, strict=True):
            row["members"] = list(members.get(standing.stats.entry_id, ()))
    return {"json": packed(json.dumps(payload, ensure_ascii=False))}


@require_GET
@condition(etag_func=_json_etag, last_modified_func=last_modified)
def standings_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as JSON, best first (the same order and numbers as the page)::

        {
          "tournament": {"slug", "name", "date" (ISO), "venue", "status",
                         "format" (single_elimination | double_elimination | round_robin),
                         "complete" (bool: title decided / every match played),
                         "champion" (name or null)},
          "standings": [
            {"place": int or null (null: still in the running),
             "place_label": "1", "3–4" …, "name", "seed": int or null,
             "progress": text ("Champion", "Out in: Semifinals", "Playing: …"),
             "stage_reached": the name of the last stage the player played in a
                              tournament played in stages (null for one bracket),
             "matches_won", "matches_played", "games_won", "games_lost",
             "points_for", "points_against", "hands_won", "gins", "undercuts",
             "shutouts", "average_knock_deadwood": float (1 decimal) or null}
          ],
          "stages": [  # in order; a tournament of one bracket is one stage
            {"name", "kind" (swiss | round_robin | single_elimination |
                             double_elimination),
             "tiebreaks": [names in order],
             "standings": [rows as above, plus each tiebreak's value by its name
                           (and "pool": n in round-robin pools)],
             "rounds": [  # stage by stage, each stage's rounds in playing order
                 [{"table": int or null, "a": name, "b": name or null (a bye),
                   "winner": "a" | "b" | null (unplayed),
                   "stage": the stage's name (null for one bracket),
                   "round": as the pages name it ("Round 2", "Quarterfinals"),
                   "match": "Quarterfinals · Match 1", "Final" …,
                   "decided": "played" | "on time" | "walkover" | "withdrawal" |
                              null (a bye, or not finished),
                   "games": {"a", "b"}, "points": {"a", "b"} (as the match's sheet
                   shows them: a match decided on time, with the game cut short)}, …],
               …]}
          ]
        }

    A tournament played in stages ranks every entrant: the last stage's places first,
    then those out in earlier stages by their place there (null while the player is
    still in a stage being played).

    A team tournament's rows are teams: "name" is the team's, and each row adds
    "members" (its players' names in seat order); "tournament" adds "team_size".

    Games and points count every stored match summary (live matches included); matches
    count confirmed results. Names only: no email, phone or other personal data.
    """
    found = live(request, slug)
    rendered = live_pages.group(found, "json", lambda: _standings_payload(found.tournament))
    unchanged = not_modified(request, found, "json", rendered.tag)
    if unchanged is not None:
        return unchanged
    response = sent(request, rendered.parts["json"], content_type="application/json")
    return headers(response, found, "json", rendered.tag)
