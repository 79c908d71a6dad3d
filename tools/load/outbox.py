"""Phones that behave like the table link's outbox script (issue 32), for the lossy phase.

A :class:`Phone` is a :class:`~tools.load.client.Device` that sends each hand the way the
outbox does: the phone makes the hand's submission id (32 lowercase hex) and POSTs it
with the ``seen`` version its page shows and the htmx headers; on a network error, a
timeout or a 502/503/504 it sends the *same* id again, with backoff, until an answer
carries a ``Submission-Outcome`` header. ``saved``: on to the next hand. ``taken``: the
hand number holds a hand already (the other phone's); the answer's form says what comes
next. ``stale``: nothing was stored (the score changed since the page showed it); the
answer shows the page as it is, and if the hand is still to enter, it is entered again
under a new id with the version now shown. A hand this phone stored is never sent again
under a new id: its resend answers "saved".

A :class:`LossyTable` plays one match: its first phone enters every hand; now and then a
second phone at the table enters the same hand at the same moment (its page sometimes
refreshed first, sometimes showing an older score). Every phone keeps a log of what it
sent under which id and what it was told; at the end each one GETs its sheet and reads
the score it shows, and the first phone confirms the result (same-id resends too).
Nothing here imports Django: the answers are judged from HTTP alone.
"""

from __future__ import annotations

import random
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from .client import VERSION_INPUT, Answer, Device, Plan, Stats, TableResult, TransportError

SEEN_INPUT = re.compile(r'name="seen" value="(\d+)"')
NUMBER_INPUT = re.compile(r'name="number" value="(\d*)"')
GAMES = re.compile(r'class="match-score">(\d+)\D(\d+)<')
TOTAL = re.compile(r'class="match-row">\s*<td>(-?\d+)</td>.*?<td>(-?\d+)</td>', re.S)
RETRYABLE = (502, 503, 504)
OUTCOME = "submission-outcome"


@dataclass
class Sent:
    """One hand as a phone meant it: its number, values, every id it went under, the
    outcome of each, and how long from the first tap until the phone could move on."""

    number: int
    values: dict[str, Any]
    ids: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    posts: int = 0
    seconds: float = 0.0


@dataclass
class PhoneLog:
    name: str
    hands: list[Sent] = field(default_factory=list)
    shown_score: tuple[int, int, int, int] | None = None
    """Games won A, B and match total A, B as the phone's final sheet shows them."""
    problems: list[str] = field(default_factory=list)


class Phone(Device):
    def __init__(
        self, base: str, stats: Stats, *, name: str, timeout: float, deadline: float, seed: int
    ) -> None:
        super().__init__(base, stats, timeout=timeout)
        self.log = PhoneLog(name)
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.seen: str = ""
        self.next_number = 1
        self.version = ""
        self.attempts = 0
        """How many times the last :meth:`patiently` request went out."""

    def fail(self, message: str) -> None:
        self.log.problems.append(message)
        self.stats.error(f"{self.log.name}: {message}")

    # -- reading what the page shows -------------------------------------------------------

    def absorb(self, answer: Answer) -> None:
        """Take in the entry region (or page) an answer shows: the form's seen version and
        next hand number, or the confirmation box's version once the match is decided."""
        seen = SEEN_INPUT.search(answer.body)
        number = NUMBER_INPUT.search(answer.body)
        if seen and number and number.group(1):
            self.seen, self.next_number = seen.group(1), int(number.group(1))
            return
        version = VERSION_INPUT.search(answer.body)
        if version:
            self.version, self.next_number = version.group(1), 10**6

    def patiently(self, kind: str, method: str, path: str, **options: Any) -> Answer | None:
        """A request sent until it is answered (not with a 502-504), with backoff; the
        same request each time (for a POST: the same submission id)."""
        attempt = self.attempts = 0
        while time.monotonic() < self.deadline:
            attempt = self.attempts = attempt + 1
            if attempt > 1:
                self.stats.count(f"{kind} resends")
                time.sleep(min(4.0, 0.25 * 2 ** (attempt - 2)) * self.rng.uniform(0.5, 1.5))
            try:
                answer = self.request(kind, method, path, **options)
            except TransportError as error:
                timed_out = "timed out" in str(error) or "TimeoutError" in str(error)
                self.stats.count("timeouts" if timed_out else "connection errors")
                continue
            if answer.status in RETRYABLE:
                self.stats.count(f"HTTP {answer.status}")
                continue
            return answer
        self.fail(f"{method} {path}: no answer before the deadline ({attempt} attempts)")
        return None

    def open(self, path: str) -> bool:
        answer = self.patiently("page", "GET", path)
        if answer is None or answer.status != 200:
            self.fail(f"opening the table link: {answer and answer.status}")
            return False
        self.csrf = _csrf(self, answer)
        self.absorb(answer)
        return True

    def refresh_entry(self, path: str) -> None:
        """What the page's own refresh does: the entry region as it is now."""
        headers = {"HX-Request": "true", "HX-Target": "match-entry"}
        answer = self.patiently("region", "GET", path + "entry/", headers=headers)
        if answer is not None and answer.status == 200:
            self.absorb(answer)

    # -- one hand, outbox style ------------------------------------------------------------

    def enter(self, path: str, number: int, values: dict[str, Any]) -> str:
        """Send hand ``number`` until it is settled; "saved" (by this phone), "elsewhere"
        (another phone's hand holds the number) or "failed"."""
        sent = Sent(number, values)
        self.log.hands.append(sent)
        began = time.monotonic()
        try:
            return self._settle(path, sent)
        finally:
            sent.seconds = time.monotonic() - began

    def _settle(self, path: str, sent: Sent) -> str:
        number = sent.number
        while time.monotonic() < self.deadline:
            if self.next_number > number:
                return "elsewhere"  # the page shows the hand stored already
            key = uuid.uuid4().hex
            sent.ids.append(key)
            if len(sent.ids) > 1:
                self.stats.count("hands re-entered under a new id after stale")
            data = {
                "number": number,
                **sent.values,
                "seen": self.seen,
                "submission": key,
                "csrfmiddlewaretoken": self.csrf,
            }
            headers = {
                "HX-Request": "true",
                "HX-Target": "match-entry",
                "HX-Current-URL": self.base + path,
            }
            answer = self.patiently("hand", "POST", path + "hands/", data=data, headers=headers)
            sent.posts += self.attempts
            if answer is None:
                sent.outcomes.append("no answer")
                return "failed"
            outcome = answer.headers.get(OUTCOME, "")
            sent.outcomes.append(outcome or f"HTTP {answer.status}")
            if not outcome:
                self.fail(f"hand {number}: HTTP {answer.status} without an outcome")
                return "failed"
            self.absorb(answer)
            self.stats.count(f"told {outcome}")
            if outcome == "saved":
                return "saved"
            if outcome == "taken":
                if f"Hand {number} was already entered from this phone" in answer.body:
                    self.fail(f"hand {number}: refused as entered from this very phone")
                    return "failed"
                if self.next_number <= number:
                    self.fail(f"hand {number}: taken, yet the form still asks for it")
                    return "failed"
                return "elsewhere"
            if outcome != "stale":
                self.fail(f"hand {number}: {outcome}: {answer.form_error()}")
                return "failed"
            # stale: the answer shows the score as it is now; enter the hand again if the
            # number is still free (the loop's top), under a new id and the version shown.
        self.fail(f"hand {number}: the deadline came first")
        return "failed"

    # -- the end: the score shown, the confirmation ------------------------------------------

    def read_score(self, path: str) -> None:
        answer = self.patiently("page", "GET", path)
        if answer is None or answer.status != 200:
            self.fail(f"the final sheet: {answer and answer.status}")
            return
        games, total = GAMES.search(answer.body), TOTAL.search(answer.body)
        if games is None or total is None:
            self.fail("the final sheet shows no score")
            return
        self.log.shown_score = (
            int(games.group(1)),
            int(games.group(2)),
            int(total.group(1)),
            int(total.group(2)),
        )
        self.absorb(answer)

    def confirm(self, path: str) -> bool:
        """The losing side confirms the version the sheet shows, under one submission id."""
        if not self.version:
            self.refresh_entry(path)
        if not self.version:
            self.fail("confirm: the confirmation box names no version of the sheet")
            return False
        data = {
            "csrfmiddlewaretoken": self.csrf,
            "version": self.version,
            "submission": uuid.uuid4().hex,
        }
        answer = self.patiently("confirm", "POST", path + "confirm/", data=data)
        if answer is None:
            return False
        location = answer.headers.get("location", "")
        if answer.status in (302, 303) and "/table/" not in location:
            return True
        self.fail(f"confirm: answered {answer.status} {location}")
        return False


def _csrf(device: Device, answer: Answer) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', answer.body)
    if found:
        return found.group(1)
    cookie = next((c for c in device.jar if c.name == "csrftoken"), None)
    return cookie.value if cookie is not None else ""


class LossyTable:
    """One match through the lossy proxy: the first phone enters every hand; with
    ``twin_rate`` a second phone sends the same hand at the same moment."""

    def __init__(
        self,
        base: str,
        plan: Plan,
        stats: Stats,
        *,
        timeout: float,
        deadline: float,
        twin_rate: float,
        seed: int,
    ) -> None:
        self.plan = plan
        self.stats = stats
        self.deadline = deadline
        self.twin_rate = twin_rate
        self.rng = random.Random(seed)
        self.path = f"/table/{plan.token}/"
        self.phones = [
            Phone(
                base,
                stats,
                name=f"match {plan.match_id} phone {i + 1}",
                timeout=timeout,
                deadline=deadline,
                seed=seed * 10 + i,
            )
            for i in range(2 if twin_rate > 0 else 1)
        ]
        self.result = TableResult(plan.match_id)
        self.tap_to_saved: list[float] = []

    def run(self) -> TableResult:
        try:
            self._run()
        except Exception as error:  # a bug in the simulation must show, not hang
            self.stats.error(f"match {self.plan.match_id}: table crashed: {error!r}")
        return self.result

    def _run(self) -> None:
        if not all(phone.open(self.path) for phone in self.phones):
            return
        first = self.phones[0]
        for number, values in enumerate(self.plan.hands, start=1):
            self.result.attempted = number
            twin = self._twin(number, values)
            settled = first.enter(self.path, number, values)
            if twin is not None:
                twin.join(timeout=max(1.0, self.deadline - time.monotonic()))
            if settled == "failed":
                return
            self.tap_to_saved.append(first.log.hands[-1].seconds)
            self.result.recorded.append(number)
        self.result.finished = True
        for phone in self.phones:
            phone.read_score(self.path)
        self.result.confirmed = first.confirm(self.path)

    def _twin(self, number: int, values: dict[str, Any]) -> threading.Thread | None:
        if len(self.phones) < 2 or self.rng.random() >= self.twin_rate:
            return None
        second = self.phones[1]
        refresh = self.rng.random() < 0.5  # sometimes the page had refreshed, sometimes not

        def enter() -> None:
            if refresh:
                second.refresh_entry(self.path)
            second.enter(self.path, number, values)
            self.stats.count("second-phone hands")

        thread = threading.Thread(target=enter, daemon=True)
        thread.start()
        return thread
