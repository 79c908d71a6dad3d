"""Scoresheets: blank (before play) and filled (the official record), one or a round pack.

Plain data in, PDF bytes out. The caller resolves the match into a :class:`Scoresheet`:
header strings, the rules snapshot, and the engine's scoresheet dict (SPEC section 3) when
hands have been played. Nothing here queries the database or translates a word.

Page anatomy, top to bottom: the header (tournament, round, match, players, rules summary,
table number, QR code of the table link with its URL), one grid per game (best of five:
five grids side by side on a landscape page) or the Hollywood columns, and the footer (the
match result strip and both players' signature lines).

Everything that is the same on every sheet of a pack (lines, fills, the printed words of
the grid: :mod:`.grid`) is drawn once per layout as a PDF form XObject and placed on each
page; a page adds only its own names, numbers and QR code.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from . import grid
from .base import (
    BOLD,
    CENTRE,
    GREY_LINE,
    HAIRLINE,
    ITALIC,
    REGULAR,
    RIGHT,
    RULE,
    Ink,
    draw_qr,
    fit,
    new_canvas,
    num,
    page_size,
    width,
)
from .fonts import isolate
from .grid import (
    FOOTER_H,
    GAP,
    MARGIN,
    NAMES_H,
    QR_SIZE,
    STRIP_H,
    TABLE_H,
    TABLE_W,
    TITLE_H,
    Geometry,
    Page,
    draw_grid,
    footer_cells,
)
from .labels import Labels


@dataclass(frozen=True, slots=True)
class SheetHeader:
    """What the top of a sheet says. Strings arrive translated; ``table`` may be unknown."""

    tournament: str
    round_label: str
    match_label: str
    table: int | None
    player_a: str
    player_b: str
    rules_summary: str
    qr_url: str | None = None
    page_size: str = "A4"
    queued: str = ""
    """Said in the table's box of a match waiting for a table (issue 41), else empty."""


def pack_canvas(buffer: io.BytesIO, headers: Sequence[SheetHeader]) -> Canvas:
    """The canvas of a pack of sheets (head to head or teams), landscape, titled by its
    first sheet's tournament and round."""
    if not headers:
        raise ValueError("no scoresheets to render")
    first = headers[0]
    title = f"{first.tournament} · {first.round_label}"
    return new_canvas(buffer, title=title, size=page_size(first.page_size, wide=True))


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """One match. ``rules`` is the resolved knob dict (``RuleSet.to_dict()``); it shapes the
    grid: ``format``, ``games_to_win``, ``hollywood_columns``, ``box_bonus``.
    ``sheet`` is the engine's output for the match's hands, or None for a blank sheet."""

    header: SheetHeader
    rules: Mapping[str, Any]
    sheet: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class _Cell:
    """What one hand row shows in one grid: the winner's points and running total."""

    hand: Mapping[str, Any]
    side: str | None
    running: int


def _rows(sheet: Mapping[str, Any] | None, hollywood: bool) -> dict[int, list[_Cell | None]]:
    """Hand rows per game (or column). A Hollywood row is a hand across all columns, so
    every column gets an entry per hand: a cell, or None where the hand is not in it."""
    if sheet is None:
        return {}
    hands = sheet["hands"]
    out: dict[int, list[_Cell | None]] = {}
    running: dict[tuple[int, str], int] = {}
    if hollywood:
        columns = [c["number"] for c in sheet["columns"]]
        for n in columns:
            out[n] = []
        for hand in hands:
            side = hand["winner"]
            for n in columns:
                if side and n in hand["columns"]:
                    running[n, side] = running.get((n, side), 0) + hand["points"]
                    out[n].append(_Cell(hand, side, running[n, side]))
                elif not hand["columns"]:
                    out[n].append(_Cell(hand, None, 0))
                else:
                    out[n].append(None)
        return out
    for hand in hands:
        n, side = hand["game"], hand["winner"]
        if side:
            running[n, side] = running.get((n, side), 0) + hand["points"]
        out.setdefault(n, []).append(_Cell(hand, side, running.get((n, side), 0) if side else 0))
    return out


@dataclass(frozen=True, slots=True)
class _Match:
    """A sheet's data arranged for drawing, worked out once for all its pages."""

    item: Scoresheet
    hollywood: bool
    rows: Mapping[int, list[_Cell | None]]
    groups: Mapping[int, Mapping[str, Any]]
    names: Mapping[str, str]

    @classmethod
    def of(cls, item: Scoresheet) -> _Match:
        hollywood = item.rules.get("format") == "hollywood"
        sheet = item.sheet
        groups = (
            {g["number"]: g for g in sheet["columns" if hollywood else "games"]} if sheet else {}
        )
        names = {"A": item.header.player_a, "B": item.header.player_b}
        return cls(item, hollywood, _rows(sheet, hollywood), groups, names)

    def pages(self) -> list[Page]:
        lengths = {n: len(cells) for n, cells in self.rows.items()}
        return grid.plan_pages(self.item.header.page_size, self.item.rules, lengths)


def plan_pages(item: Scoresheet) -> list[Page]:
    """The pages ``item`` takes (one, unless it has more than five games or long games)."""
    return _Match.of(item).pages()


# --- rendering -------------------------------------------------------------------------


def render_scoresheets(
    sheets: Sequence[Scoresheet], *, labels: Labels | None = None, grid_as_form: bool = True
) -> bytes:
    """One PDF with every sheet in the given order (a round pack: table order).

    ``grid_as_form=False`` draws every page's grid anew instead of placing the shared form:
    the benchmark's baseline, nothing else needs it.
    """
    labels = labels or Labels()
    buffer = io.BytesIO()
    canvas = pack_canvas(buffer, [item.header for item in sheets])
    forms: dict[tuple[Any, ...], str] = {}
    for item in sheets:
        match = _Match.of(item)
        for page in match.pages():
            geometry = page.geometry
            canvas.setPageSize((geometry.width, geometry.height))
            key = (geometry, page.hollywood, page.numbers, page.first_row, page.last)
            key += (item.rules.get("box_bonus"),)
            if not grid_as_form:
                draw_grid(canvas, page, item.rules, labels)
            elif (name := forms.get(key)) is not None:
                canvas.doForm(name)
            else:
                name = forms[key] = f"sheet{len(forms)}"
                canvas.beginForm(name)
                draw_grid(canvas, page, item.rules, labels)
                canvas.endForm()
                canvas.doForm(name)
            _draw_page(canvas, page, match, labels)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_page(canvas: Canvas, page: Page, match: _Match, labels: Labels) -> None:
    g = page.geometry
    item = match.item
    header = item.header
    ink = Ink(canvas)

    # Header.
    text_right = g.width - MARGIN - QR_SIZE - GAP - TABLE_W - 12
    room = text_right - MARGIN
    top = g.height - MARGIN
    ink.fitted(MARGIN, top - 13, header.tournament, room, BOLD, 15)
    context = " · ".join(s for s in (header.round_label, header.match_label) if s)
    if page.count > 1:
        context += " · " + labels.page.format(page=page.index + 1, pages=page.count)
    ink.fitted(MARGIN, top - 29, context, room, REGULAR, 10)
    versus = f"  {labels.versus}  "
    players = f"{isolate(header.player_a)}{versus}{isolate(header.player_b)}"
    ink.fitted(MARGIN, top - 48, players, room, BOLD, 13)
    _draw_rules_summary(ink, MARGIN, top, header.rules_summary, room)
    if header.table is not None:
        x = g.width - MARGIN - QR_SIZE - GAP - TABLE_W / 2
        ink.text(x, top - TABLE_H + 9, str(header.table), BOLD, 24, CENTRE)
    elif header.queued:
        _draw_queued(ink, g.width - MARGIN - QR_SIZE - GAP - TABLE_W / 2, top - 17, header.queued)
    if header.qr_url:
        x = g.width - MARGIN - QR_SIZE
        draw_qr(canvas, header.qr_url, x, top - QR_SIZE, QR_SIZE)
        ink.fitted(
            g.width - MARGIN, top - QR_SIZE - 7, header.qr_url, 320, REGULAR, 6, RIGHT, smallest=4
        )
        ink.fitted(x - 3, top - QR_SIZE + 3, labels.scan_hint, 90, ITALIC, 6, RIGHT, smallest=4.5)

    # Names over every grid.
    half = g.group_w / 2
    for slot in range(len(page.numbers)):
        y = g.top - TITLE_H - NAMES_H + 3.8
        for side, name in ((0, header.player_a), (1, header.player_b)):
            x = g.group_x(slot) + side * half
            ink.fitted(x + half / 2, y, name, half - 4, BOLD, 7.5, CENTRE, smallest=5)

    if item.sheet is not None:
        _draw_hands(ink, canvas, page, match, labels)
    if page.last:
        _draw_footer(ink, page, item, labels)
    ink.flush()


QUEUED_SIZE = 6.5


def _draw_queued(ink: Ink, x: float, y: float, text: str) -> None:
    """The queued sheet's words in the empty table box, a few short lines under "Table"."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and width(joined, BOLD, QUEUED_SIZE) <= TABLE_W - 6:
            lines[-1] = joined
        else:
            lines.append(word)
    for index, line in enumerate(lines[:5]):
        ink.fitted(x, y - index * 7.5, line, TABLE_W - 6, BOLD, QUEUED_SIZE, CENTRE, smallest=4)


RULES_SEPARATOR = " · "


def _draw_rules_summary(ink: Ink, x: float, top: float, text: str, room: float) -> None:
    """The rules summary under the players: one line when it fits at a readable size, else
    two, split between two of its parts (house rules make it long), then shrunk to fit."""
    if width(text, REGULAR, 7) <= room or RULES_SEPARATOR not in text:
        ink.fitted(x, top - 63, text, room, REGULAR, 8, smallest=5)
        return
    parts = text.split(RULES_SEPARATOR)
    total = width(text, REGULAR, 7)
    best = min(
        range(1, len(parts)),
        key=lambda i: abs(width(RULES_SEPARATOR.join(parts[:i]), REGULAR, 7) - total / 2),
    )
    first, second = RULES_SEPARATOR.join(parts[:best]), RULES_SEPARATOR.join(parts[best:])
    size = min(fit(first, REGULAR, 7, room, smallest=5)[1], fit(second, REGULAR, 7, room)[1])
    ink.fitted(x, top - 59.5, first, room, REGULAR, size, smallest=5)
    ink.fitted(x, top - 68, second, room, REGULAR, size, smallest=5)


def _draw_hands(ink: Ink, canvas: Canvas, page: Page, match: _Match, labels: Labels) -> None:
    g = page.geometry
    sheet = match.item.sheet
    assert sheet is not None
    rows, groups, names = match.rows, match.groups, match.names
    summary_y = g.summary_y()
    match_done = bool(sheet["match"]["complete"])
    quarter = g.group_w / 4

    for slot, number in enumerate(page.numbers):
        cells = rows.get(number, [])
        shown = cells[page.first_row : page.first_row + g.rows]
        for row, cell in enumerate(shown):
            if cell is None:
                continue
            y = g.row_y(row) + g.row_h / 2 - 3
            if cell.side is None:
                word = labels.tie if cell.hand["result"] == "tie" else labels.draw
                if not page.hollywood or slot == 0:
                    # In each player's points column, fitted to it (centred on the game, it
                    # sat astride the rules between the columns).
                    for half in (0, 2):
                        centre = g.sub_x(slot, half) + quarter / 2
                        ink.fitted(centre, y + 0.5, word, quarter - 4, ITALIC, 6.5, CENTRE, 4)
                continue
            base = 0 if cell.side == "A" else 2
            x_pts = g.sub_x(slot, base)
            points = str(cell.hand["points"])
            marker = _marker(cell.hand, labels)
            points_y = y
            if marker:
                beside = quarter - width(points, REGULAR, 8.5) - 6
                if width(marker, REGULAR, 5) <= beside:
                    ink.text(x_pts + 2, y + 3.2, marker, REGULAR, 5)
                else:  # too long to sit beside the number: above it, small
                    top = g.row_y(row) + g.row_h - 3.9
                    ink.fitted(x_pts + 1.5, top, marker, quarter - 3, REGULAR, 4.5, smallest=3.5)
                    points_y = y - 1.6
            ink.text(x_pts + quarter - 3, points_y, points, REGULAR, 8.5, RIGHT)
            ink.text(x_pts + 2 * quarter - 3, y, str(cell.running), BOLD, 8.5, RIGHT)

        game = groups.get(number)
        played = game is not None and (game["complete"] or game["hands"])
        hand_area_bottom = g.row_y(g.rows - 1)
        if not played:
            if match_done:
                _strike(canvas, ink, g, slot, hand_area_bottom, labels.not_played)
            continue
        assert game is not None
        if page.hollywood and game["complete"]:
            entered = [i for i, cell in enumerate(cells) if cell is not None and cell.side]
            if entered:
                _close_column(canvas, g, slot, entered[-1] - page.first_row)
        end_row = len(cells) - 1
        if end_row >= page.first_row + g.rows:
            y, h = summary_y["winner"]
            centre = g.group_x(slot) + g.group_w / 2
            ink.text(centre, y + h / 2 - 2.5, labels.continued, ITALIC, 6.5, CENTRE)
            continue
        if page.first_row and end_row < page.first_row:
            _strike(canvas, ink, g, slot, hand_area_bottom)
        _draw_summary(ink, g, slot, game, names, summary_y, labels)


def _strike(
    canvas: Canvas, ink: Ink, g: Geometry, slot: int, bottom: float, word: str = ""
) -> None:
    """Cross out hand rows that will never be used, so nothing can be added there later."""
    x = g.group_x(slot)
    ops = [
        f"q {GREY_LINE} G {HAIRLINE} w {num(x + 4)} {num(g.rows_top - 4)} m",
        f"{num(x + g.group_w - 4)} {num(bottom + 4)} l S",
    ]
    if word:
        text, size = fit(word, ITALIC, 8, g.group_w - 12)
        w = width(text, ITALIC, size)
        y = (g.rows_top + bottom) / 2
        box = f"{num(x + (g.group_w - w) / 2 - 4)} {num(y - 4)} {num(w + 8)} {num(size + 6)} re"
        ops.append(f"1 g {box} f")
        ink.text(x + g.group_w / 2, y, text, ITALIC, size, CENTRE)
    canvas.addLiteral(" ".join([*ops, "Q"]))


def _close_column(canvas: Canvas, g: Geometry, slot: int, row: int) -> None:
    """A double rule under the hand that closed a Hollywood column."""
    if not 0 <= row < g.rows:
        return
    y = g.row_y(row)
    x = g.group_x(slot)
    canvas.saveState()
    canvas.setLineWidth(RULE)
    canvas.line(x, y, x + g.group_w, y)
    canvas.line(x, y - 1.8, x + g.group_w, y - 1.8)
    canvas.restoreState()


def _marker(hand: Mapping[str, Any], labels: Labels) -> str:
    words = {"gin": labels.gin, "big_gin": labels.big_gin, "undercut": labels.undercut}
    marker = words.get(hand["result"], "")
    if hand.get("multiplier", 1) != 1:
        marker = f"{marker} ×{hand['multiplier']}".strip()
    return marker


def _draw_summary(
    ink: Ink,
    g: Geometry,
    slot: int,
    game: Mapping[str, Any],
    names: Mapping[str, str],
    summary_y: Mapping[str, tuple[float, float]],
    labels: Labels,
) -> None:
    complete = bool(game["complete"])
    half = g.group_w / 2
    for index, side in enumerate("AB"):
        right = g.group_x(slot) + (index + 1) * half - 3
        values: dict[str, str] = {
            "hand_points": str(game["points"][side]),
            "boxes": str(game["boxes"][side]),
            "box_points": str(game["box_points"][side]),
            "game_total": str(game["total"][side]),
        }
        if complete:
            values["game_bonus"] = str(game["game_bonus"][side] or "–")
            values["shutout"] = str(game["shutout_bonus"][side] or "–")
        if game.get("doubled"):
            # The last Hollywood column under hollywood_last_doubled: its parts, then twice.
            values["game_total"] = f"×2: {game['total'][side]}"
        for key, text in values.items():
            y, h = summary_y[key]
            font, size = (BOLD, 9) if key == "game_total" else (REGULAR, 8)
            ink.text(right, y + h / 2 - 3, text, font, size, RIGHT)
    y, h = summary_y["winner"]
    centre = g.group_x(slot) + half
    if complete and game["winner"]:
        margin = game.get("margin")
        text = isolate(names[game["winner"]]) + (f"  ({margin:+d})" if margin is not None else "")
        ink.fitted(centre, y + h / 2 - 3, text, g.group_w - 6, BOLD, 8, CENTRE, smallest=5)
    elif not complete:
        ink.text(centre, y + h / 2 - 3, labels.in_progress, ITALIC, 7, CENTRE)


def _draw_footer(ink: Ink, page: Page, item: Scoresheet, labels: Labels) -> None:
    g = page.geometry
    header = item.header
    strip_y = MARGIN + FOOTER_H - STRIP_H
    cells = footer_cells(g)
    (gx, gw), (tx, tw), (wx, ww) = cells[1:]
    name_room = gw / 2 - 28
    y = strip_y + 5
    ink.fitted(gx + gw / 2 - 22, y, header.player_a, name_room, REGULAR, 8, RIGHT, smallest=5)
    ink.fitted(gx + gw / 2 + 22, y, header.player_b, name_room, REGULAR, 8, smallest=5)

    half = (g.width - 2 * MARGIN - 40) / 2
    for x, name in ((MARGIN, header.player_a), (MARGIN + half + 40, header.player_b)):
        signature = f"{labels.signature} · {isolate(name)}"
        ink.fitted(x, MARGIN + 3, signature, half, REGULAR, 7, smallest=5)

    if item.sheet is None:
        return
    result = item.sheet["match"]
    won = result["columns_won" if page.hollywood else "games_won"]
    ink.text(gx + gw / 2 - 8, y, str(won["A"]), BOLD, 10, RIGHT)
    ink.text(gx + gw / 2 + 8, y, str(won["B"]), BOLD, 10)
    ink.text(tx + tw / 2 - 8, y, str(result["total"]["A"]), BOLD, 10, RIGHT)
    ink.text(tx + tw / 2 + 8, y, str(result["total"]["B"]), BOLD, 10)
    if result["complete"] and result["winner"]:
        winner = header.player_a if result["winner"] == "A" else header.player_b
        ink.fitted(wx + ww / 2, y, winner, ww - 8, BOLD, 10, CENTRE, smallest=6)
    else:
        ink.text(wx + ww / 2, y, labels.in_progress, ITALIC, 8, CENTRE)
