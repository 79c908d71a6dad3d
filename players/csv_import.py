"""Importing players into the registry from a CSV file, all or nothing.

Every bad row is reported by the line it starts on and, if there is any, nothing is
imported. Duplicates (same club id, or same name and email, ignoring case) are errors
whether they are inside the file or already registered. Quoting is strict: a quote that
never closes is an error at its line, not the rest of the file swallowed into one cell.

A file is checked first (:func:`check_players_csv`) and shown to the director; only the
confirmation of that preview (:func:`confirmation`, :func:`confirmed_text`) imports it,
checked again against the registry as it is then. Encodings, separators and Spanish
headers are :mod:`players.csv_files`' business.

What this module does not do: add or edit one player (see :mod:`players.registry`) or
check permissions (views do).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.core import signing
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import audit
from tournaments.models import Player
from tournaments.models.players import PLAYER_FIELDS

from . import csv_files
from .forms import PlayerRowForm

CSV_COLUMNS = PLAYER_FIELDS
MAX_CSV_BYTES = csv_files.MAX_BYTES
MAX_CSV_ROWS = 5_000
PREVIEW_MAX_AGE = 6 * 60 * 60  # seconds a preview stays confirmable


@dataclass
class ImportResult:
    """``errors`` and ``warnings`` are (line number, message) pairs. ``rows`` are the
    checked, unsaved players with the line each starts on (what the preview shows);
    ``players`` are the saved ones, only after an import with no errors."""

    errors: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    rows: list[tuple[int, Player]] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class _BrokenQuote(Exception):
    def __init__(self, first: int, last: int) -> None:
        super().__init__(first, last)
        self.first = first
        self.last = last

    def message(self) -> str:
        if self.last > self.first:
            return _(
                "A quoted cell starts in this row and is not closed properly, so lines "
                "%(first)d to %(last)d would run together into it. Close the quote, or write "
                'a quote inside a cell as two quotes ("").'
            ) % {"first": self.first, "last": self.last}
        return _(
            "A quote is out of place on this line: quotes may only enclose a whole cell; "
            'inside a cell, write a quote as two quotes ("").'
        )


class _Records:
    """The records of a CSV text, each as (first line, last line, cells).

    Quoting is strict: Python's lenient reader lets a quote that never closes swallow
    every following line into one cell (and import it as notes). Here that raises
    :class:`_BrokenQuote` naming the line its record starts on.
    """

    def __init__(self, text: str, delimiter: str) -> None:
        self._reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
        self.last = 0

    def __iter__(self) -> _Records:
        return self

    def __next__(self) -> tuple[int, int, list[str]]:
        first = self.last + 1
        try:
            cells = next(self._reader)
        except csv.Error as error:
            raise _BrokenQuote(first, max(first, self._reader.line_num)) from error
        self.last = self._reader.line_num
        return first, self.last, cells


def _name_email(name: str, email: str) -> tuple[str, str]:
    return (name.strip().lower(), email.strip().lower())


def decode_csv(raw: bytes) -> str:
    """The text of an uploaded file, in whichever encoding a spreadsheet wrote it."""
    return csv_files.decode(raw)


def read_players_csv(*, text: str) -> ImportResult:
    """Read and check every row against the file alone (whether the registry has them
    already is the caller's question: :func:`check_players_csv`, or a tournament's
    entries, :mod:`players.csv_entries`); save nothing."""
    result = ImportResult()
    layout = csv_files.layout(text)
    records = _Records(text, layout.delimiter)
    try:
        columns = _read_header(records, layout, result)
        if columns is None:
            return result
        _read_rows(records, columns, result)
    except _BrokenQuote as broken:
        result.errors.append((broken.first, broken.message()))
    if not result.rows and not result.errors:
        result.errors.append((1, _("The file has a header line but no players.")))
    return result


def check_players_csv(*, text: str) -> ImportResult:
    """Read and check every row against the file and the registry; save nothing."""
    result = read_players_csv(text=text)
    _check_against_registry(result.rows, result)
    result.errors.sort(key=lambda item: item[0])
    return result


def import_players_csv(*, text: str, user: Any) -> ImportResult:
    """Check every row, then save them all, or none if any row is bad."""
    result = check_players_csv(text=text)
    if result.ok:
        _save_players(result, user)
    return result


def confirmation(*, text: str, user: Any, purpose: str = "") -> str:
    """What the preview's "import" button sends back: the checked text, signed for this
    user (and ``purpose``: where it is imported, if not the registry), so that what is
    imported is exactly the file the director saw, where they saw it."""
    return signing.dumps(text, salt=_preview_salt(user, purpose), compress=True)


def confirmed_text(*, token: str, user: Any, purpose: str = "") -> str:
    """The text a :func:`confirmation` carries, or a ValidationError if it was altered,
    made for someone else or somewhere else, or is too old."""
    try:
        text = signing.loads(token, salt=_preview_salt(user, purpose), max_age=PREVIEW_MAX_AGE)
    except signing.BadSignature:
        text = None
    if not isinstance(text, str):
        raise ValidationError(_("This preview can no longer be confirmed: upload the file again."))
    return text


def _preview_salt(user: Any, purpose: str) -> str:
    salt = f"tournaments.player_csv.preview:{user.pk}"
    return f"{salt}:{purpose}" if purpose else salt


def _read_header(
    records: _Records, layout: csv_files.Layout, result: ImportResult
) -> list[str | None] | None:
    """The field each column of the header names (None for a column with no name), or
    None (and the error in ``result``) if the header is empty, names an unknown column or
    one twice, or names no name column."""
    first, _last, header = next(records, (1, 1, []))
    if layout.sep_line:
        first, _last, header = next(records, (first + 1, first + 1, []))
    if not any(cell.strip() for cell in header):
        result.errors.append((first, _("The file is empty. The first line must name the columns.")))
        return None
    columns = [csv_files.column_for(cell) if cell.strip() else None for cell in header]
    named = [(cell.strip(), column) for cell, column in zip(header, columns, strict=True)]
    unknown = [cell for cell, column in named if cell and column is None]
    twice = [cell for cell, column in named if column and columns.count(column) > 1]
    if unknown:
        problem = _("Unknown: %(columns)s.") % {"columns": ", ".join(unknown)}
    elif twice:
        problem = _("Named twice: %(columns)s.") % {"columns": ", ".join(twice)}
    elif "name" not in columns:
        problem = _("There is no name column.")
    else:
        return columns
    result.errors.append(
        (
            first,
            _("The first line must name the columns: %(known)s; a name is required.")
            % {"known": csv_files.KNOWN_HEADERS}
            + " "
            + problem,
        )
    )
    return None


def _read_rows(records: _Records, columns: list[str | None], result: ImportResult) -> None:
    """The players on the records after the header into ``result.rows``, each with the
    line it starts on; every bad record goes into ``result.errors``, every record over
    several lines into ``result.warnings``."""
    seen_club: dict[str, int] = {}
    seen_name: dict[tuple[str, str], int] = {}
    candidates = result.rows
    for line, last, row in records:
        if not any(cell.strip() for cell in row):
            continue
        if len(candidates) + len(result.errors) >= MAX_CSV_ROWS:
            result.errors.append(
                (
                    line,
                    ngettext(
                        "Too many rows: import at most %(count)d at a time.",
                        "Too many rows: import at most %(count)d at a time.",
                        MAX_CSV_ROWS,
                    )
                    % {"count": MAX_CSV_ROWS},
                )
            )
            break
        if len(row) != len(columns):
            result.errors.append(
                (
                    line,
                    _("Expected %(expected)d columns, found %(found)d.")
                    % {"expected": len(columns), "found": len(row)},
                )
            )
            continue
        cells = list(zip(columns, row, strict=True))
        stray = [n for n, (column, value) in enumerate(cells, 1) if not column and value.strip()]
        if stray:
            result.errors.append(
                (
                    line,
                    _("There is a value in column %(number)d, which the first line does not name.")
                    % {"number": stray[0]},
                )
            )
            continue
        data = {column: value.strip() for column, value in cells if column}
        # "Nombre" + "Apellidos" (or first + last name) make one name.
        data["name"] = " ".join(filter(None, (data.get("name"), data.pop(csv_files.SURNAME, ""))))
        form = PlayerRowForm(data={name: data.get(name, "") for name in PLAYER_FIELDS})
        if not form.is_valid():
            result.errors.append((line, _describe_form_errors(form)))
            continue
        cleaned = form.cleaned_data
        key = _name_email(cleaned["name"], cleaned["email"])
        duplicate = _duplicate_in_file(cleaned["club_id"], key, seen_club, seen_name)
        if duplicate:
            result.errors.append((line, duplicate))
        if cleaned["club_id"]:
            seen_club.setdefault(cleaned["club_id"], line)
        seen_name.setdefault(key, line)
        if last > line:
            result.warnings.append(
                (
                    line,
                    _(
                        "Lines %(first)d to %(last)d are one row: a quoted cell runs over "
                        "several lines. Check that no other row is inside it."
                    )
                    % {"first": line, "last": last},
                )
            )
        candidates.append((line, Player(**{n: cleaned[n] for n in PLAYER_FIELDS})))


def _duplicate_in_file(
    club_id: str,
    key: tuple[str, str],
    seen_club: dict[str, int],
    seen_name: dict[tuple[str, str], int],
) -> str | None:
    """The error for a row whose club id or name and email an earlier line already has."""
    problems = []
    if club_id and club_id in seen_club:
        problems.append(
            _("club id %(club_id)s is also on line %(line)d")
            % {"club_id": club_id, "line": seen_club[club_id]}
        )
    if key in seen_name:
        problems.append(
            _("the same name and email are also on line %(line)d") % {"line": seen_name[key]}
        )
    if problems:
        return _("Duplicate: %(problems)s.") % {"problems": "; ".join(problems)}
    return None


def create_players(*, players: list[Player], user: Any) -> list[Player]:
    """Save checked players together, added by ``user``, audited as one import (inside
    the caller's transaction). An IntegrityError means someone registered one of them
    meanwhile."""
    added_by = user if getattr(user, "is_authenticated", False) else None
    for player in players:
        player.created_by = added_by
    with transaction.atomic():
        saved = Player.objects.bulk_create(players)
        audit.record(
            tournament=None,
            action="players imported",
            after={"count": len(saved), "names": [p.name for p in saved][:200]},
            user=user,
        )
    return saved


def _save_players(result: ImportResult, user: Any) -> None:
    """Save the checked players together into ``result.players``, added by ``user``, or
    report that the registry changed meanwhile."""
    try:
        players = create_players(players=[player for _line, player in result.rows], user=user)
    except IntegrityError:
        # Someone registered one of these players while the file was being checked.
        result.errors.append((1, _("Another change to the registry got in first; try again.")))
        return
    result.players = players


@dataclass(frozen=True)
class Registered:
    """A registry player a row of the file names: its id and name."""

    pk: int
    name: str


class RegistryIndex:
    """The registry's players by club id and by name and email (ignoring case), read in
    one query: how a row of a file is told to be a player the registry has already."""

    def __init__(self) -> None:
        # Compared in Python: SQLite's LOWER() only folds ASCII, and a club registry is small.
        self._by_club: dict[str, Registered] = {}
        self._by_name: dict[tuple[str, str], Registered] = {}
        for pk, name, email, club_id in Player.objects.values_list(
            "pk", "name", "email", "club_id"
        ):
            if club_id:
                self._by_club[club_id] = Registered(pk, name)
            self._by_name[_name_email(name, email)] = Registered(pk, name)

    def by_club_id(self, player: Player) -> Registered | None:
        return self._by_club.get(player.club_id) if player.club_id else None

    def by_name_email(self, player: Player) -> Registered | None:
        return self._by_name.get(_name_email(player.name, player.email))


def _check_against_registry(candidates: list[tuple[int, Player]], result: ImportResult) -> None:
    registry = RegistryIndex()
    for line, player in candidates:
        same = registry.by_club_id(player)
        if same is not None:
            result.errors.append(
                (
                    line,
                    _("Duplicate: club id %(club_id)s is already registered to %(name)s.")
                    % {"club_id": player.club_id, "name": same.name},
                )
            )
        elif registry.by_name_email(player) is not None:
            result.errors.append(
                (
                    line,
                    _("Duplicate: %(name)s with this email is already registered.")
                    % {"name": player.name},
                )
            )


def _describe_form_errors(form: Any) -> str:
    parts = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        text = " ".join(str(e) for e in errors)
        parts.append(f"{label}: {text}" if label else text)
    return " ".join(parts)
