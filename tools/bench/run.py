"""``make bench``: the performance budgets of SPEC 10, as ratios measured in one run.

Run ``python -m tools.bench.run`` (``--help`` for the knobs; ``--sizes 64,256`` for a
quicker run). On a scratch SQLite file, with a file cache of its own in the same scratch
folder, it builds three tournaments, 64, 256 and 1,024 players, with every match played
to the end and confirmed, plus one whose matches are entered through the site, and then
measures with Django's test client:

- **hand entry**: the median of a hand-entry POST (``/t/<slug>/matches/<id>/hands/``, the
  htmx request that answers with the ``#match-entry`` partial, carrying its form's
  submission id as the page's form does) divided by the median of
  a bare authenticated POST view that inserts one row (``tools/bench/urls.py``), both by
  the same signed-in director with CSRF checks on. Budget ≤ 4. The same for the table
  link (``/table/<token>/hands/``), for information;
- **queries per hand entry** with 5 and with 50 hands already in the match: equal;
- **tournament page and standings, cold**: the tournament page, its standings region
  (htmx), ``standings.json`` and the projector, with the cache emptied and the garbage
  collected before every request (outside the timed window), so that each one loads and
  renders the tournament as the first request after a change does, and pays for its own
  garbage collections (reported beside it) but not for those of the requests before it.
  The median at each size divided by the median at the size before it (256 ÷ 64 and
  1,024 ÷ 256): budget ≤ 4.5 each; their queries at every size: equal;
- **a follower's poll**: the standings region of the 256-player tournament as htmx polls
  it (``?region=standings``), answered from the cache, divided by a bare anonymous GET
  view that reads one row (``tools/bench/urls.py``): budget ≤ 1.5, and 1 query for it
  and for the same poll answered with a 304 (``If-None-Match``); the 304 and a cold
  render of the region for information;
- **round pack** (``tools/bench/pdf_bench.py``) when it can be imported: ≤ 1.5;
- **card counts** (``tools/bench/cards_bench.py``, no database): the optimal melds and the
  lay-offs against RLCard's deadwood routine (``tools/bench/rlcard_anchor.py``) timed in
  turns on the same hands: melds ÷ RLCard ≤ 1.0 (dealt and melded hands), lay-offs per
  knock ÷ RLCard per hand ≤ 3.0; the µs per hand for information;
- **club rating** (``tools/bench/club_bench.py``): the full recompute of 10,000 matches,
  budget 1 s of CPU on a machine where RLCard's deadwood routine takes 18 µs a hand (the
  routine is timed before and after every sample, each sample scaled by × 18 ÷ its µs,
  i.e. budget = 1 s × its µs ÷ 18); a player page's queries at T/4 and T tournaments:
  equal;
- **estimated finish** (``tools/bench/estimate_bench.py``, no database): the error of
  :func:`engine.estimate.estimate` against simulated club nights (matches played at
  random paces, asked at 25/50/75% of their hands): median ≤ 10 and 90th percentile ≤ 45
  minutes; its CPU per call ÷ RLCard's deadwood routine per hand, timed in turns: ≤ 100;
- **Swiss pairing** (``tools/bench/pairing_bench.py``): round 9 of a 1,024-player Swiss,
  the median CPU time of :func:`pairing.swiss.pair_round`: budget under one second,
  absolute (the issue's);
- **losers'-bracket rematches**: double eliminations of 3 to 64 players played with the
  same random results by our drop order and brackets-manager.js's default, early and
  immediate rematches counted: ours at or below the peer's at every size;
- **backup**: the wall time and size of one online backup (``backups.sqlite.backup``) of
  the database once the tournaments are built, the largest fully played, for information.

Every timing is taken in turns (A, B, A, B …) after a warm-up, so whatever else slows the
machine slows both sides alike, and the budget uses CPU time of this process (the test
client, the view and SQLite all run in it), which other processes on a shared machine do
not inflate; wall-clock medians are reported beside it. Figures and pass/fail go to
``.bench/report.json``; the exit status is 1 when a budget is broken.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import gzip
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / ".bench" / "report.json"
HAND_ENTRY_BUDGET = 4.0
PAGE_BUDGET = 4.5
POLL_BUDGET = 1.5
# A region rendered again after one change costs this share of a cold render at most: what
# did not change (sheets, boxes, rows) is not scored or rendered again.
AFTER_CHANGE_BUDGET = 0.5
SIZES = (64, 256, 1024)
POLL_PLAYERS = 256  # the follower's poll is measured on this tournament (else the largest)
QUERY_POINTS = (5, 50)


# -- setup -----------------------------------------------------------------------------------


def configure(db_path: str) -> None:
    """Point Django at a scratch SQLite file and migrate it (before anything imports models)."""
    # whitenoise looks for collected static files, which the bench never serves
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    os.environ["SQLITE_PATH"] = db_path
    os.environ.pop("DATABASE_URL", None)
    # the data folder (so the file cache the bench empties) is the scratch folder too
    os.environ["GINCLUB_DATA_DIR"] = str(Path(db_path).parent)
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_DEBUG"] = "1"  # the development settings; tools.bench.settings turns
    os.environ["DJANGO_SETTINGS_MODULE"] = "tools.bench.settings"  # DEBUG off again
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# -- measuring -------------------------------------------------------------------------------


@dataclass
class Series:
    """Timings of one kind of request, in seconds."""

    name: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    gc: list[float] = field(default_factory=list)

    def add(self, wall: float, cpu: float, gc_cpu: float | None = None) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)
        if gc_cpu is not None:
            self.gc.append(gc_cpu)

    def summary(self) -> dict[str, Any]:
        figures = {
            "samples": len(self.cpu),
            "median_cpu_ms": ms(statistics.median(self.cpu)),
            "median_wall_ms": ms(statistics.median(self.wall)),
            "p90_wall_ms": ms(quantile(self.wall, 0.9)),
        }
        if self.gc:
            figures["median_gc_cpu_ms"] = ms(statistics.median(self.gc))
        return figures


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(action: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def clear_cache() -> None:
    """Empty the cache the public pages keep their rendered groups in, so that the next
    request renders (the bench's own scratch cache: see :mod:`tools.bench.settings`)."""
    from django.core.cache import cache

    from public.live import forget

    cache.clear()
    forget()  # and this process's copies of them


class GcClock:
    """The CPU time the cyclic garbage collector takes, summed over its collections
    (``gc.callbacks``), while in a ``with`` block."""

    def __init__(self) -> None:
        self.total = 0.0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.process_time()
        else:
            self.total += time.process_time() - self._start

    def __enter__(self) -> GcClock:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def timed_cold(action: Callable[[], Any], clock: GcClock) -> tuple[Any, float, float, float]:
    """``action`` timed as the first request after a change: the cache emptied and the
    garbage collected first, outside the timed window, so that each sample starts from the
    same state and pays for its own collections only (not for the allocations of the
    requests before it); also the CPU time the collector took inside the window."""
    clear_cache()
    gc.collect()
    before = clock.total
    result, wall, cpu = timed(action)
    return result, wall, cpu, clock.total - before


def count_queries(action: Callable[[], Any]) -> tuple[Any, list[str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        result = action()
    return result, [query["sql"] for query in captured.captured_queries]


def ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b else float("inf")


# -- hand entry ------------------------------------------------------------------------------


def post_fields(number: int, hand: Any, token: str) -> dict[str, Any]:
    """A hand's POST as its form sends it: with a fresh submission id (issue 29, and the
    table link's since issue 32), so its cost is in the measure."""
    from web.submissions import FIELD, new_id

    fields: dict[str, Any] = {
        "number": number,
        "kind": hand.kind,
        "csrfmiddlewaretoken": token,
        FIELD: new_id(),
    }
    for name in ("by", "deadwood", "defender_deadwood", "knock_card"):
        value = getattr(hand, name)
        if value not in (None, ""):
            fields[name] = value
    return fields


def csrf_token(client: Any, url: str) -> str:
    """GET a page that shows a form (as a browser would) and keep its CSRF cookie."""
    from django.conf import settings

    response = client.get(url)
    if response.status_code != 200:
        raise RuntimeError(f"GET {url} answered {response.status_code}")
    return client.cookies[settings.CSRF_COOKIE_NAME].value


class EntryStream:
    """The next hand to POST, match after match: demo hands of each match until decided."""

    def __init__(self, client: Any, matches: list[Any], *, table_link: bool, tag: str) -> None:
        from demo.hands import match_hands

        from .data import hand_seed

        self.client = client
        self.table_link = table_link
        self._hands: Iterator[tuple[Any, int, Any]] = (
            (match, number, hand)
            for match in matches
            for number, hand in enumerate(
                match_hands(match.tournament.ruleset, seed=hand_seed(tag, match.key)), start=1
            )
        )
        first = matches[0]
        self.token = csrf_token(client, self.sheet_url(first))

    def sheet_url(self, match: Any) -> str:
        if self.table_link:
            return f"/table/{match.token}/"
        return f"/t/{match.tournament.slug}/matches/{match.pk}/"

    def post(self) -> Callable[[], Any]:
        try:
            match, number, hand = next(self._hands)
        except StopIteration:
            raise RuntimeError("out of matches to enter hands in; add players") from None
        url = self.sheet_url(match) + "hands/"
        data = post_fields(number, hand, self.token)

        def send() -> Any:
            return self.client.post(url, data, HTTP_HX_REQUEST="true")

        return send


def check_entry(response: Any) -> None:
    if response.status_code != 200 or "hand-recorded" not in response.get("HX-Trigger", ""):
        body = response.content.decode(errors="replace")[:400]
        raise RuntimeError(f"hand entry not recorded ({response.status_code}): {body}")


def check_ok(response: Any, what: str) -> None:
    if response.status_code != 200:
        raise RuntimeError(f"{what} answered {response.status_code}")


def entry_queries(director: Any, tournament: Any, client: Any, token_client: Any) -> dict:
    """Queries of one hand entry with 5 and with 50 hands already in the match."""
    from demo.hands import match_hands

    from .data import long_seed, ready_matches, store_hands

    rules = tournament.ruleset
    top = max(QUERY_POINTS) + 2
    seed = long_seed(rules, top)
    hands = list(match_hands(rules, seed=seed, limit=top))
    result: dict[str, Any] = {}
    spare = ready_matches(tournament)[-2 * len(QUERY_POINTS) :]
    # The site knows its mirrored tournaments (none) and that it does not publish, as
    # after any first page: the cold public pages above emptied the cache, and looking
    # again is one query once each, not per hand (publishing.mirrors, publishing.status).
    from publishing.mirrors import mirrored
    from publishing.status import publishes

    mirrored()
    publishes()
    for route, who in (("director", client), ("table_link", token_client)):
        counts: dict[str, int] = {}
        sql: dict[str, list[str]] = {}
        for before in QUERY_POINTS:
            match = spare.pop()
            store_hands(match, hands[:before], user=director)
            match.refresh_from_db()
            if route == "director":
                url = f"/t/{tournament.slug}/matches/{match.pk}/"
            else:
                url = f"/table/{match.token}/"
            token = csrf_token(who, url)
            data = post_fields(before + 1, hands[before], token)
            response, queries = count_queries(
                lambda url=url, data=data, who=who: who.post(
                    url + "hands/", data, HTTP_HX_REQUEST="true"
                )
            )
            check_entry(response)
            counts[str(before)] = len(queries)
            sql[str(before)] = queries
        equal = len(set(counts.values())) == 1
        result[route] = {"hands_before": counts, "equal": equal}
        if not equal:
            result[route]["queries"] = sql
    return result


def measure_entry(
    director: Any, tournament: Any, *, samples: int, warmup: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    from django.test import Client

    from .data import ready_matches
    from .urls import BARE_PATH

    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    table_client = Client(enforce_csrf_checks=True)
    queries = entry_queries(director, tournament, client, table_client)

    matches = ready_matches(tournament)
    half = len(matches) // 2
    director_stream = EntryStream(client, matches[:half], table_link=False, tag="entry")
    table_stream = EntryStream(table_client, matches[half:], table_link=True, tag="entry")
    bare_token = director_stream.token
    series = {name: Series(name) for name in ("hand_entry", "table_link_entry", "bare_view")}

    def bare() -> Any:
        return client.post(BARE_PATH, {"csrfmiddlewaretoken": bare_token})

    gc.collect()
    for index in range(warmup + samples):
        jobs: list[tuple[str, Callable[[], Any], Callable[[Any], None]]] = [
            ("hand_entry", director_stream.post(), check_entry),
            ("bare_view", bare, lambda r: check_ok(r, "bare view")),
            ("table_link_entry", table_stream.post(), check_entry),
            ("bare_view", bare, lambda r: check_ok(r, "bare view")),
        ]
        if index % 2:  # alternate who goes first
            jobs = jobs[1:] + jobs[:1]
        for name, job, check in jobs:
            response, wall, cpu = timed(job)
            check(response)
            if index >= warmup:
                series[name].add(wall, cpu)
    entry = {name: s.summary() for name, s in series.items()}
    bare_cpu = statistics.median(series["bare_view"].cpu)
    bare_wall = statistics.median(series["bare_view"].wall)
    for name in ("hand_entry", "table_link_entry"):
        entry[name]["ratio_cpu"] = ratio(statistics.median(series[name].cpu), bare_cpu)
        entry[name]["ratio_wall"] = ratio(statistics.median(series[name].wall), bare_wall)
    return entry, queries


# -- public pages ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    key: str
    label: str
    url_name: str
    headers: dict[str, str] = field(default_factory=dict)
    budget: float | None = None


# SPEC 10 budgets "tournament page and standings"; the projector shows the standings too.
PAGES = (
    Page("tournament_page", "tournament page", "public:tournament", budget=PAGE_BUDGET),
    Page(
        "standings_region",
        "standings region (htmx)",
        "public:tournament",
        {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "standings"},
        budget=PAGE_BUDGET,
    ),
    Page("standings_json", "standings.json", "public:standings-json", budget=PAGE_BUDGET),
    Page("display", "projector", "public:display", budget=PAGE_BUDGET),
)


def page_url(page: Page, slug: str) -> str | None:
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse(page.url_name, kwargs={"slug": slug})
    except NoReverseMatch:
        return None


def pairs(sizes: tuple[int, ...]) -> list[tuple[int, int]]:
    """Each size with the next one up: (64, 256), (256, 1024)."""
    return list(itertools.pairwise(sizes))


def pair_key(small: int, large: int) -> str:
    return f"{large}/{small}"


def measure_pages(
    tournaments: dict[int, Any], *, samples: int, warmup: int, info_samples: int = 5
) -> tuple[dict[str, Any], list[str]]:
    """Cold renders of each public page at each size: the cache is emptied and the
    garbage collected before every request (outside the timed window), so each one loads
    and renders the tournament (:func:`timed_cold`)."""
    from django.test import Client

    sizes = tuple(sorted(tournaments))

    client = Client()
    results: dict[str, Any] = {}
    missing: list[str] = []
    urls: dict[str, dict[int, str]] = {}
    for page in PAGES:
        found = {size: page_url(page, t.slug) for size, t in tournaments.items()}
        if any(url is None for url in found.values()):
            missing.append(page.url_name)
            continue
        first = client.get(found[sizes[0]], **page.headers)
        if first.status_code != 200:
            missing.append(f"{page.url_name} ({first.status_code})")
            continue
        urls[page.key] = {size: str(url) for size, url in found.items()}
        counts = {}
        sql = {}
        for size in sizes:
            url = urls[page.key][size]
            clear_cache()
            response, queries = count_queries(lambda url=url, h=page.headers: client.get(url, **h))
            check_ok(response, f"GET {url}")
            counts[str(size)] = len(queries)
            sql[str(size)] = queries
        equal = len(set(counts.values())) == 1
        results[page.key] = {"label": page.label, "queries": counts, "queries_equal": equal}
        if not equal:
            results[page.key]["query_sql"] = sql

    series = {(key, size): Series(f"{key}@{size}") for key in urls for size in sizes}
    wanted = {
        page.key: samples if page.budget is not None else min(samples, info_samples)
        for page in PAGES
    }
    with GcClock() as clock:
        for index in range(warmup + samples):
            order = sizes if index % 2 == 0 else tuple(reversed(sizes))
            for key, by_size in urls.items():
                if index >= warmup + wanted[key]:
                    continue  # pages without a time budget: a few samples, for information
                headers = next(p.headers for p in PAGES if p.key == key)
                for size in order:
                    response, wall, cpu, gc_cpu = timed_cold(
                        lambda url=by_size[size], h=headers: client.get(url, **h), clock
                    )
                    check_ok(response, f"GET {by_size[size]}")
                    if index >= warmup:
                        series[(key, size)].add(wall, cpu, gc_cpu)
    for key in urls:
        entry = results[key]
        entry["timing"] = {str(size): series[(key, size)].summary() for size in sizes}
        entry["ratios"] = {
            pair_key(small, large): {
                "cpu": ratio(
                    statistics.median(series[(key, large)].cpu),
                    statistics.median(series[(key, small)].cpu),
                ),
                "wall": ratio(
                    statistics.median(series[(key, large)].wall),
                    statistics.median(series[(key, small)].wall),
                ),
            }
            for small, large in pairs(sizes)
        }
    return results, missing


# -- a follower's poll -----------------------------------------------------------------------


POLLS = {
    "cached": "region from the cache (200)",
    "not_modified": "region, If-None-Match (304)",
    "bare_get": "bare GET view",
    "cold": "region, cache emptied (200)",
}


def measure_poll(
    tournament: Any, *, players: int, samples: int, cold_samples: int, warmup: int
) -> dict[str, Any]:
    """A follower's poll of the standings region against a bare GET view.

    ``cached``: ``?region=standings`` as htmx in a phone's browser asks for it
    (``HX-Request``, ``HX-Target``, gzip accepted), without validators, answered from the
    cache; ``not_modified``: the same with the
    ``ETag`` of that answer (a 304); ``bare_get``: the bare view of
    :mod:`tools.bench.urls`. All anonymous, by one client that loaded the tournament page
    first (a follower's cookies). The three are timed in turns, each turn in the next of
    their six orders, so that each follows each other as often (a request pays for what
    the one before it left in the CPU's caches). ``cold``, for comparison: the cached
    request after emptying the cache (outside the timed window), timed on its own
    afterwards, so that its large renders do not slow the requests that follow them.
    """
    from django.test import Client
    from django.urls import reverse

    from .urls import BARE_GET_PATH

    slug = tournament.slug
    page = reverse("public:tournament", kwargs={"slug": slug})
    region = page + "?region=standings"
    # As a phone's browser asks: htmx's headers, and gzip accepted.
    htmx = {
        "HTTP_HX_REQUEST": "true",
        "HTTP_HX_TARGET": "standings",
        "HTTP_ACCEPT_ENCODING": "gzip, deflate, br",
    }
    client = Client()
    check_ok(client.get(page), f"GET {page}")
    clear_cache()
    warm = client.get(region, **htmx)  # renders the group into the cache
    check_ok(warm, f"GET {region}")
    etag = warm["ETag"]
    body = warm.content

    def cached() -> Any:
        return client.get(region, **htmx)

    def not_modified() -> Any:
        return client.get(region, **htmx, HTTP_IF_NONE_MATCH=etag)

    def bare_get() -> Any:
        return client.get(BARE_GET_PATH.format(slug=slug))

    def check_cached(response: Any) -> None:
        check_ok(response, f"GET {region}")
        if response["ETag"] != etag or response.content != body:
            raise RuntimeError(f"GET {region} changed during the bench: {response['ETag']}")

    def check_304(response: Any) -> None:
        if response.status_code != 304:
            raise RuntimeError(f"GET {region} with If-None-Match answered {response.status_code}")

    jobs: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]] = {
        "cached": (cached, check_cached),
        "not_modified": (not_modified, check_304),
        "bare_get": (bare_get, lambda r: check_ok(r, "bare GET view")),
    }
    result: dict[str, Any] = {"players": players, "url": region, "bytes": len(body)}
    # Every poll reads the version, as one that comes after public.live.ROW_SECONDS does
    # (within them a poll reads nothing at all): the conservative measure.
    from public import live as live_pages

    row_seconds, live_pages.ROW_SECONDS = live_pages.ROW_SECONDS, 0.0
    try:
        result.update(_timed_polls(jobs, cached, check_cached, warmup, samples, cold_samples))
    finally:
        live_pages.ROW_SECONDS = row_seconds
    series = result.pop("series")
    series["after_change"] = after_change(tournament, cached, check_ok, samples=cold_samples)
    result["timing"] = {name: s.summary() for name, s in series.items()}
    bare_cpu = statistics.median(series["bare_get"].cpu)
    bare_wall = statistics.median(series["bare_get"].wall)
    result["timing"]["after_change"]["ratio_cold_cpu"] = ratio(
        statistics.median(series["after_change"].cpu), statistics.median(series["cold"].cpu)
    )
    for name in ("cached", "not_modified", "cold"):
        result["timing"][name]["ratio_cpu"] = ratio(statistics.median(series[name].cpu), bare_cpu)
        result["timing"][name]["ratio_wall"] = ratio(
            statistics.median(series[name].wall), bare_wall
        )
    return result


def _timed_polls(
    jobs: dict[str, tuple[Callable[[], Any], Callable[[Any], None]]],
    cached: Callable[[], Any],
    check_cached: Callable[[Any], None],
    warmup: int,
    samples: int,
    cold_samples: int,
) -> dict[str, Any]:
    """The queries of each job, then each timed in turns; the cold poll last."""
    result: dict[str, Any] = {}
    queries: dict[str, int] = {}
    for name, (job, check) in jobs.items():
        response, sql = count_queries(job)
        check(response)
        queries[name] = len(sql)
        if len(sql) != 1:
            result.setdefault("query_sql", {})[name] = sql
    clear_cache()
    response, sql = count_queries(cached)
    check_cached(response)
    queries["cold"] = len(sql)
    result["queries"] = queries

    series = {name: Series(name) for name in (*jobs, "cold")}
    orders = list(itertools.permutations(jobs))
    gc.collect()
    for index in range(warmup + samples):
        for name in orders[index % len(orders)]:
            job, check = jobs[name]
            response, wall, cpu = timed(job)
            check(response)
            if index >= warmup:
                series[name].add(wall, cpu)
    with GcClock() as clock:
        for index in range(1 + cold_samples):  # the first one as a warm-up
            response, wall, cpu, gc_cpu = timed_cold(cached, clock)
            check_cached(response)
            if index:
                series["cold"].add(wall, cpu, gc_cpu)
    result["series"] = series
    return result


def after_change(
    tournament: Any, cached: Callable[[], Any], check: Callable[..., None], *, samples: int
) -> Series:
    """The cached poll as the first request after one player's name changed: the group is
    rendered again (the version moved) while the rest of the field is as it was, as after
    a hand. What this process kept (scored sheets, rendered boxes and rows) is kept; the
    rename itself is outside the timed window."""
    from players.registry import update_player
    from public import live as live_pages
    from tournaments.models import Entry

    entry = Entry.objects.select_related("player").filter(tournament=tournament).first()
    if entry is None:
        raise RuntimeError(f"{tournament.slug} has no players")
    player, name = entry.player, entry.player.name
    series = Series("after_change")
    rerender, live_pages.RERENDER_SECONDS = live_pages.RERENDER_SECONDS, 0.0
    row_seconds, live_pages.ROW_SECONDS = live_pages.ROW_SECONDS, 0.0  # sees each rename
    try:
        for index in range(1 + samples):  # the first one as a warm-up
            new_name = f"{name} {index % 2 + 1}"
            update_player(player=player, data={"name": new_name}, user=tournament.owner)
            gc.collect()
            response, wall, cpu = timed(cached)
            check(response, "GET the standings region after a rename")
            body = response.content
            if response.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            if new_name not in body.decode():
                raise RuntimeError(f"the region after a rename does not show {new_name!r}")
            if index:
                series.add(wall, cpu)
        update_player(player=player, data={"name": name}, user=tournament.owner)
    finally:
        live_pages.RERENDER_SECONDS = rerender
        live_pages.ROW_SECONDS = row_seconds
    return series


# -- the whole run ---------------------------------------------------------------------------


def build(sizes: tuple[int, ...], entry_players: int) -> dict[str, Any]:
    from django.contrib.auth.models import Permission

    from tests.factories import make_user

    from .data import check_summaries, new_tournament, play_out

    director = make_user(username="bench-director")
    director.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
    )
    built: dict[str, Any] = {"director": director, "played": {}, "build": {}}
    for size in sizes:
        start = time.perf_counter()
        tournament = new_tournament(size, owner=director, name=f"Bench {size}", tables=size // 2)
        hands = play_out(tournament, user=director, tag=f"bench{size}")
        played = tournament.matches.filter(is_bye=False).count()
        wrong = check_summaries(tournament)
        if wrong:
            raise RuntimeError("stored summaries differ from the engine: " + "; ".join(wrong[:5]))
        built["played"][size] = tournament
        built["build"][str(size)] = {
            "players": size,
            "matches": played,
            "hands": hands,
            "seconds": round(time.perf_counter() - start, 2),
        }
    built["entry"] = new_tournament(
        entry_players, owner=director, name="Bench entry", tables=entry_players // 2
    )
    return built


def measure_backup(players: int) -> dict[str, Any]:
    """One backup of the bench database as it stands (the built tournaments), timed."""
    from django.db import connection

    from backups.sqlite import backup
    from scoring.models import Hand
    from tournaments.models import Tournament

    if connection.vendor != "sqlite":
        return {"skipped": f"backups are for SQLite, not {connection.vendor}"}
    with tempfile.TemporaryDirectory(prefix="ginclub-bench-backup-") as folder:
        start = time.perf_counter()
        copy = backup(Path(connection.settings_dict["NAME"]), Path(folder), keep=1)
        seconds = time.perf_counter() - start
        size = copy.stat().st_size
    return {
        "largest_tournament_players": players,
        "tournaments": Tournament.objects.count(),
        "hands": Hand.objects.count(),
        "seconds": round(seconds, 3),
        "bytes": size,
    }


def environment() -> dict[str, Any]:
    import django
    from django.conf import settings
    from django.db import connection

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": commit,
        "python": platform.python_version(),
        "django": django.get_version(),
        "database": f"{connection.vendor} {connection.Database.sqlite_version}"
        if connection.vendor == "sqlite"
        else connection.vendor,
        "cache": settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1],
        "cpus": os.cpu_count(),
        "load_average_start": [round(x, 2) for x in os.getloadavg()],
    }


def run_pdf(matches: int, repeats: int) -> dict[str, Any]:
    try:
        from tools.bench import pdf_bench
    except Exception as error:  # someone else's module; a broken import is reported, not fatal
        return {"skipped": f"tools.bench.pdf_bench not importable: {error!r}"}
    result = pdf_bench.run(matches=matches, repeats=repeats, qr_compare=False)
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in result.items()}


def budgets(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every budget of the report as {name, value, budget, pass}."""
    checks: list[dict[str, Any]] = []
    entry = report["hand_entry"]["hand_entry"]
    checks.append(
        {
            "name": "hand entry ÷ bare view (CPU medians)",
            "value": entry["ratio_cpu"],
            "budget": f"≤ {HAND_ENTRY_BUDGET}",
            "pass": entry["ratio_cpu"] <= HAND_ENTRY_BUDGET,
        }
    )
    for route, result in report["hand_entry_queries"].items():
        counts = result["hands_before"]
        checks.append(
            {
                "name": f"queries per hand entry ({route}) at "
                + " / ".join(f"{k} hands" for k in counts),
                "value": " / ".join(str(v) for v in counts.values()),
                "budget": "equal",
                "pass": result["equal"],
            }
        )
    pages = report["pages"]
    sizes = tuple(report["sizes"])
    for page in PAGES:
        result = pages.get(page.key)
        if result is None:
            continue
        if page.budget is not None:
            for small, large in pairs(sizes):
                value = result["ratios"][pair_key(small, large)]["cpu"]
                checks.append(
                    {
                        "name": f"{page.label} {large} ÷ {small} players (CPU medians, cold)",
                        "value": value,
                        "budget": f"≤ {page.budget}",
                        "pass": value <= page.budget,
                    }
                )
        checks.append(
            {
                "name": f"queries of the {page.label} at "
                + " / ".join(f"{k} players" for k in result["queries"])
                + " (cold)",
                "value": " / ".join(str(v) for v in result["queries"].values()),
                "budget": "equal",
                "pass": result["queries_equal"],
            }
        )
    poll = report.get("poll")
    if poll is not None:
        cached = poll["timing"]["cached"]
        checks.append(
            {
                "name": f"cached standings region ({poll['players']} players) ÷ bare GET "
                "(CPU medians)",
                "value": cached["ratio_cpu"],
                "budget": f"≤ {POLL_BUDGET}",
                "pass": cached["ratio_cpu"] <= POLL_BUDGET,
            }
        )
        changed = poll["timing"]["after_change"]
        checks.append(
            {
                "name": f"region re-rendered after one change ÷ cold ({poll['players']} "
                "players, CPU medians)",
                "value": changed["ratio_cold_cpu"],
                "budget": f"≤ {AFTER_CHANGE_BUDGET}",
                "pass": changed["ratio_cold_cpu"] <= AFTER_CHANGE_BUDGET,
            }
        )
        counts = poll["queries"]
        checks.append(
            {
                "name": "queries of a cached standings poll (200 / 304)",
                "value": f"{counts['cached']} / {counts['not_modified']}",
                "budget": "1 / 1",
                "pass": counts["cached"] == 1 and counts["not_modified"] == 1,
            }
        )
    checks.extend((report.get("cards") or {}).get("checks", []))
    checks.extend((report.get("estimate") or {}).get("checks", []))
    pdf = report.get("round_pack") or {}
    if "ratio" in pdf:
        checks.append(
            {
                "name": f"round pack of {pdf['matches']} ÷ bare reportlab grids (CPU)",
                "value": round(pdf["ratio"], 3),
                "budget": f"≤ {pdf['budget']}",
                "pass": pdf["ratio"] <= pdf["budget"],
            }
        )
    swiss = report.get("swiss")
    if swiss:
        checks.append(
            {
                "name": f"pair round {swiss['round']} of a {swiss['players']:,}-player Swiss "
                "(CPU s, median)",
                "value": swiss["median_cpu_s"],
                "budget": f"< {swiss['budget_s']}",
                "pass": swiss["pass"],
            }
        )
    rematches = report.get("rematches")
    if rematches:
        checks.append(
            {
                "name": "losers'-bracket rematches, 3–64 players: sizes worse than the peer",
                "value": len(rematches["worse_than_peer"]),
                "budget": "0",
                "pass": rematches["pass"],
            }
        )
    club = report.get("club")
    if club:
        recompute = club["recompute"]
        checks.append(
            {
                "name": f"club rating: recompute of {recompute['rated']:,} matches, CPU s where "
                f"RLCard takes {recompute['anchor_reference_us']:g} µs a hand "
                f"(raw {recompute['recompute_cpu_s']} s)",
                "value": recompute["recompute_at_reference_s"],
                "budget": f"< {recompute['budget_s']:g}",
                "pass": recompute["recompute_at_reference_s"] < recompute["budget_s"],
            }
        )
        page = club["player_page"]
        checks.append(
            {
                "name": "queries of a player page at "
                + " / ".join(f"{k} tournaments" for k in page["queries"]),
                "value": " / ".join(str(v) for v in page["queries"].values()),
                "budget": "equal",
                "pass": page["equal"],
            }
        )
    return checks


def run_bench(
    *,
    sizes: tuple[int, ...] = SIZES,
    entry_players: int = 64,
    entry_samples: int = 200,
    page_samples: int = 20,
    poll_samples: int = 200,
    warmup: int = 10,
    pdf: tuple[int, int] | None = (128, 7),
    cards: tuple[int, int] | None = (2000, 5),
    estimate: tuple[int, int] | None = (12, 5),
    swiss_players: int = 1024,
    rematch_sets: int = 1000,
    club: tuple[int, int] | None = (10_000, 200),
) -> dict[str, Any]:
    """Build the data and take every measurement; Django must be set up with a database,
    and with a cache of the bench's own: it is emptied before every cold request."""
    sizes = tuple(sorted(set(sizes)))
    if len(sizes) < 2:
        raise ValueError("the bench compares at least two sizes")
    report: dict[str, Any] = {"environment": environment(), "sizes": list(sizes)}
    start = time.perf_counter()
    built = build(sizes, entry_players)
    report["build"] = built["build"]
    report["build"]["seconds_total"] = round(time.perf_counter() - start, 2)
    report["backup"] = measure_backup(max(sizes))

    entry, queries = measure_entry(
        built["director"], built["entry"], samples=entry_samples, warmup=warmup
    )
    report["hand_entry"] = entry
    report["hand_entry_queries"] = queries
    pages, missing = measure_pages(
        built["played"], samples=page_samples, warmup=max(2, warmup // 3)
    )
    report["pages"] = pages
    if missing:
        report["pages_missing"] = missing
    poll_players = POLL_PLAYERS if POLL_PLAYERS in sizes else sizes[-1]
    report["poll"] = measure_poll(
        built["played"][poll_players],
        players=poll_players,
        samples=poll_samples,
        cold_samples=page_samples,
        warmup=warmup,
    )
    if pdf is not None:
        report["round_pack"] = run_pdf(*pdf)
    if cards is not None:
        from tools.bench import cards_bench

        report["cards"] = cards_bench.run(hands=cards[0], repeats=cards[1])
    if estimate is not None:
        from tools.bench import estimate_bench

        report["estimate"] = estimate_bench.run(rooms=estimate[0], repeats=estimate[1])
    from .pairing_bench import measure_rematches, measure_swiss

    report["swiss"] = measure_swiss(swiss_players)
    report["rematches"] = measure_rematches(rematch_sets)
    if club is not None:
        from tools.bench import club_bench

        report["club"] = club_bench.run(
            matches=club[0], tournaments=club[1], owner=built["director"]
        )
    report["environment"]["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    report["seconds"] = round(time.perf_counter() - start, 1)
    report["budgets"] = budgets(report)
    report["pass"] = all(check["pass"] for check in report["budgets"])
    return report


def print_report(report: dict[str, Any]) -> None:
    env = report["environment"]
    print(
        f"\nmake bench · {env['when']} · commit {env['commit']} · {env['database']} · "
        f"{env['cpus']} CPUs · load {env['load_average_start']} → {env['load_average_end']}"
    )
    for info in report["build"].values():
        if isinstance(info, dict):
            print(
                f"  built {info['players']} players: {info['matches']} matches, "
                f"{info['hands']} hands, {info['seconds']} s"
            )
    print(f"  building took {report['build']['seconds_total']} s in all; cache: {env['cache']}")
    copy = report.get("backup") or {}
    if "skipped" in copy:
        print(f"  backup: {copy['skipped']}")
    elif copy:
        print(
            f"  backup of the database ({copy['tournaments']} tournaments, the largest "
            f"{copy['largest_tournament_players']} players played out, {copy['hands']} hands): "
            f"{copy['seconds']} s, {copy['bytes'] / 1e6:.1f} MB"
        )
    print("\nmedians (ms)                         CPU      wall   p90 wall  samples")
    for name, s in report["hand_entry"].items():
        extra = (
            f"  ÷ bare {s['ratio_cpu']:.2f} (wall {s['ratio_wall']:.2f})"
            if "ratio_cpu" in s
            else ""
        )
        print(
            f"  {name:32} {s['median_cpu_ms']:7.2f} {s['median_wall_ms']:9.2f} "
            f"{s['p90_wall_ms']:9.2f} {s['samples']:8}{extra}"
        )
    print("  public pages, cold (cache emptied before each request; gc: the collector's CPU):")
    for result in report["pages"].values():
        for size, s in result.get("timing", {}).items():
            label = f"{result['label']} @{size}"
            print(
                f"  {label:32} {s['median_cpu_ms']:7.2f} {s['median_wall_ms']:9.2f} "
                f"{s['p90_wall_ms']:9.2f} {s['samples']:8}  gc {s['median_gc_cpu_ms']:.2f}"
            )
        ratios = "; ".join(
            f"{pair.replace('/', '÷')}: {r['cpu']:.2f} (wall {r['wall']:.2f})"
            for pair, r in result.get("ratios", {}).items()
        )
        queries = " / ".join(str(v) for v in result["queries"].values())
        print(f"  {'':32} {ratios}; queries {queries}")
    poll = report.get("poll")
    if poll:
        print(
            f"  a follower's poll of {poll['url']} ({poll['players']} players, "
            f"{poll['bytes'] / 1000:.1f} kB):"
        )
        for name, label in POLLS.items():
            s = poll["timing"][name]
            extra = (
                f"  ÷ bare {s['ratio_cpu']:.2f} (wall {s['ratio_wall']:.2f})"
                if "ratio_cpu" in s
                else ""
            )
            print(
                f"  {label:32.32} {s['median_cpu_ms']:7.2f} {s['median_wall_ms']:9.2f} "
                f"{s['p90_wall_ms']:9.2f} {s['samples']:8}{extra}; "
                f"{poll['queries'][name]} queries"
            )
    if report.get("pages_missing"):
        print(f"  not measured (not available): {', '.join(report['pages_missing'])}")
    swiss = report.get("swiss")
    if swiss:
        print(
            f"  Swiss, {swiss['players']} players, round {swiss['round']}: "
            f"{swiss['median_cpu_s']} s CPU ({swiss['median_wall_s']} s wall, "
            f"{swiss['method']}, deviation {swiss['deviation']}, "
            f"{swiss['rematches']} rematches)"
        )
    club = report.get("club")
    if club:
        recompute, page = club["recompute"], club["player_page"]
        print(
            f"  club rating, {recompute['matches']:,} matches: recompute "
            f"{recompute['recompute_cpu_s']} s CPU ({recompute['recompute_wall_s']} s wall; "
            f"RLCard's deadwood {recompute['anchor_us']} µs a hand beside it, so "
            f"{recompute['recompute_at_reference_s']} s where it takes "
            f"{recompute['anchor_reference_us']:g} µs; "
            f"openskill replay alone {recompute['replay_cpu_s']} s; "
            f"check when unchanged {recompute['unchanged_check_ms']} ms)"
        )
        print(
            "  player page: "
            + ", ".join(
                f"{n} tournaments {page['median_cpu_ms'][n]} ms CPU in {page['queries'][n]} queries"
                for n in page["queries"]
            )
        )
    rematches = report.get("rematches")
    if rematches:
        print("\n".join("  " + line for line in rematches["lines"]))
    pdf = report.get("round_pack") or {}
    if "skipped" in pdf:
        print(f"  round pack: {pdf['skipped']}")
    counts = report.get("cards")
    if counts:
        melds, layoffs, anchor = counts["melds"], counts["layoffs"], counts["anchor"]
        print(
            "  card counts (CPU µs per hand, no memo): optimal melds "
            f"{melds['dealt']['us_per_hand']} dealt / {melds['melded']['us_per_hand']} melded "
            f"(÷ RLCard {melds['dealt']['ratio_rlcard']} / {melds['melded']['ratio_rlcard']}); "
            f"lay-offs {layoffs['melded']['us_per_hand']} (÷ RLCard "
            f"{layoffs['melded']['ratio_rlcard']}); whole ruling "
            f"{layoffs['ruling']['us_per_hand']} (memo hit {layoffs['memo_hit_us']}); "
            f"RLCard's deadwood beside them {anchor['dealt']['us_per_hand']} dealt / "
            f"{anchor['melded']['us_per_hand']} melded"
        )
    if report.get("estimate"):
        from tools.bench import estimate_bench

        print("\n".join("  " + line for line in estimate_bench.lines(report["estimate"])))
    width = max(len(check["name"]) for check in report["budgets"])
    print(f"\n  {'budget':{width}} {'value':>10}  {'budget':>7}")
    for check in report["budgets"]:
        verdict = "pass" if check["pass"] else "FAIL"
        print(f"  {check['name']:{width}} {check['value']!s:>10}  {check['budget']:>7}  {verdict}")
    print(f"\n{'all budgets met' if report['pass'] else 'BUDGET BROKEN'} · {report['seconds']} s")


def sizes_arg(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if len(sizes) < 2 or sizes[0] < 2:
        raise argparse.ArgumentTypeError("at least two sizes of 2 players or more")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entry-samples", type=int, default=200)
    parser.add_argument("--page-samples", type=int, default=20)
    parser.add_argument("--poll-samples", type=int, default=200)
    parser.add_argument(
        "--sizes",
        type=sizes_arg,
        default=SIZES,
        help="players of the played tournaments, comma-separated (default: %(default)s)",
    )
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--club-matches", type=int, default=10_000)
    parser.add_argument("--club-tournaments", type=int, default=200)
    parser.add_argument("--no-pdf", action="store_true", help="skip the round-pack benchmark")
    parser.add_argument("--swiss-players", type=int, default=1024)
    parser.add_argument("--rematch-sets", type=int, default=1000)
    parser.add_argument("--report", type=Path, default=REPORT)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="ginclub-bench-") as scratch:
        configure(str(Path(scratch) / "bench.sqlite3"))
        report = run_bench(
            sizes=args.sizes,
            entry_samples=args.entry_samples,
            page_samples=args.page_samples,
            poll_samples=args.poll_samples,
            warmup=args.warmup,
            pdf=None if args.no_pdf else (128, 7),
            swiss_players=args.swiss_players,
            rematch_sets=args.rematch_sets,
            club=(args.club_matches, args.club_tournaments),
        )
        from django.db import connections

        connections.close_all()
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print_report(report)
    print(f"report: {args.report}")
    return 0 if report["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
