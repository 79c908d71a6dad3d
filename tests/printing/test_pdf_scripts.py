"""Names in every script a club registers print on all five PDFs, as real text, in the
shipped font that has them (Liberation Sans for Latin, Greek, Cyrillic and Hebrew: one
font and size for every name in a column); right-to-left names in the order a reader
sees them.

Read back with pypdf: its layout mode gives a page's text as it stands on the page, left
to right (the visual order the renderer wrote), and its text visitor gives the font each
string was drawn with. No database: ``test_pdf_views`` prints registered players' names
through the site.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

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
    isolate,
    render_bracket,
    render_scoresheets,
    render_standings,
)
from printing.pdfs.base import BOLD, ITALIC, REGULAR, fit, width
from printing.pdfs.fonts import FONT_DIR, layout
from tools.bench.pdf_bench import example_sheet

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

# script: (player A, player B, the font family that prints them)
SCRIPTS = {
    "polish": ("Zażółć Gęślą Jaźń", "Łukasz Śliwiński", "LiberationSans"),
    "vietnamese": ("Nguyễn Thị Minh Khai", "Trần Hưng Đạo", "LiberationSans"),
    "greek": ("Γιώργος Παπαδόπουλος", "Ελένη Οικονόμου", "LiberationSans"),
    "cyrillic": ("Дмитрий Шостакович", "Анна Ахматова", "LiberationSans"),
    "chinese": ("王小明", "欧阳娜娜", "DroidSansFallback"),
    "japanese": ("佐藤ゆき", "タナカ ケン", "DroidSansFallback"),
    "korean": ("김민준", "이서연", "DroidSansFallback"),
    "arabic": ("محمد عبد الله", "فاطمة الزهراء", "NotoSansArabic"),
    "hebrew": ("דוד כהן", "שרה לוי", "LiberationSans"),
}
RIGHT_TO_LEFT = {"arabic", "hebrew"}
# What a reader sees of محمد عبد الله, left to right: الله, عبد and محمد, each letter in its
# joined form (final heh, medial and initial lam, alef; final dal, medial beh, initial ain;
# final dal, medial meem, medial hah, initial meem). Isolated letters would be unreadable.
MUHAMMAD_SEEN = "\ufeea\ufee0\ufedf\ufe8d \ufeaa\ufe92\ufecb \ufeaa\ufee4\ufea4\ufee3"
TOFU = {"ZapfDingbats", "Symbol"}


# --- the five PDFs ---------------------------------------------------------------------


def header(a: str, b: str, table: int = 7) -> SheetHeader:
    return SheetHeader(
        tournament="Copa de Otoño 2025",
        round_label="Quarter-final",
        match_label=f"Match {table}",
        table=table,
        player_a=a,
        player_b=b,
        rules_summary="Games to 250 · best of 5",
        qr_url=f"https://club.example.org/table/t{table}/",
    )


def blank(a: str, b: str) -> bytes:
    return render_scoresheets([Scoresheet(header(a, b), example_sheet()["rules"])])


def filled(a: str, b: str) -> bytes:
    sheet = example_sheet()
    return render_scoresheets([Scoresheet(header(a, b), sheet["rules"], sheet)])


def round_pack(a: str, b: str) -> bytes:
    sheet = example_sheet()
    return render_scoresheets(
        [
            Scoresheet(header(a, b, 1), sheet["rules"], sheet),
            Scoresheet(header(b, a, 2), sheet["rules"]),
        ]
    )


def bracket(a: str, b: str) -> bytes:
    final = BracketMatch(
        BracketEntry(a, 1, "3"), BracketEntry(b, 2, "1"), "M1", table=1, winner="A"
    )
    tree = BracketSection("Main bracket", (BracketRound("Final", (final,)),))
    played = BracketMatch(BracketEntry(b, score="3"), BracketEntry(a, score="0"), winner="A")
    league = BracketSection("Round robin", (BracketRound("Round 1", (played,)),), round_robin=True)
    return render_bracket(BracketSheet("Copa de Otoño 2025", (tree, league), "Valencia"))


def standings(a: str, b: str) -> bytes:
    rows = (StandingsRow("1", a, ("3–0", "+120")), StandingsRow("2", b, ("0–3", "-120")))
    return render_standings(StandingsSheet("Copa", "Standings", ("Matches", "±"), rows))


KINDS: dict[str, Callable[[str, str], bytes]] = {
    "blank": blank,
    "filled": filled,
    "round_pack": round_pack,
    "bracket": bracket,
    "standings": standings,
}


# --- reading them back -----------------------------------------------------------------


def seen(pdf: bytes) -> str:
    """The text of every page as a reader sees it, left to right, single-spaced."""
    pages = PdfReader(io.BytesIO(pdf)).pages
    return " ".join(" ".join(p.extract_text(extraction_mode="layout").split()) for p in pages)


MIRRORED = str.maketrans("()[]", ")(][")


def read_right_to_left(text: str) -> str:
    """``text`` read from its right end, as a reader of Arabic or Hebrew does: Arabic's
    joined letter forms as the letters they are, a bracket as the one it looks like from
    that side."""
    return unicodedata.normalize("NFKC", text[::-1]).translate(MIRRORED)


def shows(pdf: bytes, name: str, script: str) -> bool:
    text = seen(pdf)
    name = unicodedata.normalize("NFKC", name)
    return name in (read_right_to_left(text) if script in RIGHT_TO_LEFT else text)


def drawn(pdf: bytes) -> list[tuple[str, str]]:
    """(text, font) of every string drawn on the pages; pypdf puts right-to-left text
    back in logical order here, and joins neighbouring strings in one font. The font is
    its base name without a subset tag."""
    return [(text, font) for text, font, _size in sized(pdf)]


def sized(pdf: bytes) -> list[tuple[str, str, float]]:
    """(text, font, size in points) of every string drawn on the pages."""
    out: list[tuple[str, str, float]] = []

    def visit(text: str, _cm: Any, _tm: Any, font: Any, size: Any) -> None:
        if text.strip() and font is not None:
            base = str(font.get("/BaseFont", "")).lstrip("/").split("+")[-1]
            out.append((unicodedata.normalize("NFKC", text).strip(), base, float(size)))

    for page in PdfReader(io.BytesIO(pdf)).pages:
        page.extract_text(visitor_text=visit)
    return out


def fonts_of(pdf: bytes, name: str) -> set[str]:
    """The fonts the strings of ``name`` (or the strings holding it) were drawn in."""
    return {font for text, font in drawn(pdf) if text and (text in name or name in text)}


def embedded(pdf: bytes) -> set[str]:
    """Every font of the document, base names without subset tags."""
    fonts = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for ref in page["/Resources"]["/Font"].values():
            fonts.add(str(ref.get_object()["/BaseFont"]).lstrip("/").split("+")[-1])
    return fonts


def truetype(pdf: bytes) -> set[str]:
    """The fonts besides Liberation Sans, the one every PDF's own words are set in."""
    return {f for f in embedded(pdf) if not f.startswith("LiberationSans")}


# --- every script on every PDF ---------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("script", SCRIPTS)
def test_names_print_as_text_in_the_font_that_has_them(kind, script):
    a, b, family = SCRIPTS[script]

    pdf = KINDS[kind](a, b)

    for name in (a, b):
        assert shows(pdf, name, script), (kind, name, seen(pdf))
        fonts = fonts_of(pdf, name)
        assert fonts and all(f.startswith(family) for f in fonts), (name, fonts)
    assert {f for f in embedded(pdf) if not f.startswith("LiberationSans")} <= {
        f for f in embedded(pdf) if f.startswith(family)
    }
    assert not TOFU & embedded(pdf)


@pytest.mark.parametrize("kind", KINDS)
def test_right_to_left_names_are_written_as_a_reader_sees_them(kind):
    pdf = KINDS[kind]("محمد عبد الله", "דוד כהן")

    text = seen(pdf)
    assert MUHAMMAD_SEEN in text
    assert "ןהכ דוד" in text
    assert "محمد" not in text  # never in logical order, unjoined


def test_a_right_to_left_name_keeps_its_place_among_the_renderers_words():
    a, b = "محمد عبد الله", "דוד כהן"

    sheet, grid = seen(filled(a, b)), seen(bracket(a, b))

    assert f"{MUHAMMAD_SEEN} vs ןהכ דוד" in sheet  # A, then B, as for any name
    assert f"{MUHAMMAD_SEEN} (+385)" in sheet  # game 1's winner, then the margin
    assert f"Signature · {MUHAMMAD_SEEN}" in sheet
    assert "1. ןהכ דוד" in grid and f"2. {MUHAMMAD_SEEN}" in grid  # the cross-table
    assert layout(f"{isolate(a)} (3)", REGULAR).runs[-1].text == " (3)"  # the standings


COLUMN = (
    "Ana Ruiz",
    "Łukasz Śliwiński",
    "Nguyễn Văn Đức",
    "Дмитрий Шостакович",
    "Γιώργος Παπαδόπουλος",
    "Paweł Kowalczyk",
    "Tomasz Nowak",
)


def test_every_name_in_a_column_is_one_font_and_one_size():
    """ł, ć, ễ or Cyrillic once printed in DejaVu Sans among Helvetica neighbours: a
    different, larger-looking face in the same column (issue 41)."""
    rows = tuple(StandingsRow(str(i + 1), n, ("1–0",)) for i, n in enumerate(COLUMN))

    pdf = render_standings(StandingsSheet("Copa", "Standings", ("Matches",), rows))

    drawn_names = {}
    for text, font, size in sized(pdf):
        for name in COLUMN:
            if name in text:
                drawn_names.setdefault(name, set()).add((font, size))
    assert drawn_names == {name: {("LiberationSans", 9.5)} for name in COLUMN}


@pytest.mark.parametrize("kind", KINDS)
def test_a_polish_vietnamese_or_cyrillic_name_prints_as_its_latin_neighbour(kind):
    latin, others = "Tomasz Nowak", ("Zażółć Gęślą Jaźń", "Nguyễn Thị Minh Khai", "Анна Ахматова")
    for other in others:
        pdf = KINDS[kind](latin, other)

        assert fonts_of(pdf, latin) == fonts_of(pdf, other), (kind, other)


def test_the_words_around_a_name_are_the_same_font():
    pdf = blank("Zażółć Gęślą Jaźń", "王小明")

    strings = drawn(pdf)
    assert ("Zażółć Gęślą Jaźń  vs", "LiberationSans-Bold") in strings  # the header
    assert ("王小明", "DroidSansFallback") in strings  # CJK in its own font, as before
    assert {font for text, font in strings if "Signature" in text} == {"LiberationSans"}


def test_western_names_embed_one_family():
    """One design on the page: Liberation Sans (subsets of it), no built-in Helvetica."""
    pdf = round_pack("María José Muñoz", "François Œuvray")

    assert embedded(pdf) == {"LiberationSans", "LiberationSans-Bold"}
    assert shows(pdf, "François Œuvray", "spanish")


def test_accents_typed_as_combining_marks_print_as_the_accented_letters():
    decomposed = unicodedata.normalize("NFD", "José Muñoz")
    vietnamese = unicodedata.normalize("NFD", "Nguyễn Văn Đức")

    pdf = standings(decomposed, vietnamese)

    assert shows(pdf, "José Muñoz", "spanish") and shows(pdf, "Nguyễn Văn Đức", "vietnamese")
    assert dict(drawn(pdf))["José Muñoz"] == "LiberationSans"


def test_hebrew_points_persian_letters_and_brackets_in_right_to_left_names():
    pointed, persian = "שָׁלוֹם בֶּן־דָּוִד", "نسرین (سارا) احمدی"

    pdf = standings(pointed, persian)

    assert shows(pdf, pointed, "hebrew")  # each point just left of its letter, as drawn
    assert shows(pdf, persian, "arabic")
    assert "(\ufe8d\ufead\ufe8e\ufeb3)" in seen(pdf)  # سارا between its brackets


def test_emoji_print_when_a_font_has_them_and_a_replacement_otherwise():
    pdf = standings("Ana 😀 Ruiz", "Tom 👍🏽 Lee สมชาย")

    text = seen(pdf)
    assert "Ana 😀 Ruiz" in text  # DejaVu Sans has the emoticons
    # No shipped font has 👍 (its skin tone is dropped with it) or Thai: one U+FFFD each.
    assert "Tom \ufffd Lee \ufffd" in text
    assert not TOFU & embedded(pdf)


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("font", [REGULAR, BOLD, ITALIC])
def test_long_names_in_any_script_are_cut_to_their_box(script, font):
    name = " ".join(SCRIPTS[script][:2] * 3)

    text, size = fit(name, font, 7.5, 60, smallest=5)

    assert size == 5 and text.endswith("…")
    assert width(text, font, size) <= 60


def test_fallback_bold_and_italic_without_their_own_face():
    bold_cjk = render_bracket(
        BracketSheet(
            "Copa",
            (
                BracketSection(
                    "Main bracket",
                    (
                        BracketRound(
                            "Final",
                            (
                                BracketMatch(
                                    BracketEntry("王小明", 1, "3"),
                                    BracketEntry("Zwycięzca M3", placeholder=True),
                                    "M4",
                                    winner="A",
                                ),
                            ),
                        ),
                    ),
                ),
            ),
        )
    )
    content = b"".join(p.get_contents().get_data() for p in PdfReader(io.BytesIO(bold_cjk)).pages)

    assert b"2 Tr" in content  # the winner's CJK name stroked: Droid Sans has no bold
    assert b"1 0 .2126 1 " in content or b"1 0 0.2126 1 " in content  # the italic sheared
    assert {"DroidSansFallback", "LiberationSans"} <= embedded(bold_cjk)


def test_labels_in_another_script_print_too():
    labels = Labels(signature="Podpis", in_progress="w trakcie", place="Miejsce", player="Gracz")
    pdf = render_standings(
        StandingsSheet(
            "Turniej", "Klasyfikacja końcowa", ("Mecze",), (StandingsRow("1", "Łucja", ("3–0",)),)
        ),
        labels=labels,
    )

    assert shows(pdf, "Klasyfikacja końcowa", "polish") and shows(pdf, "Łucja", "polish")


def test_the_fonts_ship_with_their_licences_in_a_few_megabytes():
    files = sorted(FONT_DIR.glob("*.ttf"))

    assert {f.name for f in files} == {
        "LiberationSans-Regular.ttf",
        "LiberationSans-Bold.ttf",
        "DejaVuSans.ttf",
        "DejaVuSans-Bold.ttf",
        "DroidSansFallback.ttf",
        "NotoSansArabic-Regular.ttf",
        "NotoSansArabic-Bold.ttf",
    }
    assert sum(f.stat().st_size for f in files) < 6_500_000
    for licence in (
        "LICENSE-Liberation.txt",
        "LICENSE-DejaVu.txt",
        "LICENSE-Noto-OFL.txt",
        "LICENSE-DroidSansFallback.txt",
    ):
        assert (FONT_DIR / licence).stat().st_size > 1000


def every_script(kind: str) -> bytes:
    """One PDF of ``kind`` with names in every script: five sheets, or one bracket (a tree
    and a round robin), or one standings table."""
    pairs = [(a, b) for a, b, _family in SCRIPTS.values()]
    sheet = example_sheet()
    if kind in ("blank", "filled", "round_pack"):
        # Two scripts a sheet, so five sheets show all nine.
        mixed = [(pairs[i][0], pairs[(i + 1) % len(pairs)][1]) for i in range(0, len(pairs), 2)]
        played = {"blank": [None], "filled": [sheet], "round_pack": [sheet, None]}[kind]
        return render_scoresheets(
            [
                Scoresheet(header(a, b, i + 1), sheet["rules"], played[i % len(played)])
                for i, (a, b) in enumerate(mixed)
            ]
        )
    names = [name for pair in pairs for name in pair]
    if kind == "standings":
        rows = tuple(
            StandingsRow(str(i + 1), n, (f"{i}–1", f"{i:+d}")) for i, n in enumerate(names)
        )
        return render_standings(StandingsSheet("Copa", "Standings", ("Matches", "±"), rows))
    first = tuple(
        BracketMatch(BracketEntry(a, 2 * i + 1, "3"), BracketEntry(b, 2 * i + 2, "1"), winner="A")
        for i, (a, b) in enumerate(pairs[:8])
    )
    rounds = [BracketRound("Round 1", first)]
    while len(rounds[-1].matches) > 1:
        previous = rounds[-1].matches
        rounds.append(
            BracketRound(
                f"Round {len(rounds) + 1}",
                tuple(
                    BracketMatch(BracketEntry(m.a.name, m.a.seed), BracketEntry(n.a.name, n.a.seed))
                    for m, n in zip(previous[::2], previous[1::2], strict=True)
                ),
            )
        )
    league = tuple(
        BracketMatch(BracketEntry(a, score="3"), BracketEntry(b, score="2"), winner="A")
        for a, b in pairs[5:]
    )
    sections = (
        BracketSection("Main bracket", tuple(rounds)),
        BracketSection("Round robin", (BracketRound("Round 1", league),), round_robin=True),
    )
    return render_bracket(BracketSheet("Copa de Otoño 2025", sections, "Valencia"))


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
@pytest.mark.parametrize("kind", KINDS)
def test_every_script_renders_to_pixels_without_a_font_error(kind):
    """Poppler draws every page; the PNGs stay in test-artifacts/ for a person to look at."""
    pdf = every_script(kind)
    shown = " | ".join(text for text, _font in drawn(pdf))
    for a, b, _family in SCRIPTS.values():
        assert a in shown or b in shown
    ARTIFACTS.mkdir(exist_ok=True)
    target = ARTIFACTS / f"pdf-scripts-{kind}.pdf"
    target.write_bytes(pdf)
    for old in ARTIFACTS.glob(f"pdf-scripts-{kind}-*.png"):
        old.unlink()

    done = subprocess.run(
        ["pdftoppm", "-r", "100", "-png", str(target), str(target.with_suffix(""))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 0 and done.stderr == ""
    assert len(list(ARTIFACTS.glob(f"pdf-scripts-{kind}-*.png"))) == page_count(pdf)


def page_count(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)
