"""Reading the CSV files spreadsheets really write, before any row is checked.

Spreadsheets write "CSV" in several ways. A Spanish Excel writes Windows-1252 ("ANSI")
text with semicolons between cells (the comma is its decimal mark), sometimes after a
``sep=;`` line; "CSV UTF-8" adds a byte-order mark; "Unicode text" is UTF-16 with tabs.
This module turns the uploaded bytes into text (:func:`decode`), finds the separator
(:func:`layout`) and tells which player field a header cell names, in English or Spanish
(:func:`column_for`).

The separator is found from the header, not guessed by :class:`csv.Sniffer`: the header
names columns from a known vocabulary, so the separator that splits it into the most known
names is the right one, where the Sniffer counts characters and takes the comma in "Lee,
Ann" or a one-column file for a separator. A tie (a one-column file) goes to the separator
that gives the following lines as many cells as the header.

What this module does not do: check rows or touch the database (see
:mod:`players.csv_import`).
"""

from __future__ import annotations

import codecs
import csv
import re
import unicodedata
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MAX_BYTES = 1_000_000
SEPARATORS = (",", ";", "\t")
SURNAME = "surname"  # not a field: joined to the name ("Nombre" + "Apellidos")

# Header names, compared without case, accents or punctuation (see ``_plain``).
HEADERS = {
    "name": (
        "name",
        "full name",
        "first name",
        "given name",
        "player",
        "nombre",
        "nombre completo",
        "nombre y apellidos",
        "jugador",
    ),
    SURNAME: ("surname", "last name", "family name", "apellidos", "apellido"),
    "email": ("email", "e mail", "mail", "email address", "correo", "correo electronico"),
    "phone": (
        "phone",
        "telephone",
        "phone number",
        "mobile",
        "tel",
        "telefono",
        "movil",
        "celular",
    ),
    "club_id": (
        "club id",
        "club",
        "member id",
        "member",
        "socio",
        "no socio",
        "n socio",
        "numero de socio",
        "id socio",
    ),
    "rating": ("rating", "elo", "puntuacion"),
    "notes": ("notes", "note", "comments", "notas", "nota", "observaciones", "comentarios"),
}
ENCODINGS = "UTF-8, UTF-16, Windows-1252"  # as messages name them
# How the columns are named in messages: the field, and its Spanish header where it differs.
KNOWN_HEADERS = (
    "name (nombre), surname (apellidos), email (correo), phone (teléfono), "
    "club_id (club), rating (puntuación), notes (notas)"
)

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_WORKBOOKS = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")  # .xlsx (zip), .xls
_SEP_LINE = re.compile(r'"?sep=(.)"?')
_FIRST_LINE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Layout:
    """How a file's cells are separated, and whether its first line is Excel's
    ``sep=;`` hint rather than the header."""

    delimiter: str = ","
    sep_line: bool = False


def decode(raw: bytes) -> str:
    """The text of an uploaded file: UTF-8 or UTF-16 (by byte-order mark, or by the zero
    bytes of UTF-16 without one), else UTF-8, else Windows-1252; or a ValidationError."""
    if len(raw) > MAX_BYTES:
        raise ValidationError(
            _("The file is too large (at most %(size)d kB).") % {"size": MAX_BYTES // 1000}
        )
    if raw.startswith(_WORKBOOKS):
        raise ValidationError(
            _(
                "This is an Excel workbook, not a CSV file. In the spreadsheet, use "
                "“Save as” and choose “CSV”, then upload that file."
            )
        )
    for encoding in _encodings(raw):
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        break
    else:
        raise ValidationError(
            _(
                "The file's text cannot be read (it is not UTF-8, UTF-16 or Windows "
                "Latin-1). Save it as “CSV UTF-8” and try again."
            )
        )
    if "\x00" in text:
        raise ValidationError(
            _("This is not a text file. Save the spreadsheet as CSV and upload that file.")
        )
    return text.removeprefix("\ufeff")


def _encodings(raw: bytes) -> tuple[str, ...]:
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return (encoding,)
    half = len(raw) // 2
    if half:
        # UTF-16 without a byte-order mark: latin letters leave every other byte zero.
        even, odd = raw[0::2].count(0), raw[1::2].count(0)
        if odd > half * 0.3 and even < odd / 10:
            return ("utf-16-le",)
        if even > half * 0.3 and odd < even / 10:
            return ("utf-16-be",)
    return ("utf-8", "cp1252")


def layout(text: str) -> Layout:
    """The separator of ``text``: the one that splits the header into the most known
    column names (ties: the one under which the next lines have the header's length)."""
    lines = _FIRST_LINE.split(text, maxsplit=1)
    first = lines[0]
    hint = _SEP_LINE.fullmatch(first.strip())
    if hint:
        return Layout(delimiter=hint.group(1), sep_line=True)
    scores = {d: sum(column_for(cell) is not None for cell in _cells(first, d)) for d in SEPARATORS}
    best = max(scores.values())
    tied = [d for d in SEPARATORS if scores[d] == best]
    if len(tied) > 1:
        sample = text[:65_536]
        tied.sort(key=lambda d: -_regular_rows(sample, d))
    return Layout(delimiter=tied[0])


def _cells(line: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=delimiter), [])
    except csv.Error:
        return line.split(delimiter)


def _regular_rows(sample: str, delimiter: str) -> int:
    """How many of the sample's first lines have as many cells as its header."""
    rows = csv.reader(sample.splitlines()[:50], delimiter=delimiter)
    try:
        header = next(rows, [])
        return sum(len(row) == len(header) for row in rows if row)
    except csv.Error:
        return 0


def column_for(cell: str) -> str | None:
    """The player field (or :data:`SURNAME`) a header cell names, or None."""
    return _COLUMN_OF.get(_plain(cell))


def _plain(text: str) -> str:
    """Lower case, without accents, with punctuation as spaces: "Nº  Socio" → "no socio"."""
    text = unicodedata.normalize("NFKD", text.strip().lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


_COLUMN_OF = {_plain(name): field for field, names in HEADERS.items() for name in names}
