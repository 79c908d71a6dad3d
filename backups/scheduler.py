"""The venue server's backup thread: a backup soon after every confirmed match, and one
every few minutes while anything changes.

It watches the database rather than being called by the services, so hand entry and
confirmation know nothing of backups: every few seconds it reads two cheap figures, the
confirmed matches (their count and latest time) and the newest audit row (every write
records one). A new confirmation means a backup now; any other change means one once
``interval`` seconds have passed since the last.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from django.db import close_old_connections
from django.db.models import Count, Max

from tournaments.models import AuditEntry, Match

from .sqlite import BackupError, backup

logger = logging.getLogger(__name__)


def confirmed_matches() -> tuple[int, object]:
    summary = Match.objects.filter(status=Match.Status.COMPLETE).aggregate(
        count=Count("pk"), latest=Max("completed_at")
    )
    return summary["count"], summary["latest"]


def last_change() -> int:
    return AuditEntry.objects.aggregate(last=Max("pk"))["last"] or 0


class BackupScheduler(threading.Thread):
    def __init__(
        self,
        *,
        database: Path,
        folder: Path,
        keep: int,
        interval: float,
        poll: float = 5.0,
    ) -> None:
        super().__init__(name="ginclub-backups", daemon=True)
        self.database, self.folder, self.keep = database, folder, keep
        self.interval, self.poll = interval, poll
        self.stopping = threading.Event()
        self.confirmed: tuple[int, object] | None = None
        self.change = -1
        self.taken_at = 0.0
        self.last: Path | None = None

    def run(self) -> None:
        while True:
            try:
                self.tick()
            except Exception:  # a backup that fails must never stop the server
                logger.exception("Backup failed")
            finally:
                close_old_connections()
            if self.stopping.wait(self.poll):
                return

    def stop(self) -> None:
        self.stopping.set()

    def tick(self) -> Path | None:
        """Back up if something asks for it; the new file, or None."""
        confirmed, change = confirmed_matches(), last_change()
        due = time.monotonic() - self.taken_at >= self.interval
        if confirmed == self.confirmed and (change == self.change or not due):
            return None
        try:
            self.last = backup(self.database, self.folder, keep=self.keep)
        except BackupError as error:
            logger.error("%s", error)
            return None
        self.confirmed, self.change, self.taken_at = confirmed, change, time.monotonic()
        return self.last
