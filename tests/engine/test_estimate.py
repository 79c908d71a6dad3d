"""The estimated finish (engine/estimate.py): hands left under each format, a table's
pace, and the error against simulated club nights (tools/estimate_sim.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine import PRESETS, score_match
from engine.estimate import (
    DEFAULT_MINUTES,
    estimate,
    hands_left,
    intervals,
    room_pace,
    running_behind,
    table_pace,
    typical_hands,
)
from tools import estimate_sim

from .helpers import BG, D, G, K

MODERN = PRESETS["modern"]
HOLLYWOOD = PRESETS["hollywood"]
T0 = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)


def minutes(*marks: float) -> list[datetime]:
    return [T0 + timedelta(minutes=m) for m in marks]


def test_a_decided_match_or_one_without_a_hand_has_no_estimate():
    done = score_match(MODERN, [G("A", 50), G("A", 50)])
    assert done.complete
    assert estimate(done, minutes(4, 8)) is None
    assert estimate(score_match(MODERN, []), []) is None
    assert hands_left(done).median == 0


def test_a_side_one_hand_from_the_target_needs_few_hands():
    close = score_match(MODERN, [K("A", 2, 47), K("A", 2, 47)])  # A on 90 of 100
    left = hands_left(close)
    assert left.quantile(0.1) == 1
    assert left.median <= 2
    fresh = hands_left(score_match(MODERN, [D()]))
    assert fresh.median > left.median + 1


def test_more_to_play_means_more_hands():
    first = [K("A", 5, 15)]
    one_game = hands_left(score_match(MODERN, first)).median
    best_of_five = hands_left(score_match(MODERN.replace(games_to_win=3), first)).median
    hollywood = hands_left(score_match(HOLLYWOOD, first)).median
    higher = hands_left(score_match(MODERN.replace(game_target=250), first)).median
    assert best_of_five > 2 * one_game
    assert hollywood > one_game
    assert higher > 2 * one_game


def test_boxes_paid_as_they_go_shorten_a_game():
    first = [K("A", 5, 15)]
    at_end = hands_left(score_match(MODERN.replace(box_bonus=50), first)).median
    running = MODERN.replace(box_bonus=50, box_timing="running")
    assert hands_left(score_match(running, first)).median < at_end


def test_a_table_of_big_hands_needs_fewer_than_one_of_small_ones():
    rules = MODERN.replace(game_target=500)
    big = [BG("A", 40), BG("B", 40)] * 4  # 71 a hand each: 284 apiece
    small = [K("A", 9, 10), K("B", 9, 10)] * 4  # 1 a hand each: 4 apiece
    assert hands_left(score_match(rules, big)).median < hands_left(score_match(rules, small)).median


def test_the_answer_is_the_same_for_the_same_sheet():
    sheet = score_match(HOLLYWOOD, [K("A", 5, 15), G("B", 20)])
    assert hands_left(sheet) == hands_left(sheet)


def test_rolling_hollywood_plays_every_column():
    rules = HOLLYWOOD.replace(hollywood_columns=6, hollywood_columns_open="rolling")
    sheet = score_match(rules, [K("A", 5, 15)])
    assert hands_left(sheet).median > hands_left(score_match(HOLLYWOOD, [K("A", 5, 15)])).median


def test_typical_hands_follow_the_rules():
    shares = typical_hands(MODERN)
    assert sum(share for share, _p, _b in shares) == pytest.approx(1)
    mean = sum(share * points for share, points, _b in shares)
    richer = MODERN.replace(gin_bonus=100, undercut_bonus=100, knock_base=20)
    assert sum(share * points for share, points, _b in typical_hands(richer)) > mean + 30
    spades = typical_hands(PRESETS["oklahoma"])
    assert sum(share * points for share, points, _b in spades) > mean


def test_intervals_skip_hands_entered_after_the_fact():
    assert intervals(minutes(3, 7, 7.2, 7.3, 12), T0) == pytest.approx([3, 4, 4.7])
    assert intervals(minutes(3, 7)) == pytest.approx([4])


def test_a_table_pace_leans_on_the_room_until_it_has_hands():
    assert table_pace([], None) == DEFAULT_MINUTES
    assert table_pace([], 3.0) == 3.0
    assert table_pace([6.0], 3.0) == pytest.approx((6 + 3 * 3) / 4)
    assert table_pace([6.0] * 30, 3.0) == pytest.approx(6.0, abs=0.3)
    assert room_pace([[2.0, 4.0], [6.0]]) == 4.0
    assert room_pace([[], []]) is None


def test_running_behind_needs_a_slow_table_over_enough_hands():
    assert running_behind([8.0, 9.0, 8.5], 4.0)
    assert not running_behind([8.0, 9.0], 4.0)  # too few hands to tell
    assert not running_behind([5.0, 5.5, 5.0], 4.0)
    assert not running_behind([8.0, 9.0, 8.5], None)


def test_the_finish_is_the_hands_left_at_the_table_pace():
    sheet = score_match(MODERN, [K("A", 5, 15), K("B", 3, 13)])
    times = minutes(5, 10)
    found = estimate(sheet, times, started=T0, room=5.0)
    assert found is not None
    assert found.minutes_per_hand == pytest.approx(5.0)
    left = hands_left(sheet)
    assert found.hands_left == left.median
    assert found.finish == times[-1] + timedelta(minutes=5.0 * left.median)
    assert found.earliest <= found.finish <= found.latest
    assert found.low_hands <= found.hands_left <= found.high_hands


def test_a_late_table_is_not_finished_in_the_past():
    sheet = score_match(MODERN, [K("A", 5, 15)])
    now = T0 + timedelta(hours=2)
    found = estimate(sheet, minutes(5), started=T0, room=5.0, now=now)
    assert found is not None
    assert found.earliest > now and found.finish > now


def test_error_against_simulated_club_nights():
    """Twelve rooms of eight tables under six rule sets; the estimator asked at 25%, 50%
    and 75% of each match. A broken estimator (a wrong count of hands, pace or clock)
    is off by far more."""
    figures = estimate_sim.figures(estimate_sim.evening(seed=33, rooms=12))
    assert figures["answers"] > 250
    assert figures["all median"] < 8.5  # minutes (6.2 measured)
    assert figures["all p90"] < 40  # (33.6)
    assert figures["25% median"] < 11  # (8.2)
    assert figures["75% median"] < figures["25% median"]
    assert figures["pace error"] < 0.15  # (0.10; a fixed 4 minutes a hand: 0.27)
    assert abs(figures["bias"]) < 3  # (1.5)
    assert figures["within range"] > 0.75  # (0.83)
