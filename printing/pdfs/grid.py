"""The empty scoresheet: page geometry, paging, and everything printed on every sheet alike.

A page is a header band (tournament, players, rules, table number, QR code), one grid per
game or Hollywood column beside a legend column (hand numbers, summary row names), and on
a sheet's last page the footer (match result strip, signature lines). :func:`draw_grid`
draws the parts that do not depend on the match (lines, fills, printed words); the
scoresheet renderer records them once per layout as a form XObject.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from reportlab.pdfgen.canvas import Canvas

from .base import BOLD, GREY_FILL, GREY_LINE, HAIRLINE, REGULAR, RULE, fit, page_size
from .labels import Labels

MARGIN: Final = 22.0
HEADER_H: Final = 74.0
FOOTER_H: Final = 60.0
GAP: Final = 8.0
LEGEND_W: Final = 62.0
QR_SIZE: Final = 66.0
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
class Geometry:
    """Where every cell of a page is; the same for all pages of one layout."""

    width: float
    height: float
    slots: int
    rows: int
    row_h: float
    group_w: float

    @classmethod
    def build(cls, size_name: str, slots: int) -> Geometry:
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
class Page:
    geometry: Geometry
    hollywood: bool
    numbers: tuple[int, ...]  # game or column numbers shown on this page
    first_row: int  # index of the first hand row shown (continuation pages)
    last: bool  # carries the footer
    index: int
    count: int


def plan_pages(size_name: str, rules: Mapping[str, Any], lengths: Mapping[int, int]) -> list[Page]:
    """The pages of one sheet. ``lengths`` is the number of hand rows each game (or
    column) needs; more than five games, or more hands than rows, continue on more pages."""
    hollywood = rules.get("format") == "hollywood"
    groups = int(rules["hollywood_columns"]) if hollywood else 2 * int(rules["games_to_win"]) - 1
    page_count = math.ceil(groups / MAX_GROUPS_PER_PAGE)
    slots = math.ceil(groups / page_count)
    geometry = Geometry.build(size_name, slots)
    plan: list[tuple[tuple[int, ...], int]] = []
    for start in range(1, groups + 1, slots):
        numbers = tuple(range(start, min(groups, start + slots - 1) + 1))
        longest = max((lengths.get(n, 0) for n in numbers), default=0)
        for part in range(max(1, math.ceil(longest / geometry.rows))):
            plan.append((numbers, part * geometry.rows))
    return [
        Page(geometry, hollywood, numbers, first, i == len(plan) - 1, i, len(plan))
        for i, (numbers, first) in enumerate(plan)
    ]


def draw_grid(canvas: Canvas, page: Page, rules: Mapping[str, Any], labels: Labels) -> None:
    """Everything on a page that does not depend on the match: lines, fills, printed words.

    Drawn with reportlab's ordinary API; the benchmark draws this per page as its baseline.
    """
    g = page.geometry
    slots = len(page.numbers)
    # Fills first, lines over them.
    _draw_fills(canvas, g, slots)
    _draw_thin_lines(canvas, g, slots)
    _draw_bold_lines(canvas, g, slots)
    canvas.setFillGray(0)
    _draw_group_headings(canvas, page, labels)
    _draw_legend(canvas, page, rules, labels)
    _draw_header_frame(canvas, g, labels)
    if page.last:
        _draw_footer_frame(canvas, g, page.hollywood, labels)


def _draw_fills(canvas: Canvas, g: Geometry, slots: int) -> None:
    """The grey bands: game titles, the points/total words, the game totals."""
    left, right = MARGIN, g.group_x(slots)
    canvas.setFillGray(GREY_FILL)
    canvas.rect(left, g.top - TITLE_H, right - left, TITLE_H, stroke=0, fill=1)
    canvas.rect(left + LEGEND_W, g.rows_top, right - left - LEGEND_W, SUB_H, stroke=0, fill=1)
    y, h = g.summary_y()["game_total"]
    canvas.rect(left, y, right - left, h, stroke=0, fill=1)


def _draw_thin_lines(canvas: Canvas, g: Geometry, slots: int) -> None:
    """The hairlines: one under every row, and between each side's points and total."""
    left, right = MARGIN, g.group_x(slots)
    summary = g.summary_y()
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
    for slot in range(slots):
        for sub in (1, 3):
            x = g.sub_x(slot, sub)
            thin.moveTo(x, g.rows_top + SUB_H)
            thin.lineTo(x, g.summary_top)
    canvas.setLineWidth(HAIRLINE)
    canvas.setStrokeGray(GREY_LINE)
    canvas.drawPath(thin, stroke=1, fill=0)


def _draw_bold_lines(canvas: Canvas, g: Geometry, slots: int) -> None:
    """The rules: the frame, above the hands and the summary, around each game and
    between its two sides."""
    left, right = MARGIN, g.group_x(slots)
    winner_bottom, winner_h = g.summary_y()["winner"]
    winner_top = winner_bottom + winner_h
    bold = canvas.beginPath()
    bold.rect(left, g.bottom, right - left, g.top - g.bottom)
    bold.moveTo(left, g.rows_top)
    bold.lineTo(right, g.rows_top)
    bold.moveTo(left, g.summary_top)
    bold.lineTo(right, g.summary_top)
    for slot in range(slots):
        x = g.group_x(slot)
        bold.moveTo(x, g.top)
        bold.lineTo(x, g.bottom)
        x = g.sub_x(slot, 2)
        bold.moveTo(x, g.top - TITLE_H)
        bold.lineTo(x, winner_top)
    canvas.setLineWidth(RULE)
    canvas.setStrokeGray(0)
    canvas.drawPath(bold, stroke=1, fill=0)


def _draw_group_headings(canvas: Canvas, page: Page, labels: Labels) -> None:
    """Each game's (or column's) title and its sub-column words (points, total)."""
    g = page.geometry
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


def _draw_legend(canvas: Canvas, page: Page, rules: Mapping[str, Any], labels: Labels) -> None:
    """The legend column: the hand numbers of this page and the summary rows' names."""
    g = page.geometry
    left = MARGIN
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
    for key, (y, h) in g.summary_y().items():
        font = BOLD if key in ("game_total", "winner") else REGULAR
        text, size = fit(words[key], font, 7, LEGEND_W - 6)
        canvas.setFont(font, size)
        canvas.drawString(left + 4, y + h / 2 - 2.4, text)


def _draw_header_frame(canvas: Canvas, g: Geometry, labels: Labels) -> None:
    x = g.width - MARGIN - QR_SIZE - GAP - TABLE_W
    y = g.height - MARGIN - TABLE_H
    canvas.setLineWidth(RULE)
    canvas.setStrokeGray(0)
    canvas.rect(x, y, TABLE_W, TABLE_H, stroke=1, fill=0)
    canvas.setFont(REGULAR, 7)
    text, size = fit(labels.table, REGULAR, 7, TABLE_W - 6)
    canvas.setFontSize(size)
    canvas.drawCentredString(x + TABLE_W / 2, y + TABLE_H - 9, text)


def footer_cells(g: Geometry) -> list[tuple[float, float]]:
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


def _draw_footer_frame(canvas: Canvas, g: Geometry, hollywood: bool, labels: Labels) -> None:
    strip_y = MARGIN + FOOTER_H - STRIP_H
    cells = footer_cells(g)
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
