"""Logging of expected refusals: one line each, no traceback; and never a secret.

Django logs every 403 ("Forbidden (Permission denied): /path") and every refused Host
header (django.security.DisallowedHost) with the exception attached, which prints a
traceback for what is the site working as meant. This filter, on the console handler,
drops the traceback of those exceptions; real errors keep theirs. Each record is printed
once: the "django" logger hands its records to the root's console rather than to a
console of its own as well (Django's default, which printed them twice under DEBUG).

No secret is logged (issue 43): a record that names a path (Django's "Not Found:
/table/<token>/…", a 500's path, the development server's request line, waitress's
"Exception while serving …") has the secret part of a table link or a one-time
set-password link replaced by "…" (:class:`SecretsInPaths`, on every handler). A
publishing token travels in a header, which nothing logs.
"""

from __future__ import annotations

import logging
import re

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


SECRET_IN_PATH = re.compile(r"(/table/|/accounts/set-password/[^/\s\"']+/)[^/\s\"'?#]+")
"""A table link's token, or a set-password link's (after the account's id), in a path."""


def without_secrets(text: str) -> str:
    """``text`` with the secret of every table link or set-password link in it as "…"."""
    return SECRET_IN_PATH.sub(r"\1…", text)


class SecretsInPaths(logging.Filter):
    """Keep the record, with the secrets of the links it names replaced by "…"."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = without_secrets(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                without_secrets(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        elif isinstance(record.args, dict):
            record.args = {
                key: without_secrets(arg) if isinstance(arg, str) else arg
                for key, arg in record.args.items()
            }
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
