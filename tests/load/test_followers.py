"""The followers' client against a fake public page on 127.0.0.1, in a few seconds.

The fake page answers the two regions as the real one should with validators: 200 with
an ``ETag`` when a region changed, 304 when the follower's ``If-None-Match`` is current.
Its standings carry a Hands-won total that a fake table raises at known moments, so the
delays the harness computes can be checked against what they must be. A second fake page
keeps serving stale standings (a validator that never changes): the harness must say the
hands never reached the followers. No Django, no database.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field

from tools.load.followers import (
    REGIONS,
    Crowd,
    Poll,
    appearance_delays,
    crowd,
    hands_won_total,
    summarize,
)

SLUG = "club-night"


def run_alone(coroutine):
    """``asyncio.run`` in a thread of its own: a browser test earlier in this worker may
    have left Playwright's event loop running in the main thread."""
    result: dict = {}

    def run() -> None:
        try:
            result["value"] = asyncio.run(coroutine)
        except BaseException as error:  # raised again in the test's own thread
            result["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def standings_html(totals: list[int]) -> str:
    """A standings region drawn as the template draws it: each row's Hands won first of its
    five ``num stat`` cells."""
    rows = "".join(
        '<tr>\n<td class="num place">–</td><th scope="row" class="player">P</th>'
        f'<td class="num">3–0</td>\n<td class="num stat">{won}</td>\n'
        '<td class="num stat">2</td>\n<td class="num stat">1</td>\n'
        '<td class="num stat">0</td>\n<td class="num stat">5.5</td>\n</tr>\n'
        for won in totals
    )
    return (
        '<div id="standings"><table class="standings"><thead><tr>'
        '<th scope="col" class="num stat">Hands won</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def test_hands_won_total_reads_the_first_stat_column():
    assert hands_won_total(standings_html([3, 0, 12]).encode()) == 15
    assert hands_won_total(b"<div id='standings'><p>Standings appear later</p></div>") is None
    broken = standings_html([1, 2]).replace('<td class="num stat">5.5</td>', "", 1)
    assert hands_won_total(broken.encode()) is None  # a row short of a column


def test_delays_by_hand_and_follower():
    acknowledged = [10.0, 12.0, 20.0]  # winning hands 1, 2, 3
    shown = {
        0: [(9.0, 100), (10.5, 101), (15.0, 102), (25.0, 103)],
        1: [(11.0, 102), (19.0, 102)],  # saw hand 2 before its answer reached the table
    }
    asked = {0: [8.9, 10.4, 14.9, 24.9], 1: [10.9, 18.9, 26.0]}
    delays = appearance_delays(acknowledged, 100, shown, asked)
    # follower 0: 0.5, 3.0, 5.0; follower 1: 1.0, 0 (shown before acknowledged), never
    assert (delays.hands, delays.pairs, delays.seen, delays.missed) == (3, 6, 5, 1)
    assert delays.max_ms == 5000.0
    assert "hand 3 reached follower 0" in delays.worst
    # a follower whose last poll started before hand 3 is not judged on it
    delays = appearance_delays(acknowledged, 100, {1: shown[1]}, {1: [10.9, 18.9]})
    assert (delays.pairs, delays.missed, delays.unjudged) == (2, 0, 1)


@dataclass
class FakePage:
    """The public page's two regions, with validators, on 127.0.0.1."""

    stale: bool = False
    total: int = 40
    version: int = 0
    requests: list[dict[str, str]] = field(default_factory=list)
    connections: int = 0

    def answer(self, headers: dict[str, str]) -> bytes:
        region = headers.get("hx-target", "")
        version = 0 if self.stale else self.version
        etag = f'"{region}-{version}"'
        if headers.get("if-none-match") == etag:
            return f"HTTP/1.1 304 Not Modified\r\nETag: {etag}\r\n\r\n".encode()
        if region == "standings":
            body = standings_html([self.total if not self.stale else 40, 0]).encode()
        else:
            body = f'<div id="bracket">version {version}</div>'.encode()
        head = f"HTTP/1.1 200 OK\r\nETag: {etag}\r\nContent-Type: text/html\r\n"
        if region == "bracket":  # one region chunked, the other with a length
            chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (body[:9], body[9:]))
            return (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunks + b"0\r\n\r\n"
        return (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        served = 0
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError:
                    return
                lines = head.decode("latin-1").split("\r\n")
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in lines[1:] if line)
                }
                headers["request-line"] = lines[0]
                self.requests.append(headers)
                writer.write(self.answer(headers))
                await writer.drain()
                served += 1
                if headers.get("connection") == "close" or served == 3:
                    return  # and now and then an idle kept-alive connection is closed
        finally:
            writer.close()


async def follow(page: FakePage, *, keep_alive: bool = True) -> tuple[dict, list[Poll], dict]:
    server = await asyncio.start_server(page.serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    interval, seconds = 0.4, 2.4
    start = time.monotonic() + 0.1
    spec = Crowd(f"http://127.0.0.1:{port}", SLUG, 12, start, seconds, interval, 2.0, keep_alive)
    acknowledged: list[float] = []

    async def table() -> None:  # a winning hand every 0.7 s, acknowledged once stored
        await asyncio.sleep(max(0.0, start - time.monotonic()) + 0.05)
        while time.monotonic() < start + seconds - interval - 0.2:
            page.total += 1
            page.version += 1
            acknowledged.append(time.monotonic())
            await asyncio.sleep(0.7)

    async with server:
        done, _ = await asyncio.gather(crowd(spec), table())
    figures = summarize(
        done.polls,
        followers=12,
        interval=interval,
        start_at=start,
        busy_until=start + seconds - interval,
        acknowledged=acknowledged,
        base_total=40,
    )
    return figures, done.polls, done.as_json()["counters"]


def test_followers_poll_with_validators_and_see_every_hand():
    page = FakePage()
    figures, _polls, counters = run_alone(follow(page))
    assert figures["errors"] == 0, figures
    assert figures["followers_answered"] == 12
    assert 0.25 < figures["share_304"] < 0.9  # 304 while nothing changed, 200 after a hand
    # the validators of the region's own last answer, never the other region's
    conditional = [r for r in page.requests if "if-none-match" in r]
    assert conditional
    assert all(r["if-none-match"].startswith(f'"{r["hx-target"]}-') for r in conditional)
    for request in page.requests:
        region = request["hx-target"]
        assert request["request-line"] == f"GET /t/{SLUG}/?region={region} HTTP/1.1"
        assert request["hx-request"] == "true"
        assert request["hx-target"] in REGIONS
        assert request["hx-current-url"].endswith(f"/t/{SLUG}/")
    assert counters["reused"] > 0  # kept alive between polls
    assert counters["closed_idle"] + counters["stale_retries"] > 0  # and reopened when closed
    delay = figures["delay"]
    assert delay["hands"] >= 2 and delay["missed"] == 0 and delay["seen"] == delay["pairs"] > 0
    # a hand shows by the follower's next poll: one interval plus the fake page's latency
    assert delay["max_ms"] <= (0.4 + 0.25) * 1000, delay


def test_stale_standings_are_caught():
    figures, _polls, _counters = run_alone(follow(FakePage(stale=True)))
    assert figures["errors"] == 0
    assert figures["delay"]["missed"] == figures["delay"]["pairs"] > 0


def test_without_keep_alive_every_poll_has_its_own_connection():
    page = FakePage()
    figures, polls, counters = run_alone(follow(page, keep_alive=False))
    assert figures["errors"] == 0
    assert counters["reused"] == 0
    assert page.connections == counters["connects"] == len(polls)
    assert all(r["connection"] == "close" for r in page.requests)
