"""The tables in play and the queue, with when each table should be free (issue 33):
what ``/t/<slug>/tables.json`` sends.

Built from the tournament's results (:func:`standings.data.load`, which the other public
regions read too) and one query more, for the times the room's hands were entered: the
hands of the matches at a table, and every hand of the tournament entered in the last
:data:`ROOM_HOURS` hours (the room's pace). Each match at a table with a hand gets the
engine's estimate (:func:`engine.estimate.estimate`) at its own pace, shrunk toward the
room's; the queue's matches (ready, without a table) get the tables' estimated finishes
in turn, earliest first (a match decided and awaiting confirmation frees its table now).
A queued match past the tables with an estimate has none.

Everything is worked out as of ``now``, the moment of the render: ``tables.json`` and the
projector keep what they render per public version (:mod:`public.live`); Round control
renders it afresh.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q

from engine import (
    Estimate,
    MatchSheet,
    Playouts,
    estimate,
    hands_left,
    intervals,
    room_pace,
    running_behind,
)
from scoring.models import Hand
from standings.board import AT_TABLE
from standings.data import Results
from tournaments.match_names import RoundNames
from tournaments.models import Match

ROOM_HOURS = 3
"""The room's pace is measured over the hands entered this many hours before now."""

# The hands left of the matches this process estimated lately (the engine's playouts, most
# of an estimate's cost), by what decides them: the match, its version (which every write
# of its hands moves on) and its rules. A render after one hand plays out that table only.
_left: OrderedDict[tuple[int, int, Any], Playouts] = OrderedDict()
_left_lock = threading.Lock()
KEPT = 1024


def _hands_left(match: Match, sheet: MatchSheet) -> Playouts:
    key = (match.pk, match.version, sheet.rules)
    with _left_lock:
        kept = _left.get(key)
    if kept is not None:
        return kept
    left = hands_left(sheet)
    with _left_lock:
        _left[key] = left
        while len(_left) > KEPT:
            _left.popitem(last=False)
    return left


def forget() -> None:
    """Drop this process's kept playouts (tests, and :func:`public.live.forget`)."""
    with _left_lock:
        _left.clear()


@dataclass(frozen=True, slots=True)
class TableEstimate:
    """A match at a table, and when it should be done (None: no hand yet, or decided)."""

    match: Match
    hands: int
    started_at: datetime | None
    estimate: Estimate | None
    behind: bool


@dataclass(frozen=True, slots=True)
class Queued:
    match: Match
    estimated_start: datetime | None
    table: int | None = None
    """The table expected to free for it (None with no estimated start)."""


@dataclass(frozen=True, slots=True)
class Room:
    tables: list[TableEstimate]
    queue: list[Queued]
    minutes_per_hand: float | None
    """The room's pace (None before any hand)."""


def _times(data: Results, at_table: Sequence[Match], now: datetime) -> dict[int, list[datetime]]:
    """When each hand was entered, by match (in hand order): the matches at a table, and
    every match with a hand entered in the last :data:`ROOM_HOURS` hours. One query."""
    since = now - timedelta(hours=ROOM_HOURS)
    rows = (
        Hand.objects.filter(
            Q(match__in=[m.pk for m in at_table])
            | Q(match__tournament=data.tournament, entered_at__gte=since)
        )
        .order_by("match_id", "number")
        .values_list("match_id", "entered_at")
    )
    times: dict[int, list[datetime]] = defaultdict(list)
    for match_id, entered_at in rows:
        times[match_id].append(entered_at)
    return times


def _started(at_table: Sequence[Match]) -> dict[int, datetime | None]:
    """When each match began (its first hand; ``load`` leaves the column out). One query."""
    rows = Match.objects.filter(pk__in=[m.pk for m in at_table]).order_by()
    return dict(rows.values_list("pk", "started_at"))


def _deal_times(sheet: MatchSheet, times: list[datetime]) -> list[datetime]:
    """The times of ``sheet``'s hands: a team match's deal ends with its last board."""
    size = sheet.rules.team_size
    return times[size - 1 :: size] if size > 1 else times


def room(data: Results, now: datetime) -> Room:
    """The tables in play (by number) and the queue (in the order tables are given:
    ``tournaments.movement``), with their estimates as of ``now``."""
    ready = [
        m
        for m in data.matches
        if m.status in AT_TABLE and m.side_a_id is not None and m.side_b_id is not None
    ]
    seated = sorted((m for m in ready if m.table), key=lambda m: m.table or 0)
    waiting = sorted(
        (m for m in ready if not m.table and m.status in ("ready", "in_play")),
        key=lambda m: (m.round, m.position, m.pk),
    )
    # The room's hand times always (one query), and the tables' start times once a table
    # is in use: a page that reads this costs the same whatever the size of the field.
    times = _times(data, seated, now)
    started = _started(seated)
    sheets = data.sheets
    gaps: dict[int, list[float]] = {}
    for match_id, entered in times.items():
        sheet = sheets.get(match_id)
        if sheet is not None:
            gaps[match_id] = intervals(_deal_times(sheet, entered))
    pace = room_pace(gaps.values())
    tables = []
    for match in seated:
        sheet = sheets.get(match.pk)
        found = None
        if sheet is not None and match.status == Match.Status.IN_PLAY:
            entered = _deal_times(sheet, times.get(match.pk, []))
            if len(entered) == len(sheet.hands):
                left = _hands_left(match, sheet)
                found = estimate(sheet, entered, room=pace, now=now, left=left)
        tables.append(
            TableEstimate(
                match,
                len(sheet.hands) if sheet is not None else 0,
                started.get(match.pk),
                found,
                running_behind(gaps.get(match.pk, []), pace),
            )
        )
    return Room(tables, _queue(tables, waiting, now), pace)


def _queue(tables: list[TableEstimate], waiting: list[Match], now: datetime) -> list[Queued]:
    """The waiting matches, each given the next table expected to be free."""
    free: list[tuple[datetime, int]] = []
    for table in tables:
        number = table.match.table or 0
        if table.estimate is not None:
            free.append((table.estimate.finish, number))
        elif table.match.status == Match.Status.AWAITING:
            free.append((now, number))  # decided: free as soon as it is confirmed
    free.sort()
    return [
        Queued(match, *free[index]) if index < len(free) else Queued(match, None)
        for index, match in enumerate(waiting)
    ]


def _iso(when: datetime | None) -> str | None:
    return when.isoformat(timespec="seconds") if when is not None else None


def payload(found: Room, names: RoundNames | None = None) -> dict[str, Any]:
    """The ``tables.json`` contract (issue 33); each match also named as the pages name it
    (its ``stage``, ``round`` and ``label``, from ``names``: issue 41)."""
    names = names if names is not None else RoundNames(())

    def named(match: Match) -> dict[str, Any]:
        return {
            "stage": match.stage.name if match.stage_id is not None else None,
            "round": names.round(match),
            "label": names.match(match),
        }

    return {
        "tables": [
            {
                "table": table.match.table,
                "match": table.match.key,
                **named(table.match),
                "players": [table.match.side_a.name, table.match.side_b.name],
                "hands": table.hands,
                "started_at": _iso(table.started_at),
                "estimated_finish": _iso(table.estimate.finish if table.estimate else None),
            }
            for table in found.tables
        ],
        "queue": [
            {
                "match": queued.match.key,
                **named(queued.match),
                "players": [queued.match.side_a.name, queued.match.side_b.name],
                "estimated_start": _iso(queued.estimated_start),
            }
            for queued in found.queue
        ],
    }
