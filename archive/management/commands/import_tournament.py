"""``manage.py import_tournament FILE|-``: restore a tournament archive (``export.json``).

The archive is checked completely before anything is written, then restored in one
transaction. Exit status 0 on success; 1, with one line on standard error and nothing
imported, when the archive is refused. See :mod:`archive.api` for how players and
users are matched on this installation.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from archive.api import ArchiveError, ImportReport, import_archive, parse


class Command(BaseCommand):
    help = "Restore a tournament from its JSON archive (the director's export.json)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive, or - for standard input")
        parser.add_argument(
            "--slug", help="import under this slug (when the archive's is taken here)"
        )
        parser.add_argument(
            "--owner",
            metavar="USERNAME",
            help="owner when the archive's owner has no account here "
            "(default: the first superuser)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = parse(self._read(options["file"]))
            report = import_archive(data, slug=options["slug"], owner=options["owner"])
        except ArchiveError as error:
            self.stderr.write(f"error: {error}")
            sys.exit(1)
        self.stdout.write(summary(report))

    def _read(self, name: str) -> str:
        try:
            if name == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as handle:
                    raw = handle.read()
        except OSError as error:
            raise ArchiveError(f"cannot read {name}: {error.strerror or error}") from None
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ArchiveError(f"{name} is not UTF-8 text") from None


def summary(report: ImportReport) -> str:
    tournament = report.tournament
    lines = [
        f"Imported “{tournament.name}” as /t/{tournament.slug}/: {report.entries} players "
        f"({report.new_players} new to the registry), {report.matches} matches, "
        f"{report.hands} hands, {report.audit} audit entries."
    ]
    if report.owner_replaced:
        lines.append(
            f"The owner {report.owner_replaced!r} has no account here; "
            f"{tournament.owner.get_username()!r} owns it now."
        )
    if report.unknown_users:
        names = ", ".join(sorted(report.unknown_users))
        lines.append(f"No account here for {names}: left out of roles, hands and audit rows.")
    if report.renewed_tokens:
        lines.append(
            f"{report.renewed_tokens} table links were already in use here and were renewed "
            "(print new scoresheets for those matches)."
        )
    lines.append(f"Check it with: manage.py verify_tournament {tournament.slug}")
    return "\n".join(lines)
