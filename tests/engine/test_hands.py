"""One hand at a time: every kind, every knob that changes a hand's score."""

from __future__ import annotations

import pytest

from engine import PRESETS, HandInput, HandKind, Result, ScoringError, Side, score_hand

from .helpers import BG, D, G, K

MODERN = PRESETS["modern"]
CLASSIC = PRESETS["classic"]
OKLAHOMA = PRESETS["oklahoma"]


@pytest.mark.parametrize(
    ("rules", "hand", "result", "winner", "points", "multiplier", "boxes"),
    [
        pytest.param(MODERN, K("A", 6, 21), Result.KNOCK, "A", 15, 1, 1, id="knock"),
        pytest.param(MODERN, K("B", 9, 5), Result.UNDERCUT, "A", 29, 1, 1, id="undercut"),
        pytest.param(MODERN, K("B", 8, 8), Result.UNDERCUT, "A", 25, 1, 1, id="tie-undercut"),
        pytest.param(CLASSIC, K("B", 8, 8), Result.UNDERCUT, "A", 10, 1, 1, id="classic-tie"),
        pytest.param(
            MODERN.replace(tie="no_score"),
            K("A", 7, 7),
            Result.TIE,
            None,
            0,
            1,
            0,
            id="tie-no-score",
        ),
        pytest.param(MODERN, G("B", 17), Result.GIN, "B", 42, 1, 1, id="gin"),
        pytest.param(CLASSIC, G("B", 17), Result.GIN, "B", 37, 1, 1, id="classic-gin"),
        pytest.param(MODERN, G("A", 0), Result.GIN, "A", 25, 1, 1, id="gin-zero-defender"),
        pytest.param(MODERN, BG("A", 12), Result.BIG_GIN, "A", 43, 1, 1, id="big-gin"),
        pytest.param(MODERN, D(), Result.DRAW, None, 0, 1, 0, id="draw"),
        pytest.param(MODERN, K("A", 10, 98), Result.KNOCK, "A", 88, 1, 1, id="max-deadwood"),
        pytest.param(MODERN, K("A", 1, 0), Result.UNDERCUT, "B", 26, 1, 1, id="knock-vs-zero"),
        pytest.param(
            MODERN.replace(gin_extra_boxes=2),
            G("A", 5),
            Result.GIN,
            "A",
            30,
            1,
            3,
            id="gin-extra-boxes",
        ),
        pytest.param(
            MODERN.replace(gin_extra_boxes=1),
            BG("A", 5),
            Result.BIG_GIN,
            "A",
            36,
            1,
            2,
            id="big-gin-extra-boxes",
        ),
        pytest.param(
            MODERN.replace(undercut_extra_boxes=1),
            K("A", 5, 2),
            Result.UNDERCUT,
            "B",
            28,
            1,
            2,
            id="undercut-extra-boxes",
        ),
        pytest.param(
            MODERN.replace(undercut_extra_boxes=1, gin_extra_boxes=3),
            K("A", 2, 9),
            Result.KNOCK,
            "A",
            7,
            1,
            1,
            id="knock-gets-no-extra-boxes",
        ),
        pytest.param(OKLAHOMA, K("A", 5, 19, "7S"), Result.KNOCK, "A", 28, 2, 1, id="ok-spade"),
        pytest.param(OKLAHOMA, K("A", 5, 19, "7H"), Result.KNOCK, "A", 14, 1, 1, id="ok-heart"),
        pytest.param(
            OKLAHOMA, K("B", 3, 3, "4S"), Result.UNDERCUT, "A", 50, 2, 1, id="ok-spade-undercut"
        ),
        pytest.param(OKLAHOMA, G("A", 22, "KS"), Result.GIN, "A", 94, 2, 1, id="ok-spade-gin"),
        pytest.param(OKLAHOMA, BG("A", 10, "QS"), Result.BIG_GIN, "A", 82, 2, 1, id="ok-big-gin"),
        pytest.param(OKLAHOMA, K("A", 10, 30, "TD"), Result.KNOCK, "A", 20, 1, 1, id="ok-ten"),
        pytest.param(OKLAHOMA, K("A", 10, 30, "10D"), Result.KNOCK, "A", 20, 1, 1, id="ok-10"),
        pytest.param(OKLAHOMA, K("A", 10, 30, "KC"), Result.KNOCK, "A", 20, 1, 1, id="ok-king"),
        pytest.param(OKLAHOMA, G("B", 5, "AS"), Result.GIN, "B", 60, 2, 1, id="ok-ace-gin"),
        pytest.param(
            OKLAHOMA.replace(oklahoma_ace="one"),
            K("A", 1, 9, "AH"),
            Result.KNOCK,
            "A",
            8,
            1,
            1,
            id="ok-ace-one",
        ),
        pytest.param(
            OKLAHOMA.replace(tie="no_score"),
            K("A", 4, 4, "5S"),
            Result.TIE,
            None,
            0,
            2,
            0,
            id="ok-spade-tie-multiplier",
        ),
        pytest.param(
            OKLAHOMA.replace(spade_double_boxes=True),
            K("A", 2, 9, "3S"),
            Result.KNOCK,
            "A",
            14,
            2,
            2,
            id="spade-double-boxes",
        ),
        pytest.param(
            OKLAHOMA.replace(spade_double_boxes=True, gin_extra_boxes=1),
            G("A", 9, "3S"),
            Result.GIN,
            "A",
            68,
            2,
            4,
            id="spade-double-boxes-with-extras",
        ),
        pytest.param(
            OKLAHOMA.replace(spade_double_boxes=True),
            K("A", 2, 9, "3H"),
            Result.KNOCK,
            "A",
            7,
            1,
            1,
            id="spade-double-boxes-not-a-spade",
        ),
        pytest.param(
            OKLAHOMA.replace(spade_double=False),
            K("A", 2, 9, "3S"),
            Result.KNOCK,
            "A",
            7,
            1,
            1,
            id="spade-double-off",
        ),
        pytest.param(OKLAHOMA, D(), Result.DRAW, None, 0, 1, 0, id="ok-draw-no-card"),
        pytest.param(PRESETS["straight"], G("A", 30), Result.GIN, "A", 55, 1, 1, id="straight"),
        pytest.param(
            MODERN.replace(knock_limit=5),
            K("A", 5, 6),
            Result.KNOCK,
            "A",
            1,
            1,
            1,
            id="custom-knock-limit",
        ),
    ],
)
def test_score_hand(rules, hand, result, winner, points, multiplier, boxes):
    score = score_hand(rules, hand)
    assert score.result is result
    assert score.winner == (Side(winner) if winner else None)
    assert (score.points, score.multiplier, score.boxes) == (points, multiplier, boxes)


def test_draw_ignores_a_knock_card_under_oklahoma():
    hand = HandInput(HandKind.DRAW, knock_card=K("A", 1, 2, "5S").knock_card)
    assert score_hand(OKLAHOMA, hand).multiplier == 1


def test_knock_card_is_ignored_without_oklahoma():
    assert score_hand(MODERN, K("A", 9, 20, "5S")).points == 11


@pytest.mark.parametrize(
    ("rules", "hand", "field", "mentions"),
    [
        pytest.param(MODERN, K("A", 0, 20), "deadwood", "gin", id="knock-zero-is-gin"),
        pytest.param(MODERN, K("A", 11, 20), "deadwood", "knock limit of 10", id="over-limit"),
        pytest.param(
            MODERN.replace(knock_limit=5),
            K("A", 6, 20),
            "deadwood",
            "knock limit of 5",
            id="over-custom-limit",
        ),
        pytest.param(PRESETS["straight"], K("A", 1, 20), "kind", "straight", id="straight-knock"),
        pytest.param(MODERN, K("A", 5, 99), "defender_deadwood", "98", id="defender-99"),
        pytest.param(MODERN, K("A", 5, -1), "defender_deadwood", "98", id="defender-negative"),
        pytest.param(MODERN, K("A", -3, 20), "deadwood", "between", id="negative-knock"),
        pytest.param(
            MODERN, HandInput(HandKind.GIN, Side.A, 4, 20), "deadwood", "gin", id="gin-deadwood"
        ),
        pytest.param(
            MODERN,
            HandInput(HandKind.BIG_GIN, Side.A, 2, 20),
            "deadwood",
            "big gin",
            id="big-gin-deadwood",
        ),
        pytest.param(CLASSIC, BG("A", 10), "kind", "record it as gin", id="no-big-gin"),
        pytest.param(
            MODERN,
            HandInput(HandKind.KNOCK, Side.A, None, 20),
            "deadwood",
            "missing",
            id="knock-missing-deadwood",
        ),
        pytest.param(
            MODERN,
            HandInput(HandKind.GIN, Side.A),
            "defender_deadwood",
            "missing",
            id="gin-missing-defender",
        ),
        pytest.param(
            MODERN, HandInput(HandKind.GIN, None, None, 3), "by", "A or B", id="missing-by"
        ),
        pytest.param(OKLAHOMA, K("A", 3, 20), "knock_card", "missing", id="ok-missing-card"),
        pytest.param(OKLAHOMA, G("A", 20), "knock_card", "missing", id="ok-gin-missing-card"),
        pytest.param(OKLAHOMA, K("A", 8, 20, "7S"), "deadwood", "limit of 7", id="ok-over-card"),
        pytest.param(OKLAHOMA, K("A", 1, 20, "AS"), "kind", "ace", id="ok-ace-gin-only"),
        pytest.param(
            OKLAHOMA.replace(oklahoma_ace="one"),
            K("A", 2, 20, "AS"),
            "deadwood",
            "limit of 1",
            id="ok-ace-one-over",
        ),
    ],
)
def test_refused_hands(rules, hand, field, mentions):
    with pytest.raises(ScoringError) as caught:
        score_hand(rules, hand)
    assert caught.value.field == field
    assert mentions in str(caught.value)


@pytest.mark.parametrize("text", ["7S", "7s", "TD", "10D", "10d", "AH", "KC", " QS "])
def test_card_parse_accepts(text):
    from engine import Card

    card = Card.parse(text)
    assert card.suit in "SHDC"


@pytest.mark.parametrize("text", ["", "S", "7", "1S", "11S", "7X", "0S", "TT", "10", "7SS", "ZS"])
def test_card_parse_refuses(text):
    from engine import Card

    with pytest.raises(ScoringError, match="knock card"):
        Card.parse(text)


@pytest.mark.parametrize(
    ("text", "value"), [("AS", 1), ("2H", 2), ("9D", 9), ("TC", 10), ("10S", 10), ("JH", 10)]
)
def test_card_values(text, value):
    from engine import Card

    assert Card.parse(text).value == value
