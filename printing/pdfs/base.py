"""What every PDF of the project shares: page sizes, the one stylesheet, fast text, QR codes.

Text is set in Liberation Sans, one design for Latin (Spanish, Polish, Vietnamese …),
Greek, Cyrillic and Hebrew, and in the other TrueType fonts the project ships where it
has no letters (:mod:`.fonts`: Arabic, Chinese, Japanese, Korean …). Text is always real,
extractable text, black on white, with light grey fills at most.
"""

from __future__ import annotations

import functools
import re
import weakref
from typing import Final

import segno
from reportlab.lib.pagesizes import A4, LETTER, landscape, portrait
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .fonts import BOLD as BOLD
from .fonts import ITALIC as ITALIC
from .fonts import REGULAR, SLANT, STROKE

LEFT: Final = 0
CENTRE: Final = 1
RIGHT: Final = 2

GREY_FILL: Final = 0.88
"""Light grey for header bands and total rows; never the only carrier of meaning."""
GREY_LINE: Final = 0.55
HAIRLINE: Final = 0.4
RULE: Final = 0.9

ELLIPSIS: Final = "\u2026"

_SIZES: Final = {"A4": A4, "LETTER": LETTER}


def page_size(name: str, *, wide: bool) -> tuple[float, float]:
    """``"A4"`` or ``"LETTER"`` (any case) as a (width, height) in points."""
    try:
        size = _SIZES[name.upper()]
    except KeyError:
        raise ValueError(f"unknown page size {name!r}: use A4 or LETTER") from None
    return landscape(size) if wide else portrait(size)


def new_canvas(buffer: object, *, title: str, size: tuple[float, float]) -> Canvas:
    fonts.text_faces()
    canvas = Canvas(
        buffer, pagesize=size, pageCompression=1, invariant=True, initialFontName=fonts.REGULAR
    )
    canvas.setTitle(title)
    canvas.setCreator("ginclub")
    return canvas


@functools.lru_cache(maxsize=8192)
def width(text: str, font: str, size: float) -> float:
    return fonts.layout(text, font).width * size


def fit(
    text: str, font: str, size: float, room: float, *, smallest: float = 5.5
) -> tuple[str, float]:
    """Shrink ``text`` down to ``smallest`` points to fit ``room``, then cut it with an ellipsis."""
    while size > smallest and width(text, font, size) > room:
        size = max(smallest, size - 0.5)
    if width(text, font, size) <= room:
        return text, size
    while text and width(text + ELLIPSIS, font, size) > room:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS, size


def num(value: float) -> str:
    """A coordinate for a content stream: two decimals, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


_BYTE_ESCAPES: Final = {
    c: (f"\\{c:03o}" if c < 32 or c >= 127 else "\\" + chr(c) if chr(c) in "\\()" else chr(c))
    for c in range(256)
}


_ENCODED: Final[weakref.WeakKeyDictionary[object, dict[tuple[str, str], list[tuple[str, str]]]]] = (
    weakref.WeakKeyDictionary()
)
"""Each document's encoded runs (:meth:`Ink._encode`)."""


class Ink:
    """Writes the text of one page as raw PDF operators, in one text object.

    reportlab's ``drawString`` builds a text object, formats every number and escapes every
    character in Python for each string: on a filled scoresheet (120-odd strings) that was
    most of the page's cost. Here a page's strings share one text object (``Tf``, ``Td``,
    ``Tj``, the operators reportlab itself writes) and encoded strings and widths are
    cached. A string is written in the runs :func:`fonts.layout` gives it, each in its
    TrueType font's subsets as reportlab encodes them; a run in a font without the bold or
    italic asked for is stroked (``2 Tr``) or sheared (``Tm``).
    """

    __slots__ = ("_at", "_canvas", "_encoded", "_graphics", "_ops", "_skewed", "_state")

    def __init__(self, canvas: Canvas) -> None:
        self._canvas = canvas
        self._encoded = _ENCODED.setdefault(canvas._doc, {})
        self._ops: list[str] = []
        self._state: tuple[str, float] | None = None
        self._at = (0, 0)  # origin of the current text line, in tenths of a point
        self._skewed = False  # the text line matrix is sheared (a slanted run)
        self._graphics = False  # line width or stroke colour set: wrap the text in q … Q

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: str = REGULAR,
        size: float = 8,
        align: int = LEFT,
    ) -> None:
        if not text:
            return
        if align:
            shift = width(text, font, size)
            x -= shift if align == RIGHT else shift / 2
        self._runs(x, y, fonts.layout(text, font), size)

    def _runs(self, x: float, y: float, layout: fonts.Layout, size: float) -> None:
        ops = self._ops
        advance = 0.0
        placed = False
        for run in layout.runs:
            slanted = run.effect == SLANT
            if not placed or slanted != self._skewed:
                self._move(x + advance, y, slanted)
                placed = True
            if run.effect == STROKE:
                ops.append(f"2 Tr 0 G {num(size * STROKE_WIDTH)} w")
                self._graphics = True
            for subset, chunk in self._encode(run):
                self._font(subset, size)
                ops.append(chunk)
            if run.effect == STROKE:
                ops.append("0 Tr")
            advance += run.width * size

    def _encode(self, run: fonts.Run) -> list[tuple[str, str]]:
        """The run as (subset font resource, ``(…) Tj``) pairs, once per document: a
        character keeps the subset reportlab first gave it."""
        key = (run.font, run.text)
        encoded = self._encoded.get(key)
        if encoded is None:
            font = pdfmetrics.getFont(run.font)
            doc = self._canvas._doc
            encoded = [
                (
                    font.getSubsetInternalName(subset, doc),
                    f"({''.join([_BYTE_ESCAPES[c] for c in chunk])}) Tj",
                )
                for subset, chunk in font.splitString(run.text, doc)
            ]
            self._encoded[key] = encoded
        return encoded

    def _font(self, name: str, size: float) -> None:
        if self._state != (name, size):
            self._ops.append(f"{name} {num(size)} Tf")
            self._state = (name, size)

    def _move(self, x: float, y: float, slanted: bool) -> None:
        tx, ty = round(x * 10), round(y * 10)
        if slanted or self._skewed:
            shear = SHEAR if slanted else 0
            self._ops.append(f"1 0 {shear:g} 1 {tx / 10:g} {ty / 10:g} Tm")
            self._skewed = slanted
        else:
            dx, dy = tx - self._at[0], ty - self._at[1]
            self._ops.append(f"{dx / 10:g} {dy / 10:g} Td")
        self._at = (tx, ty)

    def fitted(
        self,
        x: float,
        y: float,
        text: str,
        room: float,
        font: str = REGULAR,
        size: float = 8,
        align: int = LEFT,
        smallest: float = 5.5,
    ) -> None:
        text, size = fit(text, font, size, room, smallest=smallest)
        self.text(x, y, text, font, size, align)

    def flush(self) -> None:
        if self._ops:
            text = "BT 0 g " + "\n".join(self._ops) + " ET"
            self._canvas.addLiteral(f"q {text} Q" if self._graphics else text)
        self._ops = []
        self._state = None
        self._at = (0, 0)
        self._skewed = False
        self._graphics = False


SHEAR: Final = 0.2126
"""tan 12°: the slant of Helvetica-Oblique, given to text printed in italics."""
STROKE_WIDTH: Final = 0.03
"""Outline stroke, as a share of the font size, that makes a font without a bold look bold."""


# --- QR codes --------------------------------------------------------------------------

QR_ERROR: Final = "m"
QR_MASK: Final = 3
"""Fixed, so segno skips scoring all eight masks (~5 ms a code, most of a filled page's
cost). All masks are valid; for table links (version 4-M) mask 3 was the best-scoring one
for 40% of 120 random tokens and within 15% of the best penalty score for every one."""


def qr_matrix(url: str) -> tuple[bytearray, ...]:
    """The QR code of ``url`` as segno computes it: rows of 0/1, no quiet zone."""
    return segno.make(url, error=QR_ERROR, mask=QR_MASK, micro=False).matrix


_DARK_RUN: Final = re.compile(b"\x01+")


@functools.lru_cache(maxsize=512)
def qr_path(url: str) -> tuple[int, str]:
    """Side in modules, and the dark modules as ``re`` operators in module units.

    A run of dark modules on a row is one rectangle, stretched down over the rows below
    that have the very same run (about a sixth fewer operators: smaller pages, faster to
    write). y grows upward like PDF space, so the first matrix row is at the top. Cached:
    a match's table link is printed on its blank sheet, its round pack and its filled sheet.
    """
    matrix = qr_matrix(url)
    side = len(matrix)
    ops: list[str] = []
    open_runs: dict[tuple[int, int], int] = {}  # (x, width) -> first row
    for y, row in enumerate((*matrix, b"")):
        runs = {(run.start(), run.end() - run.start()) for run in _DARK_RUN.finditer(row)}
        for key in [key for key in open_runs if key not in runs]:
            first = open_runs.pop(key)
            ops.append(f"{key[0]} {side - y} {key[1]} {y - first} re")
        for key in runs:
            open_runs.setdefault(key, y)
    return side, "\n".join(ops)


def draw_qr(canvas: Canvas, url: str, x: float, y: float, size: float, *, quiet: int = 3) -> None:
    """Draw the code for ``url`` in the square (x, y, size) with ``quiet`` modules of white
    margin inside it; the layout keeps other ink a little further away still."""
    side, ops = qr_path(url)
    module = size / (side + 2 * quiet)
    origin_x = x + quiet * module
    origin_y = y + quiet * module
    # Slightly oversized rectangles would merge neighbours; exact ones can leave hairline
    # gaps in some viewers, which scanners ignore.
    canvas.addLiteral(
        f"q 0 g {module:.4f} 0 0 {module:.4f} {num(origin_x)} {num(origin_y)} cm\n{ops}\nf Q"
    )


def clear_caches() -> None:
    """Forget cached QR paths, encoded and laid-out strings (the benchmark starts every run
    cold); fonts once loaded stay loaded."""
    qr_path.cache_clear()
    width.cache_clear()
    fonts.clear_cache()
