"""When will a match finish? Estimated from its sheet and the times its hands were entered.

Pure Python, standard library only. Two questions, answered separately:

1. **How many more hands** (:func:`hands_left`): the match is played out many times from
   where it stands, under its own rules (games to win, the target, Hollywood columns,
   boxes paid as they go), each hand drawn like the ones the table has played. A hand
   is a draw as often as at this table, won by A as often as A has won, for what the
   table's won hands scored. Each of those is shrunk toward a typical value (a table
   with two hands played says little): the table's own hands count as many times as
   there are, the typical ones as :data:`PRIOR_HANDS`. The typical won hand
   (:func:`typical_hands`) is worked out from the rules: knocks, undercuts, gins and big
   gins in the proportions of club play, with their bonuses, boxes and spade doubles.
   The playouts are seeded by the sheet's length and target, so the same sheet gives
   the same answer.
2. **How long a hand takes** (:func:`table_pace`): the median of the minutes between the
   table's hands (a hand entered within :data:`BATCH_SECONDS` of the one before was
   entered after the fact, and tells nothing), shrunk toward the room's pace
   (:func:`room_pace`, the median over every table) while the table has few, and
   :data:`DEFAULT_MINUTES` when nothing is known.

:func:`estimate` puts them together: the median number of hands left at the table's
pace after its last hand, with a plausible range (the 10th to the 90th percentile of the
playouts, at the quicker and slower quarter of the table's pace). A decided match, or one
without a hand, has no estimate (``None``). :func:`running_behind` says whether a table
plays far slower than the room.
"""

from __future__ import annotations

import functools
import itertools
import random
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.hands import Side
from engine.match import MatchSheet
from engine.rules import ROLLING_OPEN, ColumnsOpen, RuleSet

__all__ = [
    "Estimate",
    "Playouts",
    "estimate",
    "hands_left",
    "intervals",
    "room_pace",
    "running_behind",
    "table_pace",
    "typical_hands",
]

PLAYOUTS = 200
"""How many times :func:`hands_left` plays the rest of a match out."""
MOST_HANDS_LEFT = 300
"""A playout stops here: with bonuses of 0 a won hand may score nothing, and never end it."""
PRIOR_HANDS = 8
"""How many hands the typical values count for against the table's own (points, draws)."""
PRIOR_SIDES = 12
"""How many hands an even contest counts for against who has won the table's hands."""
DRAW_SHARE = 0.04
"""The typical share of hands that are draws (the stock ran out)."""
DEFAULT_MINUTES = 4.0
"""Minutes a hand takes when nothing is known of the room: shuffle, deal, play, enter."""
PRIOR_INTERVALS = 3
"""How many hands the room's pace counts for against the table's own."""
BATCH_SECONDS = 30
"""A hand entered this soon after the one before was entered after the fact: no pace."""
LOW, HIGH = 0.1, 0.9
"""The plausible range: these quantiles of the playouts' hands left."""
BEHIND_FACTOR = 1.5
"""A table is running far behind when its pace is this many times the room's..."""
BEHIND_HANDS = 3
"""... measured over at least this many hands."""

# Club play's won hands, by share (docs/rules.md's sources; the demo deals alike): knocks
# won by a margin spread evenly over 2..44, undercuts by a few points, gins and big gins
# against a defender's deadwood around 30.
_KNOCK_MARGINS = (2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 44)
_UNDERCUT_MARGINS = (0, 2, 4)
_GIN_DEADWOOD = (10, 20, 30, 40, 52)
_KNOCK_SHARE, _UNDERCUT_SHARE, _GIN_SHARE = 0.71, 0.10, 0.19
_BIG_GIN_SHARE = 0.08  # of gins, where the rules have big gin


@dataclass(frozen=True, slots=True)
class Playouts:
    """How many more hands a match took in each playout (sorted), and its quantiles."""

    counts: tuple[int, ...]

    def quantile(self, share: float) -> int:
        index = min(len(self.counts) - 1, max(0, round(share * (len(self.counts) - 1))))
        return self.counts[index]

    @property
    def median(self) -> int:
        return self.quantile(0.5)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A match's expected finish: ``hands_left`` (median) in ``low_hands``..``high_hands``,
    at ``minutes_per_hand``; ``finish`` between ``earliest`` and ``latest``."""

    hands_left: int
    low_hands: int
    high_hands: int
    minutes_per_hand: float
    finish: datetime
    earliest: datetime
    latest: datetime


def typical_hands(rules: RuleSet) -> tuple[tuple[float, int, int], ...]:
    """The typical won hand under ``rules``: ``(share, points, boxes)`` triples whose
    shares add up to 1."""
    spade_share = 0.25 if rules.spade_double else 0.0
    out: list[tuple[float, int, int]] = []

    def add(share: float, points: int, boxes: int) -> None:
        plain = (1 - spade_share) * share
        out.append((plain, points, boxes))
        if spade_share:
            doubled_boxes = boxes * 2 if rules.spade_double_boxes else boxes
            out.append((spade_share * share, points * 2, doubled_boxes))

    knock = _KNOCK_SHARE / len(_KNOCK_MARGINS)
    for margin in _KNOCK_MARGINS:
        add(knock, margin + rules.knock_base, 1)
    undercut = _UNDERCUT_SHARE / len(_UNDERCUT_MARGINS)
    for margin in _UNDERCUT_MARGINS:
        add(undercut, margin + rules.undercut_bonus, 1 + rules.undercut_extra_boxes)
    big = _BIG_GIN_SHARE if rules.big_gin_bonus is not None else 0.0
    gin = _GIN_SHARE / len(_GIN_DEADWOOD)
    for deadwood in _GIN_DEADWOOD:
        add(gin * (1 - big), deadwood + rules.gin_bonus, 1 + rules.gin_extra_boxes)
        if big:
            add(gin * big, deadwood + (rules.big_gin_bonus or 0), 1 + rules.gin_extra_boxes)
    return tuple(out)


_POOL = 500
"""How many hands :class:`_Model`'s list holds: one is drawn for every hand played out."""


def _spread_over(values: Sequence[int], count: int) -> list[int]:
    """``count`` of ``values``, taken evenly along them (each about as often)."""
    return [values[i * len(values) // count] for i in range(count)] if values else []


@functools.lru_cache(maxsize=64)
def _typical_values(rules: RuleSet) -> tuple[int, ...]:
    """:func:`typical_hands` as :data:`_POOL` values added to the winner's score, in order."""
    box_value = rules.running_box_bonus
    return tuple(
        sorted(
            points + boxes * box_value
            for share, points, boxes in typical_hands(rules)
            for _ in range(max(1, round(share * _POOL)))
        )
    )


class _Model:
    """How hands go at this table, as :data:`_POOL` hands to draw from: 0 for a draw,
    ``n + 1`` for a hand A wins adding ``n`` to A's score (points, and boxes where they
    count at once), ``-(n + 1)`` for one B wins. Each hand played out is one number
    picked from the list (a call plays out a few thousand hands)."""

    def __init__(self, sheet: MatchSheet) -> None:
        rules = sheet.rules
        box_value = rules.running_box_bonus
        won = [h.score for h in sheet.hands if h.score.winner is not None]
        count = len(sheet.hands)
        draw = (count - len(won) + PRIOR_HANDS * DRAW_SHARE) / (count + PRIOR_HANDS)
        by_a = sum(1 for score in won if score.winner is Side.A)
        a_wins = (by_a + PRIOR_SIDES / 2) / (len(won) + PRIOR_SIDES)
        seen = sorted(score.points + score.boxes * box_value for score in won)
        typical = _typical_values(rules)
        wins = _POOL - round(draw * _POOL)
        own = round(wins * len(won) / (len(won) + PRIOR_HANDS))
        values = _spread_over(seen, own) + _spread_over(typical, wins - own)
        # Every won hand goes to A or B as the share says, in turn along the list (so each
        # side gets hands of every size).
        self.pool = [0] * (_POOL - wins) + [
            value + 1 if int((i + 1) * a_wins) > int(i * a_wins) else -value - 1
            for i, value in enumerate(sorted(values))
        ]


def hands_left(sheet: MatchSheet, playouts: int = PLAYOUTS) -> Playouts:
    """How many more hands the match on ``sheet`` takes, played out ``playouts`` times
    (none for a decided match)."""
    if sheet.complete:
        return Playouts((0,))
    model = _Model(sheet)
    rng = random.Random(len(sheet.hands) * 1_000_003 + sheet.rules.game_target)
    if sheet.rules.is_hollywood:
        counts = [_hollywood(sheet, model.pool, rng) for _ in range(playouts)]
    else:
        counts = _games(sheet, model.pool, rng, playouts)
    return Playouts(tuple(sorted(min(count, MOST_HANDS_LEFT) for count in counts)))


def _game(
    pool: list[int], rng: random.Random, target: int, a: int, b: int
) -> tuple[int, Side | None]:
    """One game played out from ``a`` to ``b`` (hands drawn from a :class:`_Model`'s
    ``pool``): its hands, and who won it (None: not within :data:`MOST_HANDS_LEFT`)."""
    draw, size = rng.random, len(pool)
    for count in range(1, MOST_HANDS_LEFT + 1):
        value = pool[int(draw() * size)]
        if value > 0:
            a += value - 1
            if a >= target:
                return count, Side.A
        elif value < 0:
            b -= value + 1
            if b >= target:
                return count, Side.B
    return MOST_HANDS_LEFT, None


def _games(sheet: MatchSheet, pool: list[int], rng: random.Random, playouts: int) -> list[int]:
    """Playouts of the games format: the game in play from its score, then games from
    nothing until a side has won enough. The games after the current one are all alike:
    each playout draws them from ``playouts`` games played once (when any is needed)."""
    rules = sheet.rules
    target, box_value = rules.game_target, rules.running_box_bonus
    game = sheet.games[-1]
    a, b = (game.points[s] + game.boxes[s] * box_value for s in Side)
    fresh: list[tuple[int, Side | None]] = []
    counts = []
    for _ in range(playouts):
        hands, winner = _game(pool, rng, target, a, b)
        won = {Side.A: sheet.match.won.a, Side.B: sheet.match.won.b}
        while winner is not None and hands < MOST_HANDS_LEFT:
            won[winner] += 1
            if won[winner] >= rules.games_to_win:
                break
            if not fresh:
                fresh = [_game(pool, rng, target, 0, 0) for _ in range(playouts)]
            more, winner = fresh[int(rng.random() * playouts)]
            hands += more
        counts.append(hands if winner is not None else MOST_HANDS_LEFT)
    return counts


def _hollywood(sheet: MatchSheet, pool: list[int], rng: random.Random) -> int:
    """One playout of Hollywood: hands until every column has closed. A won hand goes
    into the open columns its winner has entered and the first open one they have not
    (``hollywood.py``); under ``rolling`` only the first :data:`ROLLING_OPEN` columns not
    closed are open."""
    rules = sheet.rules
    target, box_value = rules.game_target, rules.running_box_bonus
    columns = sheet.games
    at_once = len(columns)
    if rules.hollywood_columns_open is ColumnsOpen.ROLLING:
        at_once = ROLLING_OPEN
    score = [[c.points[s] + c.boxes[s] * box_value for s in Side] for c in columns]
    entered = [[c.hands_won[s] > 0 for s in Side] for c in columns]
    closed = [c.complete for c in columns]
    still = closed.count(False)
    draw, size = rng.random, len(pool)
    for count in range(1, MOST_HANDS_LEFT + 1):
        value = pool[int(draw() * size)]
        if value == 0:
            continue
        side, points = (0, value - 1) if value > 0 else (1, -value - 1)
        opened, fresh = 0, True
        for i, column in enumerate(score):
            if closed[i]:
                continue
            if opened == at_once:
                break
            opened += 1
            if not entered[i][side]:
                if not fresh:
                    continue
                entered[i][side], fresh = True, False
            column[side] += points
            if column[side] >= target:
                closed[i] = True
                still -= 1
        if not still:
            return count
    return MOST_HANDS_LEFT


def intervals(times: Sequence[datetime], started: datetime | None = None) -> list[float]:
    """Minutes between hands entered at ``times`` (in order; the first counted from
    ``started`` if known), without those entered within :data:`BATCH_SECONDS`."""
    marks = [started, *times] if started is not None else list(times)
    gaps = [(after - before).total_seconds() for before, after in itertools.pairwise(marks)]
    return [gap / 60 for gap in gaps if gap >= BATCH_SECONDS]


def room_pace(tables: Iterable[Sequence[float]]) -> float | None:
    """The room's minutes per hand: the median of every table's :func:`intervals` (None
    when no table has one)."""
    pooled = [gap for gaps in tables for gap in gaps]
    return statistics.median(pooled) if pooled else None


def table_pace(gaps: Sequence[float], room: float | None = None) -> float:
    """A table's minutes per hand: the median of its :func:`intervals`, shrunk toward the
    room's pace (or :data:`DEFAULT_MINUTES`) by :data:`PRIOR_INTERVALS` hands."""
    prior = room if room is not None else DEFAULT_MINUTES
    if not gaps:
        return prior
    count = len(gaps)
    return (statistics.median(gaps) * count + prior * PRIOR_INTERVALS) / (count + PRIOR_INTERVALS)


def running_behind(gaps: Sequence[float], room: float | None) -> bool:
    """Whether a table plays far slower than the room: over at least
    :data:`BEHIND_HANDS` hands, :data:`BEHIND_FACTOR` times the room's minutes per hand."""
    if room is None or len(gaps) < BEHIND_HANDS:
        return False
    return statistics.median(gaps) >= BEHIND_FACTOR * room


def _spread(gaps: Sequence[float], pace: float) -> tuple[float, float]:
    """The quicker and slower quarter of a table's pace: its intervals' quartiles scaled to
    ``pace`` (a quarter either side while it has fewer than four)."""
    if len(gaps) < 4:
        return 0.75 * pace, 1.25 * pace
    low, _mid, high = statistics.quantiles(gaps, n=4)
    middle = statistics.median(gaps)
    return pace * min(1.0, low / middle), pace * max(1.0, high / middle)


def estimate(
    sheet: MatchSheet,
    times: Sequence[datetime],
    *,
    started: datetime | None = None,
    room: float | None = None,
    now: datetime | None = None,
    left: Playouts | None = None,
) -> Estimate | None:
    """When the match on ``sheet`` should finish: its hands were entered at ``times`` (in
    order, one per hand of the sheet; a team match's deals at their last board), the
    match began at ``started``; ``room`` is :func:`room_pace`. Nothing is finished
    before ``now`` (the hand being played ends a quarter of a pace from now at the
    soonest). ``left``: :func:`hands_left` of ``sheet`` if the caller kept it (it depends
    on the sheet alone, and is most of the cost). None for a decided match or one without
    a hand."""
    if sheet.complete or not sheet.hands or not times:
        return None
    gaps = intervals(times, started)
    pace = table_pace(gaps, room)
    quick, slow = _spread(gaps, pace)
    if left is None:
        left = hands_left(sheet)
    last = times[-1]
    median, low, high = left.median, left.quantile(LOW), left.quantile(HIGH)

    def at(hands: int, minutes: float) -> datetime:
        when = last + timedelta(minutes=hands * minutes)
        if now is not None:
            when = max(when, now + timedelta(minutes=(max(hands, 1) - 0.75) * minutes))
        return when

    return Estimate(
        hands_left=median,
        low_hands=low,
        high_hands=high,
        minutes_per_hand=pace,
        finish=at(median, pace),
        earliest=at(low, quick),
        latest=at(high, slow),
    )
