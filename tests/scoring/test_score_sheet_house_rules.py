"""The house-rule knobs of issue 19 through the real ``score_sheet`` command: the issue's
two examples exactly, the knobs in the output's rules, and a bad value refused."""

from __future__ import annotations

import json

import pytest

from tests.scoring.test_score_sheet_command import run

TIE = {
    "rules": {"preset": "modern", "tie": "knocker"},
    "hands": [{"kind": "knock", "by": "A", "deadwood": 5, "defender_deadwood": 5}],
}
BASE = {
    "rules": {"preset": "modern", "knock_base": 15},
    "hands": [{"kind": "knock", "by": "A", "deadwood": 5, "defender_deadwood": 13}],
}


def score(request: dict) -> dict:
    result = run("-", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def test_a_tie_goes_to_the_knocker():
    hand = score(TIE)["hands"][0]
    assert (hand["result"], hand["winner"], hand["points"], hand["boxes"]) == ("knock", "A", 0, 1)


def test_a_knock_base_of_15():
    data = score(BASE)
    assert data["hands"][0]["points"] == 23
    # 23 points and one box of 25: a provisional 48.
    assert data["games"][0]["total"] == {"A": 48, "B": 0}


def test_the_output_lists_every_house_knob_after_deal():
    rules = score({"rules": "tedesco", "hands": []})["rules"]
    names = list(rules)
    assert names[names.index("deal") + 1 :][:6] == [
        "knock_base",
        "box_timing",
        "hollywood_last_doubled",
        "hollywood_columns_open",
        "ace_value",
        "runs_around_the_corner",
    ]
    assert (rules["ace_value"], rules["runs_around_the_corner"], rules["oklahoma"]) == (
        15,
        True,
        True,
    )


def test_palace_five_knocks_of_ten():
    hands = [{"kind": "knock", "by": "A", "deadwood": 1, "defender_deadwood": 11}] * 5
    data = score({"rules": "palace", "hands": hands})
    game = data["games"][0]
    assert (game["complete"], game["winner"], game["total"]) == (True, "A", {"A": 100, "B": 0})
    assert data["match"]["complete"] is True


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"preset": "modern", "knock_base": 501}, "rules: knock_base must be between 0 and 500"),
        ({"preset": "modern", "ace_value": 16}, "rules: ace_value must be between 1 and 15"),
        ({"preset": "modern", "box_timing": "soon"}, "box_timing must be one of end, running"),
    ],
)
def test_a_bad_house_rule_is_one_line_on_stderr(rules, message):
    result = run("-", stdin=json.dumps({"rules": rules, "hands": []}))
    assert (result.returncode, result.stdout) == (1, "")
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_deadwood_past_the_tedesco_bound_names_the_hand():
    hand = {"kind": "gin", "by": "A", "defender_deadwood": 111, "knock_card": "5H"}
    result = run("-", stdin=json.dumps({"rules": "tedesco", "hands": [hand]}))
    assert result.returncode == 1
    assert result.stderr == (
        "error: hand 1: defender_deadwood must be between 0 and 110, not 111\n"
    )
