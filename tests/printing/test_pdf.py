"""The PDF renderers, pure: plain data in, bytes out, read back with pypdf. No database."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
import segno
from pypdf import PdfReader
from pypdf.generic import ContentStream

from printing.pdfs import (
    BracketEntry,
    BracketMatch,
    BracketRound,
    BracketSection,
    BracketSheet,
    Labels,
    Scoresheet,
    SheetHeader,
    StandingsRow,
    StandingsSheet,
    render_bracket,
    render_scoresheets,
    render_standings,
)
from printing.pdfs.base import QR_ERROR, QR_MASK

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT.parent / "shared" / "examples" / "scoresheets"
needs_examples = pytest.mark.skipif(
    not EXAMPLES.is_dir(), reason="shared examples not present beside the project"
)

URL = "https://club.example.org/table/Zx8Kq2mP4vR7tY9wB3nL5hJ/"
RULES_SUMMARY = (
    "Games to 250 · best of 5 · gin 25 · undercut 25 · box 25 · game 100 · shutout doubles"
)
A4_WIDE = (842, 595)
LETTER_WIDE = (792, 612)


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.expected.json").read_text())


def preset_rules(**changes: Any) -> dict[str, Any]:
    rules = {
        "preset": "tournament",
        "game_target": 250,
        "box_bonus": 25,
        "format": "games",
        "games_to_win": 3,
        "hollywood_columns": 3,
    }
    return rules | changes


def make_header(**changes: Any) -> SheetHeader:
    values: dict[str, Any] = {
        "tournament": "Copa de Otoño 2025",
        "round_label": "Quarter-final",
        "match_label": "Match 5",
        "table": 7,
        "player_a": "María José Muñoz",
        "player_b": "Bruno Díaz",
        "rules_summary": RULES_SUMMARY,
        "qr_url": URL,
        "page_size": "A4",
    }
    return SheetHeader(**(values | changes))


def make_sheet(sheet: dict[str, Any] | None = None, *, rules: Any = None, **header: Any):
    rules = rules or (sheet["rules"] if sheet else preset_rules())
    return Scoresheet(make_header(**header), rules, sheet)


def words(pdf: bytes, page: int = 0) -> list[str]:
    """Every word shown on a page, in drawing order (the grid's form first)."""
    out: list[str] = []
    PdfReader(io.BytesIO(pdf)).pages[page].extract_text(
        visitor_text=lambda text, *_: out.extend(text.split())
    )
    return out


def page_count(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def line(pdf: bytes, page: int = 0) -> str:
    """The page's words, single-spaced, in drawing order."""
    return " ".join(words(pdf, page))


def has(text: str, phrase: str) -> bool:
    """``phrase`` (single-spaced) occurs in ``text`` as whole words."""
    return re.search(rf"(?<!\S){re.escape(' '.join(phrase.split()))}(?!\S)", text) is not None


def in_order(wanted: list[str], seen: list[str]) -> bool:
    """Whether the words of ``wanted`` all appear in ``seen``, in that order."""
    it = iter(seen)
    return all(any(word == s for s in it) for phrase in wanted for word in phrase.split())


def game_tokens(sheet: dict[str, Any], group: dict[str, Any], hollywood: bool) -> Iterator[str]:
    """What a grid shows, in order: each hand's points and running total, then the sums."""
    running = {"A": 0, "B": 0}
    for hand in sheet["hands"]:
        inside = (
            group["number"] in hand["columns"] if hollywood else hand["game"] == group["number"]
        )
        if inside and hand["winner"]:
            running[hand["winner"]] += hand["points"]
            yield str(hand["points"])
            yield str(running[hand["winner"]])
    for side in "AB":
        yield str(group["points"][side])
        yield str(group["boxes"][side])
        yield str(group["box_points"][side])
        yield str(group["total"][side])


# --- scoresheets -----------------------------------------------------------------------


@needs_examples
def test_filled_best_of_five_fits_one_page_with_every_hand_and_total():
    sheet = example("tournament-best-of-five")
    pdf = render_scoresheets([make_sheet(sheet)])

    assert page_count(pdf) == 1
    seen, text = words(pdf), line(pdf)
    for expected in ("Copa de Otoño 2025", "Quarter-final · Match 5", RULES_SUMMARY, URL):
        assert has(text, expected)
    assert "7" in seen  # the table number
    assert has(text, "María José Muñoz vs Bruno Díaz")
    assert re.findall(r"Game \d", text) == [f"Game {n}" for n in range(1, 6)]
    assert has(text, "not played")  # game 5: the match ended 3–1
    for game in sheet["games"]:
        assert in_order(list(game_tokens(sheet, game, False)), seen), game["number"]
        winner = "María José Muñoz" if game["winner"] == "A" else "Bruno Díaz"
        assert has(text, f"{winner} ({game['margin']:+d})")
    assert "261" in seen  # game 3's shutout bonus
    assert {"gin", "big", "draw"} <= set(seen)
    assert in_order(["Games won", "3", "1", "1664", "530", "María José Muñoz"], seen)


@needs_examples
def test_filled_hollywood_sheet_has_the_three_columns():
    sheet = example("hollywood-shutout-column")
    pdf = render_scoresheets([make_sheet(sheet, rules_summary="Hollywood · 3 columns to 100")])

    assert page_count(pdf) == 1
    seen, text = words(pdf), line(pdf)
    assert re.findall(r"Column \d", text) == ["Column 1", "Column 2", "Column 3"]
    assert has(text, "Hollywood · 3 columns to 100")
    for column in sheet["columns"]:
        assert in_order(list(game_tokens(sheet, column, True)), seen), column["number"]
    assert in_order(["Columns won", "2", "1", "785", "375", "María José Muñoz"], seen)


def test_blank_best_of_five_has_five_empty_grids():
    pdf = render_scoresheets([make_sheet(None, table=12)])

    assert page_count(pdf) == 1
    seen, text = words(pdf), line(pdf)
    assert re.findall(r"Game \d", text) == [f"Game {n}" for n in range(1, 6)]
    assert seen.count("Points") == 10
    # the header, every grid, the result strip and the signature line
    assert text.count("María José Muñoz") == 1 + 5 + 1 + 1
    assert "12" in seen
    assert has(text, "Signature · María José Muñoz")
    assert has(text, "Signature · Bruno Díaz")
    assert has(text, "Box points ×25")
    assert not has(text, "not played")


def test_blank_hollywood_sheet_is_laid_out_in_columns():
    rules = preset_rules(preset="hollywood", format="hollywood", game_target=100)
    pdf = render_scoresheets([make_sheet(None, rules=rules)])

    text = line(pdf)
    assert re.findall(r"Column \d", text) == ["Column 1", "Column 2", "Column 3"]
    assert not re.search(r"Game \d", text)


def test_single_game_sheet_is_portrait():
    pdf = render_scoresheets([make_sheet(None, rules=preset_rules(games_to_win=1))])

    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (595, 842)


def test_best_of_seven_continues_on_a_second_page():
    pdf = render_scoresheets([make_sheet(None, rules=preset_rules(games_to_win=4))])

    assert page_count(pdf) == 2
    first, second = line(pdf, 0), line(pdf, 1)
    assert has(first, "Page 1 of 2") and has(second, "Page 2 of 2")
    assert re.findall(r"Game \d", first) == ["Game 1", "Game 2", "Game 3", "Game 4"]
    assert re.findall(r"Game \d", second) == ["Game 5", "Game 6", "Game 7"]
    assert not has(first, "Match result")
    assert has(second, "Match result")


def long_game(hands: int) -> dict[str, Any]:
    """A finished one-game match of ``hands`` hands: draws, then a 26-point knock each."""
    rows, a_points = [], 0
    for number in range(1, hands + 1):
        won = number > hands - 4
        a_points += 26 if won else 0
        rows.append(
            {
                "number": number,
                "game": 1,
                "kind": "knock" if won else "draw",
                "by": "A" if won else None,
                "result": "knock" if won else "draw",
                "winner": "A" if won else None,
                "points": 26 if won else 0,
                "multiplier": 1,
                "boxes": 1 if won else 0,
            }
        )
    game = {
        "number": 1,
        "complete": True,
        "winner": "A",
        "hands": list(range(1, hands + 1)),
        "points": {"A": a_points, "B": 0},
        "hands_won": {"A": 4, "B": 0},
        "boxes": {"A": 4, "B": 0},
        "box_points": {"A": 100, "B": 0},
        "game_bonus": {"A": 100, "B": 0},
        "shutout": True,
        "shutout_bonus": {"A": a_points, "B": 0},
        "total": {"A": 2 * a_points + 200, "B": 0},
        "margin": 2 * a_points + 200,
    }
    match = {
        "format": "games",
        "games_to_win": 1,
        "games_won": {"A": 1, "B": 0},
        "complete": True,
        "winner": "A",
        "total": {"A": 2 * a_points + 200, "B": 0},
    }
    rules = preset_rules(games_to_win=1, game_target=100)
    return {"rules": rules, "hands": rows, "games": [game], "match": match}


def test_more_hands_than_rows_continue_on_a_second_page():
    sheet = long_game(60)
    pdf = render_scoresheets([make_sheet(sheet)])

    assert page_count(pdf) == 2
    first, second = words(pdf, 0), words(pdf, 1)
    assert has(" ".join(first), "continued on the next page")
    assert has(" ".join(second), "Page 2 of 2")
    assert in_order(["57", "58", "59", "60"], second)  # the hand numbers carry on
    assert in_order(["26", "26", "26", "52", "26", "78", "26", "104"], second)
    assert in_order(["104", "4", "100", "100", "104", "408"], second)
    assert "408" not in first


def test_round_pack_is_one_page_per_sheet_in_the_given_order():
    players = [("Ana", "Bruno"), ("Carmen", "Diego"), ("Elena", "Fermín"), ("Gloria", "Héctor")]
    sheets = [
        make_sheet(None, table=table, player_a=a, player_b=b, qr_url=f"{URL}{table}/")
        for table, (a, b) in enumerate(players, start=1)
    ]
    pdf = render_scoresheets(sheets)

    assert page_count(pdf) == 4
    for index, (a, b) in enumerate(players):
        seen = words(pdf, index)
        assert has(" ".join(seen), f"{a} vs {b}")
        assert str(index + 1) in seen
        assert f"{URL}{index + 1}/" in seen


@needs_examples
def test_round_pack_mixes_filled_and_blank_sheets():
    sheet = example("tournament-best-of-five")
    pdf = render_scoresheets([make_sheet(sheet), make_sheet(None, table=8)])

    assert page_count(pdf) == 2
    assert "1664" in words(pdf, 0)
    assert "1664" not in words(pdf, 1)


@pytest.mark.parametrize(
    ("size", "expected"), [("A4", A4_WIDE), ("LETTER", LETTER_WIDE), ("letter", LETTER_WIDE)]
)
def test_page_size_is_respected(size, expected):
    pdf = render_scoresheets([make_sheet(None, page_size=size)])

    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == expected


def test_unknown_page_size_is_refused():
    with pytest.raises(ValueError, match="A4 or LETTER"):
        render_scoresheets([make_sheet(None, page_size="A3")])


def test_an_empty_pack_is_refused():
    with pytest.raises(ValueError):
        render_scoresheets([])


def drawn_qr_codes(pdf: bytes, page: int = 0) -> list[set[tuple[int, int]]]:
    """The dark modules of every QR code on a page, as (column, row-from-bottom) cells.

    A code is drawn as ``q … m 0 0 m x y cm`` followed by ``re`` rectangles in modules.
    """
    reader = PdfReader(io.BytesIO(pdf))
    stream = ContentStream(reader.pages[page].get_contents(), reader)
    codes: list[set[tuple[int, int]]] = []
    current: set[tuple[int, int]] | None = None
    for operands, operator in stream.operations:
        if operator == b"cm":
            a, b, c, d = (float(v) for v in operands[:4])
            current = set() if (a == d and b == c == 0 and a < 5) else None
        elif operator == b"re" and current is not None:
            x, y, w, h = (int(float(v)) for v in operands)
            current.update((x + i, y + j) for i in range(w) for j in range(h))
        elif operator == b"f" and current is not None:
            codes.append(current)
            current = None
    return codes


def test_qr_code_is_segnos_matrix_for_the_table_link_with_the_url_beneath():
    pdf = render_scoresheets([make_sheet(None)])

    codes = drawn_qr_codes(pdf)
    assert len(codes) == 1
    matrix = segno.make(URL, error=QR_ERROR, mask=QR_MASK, micro=False).matrix
    side = len(matrix)
    expected = {
        (x, side - 1 - y) for y, row in enumerate(matrix) for x, dark in enumerate(row) if dark
    }
    assert codes[0] == expected
    other = segno.make(URL + "x", error=QR_ERROR, mask=QR_MASK, micro=False).matrix
    assert codes[0] != {
        (x, side - 1 - y) for y, row in enumerate(other) for x, v in enumerate(row) if v
    }
    assert URL in words(pdf)


def test_no_qr_code_without_a_table_link():
    pdf = render_scoresheets([make_sheet(None, qr_url=None)])

    assert drawn_qr_codes(pdf) == []
    assert not has(line(pdf), "Scan to enter hands")


SPANISH = Labels(
    table="Mesa",
    versus="contra",
    page="Página {page} de {pages}",
    scan_hint="Escanee para anotar manos",
    match_result="Resultado",
    games_won="Partidas ganadas",
    columns_won="Columnas ganadas",
    match_total="Total del encuentro",
    signature="Firma",
    in_progress="en juego",
    game="Partida {n}",
    column="Columna {n}",
    hand="Mano",
    points="Puntos",
    total="Suma",
    hand_points="Puntos de mano",
    boxes="Cajas",
    box_points="Puntos de caja",
    game_bonus="Bono de partida",
    shutout="Blanqueo",
    game_total="Total de partida",
    winner="Ganador",
    not_played="no jugada",
    continued="sigue en la página siguiente",
    gin="gin",
    big_gin="gin grande",
    undercut="contragolpe",
    draw="nula",
    tie="empate",
    round_robin_results="Resultados",
    place="Puesto",
    player="Jugador",
)


@needs_examples
def test_every_word_comes_from_the_labels():
    sheet = example("tournament-best-of-five")
    summary = "Partidas a 250 · al mejor de 5"
    header = {"rules_summary": summary, "match_label": "Encuentro 5"}
    pdf = render_scoresheets([make_sheet(sheet, **header)], labels=SPANISH)

    text = line(pdf)
    for phrase in ("Partida 1", "Mesa", "Firma · Bruno Díaz", "no jugada", "Total de partida"):
        assert has(text, phrase)
    english = {
        word for value in asdict(Labels()).values() for word in re.findall(r"[^\W\d_]+", value)
    }
    english -= {"gin", "Total", "n", "page", "pages"}  # Spanish too, or placeholders
    assert not english & set(re.findall(r"[^\W\d_]+", text))


def test_long_names_are_shrunk_or_cut_never_spilled():
    name = "Maximiliano Bartolomé de la Santísima Trinidad Fernández-Villaverde y Ortega"
    pdf = render_scoresheets([make_sheet(None, player_a=name)])

    assert has(line(pdf), f"{name} vs Bruno Díaz")  # the header has room for it
    assert re.search(r"Maximiliano [^…]*…", line(pdf))  # a grid's name cell does not


# --- bracket and standings -------------------------------------------------------------


def seeded_order(size: int) -> list[int]:
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, mirror - s)]
    return order


def make_elimination(players: int, *, played: int = 1) -> BracketSection:
    """A seeded bracket whose first ``played`` rounds are won 3–1 by the better seed."""
    entries = [BracketEntry(f"Player {seed}", seed=seed) for seed in seeded_order(players)]
    rounds, number = [], 1
    while len(entries) > 1:
        matches, advancing = [], []
        for a, b in zip(entries[::2], entries[1::2], strict=True):
            if len(rounds) < played:
                a, b = BracketEntry(a.name, a.seed, "3"), BracketEntry(b.name, b.seed, "1")
                matches.append(BracketMatch(a, b, f"M{number}", table=number, winner="A"))
                advancing.append(BracketEntry(a.name, a.seed))
            else:
                matches.append(BracketMatch(a, b, f"M{number}"))
                advancing.append(BracketEntry(f"Winner of M{number}", placeholder=True))
            number += 1
        rounds.append(BracketRound(f"Round {len(rounds) + 1}", tuple(matches)))
        entries = advancing
    return BracketSection("Main bracket", tuple(rounds))


def test_bracket_of_32_fits_one_landscape_page():
    third = BracketSection(
        "Third place",
        (
            BracketRound(
                "Third place",
                (
                    BracketMatch(
                        BracketEntry("Loser of M29", placeholder=True),
                        BracketEntry("Loser of M30", placeholder=True),
                        "M32",
                    ),
                ),
            ),
        ),
        under_previous=True,
    )
    data = BracketSheet("Copa de Otoño 2025", (make_elimination(32, played=2), third), "Valencia")
    pdf = render_bracket(data)

    assert page_count(pdf) == 1
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == A4_WIDE
    seen, text = words(pdf), line(pdf)
    for seed in range(1, 33):
        assert has(text, f"Player {seed}")
    for label in ("Round 1", "Round 5", "Third place", "Copa de Otoño 2025", "Valencia"):
        assert has(text, label)
    assert seen.count("3") >= 16 + 8
    assert has(text, "Winner of M29")
    assert has(text, "M1 · Table 1")


def test_big_bracket_is_split_over_pages_without_losing_a_match():
    data = BracketSheet("Big Open", (make_elimination(128),), page_size="LETTER")
    pdf = render_bracket(data)

    pages = page_count(pdf)
    assert pages > 1
    text = " ".join(line(pdf, page) for page in range(pages))
    for number in range(1, 128):
        assert has(text, f"M{number}")
    for seed in range(1, 129):
        assert has(text, f"Player {seed}")
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == LETTER_WIDE


def test_round_robin_shows_a_cross_table_and_the_results():
    def match(a: str, b: str, sa: int | None, sb: int | None, table: int) -> BracketMatch:
        winner = None if sa is None or sb is None else ("A" if sa > sb else "B")
        return BracketMatch(
            BracketEntry(a, score=None if sa is None else str(sa)),
            BracketEntry(b, score=None if sb is None else str(sb)),
            table=table,
            winner=winner,
        )

    rounds = (
        BracketRound(
            "Round 1", (match("Ana", "Bruno", 3, 1, 1), match("Carmen", "Diego", 0, 3, 2))
        ),
        BracketRound("Round 2", (match("Ana", "Carmen", None, None, 1),)),
    )
    data = BracketSheet("League night", (BracketSection("Round robin", rounds, round_robin=True),))
    pdf = render_bracket(data)

    seen, text = words(pdf), line(pdf)
    assert has(text, "1. Ana") and has(text, "4. Diego")
    assert seen.count("3–1") == 2  # Ana's row in the grid, and the results list
    assert "1–3" in seen  # Bruno's row
    assert "0–3" in seen and "3–0" in seen
    assert has(text, "Round 2") and has(text, "Results")


def test_standings_table_repeats_its_heading_on_every_page():
    rows = tuple(
        StandingsRow(str(place), f"Player {place}", (f"{9 - place % 9}–{place % 9}", f"{place:+d}"))
        for place in range(1, 81)
    )
    data = StandingsSheet("Copa", "Standings", ("Matches", "Margin"), rows, notes=("Ties: margin",))
    pdf = render_standings(data)

    pages = page_count(pdf)
    assert pages >= 2
    texts = [line(pdf, page) for page in range(pages)]
    for text in texts:
        assert has(text, "Place Player Matches Margin")
    for place in range(1, 81):
        assert has(" ".join(texts), f"Player {place}")
    assert has(texts[-1], "Ties: margin")
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (595, 842)


# --- the package stays pure, the benchmark runs ----------------------------------------


def test_renderers_import_no_django():
    code = "import sys, printing.pdfs; sys.exit(any(m.startswith('django') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0


def test_benchmark_runs_on_two_matches():
    from tools.bench import pdf_bench

    result = pdf_bench.run(matches=2, repeats=1, qr_compare=False)

    assert result["matches"] == 2
    assert result["pages_per_sheet"] == 1
    for key in ("pack_s", "grids_s", "grid_lines_s", "blank_pack_s", "ratio"):
        assert isinstance(result[key], float) and result[key] > 0


SHARED = sorted(
    p.name.removesuffix(".expected.json")
    for p in EXAMPLES.glob("*.expected.json")
    if "error" not in json.loads(p.read_text())
)


@needs_examples
@pytest.mark.parametrize("name", SHARED)
def test_every_shared_example_prints_on_one_page_with_its_numbers(name):
    sheet = example(name)
    hollywood = sheet["rules"]["format"] == "hollywood"
    pdf = render_scoresheets([make_sheet(sheet)])

    assert page_count(pdf) == 1
    seen = words(pdf)
    for group in sheet["columns" if hollywood else "games"]:
        assert in_order(list(game_tokens(sheet, group, hollywood)), seen), group["number"]
    assert in_order([str(sheet["match"]["total"]["A"]), str(sheet["match"]["total"]["B"])], seen)


def test_bracket_and_standings_words_come_from_the_labels():
    unplayed = BracketMatch(BracketEntry("Ana"), BracketEntry("Bruno"), "M1", table=3)
    rounds = (BracketRound("Ronda 1", (unplayed,)),)
    bracket = BracketSheet(
        "Liga", (BracketSection("Todos contra todos", rounds, round_robin=True),)
    )
    standings = StandingsSheet(
        "Liga", "Clasificación", ("Partidas",), (StandingsRow("1", "Ana", ("3–0",)),)
    )

    bracket_text = line(render_bracket(bracket, labels=SPANISH))
    standings_text = line(render_standings(standings, labels=SPANISH))

    assert has(bracket_text, "Resultados") and has(bracket_text, "Mesa")
    assert has(bracket_text, "Ana contra Bruno")
    assert has(standings_text, "Puesto Jugador Partidas")
    assert not {"Results", "Table", "vs", "Place", "Player"} & set(
        (bracket_text + standings_text).split()
    )


@pytest.mark.parametrize("draw_word", ["draw", "nul (dode hand)"], ids=["english", "long"])
def test_a_dead_hands_word_keeps_within_its_column(draw_word):
    """A dead hand's word sat centred on the game's middle rule, half in each player's
    column (issue 28 item 8): it fits each column, clear of every rule of the grid."""
    from printing.pdfs.base import ITALIC, width
    from printing.pdfs.grid import plan_pages

    item = make_sheet(long_game(6))
    geometry = plan_pages(item.header.page_size, item.rules, {1: 6})[0].geometry
    rules = sorted(
        {geometry.group_x(slot) for slot in range(geometry.slots + 1)}
        | {geometry.sub_x(slot, sub) for slot in range(geometry.slots) for sub in range(4)}
    )
    pdf = render_scoresheets([item], labels=Labels(draw=draw_word))
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    placed: list[tuple[float, float]] = []
    x = y = size = 0.0
    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        if operator == b"BT":
            x = y = 0.0
        elif operator == b"Tf":
            size = float(operands[1])
        elif operator == b"Td":
            x, y = x + float(operands[0]), y + float(operands[1])
        elif operator == b"Tm":
            x, y = float(operands[4]), float(operands[5])
        elif operator == b"Tj":
            shown = operands[0]
            text = shown.decode("latin-1") if isinstance(shown, bytes) else str(shown)
            if text and text in draw_word:
                placed.append((x, x + width(text, ITALIC, size)))
    assert placed, "the word is printed"
    for left, right in placed:
        assert not any(left - 0.5 < rule < right + 0.5 for rule in rules), (left, right, rules)
