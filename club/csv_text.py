"""CSV files a spreadsheet opens safely and correctly (no Django, no queries).

* **Formula injection**: a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return is run as a formula by Excel and LibreOffice (OWASP "CSV Injection"). Such
  a cell gets a leading apostrophe, which the spreadsheet shows as text. Numbers are
  written as numbers (a rating change of -12 stays a number).
* **Spanish Excel**: Excel reads a CSV in the Windows code page unless it starts with a
  UTF-8 byte-order mark, so every file starts with one (accents and ñ survive). Excel
  splits columns on the Windows "list separator", which is ``;`` wherever the decimal
  separator is a comma (Spain, South Africa): a file for Spanish or Afrikaans uses ``;``
  and writes decimals with a comma, an English one ``,`` and a point. No ``sep=`` line:
  with one, Excel ignores the byte-order mark.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

BOM = "\ufeff"
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
SEMICOLON_LANGUAGES = frozenset({"es", "af"})


def safe(value: object, *, decimal_comma: bool = False) -> object:
    """One cell: text defused, decimals in the reader's notation, None empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float):
        text = f"{value:g}"
        return text.replace(".", ",") if decimal_comma else text
    if isinstance(value, int):
        return value
    text = str(value)
    return "'" + text if text.startswith(DANGEROUS) else text


def delimiter_for(language: str) -> str:
    return ";" if language.split("-")[0] in SEMICOLON_LANGUAGES else ","


def write(header: Sequence[str], rows: Iterable[Sequence[object]], *, language: str) -> str:
    """The whole file as text, byte-order mark first; lines end CRLF as RFC 4180 says."""
    delimiter = delimiter_for(language)
    comma = delimiter == ";"
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([safe(cell) for cell in header])
    for row in rows:
        writer.writerow([safe(cell, decimal_comma=comma) for cell in row])
    return out.getvalue()
