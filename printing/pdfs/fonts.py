"""Which font prints each character: Liberation Sans wherever it can, the other shipped
TrueType fonts elsewhere.

Every string is set in one design: Liberation Sans (Helvetica's widths, so a layout
measured for Helvetica still fits) has Latin with every European and Vietnamese letter,
Greek, Cyrillic and Hebrew, so a column of names is one font and one size, whether a
name is "Ana Ruiz", "Łukasz Śliwiński", "Nguyễn Văn Đức" or "Дмитрий Шостакович". A
string is laid out here once per (string, style) and cached:

1. NFC-normalised, so a name typed with combining accents uses the precomposed letters;
2. right-to-left text (Arabic, Hebrew …) is given its joined Arabic letter forms
   (arabic-reshaper: reportlab has no shaping engine, and unjoined Arabic is not
   readable) and put in visual order (python-bidi's implementation of the Unicode
   bidirectional algorithm, with mirrored brackets: reportlab writes every string left to
   right), so the text in the PDF is what a reader sees, left to right;
3. cut into runs, each printed with the first shipped font that has its characters
   (``printing/fonts/``): Liberation Sans, then DejaVu Sans (Armenian, Georgian, more
   symbols, some emoji), Droid Sans Fallback (Chinese, Japanese, Korean), Noto Sans
   Arabic (preferred for the Arabic script). Spaces, digits and punctuation stay in the
   font of the run they are in;
4. a character no shipped font has (most emoji, Indic scripts, Thai) prints as one
   U+FFFD REPLACEMENT CHARACTER per cluster, never as an empty box; invisible format
   characters (joiners, variation selectors, skin tones, direction marks) are dropped.

Liberation Sans is read on first use (:func:`text_faces`, about 60 ms for both weights),
the others when a string needs them (Droid Sans Fallback, 3.4 MB, takes about 0.2 s), so
a PDF of Spanish names never loads one. reportlab embeds the glyphs a PDF uses, with a
ToUnicode map: the text stays extractable.

What this module does not do: shape scripts that need more than Arabic joining
(Devanagari conjuncts, mark positioning), kerning, or line breaking.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NamedTuple

import arabic_reshaper
from bidi.algorithm import get_base_level, get_display
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

REGULAR: Final = "LiberationSans"
BOLD: Final = "LiberationSans-Bold"
ITALIC: Final = "LiberationSans-Slanted"
"""The three styles text is set in. ``REGULAR`` and ``BOLD`` are also the names reportlab
knows the fonts by once :func:`text_faces` has loaded them; ``ITALIC`` is regular,
sheared (:data:`SLANT`), and only a style."""

FONT_DIR: Final = Path(__file__).resolve().parent.parent / "fonts"

REPLACEMENT: Final = "\ufffd"

STROKE: Final = "stroke"
"""Effect of a run whose font has no bold: its outline is stroked as well as filled."""
SLANT: Final = "slant"
"""Effect of a run whose font has no italic: sheared 12°, as Helvetica-Oblique is."""


@dataclass(frozen=True, slots=True)
class Face:
    """A shipped TrueType file and the name reportlab knows it by."""

    name: str
    file: str


SANS: Final = Face(REGULAR, "LiberationSans-Regular.ttf")
SANS_BOLD: Final = Face(BOLD, "LiberationSans-Bold.ttf")
DEJAVU: Final = Face("DejaVuSans", "DejaVuSans.ttf")
DEJAVU_BOLD: Final = Face("DejaVuSans-Bold", "DejaVuSans-Bold.ttf")
CJK: Final = Face("DroidSansFallback", "DroidSansFallback.ttf")
ARABIC: Final = Face("NotoSansArabic", "NotoSansArabic-Regular.ttf")
ARABIC_BOLD: Final = Face("NotoSansArabic-Bold", "NotoSansArabic-Bold.ttf")


class _Choice(NamedTuple):
    face: Face
    effect: str


# The fonts tried for each style, in order; Arabic letters try theirs first.
_CHAINS: Final[dict[str, tuple[_Choice, ...]]] = {
    REGULAR: (_Choice(SANS, ""), _Choice(DEJAVU, ""), _Choice(CJK, ""), _Choice(ARABIC, "")),
    BOLD: (
        _Choice(SANS_BOLD, ""),
        _Choice(DEJAVU_BOLD, ""),
        _Choice(CJK, STROKE),
        _Choice(ARABIC_BOLD, ""),
    ),
    ITALIC: (
        _Choice(SANS, SLANT),
        _Choice(DEJAVU, SLANT),
        _Choice(CJK, ""),
        _Choice(ARABIC, ""),
    ),
}
_ARABIC_FIRST: Final = {style: (chain[-1], *chain[:-1]) for style, chain in _CHAINS.items()}

_ARABIC_SCRIPT: Final = re.compile(
    r"[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufefc]"
)
_RIGHT_TO_LEFT: Final = re.compile(
    r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067"
    r"\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
_WINANSI_FONT: Final = pdfmetrics.getFont("Helvetica")

_BEYOND_BMP: Final = re.compile(r"<([0-9A-F]{5,6})>$", re.MULTILINE)


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ToUnicode map of a subset, with characters beyond U+FFFF (the emoji
    DejaVu Sans has) as UTF-16 surrogate pairs: reportlab writes ``<1F600>``, which PDF
    readers reject, so the emoji would print but not copy or extract."""
    return _BEYOND_BMP.sub(
        lambda m: f"<{chr(int(m[1], 16)).encode('utf-16-be').hex().upper()}>",
        _reportlab_cmap(fontname, subset),
    )


_reportlab_cmap = getattr(ttfonts.makeToUnicodeCMap, "reportlab", ttfonts.makeToUnicodeCMap)
_to_unicode_cmap.reportlab = _reportlab_cmap  # type: ignore[attr-defined]
ttfonts.makeToUnicodeCMap = _to_unicode_cmap

_lock = threading.Lock()
_loaded: dict[Face, TTFont] = {}


def load(face: Face) -> TTFont:
    """The face's font, read and registered with reportlab on first use (thread-safe)."""
    font = _loaded.get(face)
    if font is None:
        with _lock:
            font = _loaded.get(face)
            if font is None:
                font = TTFont(face.name, str(FONT_DIR / face.file))
                pdfmetrics.registerFont(font)
                _loaded[face] = font
    return font


def text_faces() -> None:
    """Load Liberation Sans, regular and bold, so ``REGULAR`` and ``BOLD`` can be given to
    reportlab's own ``setFont`` (the grid draws its printed words that way)."""
    load(SANS)
    load(SANS_BOLD)


def _covers(face: Face, code: int) -> bool:
    return code in load(face).face.charToGlyph


class Run(NamedTuple):
    """Characters printed with one font: a registered reportlab font name, the text in
    visual order, ``STROKE``, ``SLANT`` or ``""``, and its width at 1 pt."""

    font: str
    text: str
    effect: str
    width: float


class Layout(NamedTuple):
    runs: tuple[Run, ...]
    width: float
    """At 1 pt."""


def winansi(text: str) -> bool:
    """Whether ``text`` is all Western European letters and punctuation (WinAnsi): no
    right-to-left character, nothing to isolate."""
    if text.isascii():
        return True
    parts = pdfmetrics.unicode2T1(text, [_WINANSI_FONT])
    return len(parts) == 1 and parts[0][0] is _WINANSI_FONT


def right_to_left(text: str) -> bool:
    return not text.isascii() and _RIGHT_TO_LEFT.search(text) is not None


FSI: Final = "\u2068"
PDI: Final = "\u2069"


def isolate(text: str) -> str:
    """``text`` (a name) made one unit inside a longer string of the renderer's own.

    ``f"{i}. {isolate(name)}"``: the name is laid out by itself (a Unicode bidi isolate),
    so "1." stays left of an Arabic name and the name's spaces and punctuation stay in
    it. A name of Western European letters only comes back unchanged.
    """
    if winansi(text):
        return text
    return FSI + text.replace(FSI, "").replace(PDI, "") + PDI


@functools.lru_cache(maxsize=4096)
def layout(text: str, style: str) -> Layout:
    """The runs that print ``text`` in ``style`` (``REGULAR``, ``BOLD`` or ``ITALIC``).

    A string with isolates (:func:`isolate`) is laid out a piece at a time, left to
    right: each name in visual order by itself, its neighbours in theirs. Only
    if the words around the names are right-to-left themselves is it laid out whole.
    """
    text = unicodedata.normalize("NFC", text)
    if FSI not in text:
        runs = _runs(text, style)
    else:
        pieces = _pieces(text)
        around = "".join(piece for inside, piece in pieces if not inside)
        if right_to_left(around):
            runs = _runs(_embedded(pieces), style)
        else:
            runs = tuple(run for _inside, piece in pieces for run in _runs(piece, style))
    return Layout(runs, sum(run.width for run in runs))


def _pieces(text: str) -> list[tuple[bool, str]]:
    """``text`` cut at its isolates: (inside an isolate, piece); an isolate the ellipsis
    of :func:`~.base.fit` cut short runs to the end."""
    head, *rest = text.split(FSI)
    out = [(False, head)]
    for part in rest:
        inside, _, after = part.partition(PDI)
        out += [(True, inside), (False, after)]
    return [(inside, piece) for inside, piece in out if piece]


def _embedded(pieces: list[tuple[bool, str]]) -> str:
    """Isolates as explicit embeddings, which the bidi algorithm used here knows."""
    out = []
    for inside, piece in pieces:
        if inside:
            piece = f"\u202b{piece}\u202c" if get_base_level(piece) else f"\u202a{piece}\u202c"
        out.append(piece)
    return "".join(out)


def _runs(text: str, style: str) -> tuple[Run, ...]:
    if right_to_left(text):
        text = _visual(text)
    chain = _CHAINS.get(style, _CHAINS[REGULAR])
    arabic_first = _ARABIC_FIRST.get(style, _ARABIC_FIRST[REGULAR])
    pieces: list[tuple[_Choice, list[str]]] = []
    current: _Choice | None = None
    replaced = False  # the last character printed was a replacement
    for char in text:
        category = unicodedata.category(char)
        if _invisible(char, category):
            continue
        choice = _choose(char, category, current, chain, arabic_first)
        if choice is None:
            if replaced:
                continue
            char = REPLACEMENT
            choice = next(c for c in chain if _covers(c.face, ord(REPLACEMENT)))
        replaced = char == REPLACEMENT
        if choice is current:
            pieces[-1][1].append(char)
        else:
            pieces.append((choice, [char]))
            current = choice
    return tuple(_run(load(c.face).fontName, "".join(chars), c.effect) for c, chars in pieces)


def _run(font: str, text: str, effect: str) -> Run:
    return Run(font, text, effect, pdfmetrics.stringWidth(text, font, 1))


def _choose(
    char: str,
    category: str,
    current: _Choice | None,
    chain: tuple[_Choice, ...],
    arabic_first: tuple[_Choice, ...],
) -> _Choice | None:
    code = ord(char)
    # A letter goes to its script's font; anything else stays in the run it is in.
    if current is not None and category[0] != "L" and _covers(current.face, code):
        return current
    for choice in arabic_first if _ARABIC_SCRIPT.match(char) else chain:
        if _covers(choice.face, code):
            return choice
    return None


def _invisible(char: str, category: str) -> bool:
    """Format and control characters, variation selectors and emoji skin tones: they
    change how a neighbour looks, never print by themselves."""
    if category in ("Cf", "Cc", "Cs"):
        return True
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0100 <= code <= 0xE01EF


# Without the word ligature for الله (its marks stand taller than any name box), as every
# other word: letters joined, lam-alef ligatures only.
_RESHAPER: Final = arabic_reshaper.ArabicReshaper(configuration={"ARABIC LIGATURE ALLAH": False})


def _visual(text: str) -> str:
    """Logical order to what is seen left to right: Arabic letters joined, runs of
    right-to-left text reversed, brackets inside them mirrored."""
    if _ARABIC_SCRIPT.search(text):
        text = _RESHAPER.reshape(text)
    # A Hebrew point, reversed with its letter, comes just before it: where DejaVu Sans
    # (no mark positioning here) draws it over that letter.
    return get_display(text)


def clear_cache() -> None:
    """Forget laid-out strings (the fonts stay loaded)."""
    layout.cache_clear()
