"""Live public pages that a full room can follow: cached regions and conditional GET.

Every write that changes what the public pages show adds one to the tournament's public
version in its own transaction (:mod:`tournaments.public_version`). Here that number decides
everything a poll costs:

* **304 Not Modified.** Every public response carries an ``ETag`` made of the
  tournament, its version (with the time of that change, so that a restored backup or a
  reused id never matches an old tag), the language and what was asked for, and a
  ``Last-Modified``. A poll whose ``If-None-Match`` still matches gets a 304 after one
  query (the tournament with its version) and no rendering.
* **Rendered once per version.** What the pages poll is rendered as a *group* (the
  tournament page's bracket and standings, the projector's panels, ``standings.json``)
  from one :func:`standings.data.load`, and kept in the cache every worker shares
  (``CACHES``: Redis when ``REDIS_URL`` is set, else files in the data folder) under
  ``(tournament, language, group)`` with the tag it was rendered at.
* **No stampede, bounded work.** When the version moves on, one request renders the
  group again while the others keep being served the group as last rendered (with its
  own, older tag: their next poll fetches the new one); and a group is rendered at most
  once every :data:`RERENDER_SECONDS` however fast hands arrive. So a hand shows on a
  follower's page at the first poll after it is at most ``RERENDER_SECONDS`` old plus a
  render: within one poll interval.

The cached HTML is byte for byte what the page renders without the cache
(``tests/public/test_live.py``): nothing in a region depends on the visitor. The parts
that do (the CSRF token, who is logged in) are in the page around the regions, rendered
for each visitor, and their ``ETag`` includes the visitor's session and CSRF cookies.
"""

from __future__ import annotations

import gc
import gzip
import hashlib
import math
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe
from django.utils.translation import get_language

from tournaments.models import Tournament
from tournaments.permissions import can_direct
from web.language import use_tournament_language

# How often a live page asks for its regions (htmx ``every``), in seconds.
POLL_SECONDS = 10
# A group is rendered again at most this often, however fast the version moves.
RERENDER_SECONDS = 1.0
# A region answered as rendered before the latest change tells the page to poll again
# sooner (``Poll-Again-After``, seconds; static/js/live.js), so that the change still
# shows within one poll interval of happening.
POLL_AGAIN_HEADER = "Poll-Again-After"
# A poll (an htmx GET) may take the tournament's row and version as this process read it
# this long ago, instead of reading it again.
ROW_SECONDS = 0.5
# How long a render may hold the group's render lock before another may try: a few times
# the longest render (a 1,024-player tournament's, about 1.2 s on a slow 2-core machine).
# A server that dies mid-render (a club's node killed) leaves its lock behind, and the
# group is shown as last rendered until the lock runs out: at 30 s, a killed node froze
# the followers' standings for the rest of a test run.
RENDER_LOCK_SECONDS = 5
# How long a rendered group stays in the cache without being asked for.
KEEP_SECONDS = 6 * 3600

# Every public response differs by these request headers (and nothing else).
VARY = ("HX-Request", "HX-Target", "Accept-Language", "Cookie")


# What a poll reads of its tournament: enough for the tag and the draft check, nothing more.
LIVE_COLUMNS = ("pk", "slug", "name", "status", "language", "owner_id", "updated")


class Live:
    """A public request's tournament, at the version its response will show.

    Built from one narrow query (:data:`LIVE_COLUMNS` and the version); the whole
    tournament row is read only when something is rendered (:attr:`tournament`), which a
    poll answered from the cache or with a 304 never does.
    """

    def __init__(self, row: dict[str, Any], language: str) -> None:
        self.pk: int = row["pk"]
        self.slug: str = row["slug"]
        self.name: str = row["name"]
        self.status: str = row["status"]
        self.version: int = row["public_version__number"] or 0
        self.changed_at: datetime = row["public_version__changed_at"] or row["updated"]
        self.language = language
        self._tournament: Tournament | None = None

    @property
    def tournament(self) -> Tournament:
        if self._tournament is None:
            self._tournament = Tournament.objects.get(pk=self.pk)
        return self._tournament

    @property
    def running(self) -> bool:
        return self.status == Tournament.Status.RUNNING

    @property
    def tag(self) -> str:
        stamp = round(self.changed_at.timestamp() * 1_000_000)
        return f"{self.pk}.{self.version}.{stamp}.{self.language}"

    def etag(self, what: str, tag: str | None = None) -> str:
        """The ``ETag`` of ``what`` (a region, a panel, ``json``…) rendered at ``tag``.

        Weak (``W/``): the same content is sent gzipped or not, as the browser asks.
        """
        return f'W/"{tag or self.tag}.{what}"'


def live(request: HttpRequest, slug: str) -> Live:
    """The tournament of a public request with its version, in one query, once per request.

    A draft is not public yet (404), except to its directors. The tournament's language
    is switched on here (unless the visitor chose one), so the tag names the language the
    response is in.
    """
    found = getattr(request, "public_live", None)
    if found is not None and found.slug == slug:
        return found
    polled = request.method == "GET" and bool(getattr(request, "htmx", False))
    row = _row(slug, recent_enough=polled)
    if row["status"] == Tournament.Status.DRAFT:
        tournament = Tournament.objects.get(pk=row["pk"])
        if not can_direct(request.user, tournament):
            raise Http404
    use_tournament_language(request, row["language"])
    found = Live(row, get_language())
    request.public_live = found  # type: ignore[attr-defined]
    return found


# The tournament rows (with their versions) this process read lately, by slug, and when.
_rows: dict[str, tuple[dict[str, Any], float]] = {}
_rows_lock = threading.Lock()
ROWS_KEPT = 256


def _row(slug: str, *, recent_enough: bool) -> dict[str, Any]:
    """The tournament's row with its version: for a poll (``recent_enough``), the one
    this process read within :data:`ROW_SECONDS`, else from the database.

    A room's polls arrive a few hundred a second; reading the row for each was a third
    of what a poll cost. A poll may so be up to ``ROW_SECONDS`` behind a change (it shows
    at the next poll, well within the interval); a page loaded whole, and every write,
    reads the database."""
    now = time.monotonic()
    if recent_enough:
        with _rows_lock:
            kept = _rows.get(slug)
        if kept is not None and now - kept[1] < ROW_SECONDS:
            return kept[0]
    columns = (*LIVE_COLUMNS, "public_version__number", "public_version__changed_at")
    try:
        row = Tournament.objects.values(*columns).get(slug=slug)
    except Tournament.DoesNotExist:
        raise Http404 from None
    with _rows_lock:
        if len(_rows) >= ROWS_KEPT:
            _rows.clear()
        _rows[slug] = (row, now)
    return row


def last_modified(request: HttpRequest, slug: str, **kwargs: Any) -> datetime:
    """For ``condition()``: when the tournament's public pages last changed."""
    return live(request, slug).changed_at


def visitor_tag(request: HttpRequest) -> str | None:
    """What a whole page (not a region) depends on besides the version: who is logged in
    and the CSRF cookie its forms carry a token of. None when a message is waiting to be
    shown once: such a page is never answered with a 304. Worked out once per request
    (the ``ETag``, the ``Last-Modified`` and the view all ask)."""
    if hasattr(request, "public_visitor"):
        return request.public_visitor
    request.public_visitor = _visitor_tag(request)  # type: ignore[attr-defined]
    return request.public_visitor


def _visitor_tag(request: HttpRequest) -> str | None:
    storage = get_messages(request)
    for _message in storage:
        storage.used = False  # looked at, not shown: they stay for the page
        return None
    cookies = request.COOKIES
    session = cookies.get(settings.SESSION_COOKIE_NAME, "")
    csrf = cookies.get(settings.CSRF_COOKIE_NAME, "")
    account = getattr(request, "user", None)
    user = account.pk if account is not None and account.is_authenticated else 0
    digest = hashlib.blake2s(f"{session}\n{csrf}".encode(), digest_size=6).hexdigest()
    return f"u{user}.{digest}"


def headers(
    response: HttpResponse,
    live_: Live,
    what: str,
    tag: str | None = None,
    *,
    private: bool = False,
) -> HttpResponse:
    """``ETag``, ``Vary`` and ``Cache-Control`` of a public response: browsers keep it
    and ask again with ``If-None-Match`` every time (``no-cache``); ``private`` for a
    page made for one visitor (it carries their CSRF token), which no shared cache keeps."""
    response.headers["ETag"] = live_.etag(what, tag)
    patch_vary_headers(response, VARY)
    return revalidated(response, private=private)


def revalidated(response: HttpResponse, *, private: bool) -> HttpResponse:
    """``Cache-Control: no-cache``: kept, and asked again every time; ``private`` keeps it
    out of shared caches (the club's load balancer keeps the rest a second)."""
    if private:
        patch_cache_control(response, no_cache=True, private=True)
    else:
        patch_cache_control(response, no_cache=True)
    return response


def not_modified(request: HttpRequest, live_: Live, what: str, tag: str) -> HttpResponse | None:
    """A 304 for a visitor who already has ``what`` as rendered at ``tag``.

    ``condition()`` answers the common case before the view (the visitor has the current
    version); this one is for a group served as last rendered while a newer version waits
    for its render: a visitor who already has that one needs nothing either.
    """
    if tag == live_.tag:
        return None  # condition() has judged this one already
    if not has_etag(request, live_.etag(what, tag)):
        return None
    return headers(HttpResponseNotModified(), live_, what, tag)


def has_etag(request: HttpRequest, etag: str) -> bool:
    """Whether the request's ``If-None-Match`` names ``etag`` (compared weakly)."""
    return names_etag(request.headers.get("If-None-Match", ""), etag)


def names_etag(if_none_match: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` value names ``etag`` (compared weakly)."""
    return etag.removeprefix("W/") in {
        value.strip().removeprefix("W/") for value in if_none_match.split(",")
    }


def region(request: HttpRequest, live_: Live, rendered: Rendered, part: str) -> HttpResponse:
    """A region a page polls (``part`` of ``rendered``), or a 304 when the follower has
    it as it is.

    Its ``ETag`` names the region's *content*, not the version: a hand changes the
    standings but seldom the bracket, so most bracket polls are answered 304 (no body
    over the venue Wi-Fi) although the version moved. ``Last-Modified`` is the time of
    the version the region shows; ``If-Modified-Since`` counts only without
    ``If-None-Match``, as HTTP says.
    """
    blob: bytes = rendered.parts[part]
    digest = hashlib.blake2s(blob, digest_size=8).hexdigest()
    etag = f'W/"{live_.pk}.{live_.language}.{part}.{digest}"'
    shown = int(rendered.tag.split(".")[2]) / 1_000_000  # the version's time, in µs
    if "If-None-Match" in request.headers:
        unchanged = has_etag(request, etag)
    else:
        since = parse_http_date_safe(request.headers.get("If-Modified-Since", ""))
        unchanged = since is not None and int(shown) <= since
    response = HttpResponseNotModified() if unchanged else sent(request, blob)
    response.headers["ETag"] = etag
    response.headers["Last-Modified"] = http_date(shown)
    patch_vary_headers(response, VARY)
    # The same for every follower, so a shared cache in front of the club's nodes may keep
    # it a moment (docs/club-server.md); a draft's is for its directors only.
    revalidated(response, private=live_.status == Tournament.Status.DRAFT)
    return poll_again(response, live_, rendered)


def poll_again(response: HttpResponse, live_: Live, rendered: Rendered) -> HttpResponse:
    """Mark a polled region served as last rendered while a newer version waits.

    What changed after that render began reaches the follower at their next poll; polled
    at the usual interval from now, that would be up to a poll interval *plus* the age of
    the render. ``Poll-Again-After`` asks for the next poll that much sooner, in whole
    seconds (at least one from now), so every change shows within one poll interval; a
    page so polls a little more often while the tournament changes faster than it is
    rendered.
    """
    if rendered.tag != live_.tag:
        age = max(0.0, time.time() - rendered.at)
        # Whole seconds, counted from this poll: polls stay spread out as the phones'
        # own timers spread them. (To the tenth, every phone served one render would
        # come back at the same moment, ten seconds after that render began.)
        response.headers[POLL_AGAIN_HEADER] = str(max(1, POLL_SECONDS - math.ceil(age)))
    return response


def packed(text: str) -> bytes:
    """``text`` gzipped once, when its group is rendered: every follower's poll is sent
    these bytes as they are (a standings region of 256 players shrinks about tenfold,
    which is what decides how many phones the venue Wi-Fi carries)."""
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)


def unpacked(blob: bytes) -> str:
    return gzip.decompress(blob).decode()


ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def sent(
    request: HttpRequest, blob: bytes, content_type: str = "text/html; charset=utf-8"
) -> HttpResponse:
    """A response of ``blob`` (from :func:`packed`): gzipped to a browser that accepts it,
    unpacked to one that does not."""
    if ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")):
        response = HttpResponse(blob, content_type=content_type)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(blob), content_type=content_type)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


@dataclass(frozen=True, slots=True)
class Rendered:
    """A group as rendered: the tag it was rendered at, when, and its parts."""

    tag: str
    at: float
    parts: dict[str, Any]


# This process's copy of the groups it served last, by cache key, with when it last looked
# for a newer one in the shared cache: a poll that finds the current version here, or
# that came within RERENDER_SECONDS of the last look, reads nothing from the shared cache
# (a file, or Redis) while hands keep changing the version.
_recent: dict[str, tuple[Rendered, float]] = {}
_recent_lock = threading.Lock()
RECENT_GROUPS = 64


def _remember(key: str, rendered: Rendered, looked: float) -> Rendered:
    with _recent_lock:
        _recent.pop(key, None)
        _recent[key] = (rendered, looked)
        while len(_recent) > RECENT_GROUPS:
            del _recent[next(iter(_recent))]
    return rendered


def forget() -> None:
    """Drop this process's copies of rendered groups, scored sheets, rendered pieces and
    the tables' playouts (the shared cache is the caller's to clear)."""
    from standings import tables
    from standings.data import forget_sheets

    from . import fragments

    with _recent_lock:
        _recent.clear()
    with _rows_lock:
        _rows.clear()
    forget_sheets()
    fragments.forget()
    tables.forget()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a group renders. A 1,024-player render keeps
    ~85,000 new objects alive until it is done, enough to set off full collections that
    find nothing to free (~110 ms of a ~680 ms render); its objects are freed by their
    reference counts as soon as it is over. Collection resumes after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def group_key(tournament_id: int, language: str, name: str) -> str:
    """The shared cache's key of a group. The build is in it: pages a laptop rendered before
    an upgrade are not shown by the new build (the shared cache outlives a restart)."""
    return f"public:{settings.GINCLUB_VERSION}:{tournament_id}:{language}:{name}"


def group(live_: Live, name: str, render: Callable[[], dict[str, Any]]) -> Rendered:
    """The parts of group ``name`` at ``live_``'s version: from this process's copy, the
    shared cache, or ``render()``.

    While another request renders the group, or within :data:`RERENDER_SECONDS` of its
    last render, the group as last rendered is returned (its ``tag`` says which version
    it shows); only a group never rendered before is always rendered here.
    """
    key = group_key(live_.pk, live_.language, name)
    now = time.time()
    kept, looked = _recent.get(key, (None, 0.0))
    if kept is not None and (kept.tag == live_.tag or now - looked < RERENDER_SECONDS):
        return kept
    shared: Rendered | None = cache.get(key)
    if shared is not None and (kept is None or shared.at >= kept.at):
        kept = shared
    if kept is not None and (kept.tag == live_.tag or now - kept.at < RERENDER_SECONDS):
        return _remember(key, kept, now)
    lock = f"{key}:rendering"
    rendering = cache.add(lock, 1, RENDER_LOCK_SECONDS)
    if not rendering and kept is not None:
        # Someone else is rendering the new version: the last one meanwhile.
        return _remember(key, kept, now)
    try:
        with collector_paused():
            fresh = Rendered(live_.tag, time.time(), render())
        cache.set(key, fresh, KEEP_SECONDS)
    finally:
        if rendering:
            cache.delete(lock)
    return _remember(key, fresh, fresh.at)
