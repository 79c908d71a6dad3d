"""Followers of a tournament's public page, as phones in the room poll it (SPEC 10, issue 15).

A follower has ``/t/<slug>/`` open: htmx reloads its two live regions, ``bracket`` and
``standings``, every poll interval, each with ``HX-Request``, ``HX-Target``,
``HX-Trigger`` and ``HX-Current-URL``, and with the validators of the last answer it got
for that region (``If-None-Match``, ``If-Modified-Since``). The server answers 200 (new
content) or 304 (unchanged). Each region's timer restarts when a 200 is swapped in, and
runs on from the request otherwise, as htmx's ``every`` trigger does; an answer with
``Poll-Again-After: N`` (a region rendered before the latest change) has the next poll
sent N seconds after it, as static/js/live.js does.

Thousands of followers run in one asyncio event loop on raw streams (no HTTP library), so
the client costs little CPU beside the server on the same machine. Each follower keeps its
connections alive between polls like a phone's browser (at most two, one per region in
flight), opens a new one when the server has closed an idle one, and retries a request
once when a kept-alive connection turns out to be closed as it is sent (what browsers do
for a GET). With ``keep_alive=False`` every poll opens a connection of its own and says
``Connection: close``.

:func:`summarize` turns the polls, and the times the tables' hands were acknowledged, into
the phase's figures: polls answered, their latency (200 and 304 apart and together), the
share of 304s, errors, region requests a second, and how long after its acknowledgement
each winning hand first showed in each follower's standings (:func:`appearance_delays`).

Run by :mod:`tools.load.followers_phase` in a process of its own
(``python -m tools.load.followers --base … --slug … --out …``). Nothing here imports
Django, and only loopback is ever contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import resource
import ssl
import sys
import time
import urllib.parse
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .client import is_loopback

REGIONS = ("bracket", "standings")
STANDINGS = 1  # index of the standings region in REGIONS
POLL_FALLBACK = 10.0
MAX_CONNECTIONS = 2  # per follower: the two regions in flight at once, as a browser would
STAT_CELL = re.compile(rb'<td class="num stat"[^>]*>\s*([^<]*?)\s*</td>')
STAT_COLUMNS = 5  # Hands won, Gins, Undercuts, Shutouts, Avg. knock: in that order, each row
TROUBLE_SAMPLES = 30


def poll_seconds() -> tuple[float, str]:
    """The public page's poll interval and where it came from (the project's constant,
    ``public.live.POLL_SECONDS``, or this harness's fallback while there is none)."""
    try:
        from public.live import POLL_SECONDS  # type: ignore[import-not-found]
    except ImportError:
        return POLL_FALLBACK, f"fallback {POLL_FALLBACK:g} s (no public.live.POLL_SECONDS)"
    return float(POLL_SECONDS), "public.live.POLL_SECONDS"


def hands_won_total(body: bytes) -> int | None:
    """The sum of the standings' "Hands won" column, or None if ``body`` has no standings
    table as the page draws it (each row: five ``num stat`` cells, Hands won first)."""
    cells = STAT_CELL.findall(body)
    if not cells or len(cells) % STAT_COLUMNS:
        return None
    try:
        return sum(int(cell) for cell in cells[::STAT_COLUMNS])
    except ValueError:
        return None


# -- one poll, one follower, many followers --------------------------------------------------


@dataclass(slots=True)
class Poll:
    follower: int
    region: int
    """Index into REGIONS."""
    start: float
    """``time.monotonic()`` when the poll was due (before any connection was opened)."""
    seconds: float
    status: int
    """The HTTP status; 0 for no answer (timeout, refused, reset, malformed)."""
    total: int | None = None
    """Standings 200 only: the Hands-won total it showed."""
    reused: bool = False
    """Sent over a kept-alive connection."""
    error: str = ""
    again: float | None = None
    """``Poll-Again-After``: the next poll is due this many seconds after the answer."""

    def row(self) -> list[Any]:
        return [
            self.follower,
            self.region,
            round(self.start, 6),
            round(self.seconds, 6),
            self.status,
            -1 if self.total is None else self.total,
            int(self.reused),
            self.error,
        ]

    @classmethod
    def of(cls, row: Sequence[Any]) -> Poll:
        follower, region, start, seconds, status, total, reused, error = row
        total = None if total < 0 else total
        return cls(follower, region, start, seconds, status, total, bool(reused), error)


@dataclass
class ClientCounters:
    connects: int = 0
    reused: int = 0
    closed_idle: int = 0
    """Kept-alive connections found closed by the server before a poll (gunicorn's
    keep-alive timeout, waitress's channel timeout)."""
    stale_retries: int = 0
    """Polls sent again on a new connection: the kept-alive one closed as it was sent."""
    open_connections: int = 0
    peak_connections: int = 0


class HTTPError(Exception):
    """No usable HTTP answer."""


class StaleConnection(HTTPError):
    """A kept-alive connection closed before a byte of the answer: safe to send again."""


@dataclass(slots=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    keep: bool


class Connection:
    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, counters: ClientCounters
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.counters = counters
        self.used = False
        self.closed = False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.counters.open_connections -= 1
            self.writer.close()

    async def exchange(self, request: bytes) -> Answer:
        self.writer.write(request)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as error:
            if not error.partial and self.used:
                raise StaleConnection("closed before answering") from error
            raise HTTPError(f"answer cut off after {len(error.partial)} bytes") from error
        except (ConnectionResetError, BrokenPipeError) as error:
            if self.used:
                raise StaleConnection(repr(error)) from error
            raise HTTPError(repr(error)) from error
        except asyncio.LimitOverrunError as error:
            raise HTTPError("headers over 64 KiB") from error
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            raise HTTPError(f"bad status line {lines[0][:80]!r}")
        status = int(parts[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        keep = parts[0] == "HTTP/1.1" and "close" not in headers.get("connection", "").lower()
        try:
            body = await self._body(status, headers)
        except asyncio.IncompleteReadError as error:
            raise HTTPError("body cut off") from error
        except (ConnectionResetError, BrokenPipeError) as error:
            raise HTTPError(repr(error)) from error
        if body is None:  # read to the end of the connection
            body, keep = await self.reader.read(), False
        self.used = True
        return Answer(status, headers, body, keep)

    async def _body(self, status: int, headers: dict[str, str]) -> bytes | None:
        if status in (204, 304) or 100 <= status < 200:
            return b""
        if "chunked" in headers.get("transfer-encoding", "").lower():
            chunks = []
            while True:
                size_line = await self.reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while (await self.reader.readuntil(b"\r\n")) != b"\r\n":
                        pass  # trailers
                    return b"".join(chunks)
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
        if "content-length" in headers:
            return await self.reader.readexactly(int(headers["content-length"]))
        return None


@dataclass
class Target:
    host: str
    port: int
    path: str
    page_url: str
    tls: ssl.SSLContext | None = None
    """HTTPS (a club's server behind HAProxy), trusting what ``SSL_CERT_FILE`` names."""

    @classmethod
    def of(cls, base: str, slug: str) -> Target:
        parts = urllib.parse.urlsplit(base)
        host = parts.hostname or ""
        if parts.scheme not in ("http", "https") or not is_loopback(host):
            raise ValueError(f"followers talk to loopback only, not {base}")
        secure = parts.scheme == "https"
        port = parts.port or (443 if secure else 80)
        path = f"/t/{slug}/"
        tls = ssl.create_default_context() if secure else None
        return cls(host, port, path, f"{parts.scheme}://{host}:{port}{path}", tls)


class Follower:
    """One phone with the public page open."""

    def __init__(
        self,
        number: int,
        target: Target,
        *,
        keep_alive: bool,
        timeout: float,
        counters: ClientCounters,
    ) -> None:
        self.number = number
        self.target = target
        self.keep_alive = keep_alive
        self.timeout = timeout
        self.counters = counters
        self.idle: list[Connection] = []
        self.etag: list[str] = ["", ""]
        self.modified: list[str] = ["", ""]

    def request(self, region: int) -> bytes:
        name = REGIONS[region]
        lines = [
            # the region's own URL, as the page's hx-get names it
            f"GET {self.target.path}?region={name} HTTP/1.1",
            f"Host: {self.target.host}:{self.target.port}",
            "User-Agent: ginclub-load-follower",
            "Accept: */*",
            "Accept-Encoding: gzip, deflate",
            "Accept-Language: en-GB,en;q=0.9",
            "HX-Request: true",
            f"HX-Trigger: {name}",
            f"HX-Target: {name}",
            f"HX-Current-URL: {self.target.page_url}",
            "Connection: " + ("keep-alive" if self.keep_alive else "close"),
        ]
        if self.etag[region]:
            lines.append(f"If-None-Match: {self.etag[region]}")
        if self.modified[region]:
            lines.append(f"If-Modified-Since: {self.modified[region]}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _connect(self) -> Connection:
        reader, writer = await asyncio.open_connection(
            self.target.host, self.target.port, ssl=self.target.tls
        )
        self.counters.connects += 1
        self.counters.open_connections += 1
        self.counters.peak_connections = max(
            self.counters.peak_connections, self.counters.open_connections
        )
        return Connection(reader, writer, self.counters)

    async def _connection(self) -> tuple[Connection, bool]:
        while self.idle:
            connection = self.idle.pop()
            if connection.reader.at_eof() or connection.writer.is_closing():
                self.counters.closed_idle += 1
                connection.close()
                continue
            return connection, True
        return await self._connect(), False

    async def _exchange(self, region: int) -> tuple[Answer, bool]:
        connection, reused = await self._connection()
        try:
            try:
                answer = await connection.exchange(self.request(region))
            except StaleConnection:
                connection.close()
                self.counters.stale_retries += 1
                connection, reused = await self._connect(), False
                answer = await connection.exchange(self.request(region))
        except BaseException:
            connection.close()
            raise
        if answer.keep and self.keep_alive and len(self.idle) < MAX_CONNECTIONS:
            self.idle.append(connection)
        else:
            connection.close()
        return answer, reused

    async def poll(self, region: int, loop: asyncio.AbstractEventLoop) -> Poll:
        start = loop.time()
        try:
            async with asyncio.timeout(self.timeout):
                answer, reused = await self._exchange(region)
        except TimeoutError:
            return Poll(self.number, region, start, loop.time() - start, 0, error="timeout")
        except (OSError, HTTPError, ValueError) as error:
            message = f"{type(error).__name__}: {error}"[:160]
            return Poll(self.number, region, start, loop.time() - start, 0, error=message)
        seconds = loop.time() - start
        if reused:
            self.counters.reused += 1
        poll = Poll(self.number, region, start, seconds, answer.status, reused=reused)
        again = answer.headers.get("poll-again-after", "")
        if again:
            poll.again = float(again)
        if answer.status == 200:
            self.etag[region] = answer.headers.get("etag", "")
            self.modified[region] = answer.headers.get("last-modified", "")
            if region == STANDINGS:
                poll.total = hands_won_total(decoded(answer))
                if poll.total is None:
                    poll.error = "a 200 with no standings table in it"
        elif answer.status == 304:  # unchanged; a 304 repeats the validators it answers
            self.etag[region] = answer.headers.get("etag", self.etag[region])
            self.modified[region] = answer.headers.get("last-modified", self.modified[region])
        else:
            poll.error = f"HTTP {answer.status}"
        return poll

    def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle.clear()


def decoded(answer: Answer) -> bytes:
    encoding = answer.headers.get("content-encoding", "").lower()
    if encoding == "gzip":
        return zlib.decompress(answer.body, 16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompress(answer.body)
    return answer.body


@dataclass
class Crowd:
    """What a crowd of followers is asked to do."""

    base: str
    slug: str
    followers: int
    start_at: float
    """``time.monotonic()`` of the first poll window's start (shared with the tables)."""
    seconds: float
    """No poll starts after ``start_at + seconds``; polls in flight then are waited for."""
    interval: float
    timeout: float = 10.0
    keep_alive: bool = True
    seed: int = 0
    first: int = 0
    """The first follower's number (several processes split one crowd)."""


@dataclass
class CrowdResult:
    polls: list[Poll]
    counters: ClientCounters
    cpu_seconds: float
    wall_seconds: float
    loop_lag_ms: dict[str, float]
    late_start_ms: float
    error_samples: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "polls": [poll.row() for poll in self.polls],
            "counters": asdict(self.counters),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "wall_seconds": round(self.wall_seconds, 3),
            "loop_lag_ms": self.loop_lag_ms,
            "late_start_ms": round(self.late_start_ms, 1),
            "error_samples": self.error_samples,
        }


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def crowd(spec: Crowd) -> CrowdResult:
    """Every follower of ``spec`` polls both regions from its own random moment in the
    first interval until ``spec.seconds`` are up."""
    loop = asyncio.get_running_loop()
    target = Target.of(spec.base, spec.slug)
    counters = ClientCounters()
    rng = random.Random(spec.seed)
    polls: list[Poll] = []
    samples: list[str] = []
    end = spec.start_at + spec.seconds
    followers = [
        Follower(
            spec.first + i,
            target,
            keep_alive=spec.keep_alive,
            timeout=spec.timeout,
            counters=counters,
        )
        for i in range(spec.followers)
    ]
    lags: list[float] = []
    done = asyncio.Event()

    async def watch_lag() -> None:
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(0.05)
            lags.append(loop.time() - before - 0.05)

    async def region_loop(follower: Follower, region: int, offset: float) -> None:
        due = spec.start_at + offset
        while due < end:
            await asyncio.sleep(max(0.0, due - loop.time()))
            poll = await follower.poll(region, loop)
            polls.append(poll)
            if poll.error and len(samples) < TROUBLE_SAMPLES:
                samples.append(f"follower {follower.number} {REGIONS[region]}: {poll.error}")
            # htmx: a swapped-in region starts its timer afresh; otherwise it runs on
            due = (poll.start + poll.seconds if poll.status == 200 else poll.start) + spec.interval
            if poll.again is not None:  # live.js: sooner, counted from the answer
                due = min(due, poll.start + poll.seconds + poll.again)

    late = max(0.0, loop.time() - spec.start_at)
    cpu_before, wall_before = cpu_seconds(), time.monotonic()
    lag_task = asyncio.create_task(watch_lag())
    tasks = []
    for follower in followers:
        offset = rng.uniform(0, spec.interval)  # the moment this phone opened the page
        for region in range(len(REGIONS)):
            tasks.append(asyncio.create_task(region_loop(follower, region, offset)))
    await asyncio.gather(*tasks)
    done.set()
    await lag_task
    for follower in followers:
        follower.close()
    ordered = sorted(lags)
    return CrowdResult(
        polls=polls,
        counters=counters,
        cpu_seconds=cpu_seconds() - cpu_before,
        wall_seconds=time.monotonic() - wall_before,
        loop_lag_ms={
            "p50": round(percentile(ordered, 0.5) * 1000, 1),
            "p95": round(percentile(ordered, 0.95) * 1000, 1),
            "max": round((ordered[-1] if ordered else 0.0) * 1000, 1),
        },
        late_start_ms=late * 1000,
        error_samples=samples,
    )


# -- what the polls say -------------------------------------------------------------------------


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of already sorted values (nearest rank, as tools.load.run's)."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latency_ms(values: Iterable[float]) -> dict[str, Any]:
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "p50_ms": round(percentile(ordered, 0.50) * 1000, 1),
        "p95_ms": round(percentile(ordered, 0.95) * 1000, 1),
        "max_ms": round((ordered[-1] if ordered else 0.0) * 1000, 1),
    }


@dataclass
class Delays:
    """How long after its acknowledgement each winning hand showed in followers' standings."""

    hands: int = 0
    """Winning hands acknowledged."""
    pairs: int = 0
    """(hand, follower) pairs judged: the follower started a standings poll after the
    hand was acknowledged."""
    seen: int = 0
    missed: int = 0
    """Judged pairs in which the follower never showed the hand."""
    unjudged: int = 0
    """Pairs with no standings poll started after the acknowledgement (the run ended)."""
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    max_ms: float = 0.0
    worst: str = ""


def appearance_delays(
    acknowledged: Sequence[float],
    base_total: int,
    shown: dict[int, list[tuple[float, int]]],
    asked: dict[int, list[float]],
) -> Delays:
    """For the k-th winning hand acknowledged (at ``acknowledged[k-1]``, sorted), and each
    follower: the first standings 200 it received at or after that moment whose Hands-won
    total is at least ``base_total + k``, minus the moment. A 200 received *before* the
    acknowledgement that already shows it counts as a delay of 0 (the hand was committed
    before its answer reached the table).

    ``shown[f]``: follower f's standings 200s as (received, total), in the order received.
    ``asked[f]``: when follower f started each standings poll (any outcome). A pair is
    judged only if f started a poll after the acknowledgement: that poll's answer must
    show the hand (it was stored before it was acknowledged).
    """
    result = Delays(hands=len(acknowledged))
    delays: list[float] = []
    worst = (-1.0, -1, -1)
    for follower, starts in asked.items():
        seen = shown.get(follower, [])
        times = [received for received, _total in seen]
        best: list[int] = []  # the highest total shown so far, after each 200
        for _received, total in seen:
            best.append(max(total, best[-1]) if best else total)
        last_start = max(starts, default=float("-inf"))
        j = 0
        for k, moment in enumerate(acknowledged, start=1):
            if last_start < moment:
                result.unjudged += len(acknowledged) - k + 1
                break
            needed = base_total + k
            while j < len(best) and best[j] < needed:
                j += 1
            if j == len(best):
                result.missed += len(acknowledged) - k + 1
                result.pairs += len(acknowledged) - k + 1
                break
            result.pairs += 1
            result.seen += 1
            delay = max(0.0, times[j] - moment)
            delays.append(delay)
            if delay > worst[0]:
                worst = (delay, k, follower)
    delays.sort()
    result.p50_ms = round(percentile(delays, 0.50) * 1000, 1)
    result.p95_ms = round(percentile(delays, 0.95) * 1000, 1)
    result.max_ms = round((delays[-1] if delays else 0.0) * 1000, 1)
    if worst[1] > 0:
        result.worst = f"winning hand {worst[1]} reached follower {worst[2]} after {worst[0]:.2f} s"
    return result


def summarize(
    polls: Sequence[Poll],
    *,
    followers: int,
    interval: float,
    start_at: float,
    busy_until: float,
    acknowledged: Sequence[float],
    base_total: int,
) -> dict[str, Any]:
    """The phase's figures from every poll and the winning hands' acknowledgements.

    Region requests a second count the polls answered (200 or 304) between the end of the
    first interval (every follower has started by then) and ``busy_until`` (the tables
    stop), over that span."""
    ok = [p for p in polls if p.status in (200, 304) and not p.error]
    errors = [p for p in polls if p.status not in (200, 304) or p.error]
    steady_from = start_at + interval
    steady = [p for p in ok if steady_from <= p.start + p.seconds <= busy_until]
    span = busy_until - steady_from
    kinds: dict[str, int] = {}
    for poll in errors:
        kind = poll.error.split(":")[0] or f"HTTP {poll.status}"
        kinds[kind] = kinds.get(kind, 0) + 1
    shown: dict[int, list[tuple[float, int]]] = {}
    asked: dict[int, list[float]] = {}
    for poll in sorted(polls, key=lambda p: p.start + p.seconds):
        if poll.region != STANDINGS:
            continue
        asked.setdefault(poll.follower, []).append(poll.start)
        if poll.status == 200 and poll.total is not None:
            shown.setdefault(poll.follower, []).append((poll.start + poll.seconds, poll.total))
    delays = appearance_delays(sorted(acknowledged), base_total, shown, asked)
    not_modified = sum(1 for p in ok if p.status == 304)
    return {
        "followers": followers,
        "followers_answered": len({p.follower for p in ok}),
        "poll_interval_s": interval,
        "polls": len(polls),
        "polls_answered": len(ok),
        "offered_rps": round(followers * len(REGIONS) / interval, 1),
        "region_rps": round(len(steady) / span, 1) if span > 0 else 0.0,
        "share_304": round(not_modified / len(ok), 3) if ok else 0.0,
        "errors": len(errors),
        "errors_by_kind": dict(sorted(kinds.items())),
        "latency": latency_ms(p.seconds for p in ok),
        "latency_200": latency_ms(p.seconds for p in ok if p.status == 200),
        "latency_304": latency_ms(p.seconds for p in ok if p.status == 304),
        "latency_by_region": {
            name: latency_ms(p.seconds for p in ok if p.region == index)
            for index, name in enumerate(REGIONS)
        },
        "reused_connections": sum(1 for p in polls if p.reused),
        "delay": asdict(delays),
    }


# -- a process of its own -------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--slug", required=True)
    parser.add_argument("--followers", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--start-at", type=float, help="time.monotonic() to start at")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=POLL_FALLBACK)
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--no-keep-alive", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    spec = Crowd(
        base=args.base,
        slug=args.slug,
        followers=args.followers,
        start_at=args.start_at if args.start_at is not None else time.monotonic(),
        seconds=args.seconds,
        interval=args.interval,
        timeout=args.timeout,
        keep_alive=not args.no_keep_alive,
        seed=args.seed,
        first=args.first,
    )
    result = asyncio.run(crowd(spec))
    with open(args.out, "w") as out:
        json.dump(result.as_json(), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
