"""Counting wrong table links per client address, on the cache every server process shares.

The count holds however many gunicorn workers and threads take guesses at once, on both
caches the site runs with (see ``CACHES`` in config/settings.py):

- Redis increments atomically (``INCR``) and keeps the key's expiry, so Django's own
  ``add`` + ``incr`` count every guess;
- Django's file cache reads a value and writes a new file in its place, so two increments
  at once would both write the same number. There each increment holds an exclusive lock
  on one file beside the cache (every process and thread in turn; it takes a millisecond),
  and the value carries the end of its window, which a rewrite would otherwise move.

A window starts at an address's first wrong link and lasts ``window`` seconds whatever
comes after; :func:`window_end` says when (on Redis from a second key written with the
first failure, whose expiry Django cannot read back). This module only counts:
:mod:`tables.access` decides what a count means, :mod:`web.clients` which address
a request came from.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.filebased import FileBasedCache

LOCK_FILE = "table-link-failures.lock"

_in_process = threading.Lock()


TABLE_LINKS = "table-link-failures"
"""The counter of wrong table links; another kind of guess (a wrong self check-in code,
:mod:`public.views.checkin`) is counted under its own name with the same rules."""


def _key(address: str, counter: str = TABLE_LINKS) -> str:
    return f"{counter}:{address}"


def failures(address: str, *, counter: str = TABLE_LINKS) -> int:
    """Wrong guesses (table links, unless ``counter`` names another kind) counted for
    ``address`` in its current window."""
    value: Any = caches["default"].get(_key(address, counter))
    if value is None:
        return 0
    return int(value[0] if isinstance(value, tuple) else value)


def window_end(address: str, *, counter: str = TABLE_LINKS) -> float | None:
    """When the window of ``address``'s count ends (a Unix time), or None when nothing is
    counted for it."""
    cache = caches["default"]
    value: Any = cache.get(_key(address, counter))
    if value is None:
        return None
    if isinstance(value, tuple):
        return float(value[1])
    until = cache.get(_end_key(address, counter))
    # Written just before the count, so it expires just before it: the window is ending.
    return time.time() if until is None else float(until)


def _end_key(address: str, counter: str) -> str:
    return f"{_key(address, counter)}:end"


def add_failure(address: str, *, window: int, counter: str = TABLE_LINKS) -> int:
    """Count one more wrong guess from ``address``; returns its count in the window."""
    cache = caches["default"]
    key = _key(address, counter)
    if isinstance(cache, FileBasedCache):
        with _exclusive(Path(settings.CACHES["default"]["LOCATION"]) / LOCK_FILE):
            now = time.time()
            count, until = cache.get(key) or (0, now + window)
            cache.set(key, (count + 1, until), max(1, math.ceil(until - now)))
            return int(count) + 1
    cache.add(_end_key(address, counter), time.time() + window, window)
    cache.add(key, 0, window)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between the two
        cache.add(key, 0, window)
        count = cache.incr(key)
    if count == 1:
        # Ours started the window, or INCR made the key afresh (it had just expired)
        # without an expiry: give it one.
        cache.touch(key, window)
    return int(count)


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold ``path`` locked against every other process, and every other thread of this
    one (a thread lock first, whatever the operating system's lock does for threads)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with _in_process, open(path, "a+b") as handle:
        _lock(handle)
        try:
            yield
        finally:
            _unlock(handle)


if os.name == "nt":  # the venue server on Windows
    import msvcrt

    def _lock(handle: IO[bytes]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)  # retries for 10 s, then OSError

    def _unlock(handle: IO[bytes]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _lock(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)

    def _unlock(handle: IO[bytes]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
