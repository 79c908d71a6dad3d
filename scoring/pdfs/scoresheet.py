"""Scoresheets: blank (before play) and filled (the official record), one or a round pack.

Plain data in, PDF bytes out. The caller resolves the match into a :class:`Scoresheet`:
header strings, the rules snapshot, and the engine's scoresheet dict (SPEC section 3) when
hands have been played. Nothing here queries the database or translates a word.

Page anatomy, top to bottom: the header (tournament, round, match, players, rules summary,
table number, QR code of the table link with its URL), one grid per game (best of five:
five grids side by side on a landscape page) or the Hollywood columns, and the footer (the
match result strip and both players' signature lines).

Everything that is the same on every sheet of a pack (lines, fills, the printed words of
the grid) is drawn once per layout as a PDF form XObject and placed on each page; a page
adds only its own names, numbers and QR code.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from reportlab.pdfgen.canvas import Canvas

from .base import (
    BOLD,
    CENTRE,
    GREY_FILL,
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
    page_size,
    width,
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


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """One match. ``rules`` is the resolved knob dict (``RuleSet.to_dict()``); it shapes the
    grid: ``format``, ``games_to_win``, ``hollywood_columns``, ``box_bonus``.
    ``sheet`` is the engine's output for the match's hands, or None for a blank sheet."""

    header: SheetHeader
    rules: Mapping[str, Any]
    sheet: Mapping[str, Any] | None = None


# --- geometry --------------------------------------------------------------------------

MARGIN: Final = 22.0
HEADER_H: Final = 80.0
FOOTER_H: Final = 54.0
GAP: Final = 8.0
LEGEND_W: Final = 62.0
QR_SIZE: Final = 72.0
TABLE_W: Final = 64.0
TABLE_H: Final = 50.0
MAX_GROUPS_PER_PAGE: Final = 5

TITLE_H: Final = 15.0
NAMES_H: Final = 13.0
SUB_H: Final = 11.0
HEAD_H: Final = TITLE_H + NAMES_H + SUB_H
MIN_ROW_H: Final = 14.5
MAX_ROW_H: Final = 19.0
SUMMARY: Final = (
    ("hand_points", 13.0),
    ("boxes", 17.0),
    ("box_points", 13.0),
    ("game_bonus", 13.0),
    ("shutout", 13.0),
    ("game_total", 15.0),
    ("winner", 15.0),
)
SUMMARY_H: Final = sum(h for _, h in SUMMARY)


@dataclass(frozen=True, slots=True)
class _Geometry:
    """Where every cell of a page is; the same for all pages of one layout."""

    width: float
    height: float
    slots: int
    rows: int
    row_h: float
    group_w: float

    @classmethod
    def build(cls, size_name: str, slots: int) -> _Geometry:
        width, height = page_size(size_name, wide=slots >= 3)
        group_w = (width - 2 * MARGIN - LEGEND_W) / slots
        room = height - 2 * MARGIN - HEADER_H - FOOTER_H - 2 * GAP - HEAD_H - SUMMARY_H
        rows = min(int(room // MIN_ROW_H), 30)
        return cls(width, height, slots, rows, min(MAX_ROW_H, room / rows), group_w)

    @property
    def top(self) -> float:
        return self.height - MARGIN - HEADER_H - GAP

    def group_x(self, slot: int) -> float:
        return MARGIN + LEGEND_W + slot * self.group_w

    def sub_x(self, slot: int, sub: int) -> float:
        """Left edge of sub-column 0..3: A points, A total, B points, B total."""
        return self.group_x(slot) + sub * self.group_w / 4

    @property
    def rows_top(self) -> float:
        return self.top - HEAD_H

    def row_y(self, row: int) -> float:
        """Bottom of hand row ``row`` (0-based on this page)."""
        return self.rows_top - (row + 1) * self.row_h

    @property
    def summary_top(self) -> float:
        return self.rows_top - self.rows * self.row_h

    def summary_y(self) -> dict[str, tuple[float, float]]:
        """Bottom and height of each summary row."""
        y = self.summary_top
        out = {}
        for key, h in SUMMARY:
            y -= h
            out[key] = (y, h)
        return out

    @property
    def bottom(self) -> float:
        return self.summary_top - SUMMARY_H


@dataclass(frozen=True, slots=True)
class _Page:
    geometry: _Geometry
    hollywood: bool
    numbers: tuple[int, ...]  # game or column numbers shown on this page
    first_row: int  # index of the first hand row shown (continuation pages)
    last: bool  # carries the footer
    index: int
    count: int


def plan_pages(item: Scoresheet) -> list[_Page]:
    """The pages of one sheet: more than five games, or more hands than rows, continue."""
    rules = item.rules
    hollywood = rules.get("format") == "hollywood"
    groups = int(rules["hollywood_columns"]) if hollywood else 2 * int(rules["games_to_win"]) - 1
    page_count = math.ceil(groups / MAX_GROUPS_PER_PAGE)
    slots = math.ceil(groups / page_count)
    geometry = _Geometry.build(item.header.page_size, slots)
    rows = _rows(item, hollywood)
    plan: list[tuple[tuple[int, ...], int]] = []
    for start in range(1, groups + 1, slots):
        numbers = tuple(range(start, min(groups, start + slots - 1) + 1))
        longest = max((len(rows.get(n, ())) for n in numbers), default=0)
        for part in range(max(1, math.ceil(longest / geometry.rows))):
            plan.append((numbers, part * geometry.rows))
    return [
        _Page(geometry, hollywood, numbers, first, i == len(plan) - 1, i, len(plan))
        for i, (numbers, first) in enumerate(plan)
    ]


@dataclass(frozen=True, slots=True)
class _Cell:
    """What one hand row shows in one grid: the winner's points and running total."""

    hand: Mapping[str, Any]
    side: str | None
    running: int


def _rows(item: Scoresheet, hollywood: bool) -> dict[int, list[_Cell | None]]:
    """Hand rows per game (or column). A Hollywood row is a hand across all columns, so
    every column gets an entry per hand: a cell, or None where the hand is not in it."""
    if item.sheet is None:
        return {}
    hands = item.sheet["hands"]
    out: dict[int, list[_Cell | None]] = {}
    running: dict[tuple[int, str], int] = {}
    if hollywood:
        columns = [c["number"] for c in item.sheet["columns"]]
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


# --- rendering -------------------------------------------------------------------------


def render_scoresheets(sheets: Sequence[Scoresheet], *, labels: Labels | None = None) -> bytes:
    """One PDF with every sheet in the given order (a round pack: table order)."""
    if not sheets:
        raise ValueError("no scoresheets to render")
    labels = labels or Labels()
    buffer = io.BytesIO()
    first = sheets[0].header
    canvas = new_canvas(
        buffer,
        title=f"{first.tournament} · {first.round_label}",
        size=page_size(first.page_size, wide=True),
    )
    forms: dict[tuple[Any, ...], str] = {}
    for item in sheets:
        for page in plan_pages(item):
            geometry = page.geometry
            canvas.setPageSize((geometry.width, geometry.height))
            key = (geometry, page.hollywood, page.numbers, page.first_row, page.last)
            key += (item.rules.get("box_bonus"),)
            name = forms.get(key)
            if name is None:
                name = forms[key] = f"sheet{len(forms)}"
                canvas.beginForm(name)
                draw_grid(canvas, page, item.rules, labels)
                canvas.endForm()
            canvas.doForm(name)
            _draw_page(canvas, page, item, labels)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def draw_grid(canvas: Canvas, page: _Page, rules: Mapping[str, Any], labels: Labels) -> None:
    """Everything on a page that does not depend on the match: lines, fills, printed words.

    Drawn with reportlab's ordinary API; the benchmark draws this per page as its baseline.
    """
    g = page.geometry
    left, right = MARGIN, MARGIN + LEGEND_W + len(page.numbers) * g.group_w
    summary = g.summary_y()

    # Fills first, lines over them.
    canvas.setFillGray(GREY_FILL)
    canvas.rect(left, g.top - TITLE_H, right - left, TITLE_H, stroke=0, fill=1)
    canvas.rect(left + LEGEND_W, g.rows_top, right - left - LEGEND_W, SUB_H, stroke=0, fill=1)
    y, h = summary["game_total"]
    canvas.rect(left, y, right - left, h, stroke=0, fill=1)

    thin = canvas.beginPath()
    for row in range(g.rows + 1):
        y = g.rows_top - row * g.row_h
        thin.moveTo(left, y)
        thin.lineTo(right, y)
    for y, _h in summary.values():
        thin.moveTo(left, y)
        thin.lineTo(right, y)
    thin.moveTo(left, g.top - TITLE_H)
    thin.lineTo(right, g.top - TITLE_H)
    thin.moveTo(MARGIN + LEGEND_W, g.rows_top + SUB_H)
    thin.lineTo(right, g.rows_top + SUB_H)
    winner_y = summary["winner"][0] + summary["winner"][1]
    for slot in range(len(page.numbers)):
        for sub in (1, 3):
            x = g.sub_x(slot, sub)
            thin.moveTo(x, g.rows_top + SUB_H)
            thin.lineTo(x, g.summary_top)
    canvas.setLineWidth(HAIRLINE)
    canvas.setStrokeGray(GREY_LINE)
    canvas.drawPath(thin, stroke=1, fill=0)

    bold = canvas.beginPath()
    bold.rect(left, g.bottom, right - left, g.top - g.bottom)
    bold.moveTo(left, g.rows_top)
    bold.lineTo(right, g.rows_top)
    bold.moveTo(left, g.summary_top)
    bold.lineTo(right, g.summary_top)
    for slot in range(len(page.numbers)):
        x = g.group_x(slot)
        bold.moveTo(x, g.top)
        bold.lineTo(x, g.bottom)
        x = g.sub_x(slot, 2)
        bold.moveTo(x, g.top - TITLE_H)
        bold.lineTo(x, winner_y)
    canvas.setLineWidth(RULE)
    canvas.setStrokeGray(0)
    canvas.drawPath(bold, stroke=1, fill=0)

    canvas.setFillGray(0)
    title = labels.column if page.hollywood else labels.game
    for slot, number in enumerate(page.numbers):
        x = g.group_x(slot)
        canvas.setFont(BOLD, 9)
        canvas.drawCentredString(x + g.group_w / 2, g.top - TITLE_H + 4.5, title.format(n=number))
        canvas.setFont(REGULAR, 6.5)
        for sub in range(4):
            word = labels.points if sub % 2 == 0 else labels.total
            text, size = fit(word, REGULAR, 6.5, g.group_w / 4 - 3)
            canvas.setFontSize(size)
            canvas.drawCentredString(g.sub_x(slot, sub) + g.group_w / 8, g.rows_top + 3.2, text)

    canvas.setFont(BOLD, 7.5)
    canvas.drawString(left + 4, g.rows_top + (SUB_H + NAMES_H) / 2 - 2.7, labels.hand)
    canvas.setFont(REGULAR, 7)
    for row in range(g.rows):
        canvas.drawRightString(
            MARGIN + LEGEND_W - 5, g.row_y(row) + g.row_h / 2 - 2.4, str(page.first_row + row + 1)
        )
    words = {
        "hand_points": labels.hand_points,
        "boxes": labels.boxes,
        "box_points": f"{labels.box_points} ×{rules.get('box_bonus', '')}",
        "game_bonus": labels.game_bonus,
        "shutout": labels.shutout,
        "game_total": labels.game_total,
        "winner": labels.winner,
    }
    for key, (y, h) in summary.items():
        font = BOLD if key in ("game_total", "winner") else REGULAR
        text, size = fit(words[key], font, 7, LEGEND_W - 6)
        canvas.setFont(font, size)
        canvas.drawString(left + 4, y + h / 2 - 2.4, text)

    _draw_header_frame(canvas, g, labels)
    if page.last:
        _draw_footer_frame(canvas, g, page.hollywood, labels)


def _draw_header_frame(canvas: Canvas, g: _Geometry, labels: Labels) -> None:
    x = g.width - MARGIN - QR_SIZE - GAP - TABLE_W
    y = g.height - MARGIN - TABLE_H
    canvas.setLineWidth(RULE)
    canvas.setStrokeGray(0)
    canvas.rect(x, y, TABLE_W, TABLE_H, stroke=1, fill=0)
    canvas.setFont(REGULAR, 7)
    text, size = fit(labels.table, REGULAR, 7, TABLE_W - 6)
    canvas.setFontSize(size)
    canvas.drawCentredString(x + TABLE_W / 2, y + TABLE_H - 9, text)


def _footer_cells(g: _Geometry) -> list[tuple[float, float]]:
    """x and width of the result strip's cells: label, games won, match total, winner."""
    left, right = MARGIN, g.width - MARGIN
    span = right - left - 80
    widths = (80, span * 0.42, span * 0.22, span * 0.36)
    out, x = [], left
    for w in widths:
        out.append((x, w))
        x += w
    return out


STRIP_H: Final = 22.0


def _draw_footer_frame(canvas: Canvas, g: _Geometry, hollywood: bool, labels: Labels) -> None:
    strip_y = MARGIN + FOOTER_H - STRIP_H
    cells = _footer_cells(g)
    canvas.setFillGray(GREY_FILL)
    canvas.rect(cells[0][0], strip_y, cells[0][1], STRIP_H, stroke=0, fill=1)
    canvas.setFillGray(0)
    canvas.setLineWidth(RULE)
    canvas.setStrokeGray(0)
    for x, w in cells:
        canvas.rect(x, strip_y, w, STRIP_H, stroke=1, fill=0)
    text, size = fit(labels.match_result, BOLD, 8.5, cells[0][1] - 6)
    canvas.setFont(BOLD, size)
    canvas.drawString(cells[0][0] + 4, strip_y + STRIP_H / 2 - 3, text)
    captions = (labels.columns_won if hollywood else labels.games_won, labels.match_total)
    canvas.setFont(REGULAR, 6)
    for (x, w), caption in zip(cells[1:], (*captions, labels.winner), strict=True):
        canvas.drawString(x + 3, strip_y + STRIP_H - 7, fit(caption, REGULAR, 6, w - 6)[0])
    for x, w in cells[1:3]:
        canvas.setFont(BOLD, 10)
        canvas.drawCentredString(x + w / 2, strip_y + 5, "–")

    half = (g.width - 2 * MARGIN - 40) / 2
    canvas.setLineWidth(HAIRLINE * 1.5)
    for x in (MARGIN, MARGIN + half + 40):
        canvas.line(x, MARGIN + 12, x + half, MARGIN + 12)


def _draw_page(canvas: Canvas, page: _Page, item: Scoresheet, labels: Labels) -> None:
    g = page.geometry
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
    ink.fitted(MARGIN, top - 48, f"{header.player_a}{versus}{header.player_b}", room, BOLD, 13)
    ink.fitted(MARGIN, top - 63, header.rules_summary, room, REGULAR, 8, smallest=5)
    if header.table is not None:
        x = g.width - MARGIN - QR_SIZE - GAP - TABLE_W / 2
        ink.text(x, top - TABLE_H + 9, str(header.table), BOLD, 24, CENTRE)
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
        _draw_hands(ink, canvas, page, item, labels)
    if page.last:
        _draw_footer(ink, page, item, labels)
    ink.flush()


def _groups(item: Scoresheet, hollywood: bool) -> dict[int, Mapping[str, Any]]:
    assert item.sheet is not None
    return {g["number"]: g for g in item.sheet["columns" if hollywood else "games"]}


def _draw_hands(ink: Ink, canvas: Canvas, page: _Page, item: Scoresheet, labels: Labels) -> None:
    g = page.geometry
    sheet = item.sheet
    assert sheet is not None
    rows = _rows(item, page.hollywood)
    groups = _groups(item, page.hollywood)
    names = {"A": item.header.player_a, "B": item.header.player_b}
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
                    span = g.group_w * (len(page.numbers) if page.hollywood else 1)
                    ink.text(g.group_x(slot) + span / 2, y + 0.5, word, ITALIC, 6.5, CENTRE)
                continue
            base = 0 if cell.side == "A" else 2
            x_pts = g.sub_x(slot, base)
            marker = _marker(cell.hand, labels)
            if marker:
                ink.text(x_pts + 2, y + 3.2, marker, REGULAR, 5)
            ink.text(x_pts + quarter - 3, y, str(cell.hand["points"]), REGULAR, 8.5, RIGHT)
            ink.text(x_pts + 2 * quarter - 3, y, str(cell.running), BOLD, 8.5, RIGHT)

        game = groups.get(number)
        played = game is not None and (game["complete"] or game["hands"])
        hand_area_bottom = g.row_y(g.rows - 1)
        if not played:
            if match_done:
                _strike(canvas, g, slot, hand_area_bottom, labels.not_played)
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
            _strike(canvas, g, slot, hand_area_bottom)
        _draw_summary(ink, g, slot, game, names, summary_y, labels)


def _strike(canvas: Canvas, g: _Geometry, slot: int, bottom: float, word: str = "") -> None:
    """Cross out hand rows that will never be used, so nothing can be added there later."""
    canvas.saveState()
    canvas.setStrokeGray(GREY_LINE)
    canvas.setLineWidth(HAIRLINE)
    x = g.group_x(slot)
    canvas.line(x + 4, g.rows_top - 4, x + g.group_w - 4, bottom + 4)
    if word:
        text, size = fit(word, ITALIC, 8, g.group_w - 12)
        w = width(text, ITALIC, size)
        y = (g.rows_top + bottom) / 2
        canvas.setFillGray(1)
        canvas.rect(x + (g.group_w - w) / 2 - 4, y - 4, w + 8, size + 6, stroke=0, fill=1)
        canvas.setFillGray(0)
        canvas.setFont(ITALIC, size)
        canvas.drawCentredString(x + g.group_w / 2, y, text)
    canvas.restoreState()


def _close_column(canvas: Canvas, g: _Geometry, slot: int, row: int) -> None:
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
    g: _Geometry,
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
        for key, text in values.items():
            y, h = summary_y[key]
            font, size = (BOLD, 9) if key == "game_total" else (REGULAR, 8)
            ink.text(right, y + h / 2 - 3, text, font, size, RIGHT)
    y, h = summary_y["winner"]
    centre = g.group_x(slot) + half
    if complete and game["winner"]:
        margin = game.get("margin")
        text = names[game["winner"]] + (f"  ({margin:+d})" if margin is not None else "")
        ink.fitted(centre, y + h / 2 - 3, text, g.group_w - 6, BOLD, 8, CENTRE, smallest=5)
    elif not complete:
        ink.text(centre, y + h / 2 - 3, labels.in_progress, ITALIC, 7, CENTRE)


def _draw_footer(ink: Ink, page: _Page, item: Scoresheet, labels: Labels) -> None:
    g = page.geometry
    header = item.header
    strip_y = MARGIN + FOOTER_H - STRIP_H
    cells = _footer_cells(g)
    (gx, gw), (tx, tw), (wx, ww) = cells[1:]
    name_room = gw / 2 - 28
    y = strip_y + 5
    ink.fitted(gx + gw / 2 - 22, y, header.player_a, name_room, REGULAR, 8, RIGHT, smallest=5)
    ink.fitted(gx + gw / 2 + 22, y, header.player_b, name_room, REGULAR, 8, smallest=5)

    half = (g.width - 2 * MARGIN - 40) / 2
    for x, name in ((MARGIN, header.player_a), (MARGIN + half + 40, header.player_b)):
        ink.fitted(x, MARGIN + 3, f"{labels.signature} · {name}", half, REGULAR, 7, smallest=5)

    if item.sheet is None:
        return
    match = item.sheet["match"]
    won = match["columns_won" if page.hollywood else "games_won"]
    ink.text(gx + gw / 2 - 8, y, str(won["A"]), BOLD, 10, RIGHT)
    ink.text(gx + gw / 2 + 8, y, str(won["B"]), BOLD, 10)
    ink.text(tx + tw / 2 - 8, y, str(match["total"]["A"]), BOLD, 10, RIGHT)
    ink.text(tx + tw / 2 + 8, y, str(match["total"]["B"]), BOLD, 10)
    if match["complete"] and match["winner"]:
        winner = header.player_a if match["winner"] == "A" else header.player_b
        ink.fitted(wx + ww / 2, y, winner, ww - 8, BOLD, 10, CENTRE, smallest=6)
    else:
        ink.text(wx + ww / 2, y, labels.in_progress, ITALIC, 8, CENTRE)
