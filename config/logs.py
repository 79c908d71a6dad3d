"""Logging of expected refusals: one line each, no traceback.

Django logs every 403 ("Forbidden (Permission denied): /path") and every refused Host
header (django.security.DisallowedHost) with the exception attached, which prints a
traceback for what is the site working as meant. This filter, on the console handler,
drops the traceback of those exceptions; real errors keep theirs. Each record is printed
once: the "django" logger hands its records to the root's console rather than to a
console of its own as well (Django's default, which printed them twice under DEBUG).
"""

from __future__ import annotations

import logging

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404

EXPECTED = (PermissionDenied, SuspiciousOperation, BadRequest, Http404)


class ExpectedRefusals(logging.Filter):
    """Keep the record, without its traceback when it is an expected refusal."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc_info = record.exc_info
        if exc_info and isinstance(exc_info[1], EXPECTED):
            record.exc_info = None
            record.exc_text = None
        return True


# waitress logs "Task queue depth is N" (logger "waitress.queue") for every request that
# finds all of a process's threads busy: a line a director at the venue cannot read, and
# one per request in a burst. At most one line per this many seconds, in words.
BUSY_EVERY_SECONDS = 60.0


class BusyServer(logging.Filter):
    """Say waitress's queue warning as a director understands it, at most once a minute
    per serving process (with the deepest queue since the last line)."""

    def __init__(self, name: str = "", every: float = BUSY_EVERY_SECONDS) -> None:
        super().__init__(name)
        self.every = every
        self.last: float | None = None
        self.deepest = 0

    def filter(self, record: logging.LogRecord) -> bool:
        from django.utils.translation import ngettext

        if getattr(record, "said_in_words", False):
            # Logging configured twice (django.setup() by the command, then again by
            # config.wsgi) gives the logger this filter twice: the first has decided.
            return True
        depth = record.args[0] if isinstance(record.args, tuple) and record.args else 0
        self.deepest = max(self.deepest, depth if isinstance(depth, int) else 0)
        now = record.created
        if self.last is not None and now - self.last < self.every:
            return False
        waiting, self.deepest, self.last = self.deepest, 0, now
        record.msg = ngettext(
            "The venue server is busy: %(count)d request had to wait for a free worker. "
            "Pages may answer a moment later; nothing is lost. If this keeps appearing "
            "through the evening, the laptop is too slow for the room: close other "
            "programs on it.",
            "The venue server is busy: up to %(count)d requests had to wait for a free "
            "worker. Pages may answer a moment later; nothing is lost. If this keeps "
            "appearing through the evening, the laptop is too slow for the room: close "
            "other programs on it.",
            waiting,
        ) % {"count": waiting}
        record.args = None
        record.said_in_words = True
        return True
