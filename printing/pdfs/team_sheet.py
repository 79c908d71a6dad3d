"""The team scoresheet: a partnership match, deal by deal, a column per board.

Plain data in, PDF bytes out, like :mod:`.scoresheet`: the caller gives the header (the
teams' names as ``player_a``/``player_b``), each team's players in seat order, the rules
snapshot and the engine's team sheet (``TeamSheet.to_dict()``: ``deals`` with their
boards) or None for a blank sheet; every word arrives translated in :class:`TeamLabels`.

Page anatomy, top to bottom: the header (tournament, round, match, teams and their
players, rules summary, table number, QR code of the table link), one table with a row
per deal (deal number; for each board who sits there and each team's points on it; the
deal's net points for each team; each team's running score in the game), then the games'
settlements, the match result and both teams' signature lines. Rows left empty after the
played deals are for writing the next deals by hand; a long match goes on to more pages.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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
    page_size,
)
from .fonts import isolate
from .scoresheet import SheetHeader, pack_canvas

MARGIN = 28.0
QR = 74.0
ROW_H = 19.0
HEAD_H = 30.0


@dataclass(frozen=True, slots=True)
class TeamLabels:
    """Every word the team sheet prints, translated by the caller. ``{n}`` is a number."""

    table: str = "Table"
    versus: str = "vs"
    scan_hint: str = "Scan to enter deals"
    deal: str = "Deal"
    board: str = "Board {n}"
    net: str = "Deal"
    running: str = "Score"
    game: str = "Game {n}"
    column: str = "Column {n}"
    points: str = "Points"
    boxes: str = "Boxes"
    game_bonus: str = "Game bonus"
    shutout: str = "Shutout"
    total: str = "Total"
    match_total: str = "Match total"
    winner: str = "Winner"
    in_progress: str = "in progress"
    signature: str = "Signature"
    sweep: str = "sweep"
    draw: str = "draw"
    gin: str = "gin"
    big_gin: str = "big gin"
    undercut: str = "U/C"
    page: str = "Page {page} of {pages}"


@dataclass(frozen=True, slots=True)
class TeamScoresheet:
    header: SheetHeader
    rules: Mapping[str, Any]
    members: Mapping[str, Sequence[str]] = field(default_factory=dict)
    sheet: Mapping[str, Any] | None = None


def render_team_scoresheets(
    sheets: Sequence[TeamScoresheet], *, labels: TeamLabels | None = None
) -> bytes:
    """One PDF with every team sheet in the given order (a round pack: table order)."""
    labels = labels or TeamLabels()
    buffer = io.BytesIO()
    canvas = pack_canvas(buffer, [item.header for item in sheets])
    for item in sheets:
        _draw_sheet(canvas, item, labels)
    canvas.save()
    return buffer.getvalue()


def _running(deals: Sequence[Mapping[str, Any]], hollywood: bool) -> list[tuple[int, int]]:
    """Each team's running score after each deal, in the deal's game (games format) or
    summed over the match (Hollywood: a deal goes into several columns)."""
    totals: dict[Any, list[int]] = {}
    out = []
    for deal in deals:
        key = None if hollywood else deal.get("game")
        score = totals.setdefault(key, [0, 0])
        if deal["winner"] == "A":
            score[0] += deal["points"]
        elif deal["winner"] == "B":
            score[1] += deal["points"]
        out.append((score[0], score[1]))
    return out


def _marker(board: Mapping[str, Any], labels: TeamLabels) -> str:
    return {
        "gin": labels.gin,
        "big_gin": labels.big_gin,
        "undercut": labels.undercut,
        "draw": labels.draw,
    }.get(board["result"], "")


def _draw_sheet(canvas: Canvas, item: TeamScoresheet, labels: TeamLabels) -> None:
    size = page_size(item.header.page_size, wide=True)
    width, height = size
    boards = int(item.rules.get("team_size", 2))
    hollywood = item.rules.get("format") == "hollywood"
    deals = list(item.sheet["deals"]) if item.sheet else []
    running = _running(deals, hollywood)
    header_h = 118.0
    footer_h = 150.0
    room = height - 2 * MARGIN - header_h - footer_h - HEAD_H
    per_page = max(4, int(room // ROW_H))
    pages = max(1, -(-(len(deals) + 2) // per_page))
    for page in range(pages):
        canvas.setPageSize(size)
        ink = Ink(canvas)
        _draw_header(canvas, ink, item, labels, width, height, page, pages)
        start = page * per_page
        rows = deals[start : start + per_page]
        top = height - MARGIN - header_h
        _draw_table(canvas, ink, item, labels, width, top, boards, per_page, rows, running, start)
        if page == pages - 1:
            _draw_footer(canvas, ink, item, labels, width, hollywood)
        ink.flush()
        canvas.showPage()


def _draw_header(
    canvas: Canvas,
    ink: Ink,
    item: TeamScoresheet,
    labels: TeamLabels,
    width: float,
    height: float,
    page: int,
    pages: int,
) -> None:
    header = item.header
    top = height - MARGIN
    room = width - 2 * MARGIN - QR - 90
    ink.fitted(MARGIN, top - 14, header.tournament, room, BOLD, 15)
    context = " · ".join(s for s in (header.round_label, header.match_label) if s)
    if pages > 1:
        context += " · " + labels.page.format(page=page + 1, pages=pages)
    ink.fitted(MARGIN, top - 30, context, room, REGULAR, 10)
    versus = f"  {labels.versus}  "
    ink.fitted(
        MARGIN,
        top - 50,
        f"{isolate(header.player_a)}{versus}{isolate(header.player_b)}",
        room,
        BOLD,
        13,
    )
    for offset, side in ((66, "A"), (80, "B")):
        name = header.player_a if side == "A" else header.player_b
        players = ", ".join(
            f"{seat}. {isolate(p)}" for seat, p in enumerate(item.members.get(side, ()), 1)
        )
        ink.fitted(MARGIN, top - offset, f"{isolate(name)}: {players}", room, REGULAR, 9)
    ink.fitted(MARGIN, top - 98, header.rules_summary, room, ITALIC, 8, smallest=5)
    table_x = width - MARGIN - QR - 50
    ink.text(table_x, top - 12, labels.table, REGULAR, 8, CENTRE)
    if header.table is not None:
        ink.text(table_x, top - 38, str(header.table), BOLD, 24, CENTRE)
    if header.qr_url:
        x = width - MARGIN - QR
        draw_qr(canvas, header.qr_url, x, top - QR, QR)
        ink.fitted(width - MARGIN, top - QR - 8, header.qr_url, 320, REGULAR, 6, RIGHT, smallest=4)
        ink.fitted(x - 3, top - QR + 3, labels.scan_hint, 90, ITALIC, 6, RIGHT, smallest=4.5)


def _columns(width: float, boards: int) -> tuple[float, float, float, float]:
    """x of the deal number column's right edge, board column width, net width, run width."""
    usable = width - 2 * MARGIN
    number_w = 34.0
    net_w = 78.0
    run_w = 92.0
    board_w = (usable - number_w - net_w - run_w) / boards
    return MARGIN + number_w, board_w, net_w, run_w


def _draw_table(
    canvas: Canvas,
    ink: Ink,
    item: TeamScoresheet,
    labels: TeamLabels,
    width: float,
    top: float,
    boards: int,
    rows_per_page: int,
    deals: Sequence[Mapping[str, Any]],
    running: Sequence[tuple[int, int]],
    start: int,
) -> None:
    header = item.header
    left = MARGIN
    right = width - MARGIN
    number_right, board_w, net_w, run_w = _columns(width, boards)
    net_x = number_right + boards * board_w
    run_x = net_x + net_w
    bottom = top - HEAD_H - rows_per_page * ROW_H
    # Header band.
    canvas.saveState()
    canvas.setFillGray(GREY_FILL)
    canvas.rect(left, top - HEAD_H, right - left, HEAD_H, stroke=0, fill=1)
    canvas.restoreState()
    ink.text((left + number_right) / 2, top - 18, labels.deal, BOLD, 8, CENTRE)
    team_a, team_b = header.player_a, header.player_b
    for b in range(boards):
        x = number_right + b * board_w
        ink.text(x + board_w / 2, top - 11, labels.board.format(n=b + 1), BOLD, 8.5, CENTRE)
        ink.fitted(
            x + board_w / 4, top - 24, team_a, board_w / 2 - 4, REGULAR, 7, CENTRE, smallest=5
        )
        ink.fitted(
            x + 3 * board_w / 4, top - 24, team_b, board_w / 2 - 4, REGULAR, 7, CENTRE, smallest=5
        )
    for x, w, title in ((net_x, net_w, labels.net), (run_x, run_w, labels.running)):
        ink.text(x + w / 2, top - 11, title, BOLD, 8.5, CENTRE)
        ink.fitted(x + w / 4, top - 24, team_a, w / 2 - 4, REGULAR, 7, CENTRE, smallest=5)
        ink.fitted(x + 3 * w / 4, top - 24, team_b, w / 2 - 4, REGULAR, 7, CENTRE, smallest=5)
    # Lines.
    canvas.saveState()
    canvas.setLineWidth(HAIRLINE)
    canvas.setStrokeGray(GREY_LINE)
    for r in range(1, rows_per_page):
        y = top - HEAD_H - r * ROW_H
        canvas.line(left, y, right, y)
    for b in range(boards):
        x = number_right + b * board_w + board_w / 2
        canvas.line(x, top - HEAD_H, x, bottom)
    for x, w in ((net_x, net_w), (run_x, run_w)):
        canvas.line(x + w / 2, top - HEAD_H, x + w / 2, bottom)
    canvas.setStrokeGray(0)
    canvas.setLineWidth(RULE)
    canvas.rect(left, bottom, right - left, top - bottom, stroke=1, fill=0)
    for x in [number_right, *(number_right + b * board_w for b in range(1, boards)), net_x, run_x]:
        canvas.line(x, top, x, bottom)
    canvas.line(left, top - HEAD_H, right, top - HEAD_H)
    canvas.restoreState()
    # Deals.
    for index, deal in enumerate(deals):
        y = top - HEAD_H - (index + 1) * ROW_H + 6
        ink.text((left + number_right) / 2, y, str(deal["number"]), BOLD, 9, CENTRE)
        for b, board in enumerate(deal["boards"]):
            x = number_right + b * board_w
            seats = board.get("seats") or {}
            seat_text = f"{seats.get('A', '')}–{seats.get('B', '')}" if seats else ""
            ink.text(x + 2, y + 6, seat_text, REGULAR, 5.5)
            marker = _marker(board, labels)
            winner = board["winner"]
            for side, cx in (("A", x + board_w / 4), ("B", x + 3 * board_w / 4)):
                if winner == side:
                    ink.text(cx, y - 1, str(board["points"]), BOLD, 9, CENTRE)
                    if marker:
                        ink.text(cx + board_w / 4 - 2, y - 2, marker, ITALIC, 5.5, RIGHT)
                elif winner is None and side == "A" and marker:
                    ink.text(x + 16, y + 6, marker, ITALIC, 6.5)
        for side, cx in (("A", net_x + net_w / 4), ("B", net_x + 3 * net_w / 4)):
            if deal["winner"] == side:
                text = str(deal["points"])
                ink.text(cx, y - 1, text, BOLD, 9.5, CENTRE)
        if deal.get("sweep") and deal.get("sweep_bonus"):
            sweep = f"{labels.sweep} +{deal['sweep_bonus']}"
            ink.text(net_x + 2, y + 7.5, sweep, ITALIC, 5.5)
        a, b_score = running[start + index]
        ink.text(run_x + run_w / 4, y - 1, str(a), REGULAR, 9.5, CENTRE)
        ink.text(run_x + 3 * run_w / 4, y - 1, str(b_score), REGULAR, 9.5, CENTRE)


def _draw_footer(
    canvas: Canvas,
    ink: Ink,
    item: TeamScoresheet,
    labels: TeamLabels,
    width: float,
    hollywood: bool,
) -> None:
    header = item.header
    top = MARGIN + 150 - 14
    x = MARGIN
    if item.sheet is not None:
        key = "columns" if hollywood else "games"
        title = labels.column if hollywood else labels.game
        for block in item.sheet.get(key, [])[:6]:
            pts, boxes = block["points"], block["box_points"]
            bonus, shut, total = block["game_bonus"], block["shutout_bonus"], block["total"]
            state = "" if block["complete"] else f" ({labels.in_progress})"
            line = (
                f"{title.format(n=block['number'])}{state}: "
                f"{labels.points} {pts['A']}–{pts['B']} · {labels.boxes} {boxes['A']}–{boxes['B']}"
                f" · {labels.game_bonus} {bonus['A']}–{bonus['B']}"
                f" · {labels.shutout} {shut['A']}–{shut['B']}"
                f" · {labels.total} {total['A']}–{total['B']}"
            )
            ink.fitted(x, top, line, width - 2 * MARGIN, REGULAR, 9, smallest=6)
            top -= 13
        result = item.sheet["match"]
        total = result["total"]
        line = (
            f"{labels.match_total}: {isolate(header.player_a)} {total['A']} · "
            f"{isolate(header.player_b)} {total['B']}"
        )
        if result["complete"] and result["winner"]:
            winner = header.player_a if result["winner"] == "A" else header.player_b
            line += f" · {labels.winner}: {isolate(winner)}"
        else:
            line += f" · {labels.in_progress}"
        ink.fitted(x, MARGIN + 44, line, width - 2 * MARGIN, BOLD, 11, smallest=6)
    else:
        ink.text(x, MARGIN + 44, f"{labels.match_total}:", BOLD, 11)
    half = (width - 2 * MARGIN - 40) / 2
    canvas.saveState()
    canvas.setLineWidth(HAIRLINE)
    for sx, name in ((MARGIN, header.player_a), (MARGIN + half + 40, header.player_b)):
        canvas.line(sx, MARGIN + 14, sx + half, MARGIN + 14)
        ink.fitted(
            sx, MARGIN + 3, f"{labels.signature} · {isolate(name)}", half, REGULAR, 7, smallest=5
        )
    canvas.restoreState()
