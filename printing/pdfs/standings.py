"""Standings PDF: one table, place, player and the caller's statistics columns.

The caller decides the columns (match wins, games won, margin, gins … already translated
headings) and formats every value; the renderer lays them out, repeats the heading on
every page and never reorders anything.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Final

from reportlab.pdfgen.canvas import Canvas

from .base import (
    BOLD,
    CENTRE,
    GREY_FILL,
    HAIRLINE,
    REGULAR,
    RIGHT,
    RULE,
    Ink,
    fit,
    new_canvas,
    page_size,
    width,
)
from .labels import Labels


@dataclass(frozen=True, slots=True)
class StandingsRow:
    place: str  # "1", "3–4", "5–8" …
    name: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StandingsSheet:
    tournament: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[StandingsRow, ...]
    subtitle: str = ""
    notes: tuple[str, ...] = ()  # tie-break order, "provisional" …, one line each
    page_size: str = "A4"


MARGIN: Final = 36.0
HEAD_H: Final = 58.0
ROW_H: Final = 16.0
PLACE_W: Final = 42.0
NAME_MIN_W: Final = 170.0
VALUE_MIN_W: Final = 44.0


def render_standings(data: StandingsSheet, *, labels: Labels | None = None) -> bytes:
    labels = labels or Labels()
    value_w = _value_widths(data)
    wide = (
        PLACE_W + NAME_MIN_W + sum(value_w) > page_size(data.page_size, wide=False)[0] - 2 * MARGIN
    )
    size = page_size(data.page_size, wide=wide)
    page_w, page_h = size
    table_w = page_w - 2 * MARGIN
    name_w = table_w - PLACE_W - sum(value_w)
    notes_h = len(data.notes) * 11 + (8 if data.notes else 0)
    per_page = max(1, int((page_h - 2 * MARGIN - HEAD_H - ROW_H - notes_h) // ROW_H))
    chunks = [data.rows[i : i + per_page] for i in range(0, len(data.rows), per_page)] or [()]

    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title=f"{data.tournament} · {data.title}", size=size)
    for index, rows in enumerate(chunks):
        ink = Ink(canvas)
        top = page_h - MARGIN
        _draw_head(ink, data, index, len(chunks), page_w, top, labels)
        y = top - HEAD_H
        _draw_table_frame(canvas, y, len(rows), table_w)
        _draw_rows(ink, data.columns, rows, y, name_w, value_w, labels)
        if index == len(chunks) - 1:
            note_y = y - (len(rows) + 1) * ROW_H - 14
            for note in data.notes:
                ink.fitted(MARGIN, note_y, note, table_w, REGULAR, 7.5, smallest=5)
                note_y -= 11
        ink.flush()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _value_widths(data: StandingsSheet) -> list[float]:
    """Each statistics column as wide as its heading or its widest value needs."""
    return [
        max(
            VALUE_MIN_W,
            width(c, BOLD, 7.5) + 10,
            *(width(r.values[i], REGULAR, 9) + 12 for r in data.rows if i < len(r.values)),
        )
        for i, c in enumerate(data.columns)
    ]


def _draw_head(
    ink: Ink,
    data: StandingsSheet,
    index: int,
    count: int,
    page_w: float,
    top: float,
    labels: Labels,
) -> None:
    """Tournament, title, subtitle and, when there is more than one, the page number."""
    table_w = page_w - 2 * MARGIN
    ink.fitted(MARGIN, top - 15, data.tournament, table_w - 80, BOLD, 16)
    ink.fitted(MARGIN, top - 32, data.title, table_w - 80, BOLD, 12)
    if data.subtitle:
        ink.fitted(MARGIN, top - 46, data.subtitle, table_w, REGULAR, 9)
    if count > 1:
        page = labels.page.format(page=index + 1, pages=count)
        ink.text(page_w - MARGIN, top - 15, page, REGULAR, 8, RIGHT)


def _draw_table_frame(canvas: Canvas, y: float, count: int, table_w: float) -> None:
    """The heading band, every other row shaded, and the rules around the heading and
    under the last of ``count`` rows; ``y`` is the table's top."""
    canvas.setFillGray(GREY_FILL)
    canvas.rect(MARGIN, y - ROW_H, table_w, ROW_H, stroke=0, fill=1)
    for i in range(1, count, 2):
        canvas.setFillGray(0.95)
        canvas.rect(MARGIN, y - (i + 2) * ROW_H, table_w, ROW_H, stroke=0, fill=1)
    canvas.setFillGray(0)
    canvas.setLineWidth(RULE)
    canvas.line(MARGIN, y, MARGIN + table_w, y)
    canvas.line(MARGIN, y - ROW_H, MARGIN + table_w, y - ROW_H)
    canvas.line(MARGIN, y - (count + 1) * ROW_H, MARGIN + table_w, y - (count + 1) * ROW_H)
    canvas.setLineWidth(HAIRLINE)


def _draw_rows(
    ink: Ink,
    columns: tuple[str, ...],
    rows: tuple[StandingsRow, ...],
    y: float,
    name_w: float,
    value_w: list[float],
    labels: Labels,
) -> None:
    """The headings, then place, name and values of each row."""
    base = y - ROW_H + 5
    ink.fitted(MARGIN + PLACE_W / 2, base, labels.place, PLACE_W - 4, BOLD, 7.5, CENTRE)
    ink.fitted(MARGIN + PLACE_W + 4, base, labels.player, name_w - 8, BOLD, 7.5)
    x = MARGIN + PLACE_W + name_w
    for heading, w in zip(columns, value_w, strict=True):
        ink.fitted(x + w - 5, base, heading, w - 6, BOLD, 7.5, RIGHT, smallest=5)
        x += w
    for i, row in enumerate(rows):
        base = y - (i + 2) * ROW_H + 5
        ink.text(MARGIN + PLACE_W / 2, base, row.place, BOLD, 9.5, CENTRE)
        ink.fitted(MARGIN + PLACE_W + 4, base, row.name, name_w - 8, REGULAR, 9.5, smallest=6)
        x = MARGIN + PLACE_W + name_w
        for value, w in zip(row.values, value_w, strict=False):
            text, size = fit(value, REGULAR, 9, w - 6)
            ink.text(x + w - 5, base, text, REGULAR, size, RIGHT)
            x += w
