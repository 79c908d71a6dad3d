"""The cards bench's bookkeeping: turns, per-pass figures and ratios (on a fake clock, so
the figures are exact), and the report's shape on a few hands (no timing asserted)."""

from __future__ import annotations

import pytest

from tools.bench import cards_bench


class FakeClock:
    """A clock that only moves when a job's work moves it; the order of the work done."""

    def __init__(self) -> None:
        self.now = 0.0
        self.order: list[str] = []

    def __call__(self) -> float:
        return self.now

    def job(self, name: str, cost: float):
        def work(item: object) -> None:
            self.order.append(name)
            self.now += cost

        return work


def test_jobs_take_turns_and_are_timed_per_item():
    clock = FakeClock()
    jobs = {
        "rlcard": (clock.job("rlcard", 2e-6), list(range(40))),
        "ours": (clock.job("ours", 3e-6), list(range(20))),
    }
    passes = cards_bench.in_turns(jobs, 3, slices=4, clock=clock)

    a_then_b = ["rlcard"] * 10 + ["ours"] * 5  # a quarter of each job's items per turn
    b_then_a = ["ours"] * 5 + ["rlcard"] * 10
    assert clock.order == (a_then_b + b_then_a) * 2 * 3
    assert len(passes) == 3
    for figures in passes:
        assert figures["rlcard"] == pytest.approx(2.0)
        assert figures["ours"] == pytest.approx(3.0)
    assert cards_bench.ratio(passes, "ours", "rlcard") == 1.5
    assert cards_bench.figures(passes, "ours", 20) == {
        "hands": 20,
        "repeats": 3,
        "us_per_hand": 3.0,
    }


def test_ratio_is_the_median_of_each_pass_own_ratio():
    passes = [
        {"rlcard": 10.0, "ours": 5.0},  # 0.5
        {"rlcard": 40.0, "ours": 24.0},  # 0.6: a slow pass slows both
        {"rlcard": 20.0, "ours": 14.0},  # 0.7
    ]
    assert cards_bench.ratio(passes, "ours", "rlcard") == 0.6


def test_report_judges_ratios_against_rlcard():
    report = cards_bench.run(hands=30, repeats=2)

    for kind in ("dealt", "melded"):
        assert report["anchor"][kind]["hands"] == 60
        assert report["anchor"][kind]["us_per_hand"] > 0
        assert report["melds"][kind]["us_per_hand"] > 0
        assert report["melds"][kind]["ratio_rlcard"] > 0
    layoffs = report["layoffs"]["melded"]
    assert 0 < layoffs["hands"] <= 30 and layoffs["ratio_rlcard"] > 0
    melds_check, layoffs_check = report["checks"]
    assert melds_check["name"].startswith("optimal melds ÷ RLCard")
    assert melds_check["budget"] == "≤ 1"
    worst = max(report["melds"][kind]["ratio_rlcard"] for kind in ("dealt", "melded"))
    assert melds_check["pass"] == (worst <= 1.0)
    assert layoffs_check["name"].startswith("lay-offs per melded knock ÷ RLCard")
    assert layoffs_check["budget"] == "≤ 3"
    assert layoffs_check["value"] == layoffs["ratio_rlcard"]
    assert layoffs_check["pass"] == (layoffs["ratio_rlcard"] <= 3.0)
