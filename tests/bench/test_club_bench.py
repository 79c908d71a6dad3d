"""The club bench's recompute budget: 1 s where RLCard's deadwood takes 18 µs a hand, each
sample scaled by the anchor passes timed either side of it."""

from __future__ import annotations

import pytest

from tools.bench import club_bench


def test_each_sample_is_scaled_by_the_anchor_passes_either_side():
    seconds = [1.0, 2.0, 3.0]
    anchors = [18.0, 18.0, 36.0, 54.0]  # before, between, after: µs a hand
    # 1.0 × 18 ÷ 18 = 1.0; 2.0 × 18 ÷ 27 ≈ 1.33; 3.0 × 18 ÷ 45 = 1.2
    assert club_bench.at_reference(seconds, anchors) == pytest.approx(1.2)


def test_a_machine_twice_as_slow_throughout_changes_nothing():
    seconds, anchors = [0.6, 0.7, 0.8], [18.0, 18.0, 18.0, 18.0]
    slower = club_bench.at_reference([2 * s for s in seconds], [2 * a for a in anchors])
    assert slower == pytest.approx(club_bench.at_reference(seconds, anchors)) == 0.7


def test_an_anchor_pass_must_bracket_every_sample():
    with pytest.raises(ValueError):
        club_bench.at_reference([1.0, 1.0], [18.0, 18.0])
