"""A table's devices as the load test drives them: standard-library HTTP with a cookie jar.

A :class:`Device` is one phone or tablet at a table: it keeps its own cookies (the CSRF
cookie) and talks to the server on loopback only, never through a proxy, with a timeout
on every request. A :class:`Table` plays one whole match through its table link the way
the match page does in a browser with htmx: open the page, POST each hand with its number
(``HX-Request``), optionally reload the two live regions the ``hand-recorded`` event
refreshes, and finally the losing side confirms. Sometimes a second device at the table
sends the very same hand at the same moment (a double tap, two phones): exactly one of
the two may be recorded, the other must be told "already entered".

Nothing here imports Django: the answers are judged from the HTTP responses alone.
"""

from __future__ import annotations

import http.client
import ipaddress
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from typing import Any

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION_INPUT = re.compile(r'name="version" value="(\d+)"')
ALREADY = "is already entered."
TAKEN = "was already entered from"


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or localhost: the only places tests send traffic."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class TransportError(Exception):
    """No HTTP answer: timeout, refused or dropped connection."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str
    seconds: float

    @property
    def recorded(self) -> bool:
        return self.status == 200 and "hand-recorded" in self.headers.get("hx-trigger", "")

    def already(self, number: int) -> bool:
        """Told the hand number holds a hand already: a table link says what was stored
        and from which phone (issue 32), a signed-in scorer that it is entered."""
        if self.status != 200:
            return False
        if self.headers.get("submission-outcome") == "taken":
            return f"Hand {number} {TAKEN}" in self.body
        return f"Hand {number} {ALREADY}" in self.body

    def form_error(self) -> str:
        if 'class="confirm-box"' in self.body and 'class="form-error"' not in self.body:
            return "the confirmation box, without saying the hand was already entered"
        found = re.search(r'class="form-error"[^>]*>(.*?)</div>', self.body, re.S)
        text = re.sub(r"<[^>]+>", " ", found.group(1)) if found else self.body[:200]
        return " ".join(text.split())[:200]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 3xx comes back as an answer, not followed


@dataclass
class Stats:
    """What every device of every table saw, shared (and locked) across threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)

    def record(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.requests += 1
            self.latencies.setdefault(kind, []).append(seconds)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)

    def count(self, name: str, by: int = 1) -> None:
        with self.lock:
            self.counters[name] = self.counters.get(name, 0) + by


class Device:
    def __init__(self, base: str, stats: Stats, *, timeout: float) -> None:
        host = urllib.parse.urlsplit(base).hostname or ""
        if not is_loopback(host):
            raise ValueError(f"the load test talks to loopback only, not {host}")
        self.base = base.rstrip("/")
        self.stats = stats
        self.timeout = timeout
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),  # never a proxy from the environment
            urllib.request.HTTPCookieProcessor(self.jar),
            _NoRedirect(),
        )
        self.csrf = ""

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        data: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.base + path, data=body, method=method)
        if method == "POST":
            request.add_header("Origin", self.base)
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        start = time.perf_counter()
        try:
            try:
                with self.opener.open(request, timeout=self.timeout) as response:
                    answer = Answer(
                        response.status,
                        {k.lower(): v for k, v in response.headers.items()},
                        response.read().decode("utf-8", "replace"),
                        0.0,
                    )
            except urllib.error.HTTPError as error:
                answer = Answer(
                    error.code,
                    {k.lower(): v for k, v in error.headers.items()},
                    error.read().decode("utf-8", "replace"),
                    0.0,
                )
        except (TimeoutError, urllib.error.URLError, OSError, http.client.HTTPException) as e:
            self.stats.record(kind, time.perf_counter() - start)
            raise TransportError(f"{method} {path}: {e!r}") from e
        answer.seconds = time.perf_counter() - start
        self.stats.record(kind, answer.seconds)
        return answer

    def open_page(self, path: str) -> Answer:
        """GET the match page and keep its CSRF token (the form's, as a browser posts it)."""
        answer = self.request("page", "GET", path)
        if answer.status == 200:
            found = CSRF_INPUT.search(answer.body)
            if found:
                self.csrf = found.group(1)
            else:
                cookie = next((c for c in self.jar if c.name == "csrftoken"), None)
                self.csrf = cookie.value if cookie is not None else ""
        return answer


@dataclass
class Plan:
    """One table's match: its table link and the hands it will send, in order."""

    match_id: int
    token: str
    hands: list[dict[str, Any]]
    """POST fields of each hand (number excluded), hand 1 first."""


@dataclass
class TableResult:
    match_id: int
    sent: int = 0
    attempted: int = 0
    """The highest hand number this table has sent."""
    recorded: list[int] = field(default_factory=list)
    """Hand numbers the server said it recorded (including "already entered" to a retry)."""
    confirmed: bool = False
    finished: bool = False


class Table:
    def __init__(
        self,
        base: str,
        plan: Plan,
        stats: Stats,
        *,
        timeout: float,
        deadline: float,
        refresh: bool,
        twin_rate: float,
        seed: int,
        twin_last: bool = True,
        retries: int = 3,
        think: Callable[[], float] | None = None,
        until: float | None = None,
        acknowledged: Callable[[int], None] | None = None,
    ) -> None:
        """``think``: seconds to wait before each hand (players playing it), none if
        None. ``until``: a ``time.monotonic()`` after which no further hand is sent (the
        rest of the match is left unplayed and unconfirmed, without an error).
        ``acknowledged(number)`` is called as soon as the server has a hand."""
        self.plan = plan
        self.think = think
        self.until = until
        self.acknowledged = acknowledged
        self.stats = stats
        self.deadline = deadline
        self.refresh = refresh
        self.twin_rate = twin_rate
        self.twin_last = twin_last
        self.rng = random.Random(seed)
        self.retries = retries
        self.device = Device(base, stats, timeout=timeout)
        self.twin = Device(base, stats, timeout=timeout) if twin_rate > 0 else None
        self.result = TableResult(plan.match_id)
        self.path = f"/table/{plan.token}/"

    def fail(self, message: str) -> None:
        self.stats.error(f"match {self.plan.match_id}: {message}")

    def run(self) -> TableResult:
        try:
            self._run()
        except Exception as error:  # a bug in the simulation must show, not hang
            self.fail(f"table crashed: {error!r}")
        return self.result

    def _run(self) -> None:
        for device in filter(None, (self.device, self.twin)):
            answer = self._retrying(lambda d=device: d.open_page(self.path), "open page")
            if answer is None or answer.status != 200:
                self.fail(f"opening the table link answered {getattr(answer, 'status', None)}")
                return
        for number, hand in enumerate(self.plan.hands, start=1):
            if self.think is not None:
                pause = self.think()
                if self.until is not None:
                    pause = min(pause, self.until - time.monotonic())
                time.sleep(max(0.0, pause))
            if self.until is not None and time.monotonic() >= self.until:
                return  # time is up: the rest of the match is never sent
            if time.monotonic() > self.deadline:
                self.fail("deadline reached before the match was entered")
                return
            if not self._enter(number, hand):
                return
            if self.acknowledged is not None:
                self.acknowledged(number)
            if self.refresh:
                self._refresh()
        self.result.finished = True
        self._confirm()

    def _retrying(self, action: Any, what: str) -> Answer | None:
        for attempt in range(1, self.retries + 1):
            try:
                answer = action()
            except TransportError as error:
                self.fail(f"{what}, attempt {attempt}: {error}")
                continue
            if answer.status >= 500:
                self.fail(f"{what}, attempt {attempt}: HTTP {answer.status}")
                continue
            return answer
        return None

    def _post_hand(self, device: Device, number: int, hand: dict[str, Any]) -> Answer:
        data = {"number": number, **hand, "csrfmiddlewaretoken": device.csrf}
        headers = {
            "HX-Request": "true",
            "HX-Target": "match-entry",
            "HX-Current-URL": device.base + self.path,
        }
        return device.request("hand", "POST", self.path + "hands/", data, headers)

    def _enter(self, number: int, hand: dict[str, Any]) -> bool:
        """Send hand ``number`` until the server has it; False if the table must stop."""
        twin_answers: list[Answer | Exception] = []
        twin_thread = None
        last = number == len(self.plan.hands)
        if (
            self.twin is not None
            and self.rng.random() < self.twin_rate
            and (self.twin_last or not last)
        ):
            twin = self.twin

            def second_device() -> None:
                try:
                    twin_answers.append(self._post_hand(twin, number, hand))
                except TransportError as error:
                    twin_answers.append(error)

            twin_thread = threading.Thread(target=second_device, daemon=True)
            twin_thread.start()
        stored = recorded_here = False
        self.result.attempted = number
        for attempt in range(1, self.retries + 1):
            self.result.sent += 1
            try:
                answer = self._post_hand(self.device, number, hand)
            except TransportError as error:
                self.fail(f"hand {number}, attempt {attempt}: {error}")
                continue
            if answer.recorded:
                stored = recorded_here = True
            elif answer.already(number) and attempt > 1:
                stored = True  # our own earlier attempt got through after all
                self.stats.count("retry told already entered")
            elif answer.already(number) and twin_thread is not None:
                stored = True  # the second device was first
            elif answer.status >= 500:
                self.fail(f"hand {number}, attempt {attempt}: HTTP {answer.status}")
                continue
            else:
                self.fail(
                    f"hand {number}: unexpected answer {answer.status}: {answer.form_error()}"
                )
                return False
            break
        if twin_thread is not None:
            twin_thread.join(timeout=self.device.timeout + 5)
            self._judge_twin(number, twin_answers, recorded_here)
        if not stored:
            self.fail(f"hand {number} never stored after {self.retries} attempts")
            return False
        self.result.recorded.append(number)
        return True

    def _judge_twin(
        self, number: int, answers: list[Answer | Exception], main_recorded: bool
    ) -> None:
        """Of two devices sending one hand at once, exactly one is told it was recorded."""
        self.stats.count("second-device posts")
        if not answers:
            self.fail(f"hand {number}: the second device got no answer in time")
            return
        answer = answers[0]
        if isinstance(answer, Exception):
            self.fail(f"hand {number}, second device: {answer}")
        elif answer.recorded and main_recorded:
            self.fail(f"hand {number}: both devices were told their hand was recorded")
        elif answer.recorded:
            self.stats.count("second device first")
        elif answer.already(number) and main_recorded:
            self.stats.count("second device told already entered")
        elif answer.already(number):
            self.fail(f"hand {number}: neither device was told its hand was recorded")
        else:
            self.fail(
                f"hand {number}, second device: unexpected {answer.status}: {answer.form_error()}"
            )

    def _refresh(self) -> None:
        """What ``hand-recorded`` makes the page reload: its header and the sheet."""
        headers = {"HX-Request": "true"}
        for target, path in (("match-head", "?region=match-head"), ("match-sheet", "")):
            try:
                answer = self.device.request(
                    "region", "GET", self.path + path, headers={**headers, "HX-Target": target}
                )
            except TransportError as error:
                self.fail(f"refreshing {target}: {error}")
                continue
            if answer.status != 200:
                self.fail(f"refreshing {target}: HTTP {answer.status}")

    def _confirm(self) -> None:
        """The losing side looks at the result and confirms it; the server answers with a
        redirect to the result. The form names the version of the sheet it showed."""
        headers = {"HX-Request": "true", "HX-Target": "match-entry"}
        shown = self._retrying(
            lambda: self.device.request("region", "GET", self.path + "entry/", headers=headers),
            "opening the confirmation",
        )
        version = VERSION_INPUT.search(shown.body) if shown is not None else None
        if version is None:
            self.fail("the confirmation box names no version of the sheet")
            return
        data = {"csrfmiddlewaretoken": self.device.csrf, "version": version.group(1)}
        for attempt in range(1, self.retries + 1):
            try:
                answer = self.device.request("confirm", "POST", self.path + "confirm/", data)
            except TransportError as error:
                self.fail(f"confirm, attempt {attempt}: {error}")
                continue
            if answer.status in (302, 303) and "/table/" not in answer.headers.get("location", ""):
                self.result.confirmed = True  # sent on to the result page: confirmed
            elif answer.status in (302, 303):
                self.fail("confirm refused: redirected back to the table link")
            elif answer.status == 410 and attempt > 1:
                self.result.confirmed = True  # the lost first attempt got through: link closed
            elif answer.status >= 500:
                self.fail(f"confirm, attempt {attempt}: HTTP {answer.status}")
                continue
            else:
                self.fail(f"confirm: unexpected answer {answer.status}")
            return
