"""Online backups of the SQLite database, and restoring one.

A backup is a consistent copy taken with SQLite's backup API while the site is in use
(readers and writers carry on: the database is in WAL mode), written under a temporary
name and renamed into place, so a backups folder never holds half a file. The newest
``keep`` backups are kept. Restoring checks the file first (a SQLite database, intact,
made by this site, not by a newer version of it) and changes nothing when it is refused;
before it overwrites the live database it backs that up too.

Only for SQLite: a club server on PostgreSQL uses PostgreSQL's own tools.
"""

from __future__ import annotations

import datetime
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from django.db.migrations.loader import MigrationLoader
from django.utils.translation import gettext as _

PREFIX = "ginclub-"
SAFETY_PREFIX = "before-restore-"
SUFFIX = ".sqlite3"
SQLITE_HEADER = b"SQLite format 3\x00"
# Tables every database of this site has; a SQLite file without them is someone else's.
REQUIRED_TABLES = {
    "django_migrations",
    "tournaments_tournament",
    "tournaments_match",
    "scoring_hand",
}
PROJECT_APPS = {"tournaments", "scoring"}


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, for the director."""


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    tournaments: int
    hands: int


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def backup(database: Path, folder: Path, *, keep: int, prefix: str = PREFIX) -> Path:
    """Copy ``database`` into ``folder`` as ``<prefix><time>.sqlite3``; keep the newest
    ``keep`` of those (``keep`` 0 keeps them all). Returns the new file."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    final = folder / f"{prefix}{stamp}{SUFFIX}"
    partial = folder / f".{final.name}.partial"
    source = _read_only(database)
    try:
        target = sqlite3.connect(partial)
        try:
            source.backup(target)
            # A backup is one self-contained file, whatever journal the live database uses.
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError(_("The backup failed: %(error)s") % {"error": error}) from error
    finally:
        source.close()
    os.replace(partial, final)
    if keep:
        for old in backups(folder, prefix=prefix)[keep:]:
            old.unlink(missing_ok=True)
    return final


def backups(folder: Path, *, prefix: str = PREFIX) -> list[Path]:
    """The backups in ``folder``, newest first."""
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"{prefix}*{SUFFIX}"), reverse=True)


def inspect(path: Path) -> BackupInfo:
    """Check that ``path`` is an intact database of this site that this version can use."""
    if not path.is_file():
        raise BackupError(_("There is no file %(path)s.") % {"path": path})
    with open(path, "rb") as handle:
        if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise BackupError(
                _("%(path)s is not a backup of this site: it is not a SQLite database.")
                % {"path": path}
            )
    try:
        connection = _read_only(path)
        try:
            return _check(connection, path)
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(
            _("%(path)s is damaged and cannot be restored (%(error)s).")
            % {"path": path, "error": error}
        ) from error


def _check(connection: sqlite3.Connection, path: Path) -> BackupInfo:
    problems = [row[0] for row in connection.execute("PRAGMA integrity_check")]
    if problems != ["ok"]:
        raise BackupError(
            _("%(path)s is damaged and cannot be restored (%(error)s).")
            % {"path": path, "error": "; ".join(problems[:3])}
        )
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if not tables >= REQUIRED_TABLES:
        raise BackupError(
            _("%(path)s is not a backup of this site: it has no tournaments or hands tables.")
            % {"path": path}
        )
    applied = set(connection.execute("SELECT app, name FROM django_migrations"))
    known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    unknown = {(app, name) for app, name in applied if app in PROJECT_APPS} - known
    if unknown:
        raise BackupError(
            _(
                "%(path)s was made by a newer version of this site "
                "(it knows changes this one does not): update the site first."
            )
            % {"path": path}
        )
    (tournaments,) = connection.execute("SELECT count(*) FROM tournaments_tournament").fetchone()
    (hands,) = connection.execute("SELECT count(*) FROM scoring_hand").fetchone()
    return BackupInfo(path, tournaments, hands)


def restore(source: Path, database: Path, folder: Path) -> tuple[BackupInfo, Path | None]:
    """Replace ``database`` with the backup ``source``, after backing the current one up
    into ``folder``. Refused (BackupError, nothing changed) unless :func:`inspect` passes.
    Returns what was restored and the safety copy of what it replaced (None if nothing)."""
    info = inspect(source)
    safety = None
    if database.exists() and database.stat().st_size:
        safety = backup(database, folder, keep=0, prefix=SAFETY_PREFIX)
    database.parent.mkdir(parents=True, exist_ok=True)
    reader = _read_only(source)
    try:
        writer = sqlite3.connect(database, timeout=20)
        try:
            reader.backup(writer)  # one step, one transaction: all of it or nothing
        finally:
            writer.close()
    except sqlite3.Error as error:
        raise BackupError(
            _("The restore failed and changed nothing: %(error)s") % {"error": error}
        ) from error
    finally:
        reader.close()
    return info, safety
