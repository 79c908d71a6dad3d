"""A season's table, pure: events in, standings out (no Django, no queries).

Each event gives each player who entered it points: by placing (the director's table:
points for 1st, 2nd, 3rd …; a shared place such as "3–4" earns the points of its best
place; a place past the table's end, or no final place yet, earns 0) or per match won.
Each player's best N events count (N = ``best_of``; all of them when None); the table is
ordered by points counted, then by points over all events, then by the best single
event, then by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

PLACING = "placing"
MATCH_WINS = "match_wins"


@dataclass(frozen=True, slots=True)
class EventResult:
    """One player in one event: final place (None: not decided) and matches won."""

    player_id: int
    name: str
    place: int | None
    matches_won: int


@dataclass(frozen=True, slots=True)
class Event:
    key: int
    name: str
    results: tuple[EventResult, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    scoring: str = PLACING
    placing_points: tuple[int, ...] = ()
    points_per_win: int = 1
    best_of: int | None = None

    def points(self, result: EventResult) -> int:
        if self.scoring == MATCH_WINS:
            return result.matches_won * self.points_per_win
        if result.place is None or result.place > len(self.placing_points):
            return 0
        return self.placing_points[result.place - 1]


@dataclass(slots=True)
class SeasonRow:
    player_id: int
    name: str
    place: int = 0
    points: int = 0
    """Counted: the best N events."""
    all_points: int = 0
    events: int = 0
    by_event: dict[int, int] = field(default_factory=dict)
    counted: set[int] = field(default_factory=set)
    """Keys of the events that count."""


def table(events: Sequence[Event], rules: Rules) -> list[SeasonRow]:
    rows: dict[int, SeasonRow] = {}
    for event in events:
        for result in event.results:
            row = rows.setdefault(result.player_id, SeasonRow(result.player_id, result.name))
            row.by_event[event.key] = rules.points(result)
            row.events += 1
    order = {event.key: index for index, event in enumerate(events)}
    for row in rows.values():
        # Best first; between equal scores the earlier event counts (a stable choice).
        ranked = sorted(row.by_event.items(), key=lambda item: (-item[1], order[item[0]]))
        kept = ranked if rules.best_of is None else ranked[: rules.best_of]
        row.counted = {key for key, _points in kept}
        row.points = sum(points for _key, points in kept)
        row.all_points = sum(row.by_event.values())
    ordered = sorted(
        rows.values(),
        key=lambda r: (
            -r.points,
            -r.all_points,
            -max(r.by_event.values(), default=0),
            r.name,
            r.player_id,
        ),
    )
    for index, row in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        tied = (
            previous is not None
            and (previous.points, previous.all_points) == (row.points, row.all_points)
            and max(previous.by_event.values(), default=0) == max(row.by_event.values(), default=0)
        )
        row.place = previous.place if tied and previous else index + 1
    return ordered


def parse_points(text: str) -> tuple[int, ...]:
    """ "25, 18, 15" (commas, semicolons or spaces) as points per place; ValueError if any
    part is not a whole number from 0 to 1000, or there are more than 500."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
    values = tuple(int(p) for p in parts)
    if len(values) > 500 or any(not 0 <= v <= 1000 for v in values):
        raise ValueError(text)
    return values
