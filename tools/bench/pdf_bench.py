"""Round-pack benchmark (SPEC 10): a 128-match pack against reportlab drawing the grids.

Run ``python -m tools.bench.pdf_bench``. In one run it times, as medians of a few
repetitions:

- **pack**: ``render_scoresheets`` for N filled best-of-five sheets (the hands of the
  shared tournament-best-of-five example, scored by the engine; different players, tables
  and table links), QR codes included: the grid is drawn once as a form and placed on
  every page;
- **grids** (the baseline): the same N sheets blank, without hand data and without QR
  codes, through the same layout code, but with every page drawing its grid itself with
  reportlab's ordinary API (``grid_as_form=False``): what reportlab needs to draw the
  128 grids, with the players' names in them.

The budget is pack ≤ 1.5 × grids. Times are CPU time of this process; caches (QR paths,
encoded strings, text widths) are cleared before every repetition so each one pays the
full cost, as printing a round pack once does. For context it also prints a stricter
baseline (grid lines and printed words only, no names or header text), the blank pack
through the renderer as it really runs (no QR), and what one QR code costs drawn from
segno's matrix versus reportlab's own QR widget. Not a timed test: a smoke test runs it
with 2 matches.
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from printing.pdfs import Labels, Scoresheet, SheetHeader, render_scoresheets
from printing.pdfs.base import clear_caches, draw_qr, new_canvas, page_size
from printing.pdfs.grid import draw_grid
from printing.pdfs.scoresheet import plan_pages

BUDGET = 1.5

# The hands of the shared example tournament-best-of-five (3–1, 17 hands, a shutout), so
# the benchmark needs nothing outside the project: the engine scores them once.
EXAMPLE_HANDS = [
    ("knock", "A", 1, 91), ("knock", "B", 1, 31), ("gin", "A", None, 80),
    ("knock", "A", 1, 71), ("knock", "B", 1, 89), ("draw", None, None, None),
    ("knock", "A", 1, 41), ("knock", "B", 1, 98), ("knock", "B", 1, 71),
    ("big_gin", "A", None, 98), ("knock", "A", 1, 98), ("knock", "A", 1, 36),
    ("knock", "B", 1, 21), ("knock", "A", 9, 18), ("knock", "A", 1, 97),
    ("knock", "A", 1, 98), ("knock", "A", 1, 61),
]  # fmt: skip

FIRST = ("Ana", "Bruno", "Carmen", "Diego", "Elena", "Fermín", "Gloria", "Héctor", "Inés")
LAST = ("García", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Muñoz", "Díaz")


def example_sheet() -> dict[str, Any]:
    from engine.contract import score_request

    hands = []
    for kind, by, deadwood, defender in EXAMPLE_HANDS:
        hand: dict[str, Any] = {"kind": kind}
        if by:
            hand["by"] = by
        if deadwood is not None:
            hand["deadwood"] = deadwood
        if defender is not None:
            hand["defender_deadwood"] = defender
        hands.append(hand)
    request = {"rules": "tournament", "first_dealer": "A", "hands": hands}
    return score_request(request).to_dict()


def make_pack(matches: int, *, filled: bool = True, qr: bool = True) -> list[Scoresheet]:
    sheet = example_sheet()
    out = []
    for i in range(matches):
        a = f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}"
        b = f"{FIRST[(i + 4) % len(FIRST)]} {LAST[(i + 3) % len(LAST)]}"
        header = SheetHeader(
            tournament="Copa de Otoño — Club de Gin Rummy",
            round_label="Round 1",
            match_label=f"Match {i + 1}",
            table=i + 1,
            player_a=a,
            player_b=b,
            rules_summary="Games to 250 · best of 5 · gin 25 · undercut 25 · box 25 · "
            "game 100 · shutout doubles",
            qr_url=f"https://club.example.org/table/tK{i:04d}x9QmZr2vLw8YbN3cPa/" if qr else None,
            page_size="A4",
        )
        out.append(Scoresheet(header, sheet["rules"], sheet if filled else None))
    return out


def draw_bare_grids(sheets: list[Scoresheet], labels: Labels) -> bytes:
    """Every page's grid (lines, fills, printed words) drawn directly, and nothing else."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, title="grids", size=page_size("A4", wide=True))
    for item in sheets:
        for page in plan_pages(item):
            canvas.setPageSize((page.geometry.width, page.geometry.height))
            draw_grid(canvas, page, item.rules, labels)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def median_times(jobs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median CPU seconds per job (other processes on a busy machine do not count).
    Repetitions take turns (pack, grids, pack, grids …) so whatever else slows the
    machine slows both sides alike; every run starts with cold caches."""
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(repeats):
        for name, job in jobs.items():
            clear_caches()
            start = time.process_time()
            job()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def qr_costs(count: int = 16) -> dict[str, float]:
    """Seconds per code: segno's matrix drawn as one path, and reportlab's QrCodeWidget."""
    from reportlab.graphics import renderPDF
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing

    urls = [f"https://club.example.org/table/qR{i:04d}x9QmZr2vLw8YbN3cPa/" for i in range(count)]

    def segno_path() -> None:
        canvas = Canvas(io.BytesIO())
        for url in urls:
            draw_qr(canvas, url, 100, 100, 72)

    def widget() -> None:
        canvas = Canvas(io.BytesIO())
        for url in urls:
            code = QrCodeWidget(url, barLevel="M")
            x0, y0, x1, y1 = code.getBounds()
            drawing = Drawing(72, 72, transform=[72 / (x1 - x0), 0, 0, 72 / (y1 - y0), 0, 0])
            drawing.add(code)
            renderPDF.draw(drawing, canvas, 100, 100)

    times = median_times({"segno_path": segno_path, "reportlab_widget": widget}, 1)
    return {name: seconds / count for name, seconds in times.items()}


def run(matches: int = 128, repeats: int = 7, *, qr_compare: bool = True) -> dict[str, Any]:
    labels = Labels()
    filled = make_pack(matches)
    bare = make_pack(matches, filled=False, qr=False)
    pages = len(render_scoresheets(filled[:1], labels=labels).split(b"/Type /Page\n")) - 1
    jobs: dict[str, Callable[[], object]] = {
        "pack_s": lambda: render_scoresheets(filled, labels=labels),
        "grids_s": lambda: render_scoresheets(bare, labels=labels, grid_as_form=False),
        "grid_lines_s": lambda: draw_bare_grids(bare, labels),
        "blank_pack_s": lambda: render_scoresheets(bare, labels=labels),
    }
    result: dict[str, Any] = {"matches": matches, "pages_per_sheet": pages}
    result |= median_times(jobs, repeats)
    result["ratio"] = result["pack_s"] / result["grids_s"]
    result["ratio_to_grid_lines"] = result["pack_s"] / result["grid_lines_s"]
    result["budget"] = BUDGET
    if qr_compare:
        result["qr_per_code_s"] = qr_costs()
    return result


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    matches = int(args[0]) if args else 128
    result = run(matches)
    print(f"round pack of {matches} filled best-of-five sheets, QR codes: {result['pack_s']:.3f} s")
    print(f"reportlab drawing the same {matches} grids, no data, no QR: {result['grids_s']:.3f} s")
    print(f"ratio {result['ratio']:.2f} (budget ≤ {BUDGET})")
    print(
        f"(grid lines and printed words alone: {result['grid_lines_s']:.3f} s, "
        f"ratio {result['ratio_to_grid_lines']:.2f}; "
        f"blank pack as rendered, no QR: {result['blank_pack_s']:.3f} s)"
    )
    qr = result["qr_per_code_s"]
    print(
        f"(one QR code: segno matrix as a path {qr['segno_path'] * 1000:.2f} ms, "
        f"reportlab QrCodeWidget {qr['reportlab_widget'] * 1000:.2f} ms)"
    )
    return 0 if result["ratio"] <= BUDGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
