"""``manage.py restore_backup FILE``: put a backup back in place of the live database.

Stop the venue server first. The file is checked before anything changes: it must be an
intact SQLite database of this site, not made by a newer version. The database it
replaces is backed up first (``before-restore-…`` in the backups folder). Then the
database is migrated to this version and every tournament is verified against its hands.
Exit status 1, with one line saying why, when the file is refused or a check fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from archive.verify import verify
from backups.sqlite import BackupError, restore
from tournaments.models import Tournament

from .backup_database import sqlite_path


class Command(BaseCommand):
    help = "Restore a backup of the SQLite database (stop the venue server first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a backup, e.g. data/backups/ginclub-….sqlite3")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            info, safety = restore(Path(options["file"]), sqlite_path(), settings.BACKUP_DIR)
        except BackupError as error:
            raise CommandError(str(error)) from error
        if safety is not None:
            self.stdout.write(_("The database it replaced is kept in %(path)s") % {"path": safety})
        call_command("migrate", verbosity=0, interactive=False)
        differences = 0
        tournaments = Tournament.objects.order_by("pk")
        for tournament in tournaments:
            differences += len(verify(tournament)[1])
        self.stdout.write(
            _("Restored %(path)s: %(tournaments)s, %(hands)s.")
            % {
                "path": info.path,
                "tournaments": ngettext(
                    "%(count)d tournament", "%(count)d tournaments", info.tournaments
                )
                % {"count": info.tournaments},
                "hands": ngettext("%(count)d hand", "%(count)d hands", info.hands)
                % {"count": info.hands},
            }
        )
        if differences:
            raise CommandError(
                ngettext(
                    "%(count)d stored result disagrees with its hands: run verify_tournament.",
                    "%(count)d stored results disagree with their hands: run verify_tournament.",
                    differences,
                )
                % {"count": differences}
            )
        self.stdout.write(_("Every match agrees with its hands."))
