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
