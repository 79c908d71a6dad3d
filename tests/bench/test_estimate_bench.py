"""The estimated finish's bench: its report on two simulated rooms (no timing asserted)."""

from __future__ import annotations

from tools.bench import estimate_bench


def test_report_shape_and_checks():
    report = estimate_bench.run(rooms=2, repeats=1)
    error, cost = report["error"], report["cost"]
    for point in ("all", "25%", "50%", "75%"):
        assert 0 <= error[f"{point} median"] <= error[f"{point} p90"]
    assert error["answers"] == cost["calls"] > 30  # two rooms of eight, three questions each
    assert cost["us_per_call"] > 0 and cost["rlcard_us_per_hand"] > 0
    assert cost["ratio_rlcard"] > 0
    names = [check["name"] for check in report["checks"]]
    assert names == [
        "estimated finish: median / p90 error, minutes (simulated nights)",
        "estimated finish per call ÷ RLCard's deadwood per hand (CPU)",
    ]
    error_check, cost_check = report["checks"]
    assert error_check["pass"] == (error["all median"] <= 10 and error["all p90"] <= 45)
    assert cost_check["value"] == cost["ratio_rlcard"]
    assert cost_check["pass"] == (cost["ratio_rlcard"] <= 100)
    lines = estimate_bench.lines(report)
    assert lines[0].startswith(f"estimated finish, {cost['calls']} questions: error median")
    assert "RLCard's deadwood" in lines[1]
