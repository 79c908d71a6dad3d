"""Every server keeps each live region half a second, for every follower in the room.

A room's phones poll the same few regions (a tournament page's bracket and standings, each
player's view) every :data:`public.live.POLL_SECONDS`. :mod:`public.live` already answers
such a poll from a render kept per version, but each poll still goes through Django's
middleware, which was most of what one cost. :class:`MicroCache` wraps the WSGI
application (``config.wsgi``: the venue server's processes, gunicorn's workers) and answers
a region it answered less than :data:`KEEP_SECONDS` ago from memory, with a 304 to a phone
that has it as it is. It is what HAProxy's cache does for a club's server
(``tools/load/balancer.py``, docs/club-server.md), by the same rules but for half as long,
so that the venue laptop alone, or a club's server of one machine, carries a full room:

* **Kept:** only a GET of a polled region (``?region=``, ``HX-Request: true``) from a visitor
  who has not picked a language (the ``django_language`` cookie); without it a tournament's
  pages speak the tournament's language, whatever the browser asks. Everything else goes
  to Django every time.
* **Stored:** only a 200 that the app says every follower may share (``Cache-Control`` of
  ``no-cache`` alone: a draft's region, for its directors only, is ``private``) and that
  sets no cookie; per host, path, query, ``Accept-Encoding`` and ``HX-Target``.
* **Refreshed by one request.** When a region is older than :data:`KEEP_SECONDS`, one
  request asks Django again (without the phone's conditional headers, so the answer is a
  whole region to keep) while the others are still answered the kept one, for at most
  :data:`STALE_SECONDS`. A hand so shows on a follower's page at most
  :data:`KEEP_SECONDS` later than without this cache (while Django is slow to answer, up
  to :data:`STALE_SECONDS`). A kept region that asks for an
  earlier poll (``Poll-Again-After``, :mod:`public.live`) asks for it that much earlier
  again as it ages, so the poll still comes when the app meant it to.

Plain WSGI: nothing here looks inside Django's requests or responses, and the app behind
it still decides everything a region says.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from public.live import POLL_AGAIN_HEADER, names_etag

# A region kept this long is asked of Django again by the next poll. Half a second: a
# poll may so be answered half a second behind, which with the half second a poll may take
# the tournament's row as read before (public.live.ROW_SECONDS) keeps a hand within a
# poll interval and a second of reaching every follower (docs/performance.md).
KEEP_SECONDS = 0.5
# While one request asks Django again, the others are answered the kept region, if it is
# not older than this; past it, every request goes to Django as without the cache.
STALE_SECONDS = 2.0
# At most this many regions kept per process (every tournament's pages and player views);
# when full, the oldest half is dropped.
MOST_KEPT = 2048
# What a 304 repeats of the 200 it stands for (RFC 9110 section 15.4.5, as Django's
# conditional responses do), with the cache's ``Age`` and the app's ``Poll-Again-After``.
NOT_MODIFIED_HEADERS = frozenset(
    ("cache-control", "content-location", "date", "etag", "expires", "last-modified", "vary")
) | {"age", POLL_AGAIN_HEADER.lower()}
LANGUAGE_COOKIE = "django_language"

StartResponse = Callable[..., Any]
Headers = list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Kept:
    """One answer of Django's, kept or just asked."""

    status: str
    headers: Headers
    body: bytes
    etag: str
    at: float


def shareable(environ: dict[str, Any], language_cookie: str = LANGUAGE_COOKIE) -> bool:
    """Whether this request asks for a polled region that is the same for every follower."""
    if environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_HX_REQUEST") != "true":
        return False
    if "region" not in parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True):
        return False
    cookies = environ.get("HTTP_COOKIE", "")
    return re.search(rf"(?:^|;)\s*{re.escape(language_cookie)}=", cookies) is None


def storable(status: str, headers: Headers) -> bool:
    """Whether a response may be kept for every follower: a 200 the app says anyone may
    be sent (``Cache-Control: no-cache`` and nothing else) that sets no cookie."""
    if not status.startswith("200 "):
        return False
    names = {name.lower(): value for name, value in headers}
    if "set-cookie" in names or "etag" not in names:
        return False
    directives = {d.strip().lower() for d in names.get("cache-control", "").split(",")}
    return directives == {"no-cache"}


class MicroCache:
    """WSGI middleware: ``MicroCache(application)``."""

    def __init__(
        self,
        application: Callable[[dict[str, Any], StartResponse], Iterable[bytes]],
        *,
        keep_seconds: float = KEEP_SECONDS,
        stale_seconds: float = STALE_SECONDS,
        language_cookie: str = LANGUAGE_COOKIE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.application = application
        self.keep_seconds = keep_seconds
        self.stale_seconds = stale_seconds
        self.language_cookie = language_cookie
        self.clock = clock
        self._kept: dict[tuple[str, ...], Kept] = {}
        self._refreshing: set[tuple[str, ...]] = set()
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not shareable(environ, self.language_cookie):
            return self.application(environ, start_response)
        key = (
            environ.get("HTTP_HOST", ""),
            environ.get("PATH_INFO", ""),
            environ.get("QUERY_STRING", ""),
            environ.get("HTTP_ACCEPT_ENCODING", ""),
            environ.get("HTTP_HX_TARGET", ""),
        )
        kept = self._kept_or_claim(key)
        if kept is not None:
            return self._answer(environ, start_response, kept, self.clock() - kept.at)
        asked = None
        try:
            asked = self._ask(environ)
        finally:
            with self._lock:
                self._keep(key, asked)
        return self._answer(environ, start_response, asked)

    def _keep(self, key: tuple[str, ...], asked: Kept | None) -> None:
        """Keep Django's new answer for ``key`` if every follower may be sent it; else
        forget what was kept (it is no longer what Django says). Under the lock."""
        self._refreshing.discard(key)
        if asked is None or not storable(asked.status, asked.headers):
            self._kept.pop(key, None)
            return
        if len(self._kept) >= MOST_KEPT:
            oldest = sorted(self._kept, key=lambda k: self._kept[k].at)
            for old in oldest[: MOST_KEPT // 2]:
                del self._kept[old]
        self._kept[key] = asked

    def _kept_or_claim(self, key: tuple[str, ...]) -> Kept | None:
        """The region to answer from memory, or None when this request is to ask Django
        (and, if the kept one is merely old, is now the one refreshing it)."""
        now = self.clock()
        with self._lock:
            kept = self._kept.get(key)
            if kept is None:
                return None
            age = now - kept.at
            if age < self.keep_seconds:
                return kept
            if key in self._refreshing and age < self.stale_seconds:
                return kept
            self._refreshing.add(key)
            return None

    def _ask(self, environ: dict[str, Any]) -> Kept:
        """Django's whole answer, asked without the phone's conditional headers (a 304
        could not be kept)."""
        asked = {
            name: value
            for name, value in environ.items()
            if name not in ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE")
        }
        answer: dict[str, Any] = {}
        written: list[bytes] = []

        def start_response(status: str, headers: Headers, exc_info: Any = None) -> Any:
            answer["status"], answer["headers"] = status, list(headers)
            return written.append

        result = self.application(asked, start_response)
        try:
            chunks = [*written, *result]
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        headers = answer["headers"]
        etag = next((value for name, value in headers if name.lower() == "etag"), "")
        return Kept(answer["status"], headers, b"".join(chunks), etag, self.clock())

    @staticmethod
    def _answer(
        environ: dict[str, Any],
        start_response: StartResponse,
        kept: Kept,
        age: float | None = None,
    ) -> list[bytes]:
        """``kept`` as it is, or a 304 to a phone whose ``If-None-Match`` names it. An
        answer from memory (``age`` seconds old) says how old it is (``Age``, as any
        shared cache does), and its ``Poll-Again-After`` counts from when it was made."""
        headers = kept.headers if age is None else aged(kept.headers, age)
        asked = environ.get("HTTP_IF_NONE_MATCH", "")
        if kept.status.startswith("200 ") and kept.etag and names_etag(asked, kept.etag):
            same = [(n, v) for n, v in headers if n.lower() in NOT_MODIFIED_HEADERS]
            start_response("304 Not Modified", same)
            return []
        start_response(kept.status, headers)
        return [kept.body]


def aged(headers: Headers, age: float) -> Headers:
    """``headers`` of an answer kept ``age`` seconds: with ``Age``, and a
    ``Poll-Again-After`` counted from when it was made, in whole seconds as the app counts
    it (at least one; whole seconds keep the phones' polls as spread out as they came)."""
    out = [(name, value) for name, value in headers if name.lower() != "age"]
    for i, (name, value) in enumerate(out):
        if name.lower() == POLL_AGAIN_HEADER.lower():
            out[i] = (name, str(max(1, int(value) - math.ceil(age))))
    return [*out, ("Age", str(int(age)))]
