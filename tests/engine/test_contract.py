"""The score_sheet JSON contract: rules resolution and hostile input."""

from __future__ import annotations

import pytest

from engine import (
    KNOB_RANGES,
    KNOBS,
    MAX_HANDS,
    PRESETS,
    ScoringError,
    resolve_rules,
    score_request,
)

KNOCK = {"kind": "knock", "by": "A", "deadwood": 3, "defender_deadwood": 20}


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_resolves_every_knob(name):
    data = score_request({"rules": name, "hands": []}).to_dict()
    assert data["rules"]["preset"] == name
    assert set(data["rules"]) == {"preset", *KNOBS}


@pytest.mark.parametrize(
    ("preset", "knob", "value"),
    [
        ("modern", "knock_limit", 10),
        ("straight", "knock_limit", 0),
        ("classic", "big_gin_bonus", None),
        ("classic", "shutout", "bonus"),
        ("classic", "shutout_bonus", 100),
        ("classic", "deal", "winner"),
        ("tournament", "game_target", 250),
        ("tournament", "games_to_win", 3),
        ("oklahoma", "game_target", 150),
        ("oklahoma", "spade_double", True),
        ("hollywood", "format", "hollywood"),
    ],
)
def test_preset_values(preset, knob, value):
    assert PRESETS[preset].to_dict()[knob] == value


def test_overrides_apply_on_top_of_the_preset():
    rules = resolve_rules({"preset": "classic", "gin_bonus": 30, "big_gin_bonus": 50})
    assert (rules.preset, rules.gin_bonus, rules.big_gin_bonus, rules.box_bonus) == (
        "classic",
        30,
        50,
        20,
    )


@pytest.mark.parametrize(
    ("rules", "mentions"),
    [
        ("poker", "unknown rules preset"),
        (5, "preset name or an object"),
        ({"gin_bonus": 20}, "preset is missing"),
        ({"preset": "modern", "gin_bonsu": 20}, "unknown rule gin_bonsu"),
        ({"preset": "modern", "knock_limit": 11}, "between 0 and 10"),
        ({"preset": "modern", "knock_limit": -1}, "between 0 and 10"),
        ({"preset": "modern", "game_target": 0}, "game_target must be between 1 and 5000"),
        ({"preset": "modern", "gin_bonus": -5}, "gin_bonus must be between 0 and 500"),
        ({"preset": "modern", "gin_bonus": 2.5}, "whole number"),
        ({"preset": "modern", "gin_bonus": "25"}, "whole number"),
        ({"preset": "modern", "gin_bonus": True}, "whole number"),
        ({"preset": "modern", "gin_bonus": None}, "whole number"),
        ({"preset": "modern", "games_to_win": 11}, "between 1 and 10"),
        ({"preset": "modern", "hollywood_columns": 0}, "between 1 and 10"),
        ({"preset": "modern", "oklahoma": 1}, "true or false"),
        ({"preset": "modern", "tie": "split"}, "must be one of"),
        ({"preset": "modern", "shutout": "triple"}, "must be one of"),
        ({"preset": "modern", "format": "swiss"}, "must be one of"),
        ({"preset": "modern", "deal": "random"}, "must be one of"),
        ({"preset": "modern", "oklahoma_ace": "two"}, "must be one of"),
    ],
)
def test_bad_rules(rules, mentions):
    with pytest.raises(ScoringError, match=mentions):
        score_request({"rules": rules, "hands": []})


# Far past anything played, small enough that every total fits a 32-bit column
# (tests/scoring/test_limits.py holds that).
BOUNDS = {
    "knock_limit": (0, 10),
    "gin_bonus": (0, 500),
    "big_gin_bonus": (0, 500),
    "undercut_bonus": (0, 500),
    "game_target": (1, 5000),
    "game_bonus": (0, 500),
    "box_bonus": (0, 500),
    "gin_extra_boxes": (0, 5),
    "undercut_extra_boxes": (0, 5),
    "shutout_bonus": (0, 500),
    "games_to_win": (1, 10),
    "hollywood_columns": (1, 10),
    # House rules (issue 19): a knock base is a bonus like the others; an ace counts 1..15.
    "knock_base": (0, 500),
    "ace_value": (1, 15),
    # Partnership (issue 20): teams of one (head to head) to four; a sweep is a bonus.
    "team_size": (1, 4),
    "sweep_bonus": (0, 500),
}


def test_every_whole_number_knob_is_bounded():
    assert KNOB_RANGES == BOUNDS
    assert {name for name in KNOBS if type(getattr(PRESETS["modern"], name)) is int} == set(BOUNDS)


@pytest.mark.parametrize(("name", "bounds"), BOUNDS.items(), ids=list(BOUNDS))
def test_a_knob_takes_its_limits_and_nothing_past_them(name, bounds):
    low, high = bounds
    for value in (low, high):
        assert getattr(resolve_rules({"preset": "modern", name: value}), name) == value
    for value in (low - 1, high + 1, 3_000_000_000):
        with pytest.raises(ScoringError) as caught:
            resolve_rules({"preset": "modern", name: value})
        assert str(caught.value) == f"rules: {name} must be between {low} and {high}"
        assert caught.value.field == name


def test_the_overflowing_rules_of_the_issue_are_refused():
    rules = {
        "preset": "oklahoma",
        **dict.fromkeys(
            ["game_target", "gin_bonus", "big_gin_bonus", "box_bonus", "gin_extra_boxes"], 10000
        ),
        "game_bonus": 10000,
        "shutout": "double_total",
        "spade_double_boxes": True,
        "games_to_win": 10,
    }
    with pytest.raises(ScoringError, match="game_target must be between 1 and 5000"):
        score_request({"rules": rules, "hands": []})


@pytest.mark.parametrize("preset", ["modern", "hollywood"])
def test_a_match_has_at_most_max_hands(preset):
    draws = [{"kind": "draw"}] * MAX_HANDS
    assert len(score_request({"rules": preset, "hands": draws}).hands) == MAX_HANDS == 10_000
    with pytest.raises(ScoringError) as caught:
        score_request({"rules": preset, "hands": [*draws, {"kind": "draw"}]})
    assert str(caught.value) == "hand 10001: a match has at most 10000 hands"


@pytest.mark.parametrize(
    ("request_data", "mentions"),
    [
        ([], "JSON object"),
        ("modern", "JSON object"),
        ({"hands": []}, "rules is missing"),
        ({"rules": "modern", "hand": []}, "unknown field hand"),
        ({"rules": "modern", "hands": {}}, "hands must be a list"),
        ({"rules": "modern", "first_dealer": "C", "hands": []}, "first_dealer must be A or B"),
        ({"rules": "modern", "hands": [5]}, "hand 1: a hand must be an object"),
        ({"rules": "modern", "hands": [KNOCK, {"kind": "fold"}]}, "hand 2: kind must be"),
        ({"rules": "modern", "hands": [{**KNOCK, "by": "C"}]}, "hand 1: by must be A or B"),
        ({"rules": "modern", "hands": [{**KNOCK, "by": None}]}, "hand 1: by must be A or B"),
        ({"rules": "modern", "hands": [{**KNOCK, "deadwood": "3"}]}, "hand 1: deadwood must be"),
        ({"rules": "modern", "hands": [{**KNOCK, "deadwood": 3.0}]}, "whole number"),
        ({"rules": "modern", "hands": [{**KNOCK, "deadwood": True}]}, "whole number"),
        ({"rules": "modern", "hands": [{**KNOCK, "defender_deadwood": 120}]}, "between 0 and 98"),
        ({"rules": "modern", "hands": [{**KNOCK, "score": 9}]}, "hand 1: unknown field score"),
        ({"rules": "modern", "hands": [{**KNOCK, "deadwood": 0}]}, "that is gin|is gin"),
        ({"rules": "modern", "hands": [{**KNOCK, "deadwood": 11}]}, "knock limit"),
        (
            {
                "rules": "modern",
                "hands": [{"kind": "gin", "by": "A", "deadwood": 2, "defender_deadwood": 9}],
            },
            "hand 1: a gin has no knocker deadwood",
        ),
        ({"rules": "oklahoma", "hands": [KNOCK]}, "hand 1: the knock card is missing"),
        ({"rules": "oklahoma", "hands": [{**KNOCK, "knock_card": 7}]}, "knock card must be text"),
        ({"rules": "oklahoma", "hands": [{**KNOCK, "knock_card": "7Z"}]}, "not a card"),
        ({"rules": "straight", "hands": [KNOCK]}, "hand 1: knocking is not allowed"),
    ],
)
def test_bad_requests(request_data, mentions):
    with pytest.raises(ScoringError, match=mentions) as caught:
        score_request(request_data)
    assert "\n" not in str(caught.value)


def test_draw_needs_nothing_and_ignores_a_knock_card():
    data = score_request(
        {"rules": "oklahoma", "hands": [{"kind": "draw", "knock_card": "7S"}]}
    ).to_dict()
    assert data["hands"][0] == {
        "number": 1,
        "game": 1,
        "kind": "draw",
        "by": None,
        "result": "draw",
        "winner": None,
        "points": 0,
        "multiplier": 1,
        "boxes": 0,
    }


def test_error_render_translates_template_and_prefix():
    with pytest.raises(ScoringError) as caught:
        score_request({"rules": "modern", "hands": [KNOCK, {**KNOCK, "deadwood": 11}]})
    catalogue = {
        "hand %(number)d: %(problem)s": "mano %(number)d: %(problem)s",
        "knocker deadwood %(deadwood)d is over the knock limit of %(limit)d": (
            "%(deadwood)d pasa del límite de %(limit)d"
        ),
    }
    assert caught.value.render(lambda s: catalogue.get(s, s)) == "mano 2: 11 pasa del límite de 10"
