"""The projector display, ``/t/<slug>/display/``: one panel at a time in a cycle (the
bracket or results, the losers' bracket, the standings in pages of at most 16 rows, the
tables in play), each refreshed with htmx every :data:`DISPLAY_SECONDS`; without
JavaScript every panel one under the other. Rendered once per public version and language
like the tournament's page (:mod:`public.views.tournament`, whose context it shares).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET

from public import live as live_pages
from public.live import (
    headers,
    last_modified,
    live,
    not_modified,
    packed,
    sent,
    unpacked,
)
from public.standings_pages import pages_shown, standings_pages
from public.views.tournament import page_context, render_page
from standings.board import LiveTable, late_rounds, live_tables
from standings.data import Results, load
from standings.stage_views import QUALIFYING, StageView
from standings.tables import room
from tables import calls as director_calls
from tournaments import self_checkin
from tournaments.models import Match, Tournament
from tournaments.stages.progress import current_stage

DISPLAY = "public/display.html"
DISPLAY_MAX_CROSS_TABLE = 12
DISPLAY_TABLES_PER_PANEL = 12
DISPLAY_SECONDS = 12  # each projector panel stays this long


@dataclass(frozen=True, slots=True)
class Panel:
    name: str
    title: str


def display_panels(data: Results, tables: list[LiveTable]) -> list[Panel]:
    """The projector's panels in the order they cycle: the bracket (or results), the
    losers' bracket, the standings, then the tables in play, a panel per
    :data:`DISPLAY_TABLES_PER_PANEL` tables."""
    panels = []
    view = _current_view(data)
    if view is not None and view.kind in QUALIFYING:
        if view.rounds:
            panels.append(Panel("pairings", f"{view.name} · {view.rounds[-1][0]}"))
    elif data.round_robin:
        if 0 < len(data.standings.rows) <= DISPLAY_MAX_CROSS_TABLE:
            panels.append(Panel("bracket", _("Results")))
    elif data.matches:
        panels.append(Panel("bracket", _("Bracket")))
        if data.double:
            panels.append(Panel("losers", _("Losers' bracket")))
    panels.append(Panel("standings", _("Standings")))
    pages = _table_pages(tables)
    for number, _page in enumerate(pages, 1):
        title = _("Tables in play")
        if len(pages) > 1:
            title = _("Tables in play (%(page)d of %(pages)d)") % {
                "page": number,
                "pages": len(pages),
            }
        panels.append(Panel(_table_panel(number), title))
    return panels


def _current_view(data: Results) -> StageView | None:
    current = current_stage(data.stages)
    if current is None:
        return None
    return next((v for v in data.stage_views if v.number == current.number), None)


def _table_pages(tables: list[LiveTable]) -> list[list[LiveTable]]:
    size = DISPLAY_TABLES_PER_PANEL
    return [tables[i : i + size] for i in range(0, len(tables), size)]


def _table_panel(number: int) -> str:
    return "tables" if number == 1 else f"tables-{number}"


def called(matches: list[Match]) -> int:
    """How many matches have called their players to a table so far: when this grows (a
    round starts, or a match of it gets a table), the projector shows the tables next."""
    return sum(
        1
        for m in matches
        if not m.is_bye
        and m.status != Match.Status.WAITING
        and (m.table is not None or m.status != Match.Status.READY)
    )


def _display_panels(tournament: Tournament) -> dict[str, Any]:
    """Every panel of the projector, each with the one after it, as every visitor gets it."""
    data = load(tournament)
    seated, queued = _expected(data, *live_tables(data.matches, data.sheets, double=data.double))
    panels = display_panels(data, seated)
    context = page_context(data, club_columns=False)
    if "sections" in context:
        by_key = {s.key: late_rounds(s) for s in context["sections"]}
        context["main_sections"] = [
            by_key[k] for k in ("winners", "final", "third_place") if k in by_key
        ]
        context["losers_sections"] = [by_key["losers"]] if "losers" in by_key else []
    calls = called(data.matches)
    context.update(
        panels=panels,
        queued=queued,
        standings_pages=standings_pages(data.standings.rows),
        shown_page=1,
        # The pager's links, reversed once for every page of every panel.
        display_url=reverse("public:display", args=[tournament.slug]),
        called=calls,
        display_seconds=DISPLAY_SECONDS,
        # Tables waiting for the director (tables.calls): a badge on every panel.
        calling_tables=director_calls.calling_tables(tournament),
        # Self check-in open: its code, large, on every panel (the room reads it there).
        checkin_code=self_checkin.code_of_today(tournament)
        if self_checkin.is_open(tournament)
        else "",
    )
    tables = {_table_panel(n): page for n, page in enumerate(_table_pages(seated), 1)}
    bodies, wrapped = {}, {}
    for index, panel in enumerate(panels):
        after = panels[(index + 1) % len(panels)]
        bodies[panel.name], wrapped[panel.name] = _panel(
            context, panel, after, tables=tables.get(panel.name, [])
        )
    current = current_stage(data.stages)
    return {
        "panels": panels,
        "bodies": bodies,
        "wrapped": wrapped,
        "standings_pages": _later_pages(context, panels),
        "called": calls,
        "stage": current.name if current is not None else "",
        "clock_end": current.clock_end_ms if current is not None else None,
        "clock_ends_at": current.clock_ends_at if current is not None else None,
    }


def _panel(
    context: dict[str, Any], panel: Panel, after: Panel, **extra: Any
) -> tuple[bytes, bytes]:
    """A panel's body, and the body wrapped in the region that fetches ``after`` next."""
    with_panel = {
        **context,
        "panel": panel,
        "next_panel": after,
        "tables": [],
        "first_tables": panel.name == "tables",
        **extra,
    }
    body = render_page(None, f"{DISPLAY}#panel-body", with_panel)
    region = render_page(None, f"{DISPLAY}#display-panel", {**with_panel, "body": mark_safe(body)})
    return packed(body), packed(region)


def _later_pages(context: dict[str, Any], panels: list[Panel]) -> dict[int, tuple[bytes, bytes]]:
    """The standings panel showing only its page ``n`` (body, wrapped), for each page after
    the first: what the links of a projector without JavaScript lead to (``?page=n``)."""
    names = [p.name for p in panels]
    pages = context["standings_pages"]
    if "standings" not in names or len(pages) < 2:
        return {}
    index = names.index("standings")
    panel, after = panels[index], panels[(index + 1) % len(panels)]
    return {
        page.number: _panel(context, panel, after, standings_pages=[page], shown_page=page.number)
        for page in pages[1:]
    }


def _expected(
    data: Results, seated: list[LiveTable], queued: list[LiveTable]
) -> tuple[list[LiveTable], list[LiveTable]]:
    """The tables with when each is likely done, the queue with when each match should get
    a table (:mod:`standings.tables`, as of this render: the projector renders once per
    public version, so after every hand)."""
    found = room(data, timezone.now())
    done = {t.match.pk: t.estimate.finish for t in found.tables if t.estimate is not None}
    starts = {q.match.pk: q.estimated_start for q in found.queue}
    return (
        [replace(t, expected=done.get(t.match_id)) for t in seated],
        [replace(t, expected=starts.get(t.match_id)) for t in queued],
    )


def _display_panel(request: HttpRequest, parts: dict[str, Any]) -> Panel:
    """The panel to show: the one asked for (``?panel=``), or the tables when players have
    been called to tables since the projector last looked (``?called=``)."""
    panels: list[Panel] = parts["panels"]
    names = [p.name for p in panels]
    seen = request.GET.get("called", "")
    if seen.isdigit() and int(seen) < parts["called"] and "tables" in names:
        return panels[names.index("tables")]
    current = request.GET.get("panel", "")
    return panels[names.index(current)] if current in names else panels[0]


def _display_what(request: HttpRequest) -> str:
    """What a projector request asks for, for its ``ETag``: the page or a panel, and the
    query that picks the panel (which one, how many calls the projector saw last, which
    page of the standings)."""
    what = "panel" if request.htmx else "display"
    panel = re.sub(r"[^a-z0-9-]", "", request.GET.get("panel", "")[:40])
    seen = re.sub(r"[^0-9]", "", request.GET.get("called", "")[:12])
    page = re.sub(r"[^0-9]", "", request.GET.get("page", "")[:6])
    return f"{what}.{panel}.{seen}.{page}"


def _display_etag(request: HttpRequest, slug: str) -> str:
    return live(request, slug).etag(_display_what(request))


@require_GET
@condition(etag_func=_display_etag, last_modified_func=last_modified)
def display(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector: large type, no controls, cycling bracket / standings / tables.

    ``?panel=<name>`` picks the panel; htmx fetches the next one every few seconds
    (each answer names the one after it, and how many matches had been called to a
    table, so that the tables come next when players are called). Without JavaScript
    every panel is shown. The standings list every entrant in pages of at most 16 rows
    (:mod:`public.standings_pages`): the script turns them, ``?page=n`` shows page n.
    """
    found = live(request, slug)
    rendered = live_pages.group(found, "display", lambda: _display_panels(found.tournament))
    parts = rendered.parts
    panel = _display_panel(request, parts)
    unchanged = not_modified(request, found, _display_what(request), rendered.tag)
    if unchanged is not None:
        return unchanged
    bodies, wrapped = pages_shown(request, parts)
    if request.htmx:
        response = sent(request, wrapped[panel.name])
    else:
        context = {
            "tournament": found.tournament,
            "panel_html": mark_safe(unpacked(wrapped[panel.name])),
            "other_bodies": [
                mark_safe(unpacked(bodies[p.name])) for p in parts["panels"] if p != panel
            ],
            # .get: a render cached by a version of the site from before stages lacks these.
            "stage": parts.get("stage", ""),
            "clock_end": parts.get("clock_end"),
            "clock_ends_at": parts.get("clock_ends_at"),
        }
        response = HttpResponse(render_page(request, DISPLAY, context))
    return headers(response, found, _display_what(request), rendered.tag)
