"""``manage.py import_season FILE``: a season exported from another installation
(``/seasons/<slug>/export.json``), once its tournaments are imported here."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from club.season_archive import SeasonArchiveError, import_season


class Command(BaseCommand):
    help = "Restore a season (its points table and its tournaments, imported beforehand)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the season file, or - for standard input")
        parser.add_argument(
            "--slug",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="a tournament imported under another slug (import_tournament --slug)",
        )
        parser.add_argument("--owner", metavar="USERNAME", help="the season's director here")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            renamed = dict(pair.split("=", 1) for pair in options["slug"])
        except ValueError:
            self.stderr.write("error: --slug takes OLD=NEW")
            sys.exit(1)
        try:
            if options["file"] == "-":
                text = sys.stdin.buffer.read().decode("utf-8-sig")
            else:
                with open(options["file"], "rb") as handle:
                    text = handle.read().decode("utf-8-sig")
            season = import_season(text, renamed=renamed, owner=options["owner"])
        except (OSError, UnicodeDecodeError) as error:
            self.stderr.write(f"error: cannot read {options['file']}: {error}")
            sys.exit(1)
        except SeasonArchiveError as error:
            self.stderr.write(f"error: {error}")
            sys.exit(1)
        self.stdout.write(
            f"Imported season {season.name!r} (/seasons/{season.slug}/) "
            f"with {season.tournaments.count()} tournaments."
        )
