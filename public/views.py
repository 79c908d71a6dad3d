"""Public tournament pages: the bracket and standings, ``standings.json``, the projector.

Nobody logs in here and nothing is written. Each view makes the same three queries
whatever the size of the field (the tournament, then :func:`public.data.load`: its
matches with both players, all of its hands), then builds plain dataclasses in Python:
standings come from :mod:`public.standings`, the bracket as drawn, the round-robin
cross-table and the tables in play from :mod:`public.board`.

With htmx the pages refresh small regions: the tournament page's ``bracket`` and
``standings`` (the region named by ``HX-Target``), and the projector's one ``panel``,
which comes back as the next panel every few seconds. Without JavaScript the tournament
page is complete and the projector shows every panel one under the other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import Engine, RequestContext
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.models import Tournament
from tournaments.rules_text import rules_summary

from .board import LiveTable, bracket_sections, cross_table, late_rounds, live_tables
from .data import PublicData, format_line, load, published
from .stats import seed_key

PAGE = "public/tournament.html"
DISPLAY = "public/display.html"
PAGE_PARTS = ("bracket", "standings")
DISPLAY_MAX_CROSS_TABLE = 12
DISPLAY_MAX_ROWS = 16


def _render(request: HttpRequest, template_name: str, context: dict[str, Any]) -> HttpResponse:
    """``render()``, except that nothing of ``context`` outlives the rendering.

    A RequestContext sits in a reference cycle of its own (each ``push`` adds a
    ContextDict that points back at it), so a page's context handed to ``render()`` is
    freed only by the cyclic garbage collector: ~32,000 objects for a 256-player bracket
    on every request, and the full collections they bring on walk the whole heap. Pushed
    for the render and popped after, the page's objects go as soon as it is sent. Only
    the template language's documented Python API is used (``Engine``, ``RequestContext``,
    ``Context.push`` as a context manager); partials load as ``page.html#name`` there too.
    """
    template = Engine.get_default().get_template(template_name)
    request_context = RequestContext(request)
    with request_context.push(context):
        return HttpResponse(template.render(request_context))


def _vary(response: HttpResponse) -> HttpResponse:
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def page_context(data: PublicData) -> dict[str, Any]:
    tournament = data.tournament
    context: dict[str, Any] = {
        "tournament": tournament,
        "data": data,
        "standings": data.standings,
        "format_line": format_line(tournament),
        "rules_line": rules_summary(tournament.ruleset),
        "live": tournament.status == Tournament.Status.RUNNING,
    }
    if data.round_robin:
        players = sorted((row.stats for row in data.standings.rows), key=seed_key)
        context["cross_table"] = cross_table(data.matches, players)
    else:
        context["sections"] = bracket_sections(data.matches, double=data.double)
    return context


@require_GET
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The public page: header, bracket (or cross-table) and standings with statistics.

    An htmx request gets one region back, the one named by ``HX-Target`` (``bracket``
    unless it names ``standings``).
    """
    data = load(published(request, slug))
    template = PAGE
    if request.htmx:
        part = request.htmx.target if request.htmx.target in PAGE_PARTS else PAGE_PARTS[0]
        template = f"{PAGE}#{part}"
    return _vary(_render(request, template, page_context(data)))


@require_GET
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
             "matches_won", "matches_played", "games_won", "games_lost",
             "points_for", "points_against", "hands_won", "gins", "undercuts",
             "shutouts", "average_knock_deadwood": float (1 decimal) or null}
          ]
        }

    Games and points count every stored match summary (live matches included); matches
    count confirmed results. Names only: no email, phone or other personal data.
    """
    tournament = published(request, slug)
    data = load(tournament)
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
    }
    return JsonResponse(payload, json_dumps_params={"ensure_ascii": False})


@dataclass(frozen=True, slots=True)
class Panel:
    name: str
    title: str


def display_panels(data: PublicData, tables: list[LiveTable]) -> list[Panel]:
    panels = []
    if data.round_robin:
        if 0 < len(data.standings.rows) <= DISPLAY_MAX_CROSS_TABLE:
            panels.append(Panel("bracket", _("Results")))
    elif data.matches:
        panels.append(Panel("bracket", _("Bracket")))
        if data.double:
            panels.append(Panel("losers", _("Losers' bracket")))
    panels.append(Panel("standings", _("Standings")))
    if tables:
        panels.append(Panel("tables", _("Tables in play")))
    return panels


@require_GET
def display(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector: large type, no controls, cycling bracket / standings / tables.

    ``?panel=<name>`` picks the panel; htmx fetches the next one every few seconds
    (each answer names the one after it). Without JavaScript every panel is shown.
    """
    data = load(published(request, slug))
    seated, queued = live_tables(data.matches, data.sheets, double=data.double)
    panels = display_panels(data, seated)
    names = [p.name for p in panels]
    current = request.GET.get("panel", "")
    index = names.index(current) if current in names else 0
    context = page_context(data)
    if "sections" in context:
        by_key = {s.key: late_rounds(s) for s in context["sections"]}
        context["main_sections"] = [
            by_key[k] for k in ("winners", "final", "third_place") if k in by_key
        ]
        context["losers_sections"] = [by_key["losers"]] if "losers" in by_key else []
    context.update(
        panels=panels,
        panel=panels[index],
        next_panel=panels[(index + 1) % len(panels)],
        other_panels=panels[:index] + panels[index + 1 :],
        tables=seated,
        queued=queued,
        top_rows=data.standings.rows[:DISPLAY_MAX_ROWS],
        more_rows=max(0, len(data.standings.rows) - DISPLAY_MAX_ROWS),
    )
    template = f"{DISPLAY}#display-panel" if request.htmx else DISPLAY
    return _vary(_render(request, template, context))
