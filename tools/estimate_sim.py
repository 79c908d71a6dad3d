"""Simulated club nights to measure :func:`engine.estimate.estimate` against the truth.

Rooms of tables play whole matches (hands from :func:`demo.random_hands.match_inputs`, scored by
the engine) side by side from the same start; each table has its own minutes per hand
(between :data:`QUICKEST` and :data:`SLOWEST`) and every hand varies around it. At 25%,
50% and 75% of each match's hands (at a random moment while the next hand is played), the
estimator is asked when the match finishes, knowing only what a real page knows: that
match's hands so far and the times the room's hands were entered until then. Its answer
is compared with the time the match's last hand was really entered.

Used by ``tests/engine/test_estimate.py`` (bounds) and ``make bench`` (the figures).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from demo.random_hands import match_inputs
from engine import PRESETS, MatchSheet, RuleSet, score_match
from engine.estimate import Estimate, estimate, intervals, room_pace

START = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
QUICKEST, SLOWEST = 2.5, 7.0  # a table's own minutes per hand
NOISE = 0.35  # each hand's minutes: the table's, times e ** N(0, NOISE)
POINTS = (0.25, 0.5, 0.75)
RULES = ("modern", "tournament", "hollywood", "oklahoma", "palace", "classic")


@dataclass(frozen=True, slots=True)
class Table:
    rules: RuleSet
    sheet: MatchSheet  # the whole match
    times: tuple[datetime, ...]  # when each hand was entered
    pace: float  # the table's own minutes per hand


@dataclass(frozen=True, slots=True)
class Asked:
    through: float  # 0.25, 0.5, 0.75 of the match's hands
    error: float  # minutes, estimate minus truth
    left: float  # minutes the match really had left
    pace_error: float  # the estimated minutes per hand against the table's own, relative
    within: bool  # the truth in the estimate's plausible range


def play_room(rng: random.Random, rules: RuleSet, tables: int) -> list[Table]:
    room = []
    for _ in range(tables):
        pace = rng.uniform(QUICKEST, SLOWEST)
        strength = rng.uniform(0.4, 0.6)
        hands = list(match_inputs(rules, seed=rng.randrange(10**9), strength=strength))
        sheet = score_match(rules, hands)
        when, times = START, []
        for _hand in hands:
            when += timedelta(minutes=pace * rng.lognormvariate(0, NOISE))
            times.append(when)
        room.append(Table(rules, sheet, tuple(times), pace))
    return room


@dataclass(frozen=True, slots=True)
class Question:
    """What a page knows of a match when it asks: the arguments of ``estimate``; and the
    truth: when its last hand was entered, and the table's own pace."""

    sheet: MatchSheet
    times: tuple[datetime, ...]
    room: float | None
    now: datetime
    through: float
    truth: datetime
    pace: float

    def answer(self) -> Estimate | None:
        return estimate(self.sheet, self.times, started=START, room=self.room, now=self.now)


def question(rng: random.Random, room: list[Table], table: Table, through: float) -> Question:
    """``table``'s match asked about at ``through`` of its hands, while the next is played."""
    count = len(table.sheet.hands)
    known = min(count - 1, max(1, round(through * count)))
    last = table.times[known - 1]
    now = last + (table.times[known] - last) * rng.random()
    seen = [[t for t in other.times if t <= now] for other in room]
    room_minutes = room_pace(intervals(times, START) for times in seen)
    sheet = score_match(table.rules, [h.hand for h in table.sheet.hands[:known]])
    times = table.times[:known]
    return Question(sheet, times, room_minutes, now, through, table.times[-1], table.pace)


def answered(asked: Question) -> Asked:
    found = asked.answer()
    assert found is not None, "an in-play match with a hand has an estimate"
    error = (found.finish - asked.truth).total_seconds() / 60
    left = (asked.truth - asked.now).total_seconds() / 60
    pace_error = abs(found.minutes_per_hand - asked.pace) / asked.pace
    within = found.earliest <= asked.truth <= found.latest
    return Asked(asked.through, error, left, pace_error, within)


def questions(seed: int = 33, rooms: int = 6, tables: int = 8) -> list[Question]:
    """Every question of ``rooms`` rooms (rule sets in turn from :data:`RULES`) of
    ``tables`` tables each, at each of :data:`POINTS` through every match."""
    rng = random.Random(seed)
    asked = []
    for number in range(rooms):
        rules = PRESETS[RULES[number % len(RULES)]]
        room = play_room(rng, rules, tables)
        for table in room:
            if len(table.sheet.hands) < 2:
                continue  # decided by its first hand: never asked about
            asked.extend(question(rng, room, table, through) for through in POINTS)
    return asked


def evening(seed: int = 33, rooms: int = 6, tables: int = 8) -> list[Asked]:
    """The answers to :func:`questions`, against the truth."""
    return [answered(asked) for asked in questions(seed, rooms, tables)]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def figures(asked: list[Asked]) -> dict[str, float]:
    """Median and 90th percentile absolute error (minutes), overall and at each point
    through the match; the median error relative to the time the match had left; the
    median error of the pace (relative, at 75% through); the median error (bias); the
    share of truths within the plausible range."""
    out: dict[str, float] = {}
    groups = {"all": asked} | {
        f"{round(p * 100)}%": [a for a in asked if a.through == p] for p in POINTS
    }
    for name, group in groups.items():
        errors = [abs(a.error) for a in group]
        out[f"{name} median"] = statistics.median(errors)
        out[f"{name} p90"] = percentile(errors, 0.9)
    out["relative median"] = statistics.median(abs(a.error) / a.left for a in asked)
    out["pace error"] = statistics.median(a.pace_error for a in asked if a.through == POINTS[-1])
    out["bias"] = statistics.median(a.error for a in asked)
    out["within range"] = sum(a.within for a in asked) / len(asked)
    out["answers"] = len(asked)
    return out
