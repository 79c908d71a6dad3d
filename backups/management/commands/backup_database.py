"""``manage.py backup_database``: one backup of the SQLite database, now, into the
backups folder (``GINCLUB_BACKUP_DIR``). The venue server also takes them by itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils.translation import gettext as _

from backups.sqlite import BackupError, backup


def sqlite_path() -> Path:
    if connection.vendor != "sqlite":
        raise CommandError(
            _("Backups here are for SQLite; back PostgreSQL up with its own tools (pg_dump).")
        )
    return Path(settings.DATABASES["default"]["NAME"])


class Command(BaseCommand):
    help = "Back the SQLite database up into the backups folder now."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            path = backup(sqlite_path(), settings.BACKUP_DIR, keep=settings.BACKUP_KEEP)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(_("Backed up to %(path)s") % {"path": path})
