"""Entering players in a tournament from a CSV file, all or nothing.

The file is the registry import's (:mod:`players.csv_import` reads it and reports every
bad line by its number, in the same columns and encodings); what differs is a player the
registry has already. There it is a duplicate; here it is that player, found as the
registry import finds duplicates (the same club id, or the same name and email ignoring
case), and entered. A row no registry player matches is a new player, added to the
registry. A player entered already is shown and left alone, never entered twice.

A file is checked first (:func:`check_entries_csv`) and shown to the director; only the
confirmation of that preview imports it (:func:`import_entries_csv`): checked again, the
new players added to the registry and every player entered in one transaction, by the
rules that enter one player (:func:`tournaments.registration.add_entries`), audited.

What this module does not do: read the file's cells (see :mod:`players.csv_import`) or
check permissions (views do).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments import registration
from tournaments.models import Player, Tournament
from tournaments.movement import lock_tournament

from . import csv_import


class Status(StrEnum):
    NEW = "new"  # not in the registry: added to it, then entered
    REGISTERED = "registered"  # in the registry: entered
    ENTERED = "entered"  # entered already: left alone


@dataclass(frozen=True)
class EntryRow:
    """A good row of the file: its line, its player (the registry's, or a new unsaved
    one) and what the import does with it."""

    line: int
    player: Player
    status: Status


@dataclass
class EntriesImport:
    """``errors`` and ``warnings`` are (line number, message) pairs, as the registry
    import's; ``entered`` is what the import did, only after one with no errors."""

    errors: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    rows: list[EntryRow] = field(default_factory=list)
    entered: registration.Entered | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def new(self) -> int:
        return sum(row.status == Status.NEW for row in self.rows)

    @property
    def to_enter(self) -> int:
        return sum(row.status != Status.ENTERED for row in self.rows)

    @property
    def already(self) -> int:
        return sum(row.status == Status.ENTERED for row in self.rows)


def confirmation(*, text: str, user: Any, tournament: Tournament) -> str:
    """The preview's "enter" button: the checked text, signed for this user and this
    tournament (see :func:`players.csv_import.confirmation`)."""
    return csv_import.confirmation(text=text, user=user, purpose=_purpose(tournament))


def confirmed_text(*, token: str, user: Any, tournament: Tournament) -> str:
    return csv_import.confirmed_text(token=token, user=user, purpose=_purpose(tournament))


def _purpose(tournament: Tournament) -> str:
    return f"entries:{tournament.pk}"


def check_entries_csv(*, text: str, tournament: Tournament) -> EntriesImport:
    """Read and check every row, and find each in the registry and the tournament's
    entries; save nothing. A fixed number of queries, however long the file."""
    read = csv_import.read_players_csv(text=text)
    result = EntriesImport(errors=read.errors, warnings=read.warnings)
    found = _find_registered(read.rows, result)
    players = Player.objects.in_bulk(set(found.values()))
    entered = set(tournament.entries.values_list("player_id", flat=True))
    seen: dict[int, int] = {}
    for line, player in read.rows:
        pk = found.get(line)
        if pk is None:
            result.rows.append(EntryRow(line, player, Status.NEW))
        elif pk in seen:
            result.errors.append(
                (
                    line,
                    _("Duplicate: %(name)s, registered, is also on line %(line)d.")
                    % {"name": players[pk].name, "line": seen[pk]},
                )
            )
        else:
            seen[pk] = line
            status = Status.ENTERED if pk in entered else Status.REGISTERED
            result.rows.append(EntryRow(line, players[pk], status))
    result.errors.sort(key=lambda item: item[0])
    result.warnings.sort(key=lambda item: item[0])
    return result


def _find_registered(rows: list[tuple[int, Player]], result: EntriesImport) -> dict[int, int]:
    """The registry player's id for each row the registry has (by line), as the registry
    import matches a duplicate; a row naming two registry players is an error, one whose
    club id belongs to a player of another name a warning."""
    registry = csv_import.RegistryIndex()
    found: dict[int, int] = {}
    for line, player in rows:
        by_club, by_name = registry.by_club_id(player), registry.by_name_email(player)
        if by_club and by_name and by_club.pk != by_name.pk:
            result.errors.append(
                (
                    line,
                    _(
                        "Club id %(club_id)s is registered to %(club_name)s, but this name "
                        "and email are %(name)s's: which player is it?"
                    )
                    % {"club_id": player.club_id, "club_name": by_club.name, "name": by_name.name},
                )
            )
            continue
        same = by_club or by_name
        if same is None:
            continue
        found[line] = same.pk
        if by_club and by_club.name.casefold() != player.name.casefold():
            result.warnings.append(
                (
                    line,
                    _(
                        "Line %(line)d: club id %(club_id)s is %(registered)s in the registry, "
                        "not %(name)s: %(registered)s is entered."
                    )
                    % {
                        "line": line,
                        "club_id": player.club_id,
                        "registered": by_club.name,
                        "name": player.name,
                    },
                )
            )
    return found


def import_entries_csv(*, text: str, tournament: Tournament, user: Any) -> EntriesImport:
    """Check again, then add the new players to the registry and enter every player of
    the file not entered yet, in one transaction: all or nothing. A bad line leaves its
    error in the result and changes nothing; a closed field raises the ValidationError
    entering one player would."""
    with transaction.atomic():
        lock_tournament(tournament)  # the tournament first, as every entry write
        registration.check_open_for_players(tournament)
        result = check_entries_csv(text=text, tournament=tournament)
        if not result.ok:
            return result
        try:
            new = [row.player for row in result.rows if row.status == Status.NEW]
            if new:
                csv_import.create_players(players=new, user=user)
        except IntegrityError:
            # Someone registered one of these players while the file was being checked.
            result.errors.append((1, _("Another change to the registry got in first; try again.")))
            return result
        result.entered = registration.add_entries(
            tournament=tournament, players=[row.player for row in result.rows], user=user
        )
    return result
