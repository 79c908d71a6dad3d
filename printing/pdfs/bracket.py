"""Bracket PDF: elimination sections as a classic tree, round robin as a grid and a list.

Plain data in, PDF bytes out: the caller turns the tournament's bracket into a
:class:`BracketSheet` (translated section and round titles, names or "bye" / "winner of
M3" placeholders, each side's games won). Landscape; a 32-player elimination bracket
fits one page, bigger trees are split into parts of sixteen first-round matches with the
later rounds on a page of their own.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from reportlab.pdfgen.canvas import Canvas

from .base import (
    BOLD,
    CENTRE,
    GREY_FILL,
    HAIRLINE,
    ITALIC,
    LEFT,
    REGULAR,
    RIGHT,
    RULE,
    Ink,
    new_canvas,
    page_size,
)
from .fonts import isolate
from .labels import Labels


@dataclass(frozen=True, slots=True)
class BracketEntry:
    """One side of a match. ``placeholder`` marks a bye or a not-yet-known player
    ("Winner of M3"), printed in italics. ``score`` is this side's games won, as text."""

    name: str
    seed: int | None = None
    score: str | None = None
    placeholder: bool = False


@dataclass(frozen=True, slots=True)
class BracketMatch:
    a: BracketEntry
    b: BracketEntry
    label: str = ""
    table: int | None = None
    winner: str | None = None  # "A", "B" or None


@dataclass(frozen=True, slots=True)
class BracketRound:
    label: str
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True, slots=True)
class BracketSection:
    """Winners, losers, consolation, third place … or a round robin (``round_robin=True``).

    ``under_previous``: a one-match section (the third-place match) drawn in the last
    column of the section before it, under its final, instead of in a block of its own."""

    title: str
    rounds: tuple[BracketRound, ...]
    round_robin: bool = False
    under_previous: bool = False


@dataclass(frozen=True, slots=True)
class BracketSheet:
    tournament: str
    sections: tuple[BracketSection, ...]
    subtitle: str = ""
    page_size: str = "A4"


MARGIN: Final = 28.0
HEAD_H: Final = 40.0
TITLE_H: Final = 16.0
ROUND_H: Final = 12.0
LINE_H: Final = 10.5
BOX_H: Final = 2 * LINE_H
PITCH_MIN: Final = BOX_H + 7
PITCH_MAX: Final = 64.0
CONNECT_W: Final = 20.0
BOX_MAX_W: Final = 180.0
SEED_W: Final = 12.0
SCORE_W: Final = 15.0
RR_ROW_H: Final = 12.0
CELL_H: Final = 14.0


@dataclass(slots=True)
class _Block:
    """A piece of a page: ``fixed`` points plus ``rows`` that share the spare height."""

    fixed: float
    rows: int
    draw: Callable[[Canvas, Ink, float, float, float, float], None]  # x, top, width, pitch
    # Trees of three rounds or more take one-match sections (third place) in their last
    # column, under the final, instead of a block of their own.
    attach: list[tuple[str, BracketMatch]] | None = None

    def height(self, pitch: float) -> float:
        return self.fixed + self.rows * pitch


def render_bracket(data: BracketSheet, *, labels: Labels | None = None) -> bytes:
    labels = labels or Labels()
    size = page_size(data.page_size, wide=True)
    width, height = size
    room = height - 2 * MARGIN - HEAD_H
    blocks: list[_Block] = []
    for section in data.sections:
        if section.round_robin:
            blocks += _round_robin_blocks(section, room, labels)
            continue
        single = len(section.rounds) == 1 and len(section.rounds[0].matches) == 1
        host = blocks[-1].attach if blocks else None
        if section.under_previous and single and host is not None and len(host) < 2:
            host.append((section.title, section.rounds[0].matches[0]))
            continue
        blocks += _tree_blocks(section.title, list(section.rounds), room, labels)

    pages: list[list[_Block]] = [[]]
    used = 0.0
    for block in blocks:
        need = block.height(PITCH_MIN)
        if pages[-1] and used + need > room:
            pages.append([])
            used = 0.0
        pages[-1].append(block)
        used += need

    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title=data.tournament, size=size)
    for index, page in enumerate(pages):
        ink = Ink(canvas)
        _draw_head(ink, data, index, len(pages), width, height, labels)
        fixed = sum(b.fixed for b in page)
        rows = sum(b.rows for b in page)
        pitch = min(PITCH_MAX, (room - fixed) / rows) if rows else PITCH_MIN
        pitch = max(pitch, PITCH_MIN)
        top = height - MARGIN - HEAD_H
        for block in page:
            block.draw(canvas, ink, MARGIN, top, width - 2 * MARGIN, pitch)
            top -= block.height(pitch)
        ink.flush()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_head(
    ink: Ink,
    data: BracketSheet,
    index: int,
    count: int,
    width: float,
    height: float,
    labels: Labels,
) -> None:
    top = height - MARGIN
    ink.fitted(MARGIN, top - 14, data.tournament, width - 2 * MARGIN - 120, BOLD, 16)
    if data.subtitle:
        ink.fitted(MARGIN, top - 28, data.subtitle, width - 2 * MARGIN - 120, REGULAR, 9.5)
    if count > 1:
        ink.text(
            width - MARGIN,
            top - 14,
            labels.page.format(page=index + 1, pages=count),
            REGULAR,
            8,
            RIGHT,
        )


# --- elimination trees -----------------------------------------------------------------


def _tree_blocks(
    title: str, rounds: list[BracketRound], room: float, labels: Labels
) -> list[_Block]:
    """One block per tree that fits a page; a bigger tree is cut into parts."""
    if not rounds:
        return []
    counts = [len(r.matches) for r in rounds]
    fits = int((room - TITLE_H - ROUND_H) // PITCH_MIN)
    if max(counts) <= fits:
        return [_tree_block(title, rounds, labels)]
    parts = 2
    while math.ceil(counts[0] / parts) > fits:
        parts *= 2
    split = list(itertools.takewhile(lambda r: len(r.matches) >= parts, rounds))
    if not split:  # not a bracket that halves: print it whole rather than loop
        return [_tree_block(title, rounds, labels)]
    rest = rounds[len(split) :]
    blocks = []
    for part in range(parts):
        piece = [
            BracketRound(
                r.label,
                tuple(m for i, m in enumerate(r.matches) if i * parts // len(r.matches) == part),
            )
            for r in split
        ]
        blocks.append(_tree_block(f"{title} · {part + 1}/{parts}", piece, labels))
    return blocks + _tree_blocks(title, rest, room, labels)


def _tree_block(title: str, rounds: list[BracketRound], labels: Labels) -> _Block:
    rows = max(len(r.matches) for r in rounds)
    attach: list[tuple[str, BracketMatch]] = []

    def draw(canvas: Canvas, ink: Ink, x: float, top: float, width: float, pitch: float) -> None:
        ink.text(x, top - 11, title, BOLD, 10.5)
        column = width / len(rounds)
        box_w = min(BOX_MAX_W, column - CONNECT_W)
        area_top = top - TITLE_H - ROUND_H
        centres: list[list[float]] = []
        lines = canvas.beginPath()
        for r, rnd in enumerate(rounds):
            bx = x + r * column
            ink.fitted(bx + box_w / 2, top - TITLE_H - 8, rnd.label, box_w, BOLD, 8, CENTRE)
            n = len(rnd.matches)
            previous = centres[-1] if centres else []
            if previous and len(previous) == 2 * n:
                ys = [(previous[2 * i] + previous[2 * i + 1]) / 2 for i in range(n)]
            elif previous and len(previous) == n:
                ys = list(previous)
            else:
                step = rows * pitch / max(n, 1)
                ys = [area_top - step * (i + 0.5) for i in range(n)]
            if previous and len(previous) in (n, 2 * n):
                joint = bx - CONNECT_W / 2
                for i, y in enumerate(ys):
                    feeders = (
                        previous[2 * i : 2 * i + 2] if len(previous) == 2 * n else [previous[i]]
                    )
                    for fy in feeders:
                        lines.moveTo(bx - (column - box_w), fy)
                        lines.lineTo(joint, fy)
                    lines.moveTo(joint, min(feeders))
                    lines.lineTo(joint, max(feeders))
                    lines.moveTo(joint, y)
                    lines.lineTo(bx, y)
            centres.append(ys)
            for match, y in zip(rnd.matches, ys, strict=True):
                _draw_match(canvas, ink, match, bx, y, box_w, labels)
        canvas.setLineWidth(RULE * 0.8)
        canvas.setStrokeGray(0)
        canvas.drawPath(lines, stroke=1, fill=0)
        bx = x + (len(rounds) - 1) * column
        for i, (name, match) in enumerate(reversed(attach)):
            y = area_top - rows * pitch + BOX_H / 2 + i * (BOX_H + 26)
            ink.fitted(bx, y + BOX_H / 2 + 10, name, box_w, BOLD, 8)
            _draw_match(canvas, ink, match, bx, y, box_w, labels)

    return _Block(TITLE_H + ROUND_H + 4, rows, draw, attach if len(rounds) >= 3 else None)


def _draw_match(
    canvas: Canvas,
    ink: Ink,
    match: BracketMatch,
    x: float,
    centre: float,
    w: float,
    labels: Labels,
) -> None:
    top = centre + BOX_H / 2
    canvas.setLineWidth(RULE * 0.8)
    canvas.setStrokeGray(0)
    canvas.rect(x, centre - BOX_H / 2, w, BOX_H, stroke=1, fill=0)
    canvas.setLineWidth(HAIRLINE)
    canvas.line(x, centre, x + w, centre)
    canvas.line(x + w - SCORE_W, centre - BOX_H / 2, x + w - SCORE_W, top)
    note = " · ".join(
        s for s in (match.label, f"{labels.table} {match.table}" if match.table else "") if s
    )
    if note:
        ink.fitted(x + 1, top + 2, note, w, REGULAR, 5.5, smallest=4.5)
    for i, (side, entry) in enumerate((("A", match.a), ("B", match.b))):
        y = top - (i + 1) * LINE_H + 3.2
        won = match.winner == side
        font = ITALIC if entry.placeholder else BOLD if won else REGULAR
        if entry.seed is not None:
            ink.text(x + SEED_W - 2, y + 0.3, str(entry.seed), REGULAR, 5.5, RIGHT)
        ink.fitted(x + SEED_W + 1, y, entry.name, w - SEED_W - SCORE_W - 4, font, 7.5, smallest=5)
        if entry.score is not None:
            ink.text(x + w - SCORE_W / 2, y, entry.score, BOLD if won else REGULAR, 7.5, CENTRE)


# --- round robin -----------------------------------------------------------------------


def _round_robin_blocks(section: BracketSection, room: float, labels: Labels) -> list[_Block]:
    players: list[str] = []
    for rnd in section.rounds:
        for match in rnd.matches:
            for entry in (match.a, match.b):
                if not entry.placeholder and entry.name not in players:
                    players.append(entry.name)
    cell_h = min(CELL_H, (room - TITLE_H - 14) / (len(players) + 1))
    blocks = [_cross_table(section.title, players, section.rounds, cell_h)] if players else []
    lines: list[tuple[str, BracketMatch]] = [
        (rnd.label if i == 0 else "", match)
        for rnd in section.rounds
        for i, match in enumerate(rnd.matches)
    ]
    per_block = max(1, int((room - TITLE_H - 10) // RR_ROW_H) - 1)
    for start in range(0, len(lines), per_block):
        chunk = lines[start : start + per_block]
        blocks.append(_results_list(labels.round_robin_results, chunk, labels))
    return blocks


def _cross_table(
    title: str, players: list[str], rounds: Sequence[BracketRound], cell_h: float
) -> _Block:
    """Players down and across; a cell is the row player's games won–lost against the
    column player, in bold when the row player won."""
    scores: dict[tuple[str, str], tuple[str, bool]] = {}
    for rnd in rounds:
        for m in rnd.matches:
            if m.a.score is None or m.b.score is None:
                continue
            scores[m.a.name, m.b.name] = (f"{m.a.score}–{m.b.score}", m.winner == "A")
            scores[m.b.name, m.a.name] = (f"{m.b.score}–{m.a.score}", m.winner == "B")
    n = len(players)

    def draw(canvas: Canvas, ink: Ink, x: float, top: float, width: float, pitch: float) -> None:
        ink.text(x, top - 11, title, BOLD, 10.5)
        name_w = min(150.0, width * 0.25)
        cell = min(44.0, (width - name_w) / n)
        y0 = top - TITLE_H
        canvas.setFillGray(GREY_FILL)
        canvas.rect(x, y0 - cell_h, name_w + n * cell, cell_h, stroke=0, fill=1)
        for i in range(n):
            canvas.rect(
                x + name_w + i * cell, y0 - (i + 2) * cell_h, cell, cell_h, stroke=0, fill=1
            )
        canvas.setFillGray(0)
        grid = canvas.beginPath()
        for row in range(n + 2):
            grid.moveTo(x, y0 - row * cell_h)
            grid.lineTo(x + name_w + n * cell, y0 - row * cell_h)
        for col in range(n + 1):
            grid.moveTo(x + name_w + col * cell, y0)
            grid.lineTo(x + name_w + col * cell, y0 - (n + 1) * cell_h)
        grid.moveTo(x, y0)
        grid.lineTo(x, y0 - (n + 1) * cell_h)
        canvas.setLineWidth(HAIRLINE)
        canvas.drawPath(grid, stroke=1, fill=0)
        for i, name in enumerate(players):
            y = y0 - (i + 2) * cell_h + cell_h / 2 - 2.8
            ink.fitted(x + 4, y, f"{i + 1}. {isolate(name)}", name_w - 8, REGULAR, 8, smallest=5)
            ink.text(
                x + name_w + (i + 0.5) * cell, y0 - cell_h / 2 - 2.8, str(i + 1), BOLD, 8, CENTRE
            )
            for j, other in enumerate(players):
                found = scores.get((name, other))
                if found:
                    font = BOLD if found[1] else REGULAR
                    ink.text(x + name_w + (j + 0.5) * cell, y, found[0], font, 8, CENTRE)

    return _Block(TITLE_H + (n + 1) * cell_h + 14, 0, draw)


def _results_list(title: str, lines: list[tuple[str, BracketMatch]], labels: Labels) -> _Block:
    """Round, table, A, score, B: one line per match, a rule between rounds."""
    name_w = 190.0

    def draw(canvas: Canvas, ink: Ink, x: float, top: float, width: float, pitch: float) -> None:
        ink.text(x, top - 11, title, BOLD, 10.5)
        table_x, a_x, score_x = x + 120, x + 130 + name_w, x + 130 + name_w + 30
        b_x, end = score_x + 30, score_x + 30 + name_w
        head = top - TITLE_H - RR_ROW_H + 3
        ink.fitted(table_x, head, labels.table, 50, BOLD, 7, RIGHT)
        canvas.setLineWidth(HAIRLINE)
        for i, (round_label, m) in enumerate(lines):
            y = head - (i + 1) * RR_ROW_H
            if round_label:
                ink.fitted(x, y, round_label, 110, BOLD, 8)
                canvas.line(x, y + RR_ROW_H - 3, end, y + RR_ROW_H - 3)
            if m.table:
                ink.text(table_x, y, str(m.table), REGULAR, 8, RIGHT)
            # A, score, B in reading order, so the text extracts that way too.
            _side_name(ink, m, "A", a_x, y, name_w - 8, RIGHT)
            if m.a.score is not None and m.b.score is not None:
                ink.text(score_x, y, f"{m.a.score}–{m.b.score}", BOLD, 8, CENTRE)
            else:
                ink.fitted(score_x, y, labels.versus, 28, ITALIC, 7, CENTRE)
            _side_name(ink, m, "B", b_x, y, name_w - 8, LEFT)

    return _Block(TITLE_H + (len(lines) + 1) * RR_ROW_H + 10, 0, draw)


def _side_name(
    ink: Ink, match: BracketMatch, side: str, x: float, y: float, room: float, align: int
) -> None:
    entry = match.a if side == "A" else match.b
    font = ITALIC if entry.placeholder else BOLD if match.winner == side else REGULAR
    ink.fitted(x, y, entry.name, room, font, 8, align, smallest=5)
