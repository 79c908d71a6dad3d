"""Importing players into the registry from a CSV file, all or nothing.

Every bad row is reported by its line number and, if there is any, nothing is imported.
Duplicates (same club id, or same name and email, ignoring case) are errors whether they
are inside the file or already registered.

What this module does not do: add or edit one player (see :mod:`tournaments.registry`) or
check permissions (views do).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from . import audit
from .models import Player

PLAYER_FIELDS = ("name", "email", "phone", "club_id", "rating", "notes")
CSV_COLUMNS = PLAYER_FIELDS
MAX_CSV_BYTES = 1_000_000
MAX_CSV_ROWS = 5_000


@dataclass
class ImportResult:
    """``errors`` are (line number, message) pairs; ``players`` are saved only when there
    are no errors."""

    errors: list[tuple[int, str]] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _name_email(name: str, email: str) -> tuple[str, str]:
    return (name.strip().lower(), email.strip().lower())


def decode_csv(raw: bytes) -> str:
    """Text of an uploaded file: UTF-8 (with or without a byte-order mark)."""
    if len(raw) > MAX_CSV_BYTES:
        raise ValidationError(
            _("The file is too large (at most %(size)d kB).") % {"size": MAX_CSV_BYTES // 1000}
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValidationError(
            _("The file is not UTF-8 text. Save it as “CSV UTF-8” and try again.")
        ) from error


def import_players_csv(*, text: str, user: Any) -> ImportResult:
    """Validate every row, then save them all, or none if any row is bad."""
    result = ImportResult()
    reader = csv.reader(io.StringIO(text, newline=""))
    columns = _read_header(reader, result)
    if columns is None:
        return result
    candidates = _read_rows(reader, columns, result)
    _check_against_registry(candidates, result)
    if not candidates and not result.errors:
        result.errors.append((1, _("The file has a header line but no players.")))
    if result.errors:
        result.errors.sort(key=lambda item: item[0])
        return result
    _save_players(candidates, result, user)
    return result


def _read_header(reader: Any, result: ImportResult) -> list[str] | None:
    """The columns the first line names, or None (and the error in ``result``) if it is
    unreadable, empty or names an unknown or repeated column."""
    try:
        header = next(reader, None)
    except csv.Error as error:
        result.errors.append(
            (1, _("This is not a readable CSV file (%(problem)s).") % {"problem": error})
        )
        return None
    if header is None or not any(cell.strip() for cell in header):
        result.errors.append((1, _("The file is empty. The first line must name the columns.")))
        return None
    columns = [cell.strip().lower() for cell in header]
    unknown = [c for c in columns if c not in CSV_COLUMNS]
    if unknown or "name" not in columns or len(set(columns)) != len(columns):
        result.errors.append(
            (
                1,
                _("The first line must name the columns, among: %(columns)s (name is required).")
                % {"columns": ", ".join(CSV_COLUMNS)},
            )
        )
        return None
    return columns


def _read_rows(reader: Any, columns: list[str], result: ImportResult) -> list[tuple[int, Player]]:
    """The players on the lines after the header, each with its line number; every bad
    line goes into ``result.errors``."""
    from .forms import PlayerRowForm  # the same fields as the add-player form

    seen_club: dict[str, int] = {}
    seen_name: dict[tuple[str, str], int] = {}
    candidates: list[tuple[int, Player]] = []
    line = 1
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(candidates) + len(result.errors) >= MAX_CSV_ROWS:
                result.errors.append(
                    (
                        line,
                        _("Too many rows: import at most %(count)d at a time.")
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
            data = {column: value.strip() for column, value in zip(columns, row, strict=True)}
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
            candidates.append((line, Player(**{n: cleaned[n] for n in PLAYER_FIELDS})))
    except csv.Error as error:
        result.errors.append(
            (line + 1, _("This line cannot be read as CSV (%(problem)s).") % {"problem": error})
        )
    return candidates


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


def _save_players(candidates: list[tuple[int, Player]], result: ImportResult, user: Any) -> None:
    """Save the checked players together into ``result.players``, or report that the
    registry changed meanwhile."""
    try:
        with transaction.atomic():
            players = Player.objects.bulk_create([player for _line, player in candidates])
            audit.record(
                tournament=None,
                action="players imported",
                after={"count": len(players), "names": [p.name for p in players][:200]},
                user=user,
            )
    except IntegrityError:
        # Someone registered one of these players while the file was being checked.
        result.errors.append((1, _("Another change to the registry got in first; try again.")))
        return
    result.players = players


def _check_against_registry(candidates: list[tuple[int, Player]], result: ImportResult) -> None:
    # Compared in Python: SQLite's LOWER() only folds ASCII, and a club registry is small.
    registered_club: dict[str, str] = {}
    registered_name: set[tuple[str, str]] = set()
    for name, email, club_id in Player.objects.values_list("name", "email", "club_id"):
        if club_id:
            registered_club[club_id] = name
        registered_name.add(_name_email(name, email))
    for line, player in candidates:
        if player.club_id in registered_club:
            result.errors.append(
                (
                    line,
                    _("Duplicate: club id %(club_id)s is already registered to %(name)s.")
                    % {"club_id": player.club_id, "name": registered_club[player.club_id]},
                )
            )
        elif _name_email(player.name, player.email) in registered_name:
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
