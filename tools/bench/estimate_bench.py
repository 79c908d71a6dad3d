"""``make bench``'s estimated finish (:mod:`engine.estimate`): its error against simulated
club nights, and its cost per call against RLCard's deadwood routine.

The questions are :func:`tools.estimate_sim.questions`: rooms of tables under six
rule sets playing whole matches at random paces, each match asked about at 25%, 50% and
75% of its hands. The **error** is the estimated finish minus the time the match's last
hand was really entered, in minutes: the median and 90th percentile of its absolute
value, overall and at each point through the match (budgets on the overall figures). The
**cost** of one call of :func:`engine.estimate.estimate` (200 playouts of the rest of the
match) is timed in turns with RLCard's deadwood routine on dealt hands
(:func:`tools.bench.cards_bench.in_turns`), per call ÷ per hand: a ratio that does not
move with the machine; the µs per call are reported beside it.
"""

from __future__ import annotations

import statistics
from typing import Any

from tools import estimate_sim
from tools.bench import cards_bench, rlcard_anchor

MEDIAN_BUDGET = 10.0  # minutes, absolute error of the estimated finish, median
P90_BUDGET = 45.0  # minutes, its 90th percentile
COST_BUDGET = 100.0  # × RLCard's deadwood of one hand, per call


def run(*, rooms: int = 12, repeats: int = 5, seed: int = 33) -> dict[str, Any]:
    asked = estimate_sim.questions(seed=seed, rooms=rooms)
    figures = estimate_sim.figures([estimate_sim.answered(q) for q in asked])
    dealt = cards_bench.deals("dealt", 500, cards_bench.SEED)
    hands = cards_bench.anchor_hands([mask for pair in dealt for mask in pair])
    jobs: dict[str, cards_bench.Job] = {
        "rlcard": (rlcard_anchor.deadwood, hands),
        "estimate": (estimate_sim.Question.answer, asked),
    }
    passes = cards_bench.in_turns(jobs, repeats)
    cost = {
        "calls": len(asked),
        "repeats": repeats,
        "us_per_call": round(statistics.median(p["estimate"] for p in passes), 1),
        "rlcard_us_per_hand": round(statistics.median(p["rlcard"] for p in passes), 2),
        "ratio_rlcard": cards_bench.ratio(passes, "estimate", "rlcard"),
    }
    error = {name: round(value, 2) for name, value in figures.items()}
    return {
        "error": error,
        "cost": cost,
        "checks": [
            {
                "name": "estimated finish: median / p90 error, minutes (simulated nights)",
                "value": f"{error['all median']:.1f} / {error['all p90']:.1f}",
                "budget": f"≤ {MEDIAN_BUDGET:g} / {P90_BUDGET:g}",
                "pass": error["all median"] <= MEDIAN_BUDGET and error["all p90"] <= P90_BUDGET,
            },
            {
                "name": "estimated finish per call ÷ RLCard's deadwood per hand (CPU)",
                "value": cost["ratio_rlcard"],
                "budget": f"≤ {COST_BUDGET:g}",
                "pass": cost["ratio_rlcard"] <= COST_BUDGET,
            },
        ],
    }


def lines(report: dict[str, Any]) -> list[str]:
    """The report's lines for ``make bench``'s summary."""
    error, cost = report["error"], report["cost"]
    at = " · ".join(
        f"{point} {error[f'{point} median']:.1f} / {error[f'{point} p90']:.1f}"
        for point in ("25%", "50%", "75%")
    )
    return [
        f"estimated finish, {int(error['answers'])} questions: error median / p90 "
        f"{error['all median']:.1f} / {error['all p90']:.1f} min ({at}); bias "
        f"{error['bias']:+.1f} min; truth within the range {error['within range']:.0%}; "
        f"pace off by {error['pace error']:.0%}",
        f"estimated finish: {cost['us_per_call']:,.0f} µs a call, RLCard's deadwood "
        f"{cost['rlcard_us_per_hand']} µs a hand beside it (÷ {cost['ratio_rlcard']})",
    ]


if __name__ == "__main__":
    import json

    import django

    django.setup()
    print(json.dumps(run(), indent=1, ensure_ascii=False))
