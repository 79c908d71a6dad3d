"""``score_sheet`` with hands given as cards (issue 18): the output's ``cards``, counts
taken from the cards, and every refusal as one line naming the hand, exit status 1."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from tests.scoring.test_score_sheet_command import run

KNOCKER = [
    "5S",
    "6S",
    "7S",
    "2H",
    "2D",
    "2C",
    "AD",
    "AC",
    "3H",
    "4D",
]  # 5-6-7♠, three 2s; deadwood 9
DEFENDER = [
    "8S",
    "9S",
    "KH",
    "KC",
    "QD",
    "QH",
    "JC",
    "JD",
    "4C",
    "6D",
]  # lays off 8♠ then 9♠: 70 left
GIN = ["5S", "6S", "7S", "9H", "9D", "9C", "2D", "3D", "4D", "5D"]
GIN_DEFENDER = [
    "8S",
    "4S",
    "9S",
    "TD",
    "KH",
    "KC",
    "QC",
    "JD",
    "AS",
    "AH",
]  # 73, nothing laid off on gin
BIG_GIN = ["AS", "2S", "3S", "4S", "9H", "9D", "9C", "JH", "JD", "JC", "JS"]
BIG_GIN_DEFENDER = ["KH", "KD", "5C", "6C", "8H", "2D", "3D", "TS", "QH", "7D"]


@pytest.fixture
def stdin(monkeypatch):
    def feed(request: dict) -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(request)))

    return feed


def scored(stdin, hands: list[dict], rules: object = "modern") -> dict:
    stdin({"rules": rules, "hands": hands})
    out = io.StringIO()
    call_command("score_sheet", "-", stdout=out)
    return json.loads(out.getvalue())


def test_a_knock_from_cards_without_counts(stdin):
    hand = {"kind": "knock", "by": "B", "cards": {"knocker": KNOCKER, "defender": DEFENDER}}
    data = scored(stdin, [hand])
    first = data["hands"][0]
    assert (first["result"], first["winner"], first["points"]) == ("knock", "B", 61)
    assert first["cards"] == {
        "knocker": {"melds": [["5S", "6S", "7S"], ["2H", "2D", "2C"]], "deadwood": 9},
        "defender": {"melds": [], "layoffs": ["8S", "9S"], "deadwood": 70},
    }


def test_counts_that_agree_are_accepted(stdin):
    hand = {
        "kind": "knock",
        "by": "A",
        "deadwood": 9,
        "defender_deadwood": 70,
        "cards": {"knocker": KNOCKER, "defender": DEFENDER},
    }
    assert scored(stdin, [hand])["hands"][0]["points"] == 61


def test_gin_and_big_gin_from_cards(stdin):
    hands = [
        {"kind": "gin", "by": "A", "cards": {"knocker": GIN, "defender": GIN_DEFENDER}},
        {"kind": "big_gin", "by": "B", "cards": {"knocker": BIG_GIN, "defender": BIG_GIN_DEFENDER}},
    ]
    data = scored(stdin, hands)
    gin, big = data["hands"]
    assert (gin["result"], gin["points"]) == ("gin", 25 + 73)
    assert gin["cards"]["defender"] == {
        "melds": [],
        "layoffs": [],
        "deadwood": 73,
    }
    assert gin["cards"]["knocker"]["deadwood"] == 0
    assert (big["result"], big["points"]) == ("big_gin", 31 + 71)
    assert big["cards"]["knocker"]["melds"] == [
        ["AS", "2S", "3S", "4S"],
        ["JS", "JH", "JD", "JC"],
        ["9H", "9D", "9C"],
    ]


def test_hands_without_cards_have_no_cards_in_the_output(stdin):
    data = scored(stdin, [{"kind": "gin", "by": "A", "defender_deadwood": 4}])
    assert "cards" not in data["hands"][0]


@pytest.mark.parametrize(
    ("hand", "mentions"),
    [
        pytest.param(
            {"kind": "knock", "by": "A", "deadwood": 8},
            "hand 2: the cards give the knocker 9 deadwood, not 8",
            id="knocker-count",
        ),
        pytest.param(
            {"kind": "knock", "by": "A", "defender_deadwood": 87},
            "hand 2: the cards give the defender 70 deadwood after lay-offs, not 87",
            id="defender-count",
        ),
        pytest.param(
            {"kind": "gin", "by": "A"},
            "hand 2: the knocker's cards leave 9 deadwood: that is a knock, not gin",
            id="not-gin",
        ),
        pytest.param(
            {"kind": "knock", "by": "A", "cards": {"knocker": GIN, "defender": GIN_DEFENDER}},
            "hand 2: the knocker's cards leave no deadwood: that is gin, not a knock",
            id="gin-as-knock",
        ),
        pytest.param(
            {"kind": "knock", "by": "A", "cards": {"knocker": KNOCKER, "defender": KNOCKER}},
            "hand 2: card 5S is given twice",
            id="duplicate-across",
        ),
        pytest.param(
            {"kind": "knock", "by": "A", "cards": {"knocker": KNOCKER[:9], "defender": DEFENDER}},
            "hand 2: the knocker has 9 cards: 10, or 11 for a big gin",
            id="knocker-count-of-cards",
        ),
        pytest.param(
            {"kind": "knock", "by": "A", "cards": {"knocker": KNOCKER, "defender": DEFENDER[:9]}},
            "hand 2: the defender has 9 cards: 10",
            id="defender-count-of-cards",
        ),
        pytest.param(
            {
                "kind": "knock",
                "by": "A",
                "cards": {"knocker": [*KNOCKER[:9], "ZZ"], "defender": DEFENDER},
            },
            "hand 2: 'ZZ' is not a card",
            id="unknown-card",
        ),
        pytest.param(
            {"kind": "knock", "by": "A", "cards": {"knocker": KNOCKER}},
            "hand 2: cards must be an object with a knocker list and a defender list",
            id="no-defender",
        ),
        pytest.param(
            {"kind": "draw", "cards": {"knocker": KNOCKER, "defender": DEFENDER}},
            "hand 2: a dead hand has no cards to settle",
            id="draw",
        ),
        pytest.param(
            {
                "kind": "knock",
                "by": "A",
                "cards": {"knocker": [*KNOCKER, "KS"], "defender": DEFENDER},
            },
            "hand 2: the knocker's 11 cards leave 19 deadwood",
            id="eleven-not-big-gin",
        ),
    ],
)
def test_refusals_name_the_hand(hand, mentions):
    cards = {"cards": {"knocker": KNOCKER, "defender": DEFENDER}}
    request = {
        "rules": "modern",
        "hands": [{"kind": "draw"}, {**cards, **hand}],
    }
    result = run("-", stdin=json.dumps(request))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: {mentions}\n" or (
        result.stderr.startswith(f"error: {mentions}") and result.stderr.count("\n") == 1
    ), result.stderr


def test_a_knock_over_the_limit_from_cards_is_refused_as_typed_counts_are(stdin):
    knocker = ["5S", "6S", "7S", "2H", "2D", "2C", "KD", "QC", "3H", "4D"]  # deadwood 27
    request = {
        "rules": "modern",
        "hands": [
            {"kind": "knock", "by": "A", "cards": {"knocker": knocker, "defender": DEFENDER}}
        ],
    }
    result = run("-", stdin=json.dumps(request))
    assert result.returncode == 1
    assert "hand 1: knocker deadwood 27 is over the knock limit of 10" in result.stderr


def test_straight_gin_refuses_a_knock_from_cards(stdin):
    request = {
        "rules": "straight",
        "hands": [
            {"kind": "knock", "by": "A", "cards": {"knocker": KNOCKER, "defender": DEFENDER}}
        ],
    }
    result = run("-", stdin=json.dumps(request))
    assert result.returncode == 1
    assert "hand 1: knocking is not allowed under straight gin rules" in result.stderr
