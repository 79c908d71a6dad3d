"""The house-rule knobs of issue 19, each with numbers worked out by hand (the comment on
each case says how). Every knob is off in the six original presets, so nothing here
changes what they score (the other engine tests and the shared examples hold that)."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine import (
    KNOB_RANGES,
    PRESETS,
    Result,
    ScoringError,
    Side,
    resolve_rules,
    score_hand,
    score_match,
    score_request,
)
from engine.rules import largest_deadwood

from .helpers import BG, D, G, K

MODERN = PRESETS["modern"]
HOLLYWOOD = PRESETS["hollywood"]
KNOCKER = MODERN.replace(tie="knocker")
BASE15 = MODERN.replace(knock_base=15)
HOUSE_KNOBS = {
    "knock_base": 0,
    "box_timing": "end",
    "hollywood_last_doubled": False,
    "hollywood_columns_open": "together",
    "ace_value": 1,
    "runs_around_the_corner": False,
}


# -- the knobs are off in every original preset, and come after `deal` ----------------------


@pytest.mark.parametrize("name", ["modern", "tournament", "classic", "oklahoma", "hollywood"])
def test_the_original_presets_play_no_house_rule(name):
    rules = PRESETS[name].to_dict()
    assert {knob: rules[knob] for knob in HOUSE_KNOBS} == HOUSE_KNOBS
    assert rules["tie"] == "undercut"


def test_the_house_knobs_follow_deal_in_the_contract():
    names = list(MODERN.to_dict())
    assert names[names.index("deal") + 1 :][: len(HOUSE_KNOBS)] == list(HOUSE_KNOBS)


# -- 1. a tie goes to the knocker --------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "hand", "result", "winner", "points", "multiplier", "boxes"),
    [
        # 5 against 5: equal, so the knocker wins the difference, 0, and one box.
        pytest.param(KNOCKER, K("A", 5, 5), Result.KNOCK, "A", 0, 1, 1, id="tie-to-knocker"),
        # Not a tie: 4 against 9 is an ordinary knock (9 - 4 = 5); 9 against 4 an
        # ordinary undercut (9 - 4 + 25 = 30). The knob only changes equal deadwood.
        pytest.param(KNOCKER, K("B", 4, 9), Result.KNOCK, "B", 5, 1, 1, id="knock-unchanged"),
        pytest.param(KNOCKER, K("B", 9, 4), Result.UNDERCUT, "A", 30, 1, 1, id="undercut-kept"),
        # Oklahoma, spade knock card 7S, boxes doubled too: (7 - 7) × 2 = 0, boxes 1 × 2.
        pytest.param(
            PRESETS["oklahoma"].replace(tie="knocker", spade_double_boxes=True),
            K("B", 7, 7, "7S"),
            Result.KNOCK,
            "B",
            0,
            2,
            2,
            id="spade-tie",
        ),
        # With a knock base of 15 the tie is a won knock: 0 + 15.
        pytest.param(
            KNOCKER.replace(knock_base=15), K("A", 6, 6), Result.KNOCK, "A", 15, 1, 1, id="base"
        ),
    ],
)
def test_tie_knocker(rules, hand, result, winner, points, multiplier, boxes):
    score = score_hand(rules, hand)
    assert (score.result, score.winner, score.points, score.multiplier, score.boxes) == (
        result,
        Side(winner),
        points,
        multiplier,
        boxes,
    )


def test_a_tie_for_the_knocker_gives_the_knocker_the_deal_when_the_winner_deals():
    # B deals hand 1; A knocks and ties, so A won it and, the winner dealing, deals hand 2.
    # Under `alternate` A deals hand 2 anyway; under `loser` B (the loser) deals again.
    hands = [K("A", 3, 3), D()]
    for deal, second in (("winner", "A"), ("alternate", "A"), ("loser", "B")):
        sheet = score_match(KNOCKER.replace(deal=deal), hands, Side.B)
        assert [h.dealer for h in sheet.hands] == [Side.B, Side(second)], deal


def test_a_zero_point_tie_won_breaks_the_loser_s_shutout():
    # B ties A's knock of 6 (B wins it for 0, one box). A then gins against 75:
    # 25 + 75 = 100 closes the game. B won a hand, so no shutout: A has 100 + 25 (box)
    # + 100 (game) = 225, B 0 + 25 (box) = 25, margin 200.
    game = score_match(KNOCKER, [K("B", 6, 6), G("A", 75)]).games[0]
    assert (game.winner, game.shutout) == (Side.A, False)
    assert game.total.as_dict() == {"A": 225, "B": 25}
    assert game.margin == 200


def test_a_zero_point_tie_for_the_winner_keeps_the_shutout():
    # A ties (0 points, a box), then gins against 75 (100): B won no hand, a shutout.
    # Double points: A has 100 + 2 boxes × 25 + 100 + 100 (points again) = 350.
    game = score_match(KNOCKER, [K("A", 4, 4), G("A", 75)]).games[0]
    assert (game.winner, game.shutout) == (Side.A, True)
    assert game.hands_won.as_dict() == {"A": 2, "B": 0}
    assert game.total.as_dict() == {"A": 350, "B": 0}


def test_a_zero_point_tie_enters_a_hollywood_column():
    # Hollywood: A's tie is A's first win (column 1, 0 points); B's gin against 75 is B's
    # first (column 1: 100, closes it). A entered column 1, so it is no shutout.
    sheet = score_match(HOLLYWOOD.replace(tie="knocker"), [K("A", 2, 2), G("B", 75)])
    first = sheet.games[0]
    assert [h.columns for h in sheet.hands] == [(1,), (1,)]
    assert (first.winner, first.shutout, first.points.as_dict()) == (
        Side.B,
        False,
        {"A": 0, "B": 100},
    )


# -- 2. a knock base ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "hand", "result", "winner", "points"),
    [
        # The issue's example: 13 - 5 = 8, plus 15 = 23.
        pytest.param(BASE15, K("A", 5, 13), Result.KNOCK, "A", 23, id="issue-example"),
        # Not on an undercut (5 - 3 + 25 = 27), a gin (25 + 10) or a big gin (31 + 10).
        pytest.param(BASE15, K("A", 5, 3), Result.UNDERCUT, "B", 27, id="not-undercut"),
        pytest.param(BASE15, G("A", 10), Result.GIN, "A", 35, id="not-gin"),
        pytest.param(BASE15, BG("A", 10), Result.BIG_GIN, "A", 41, id="not-big-gin"),
        # Doubled with the rest of a spade hand: (9 - 3 + 10) × 2 = 32.
        pytest.param(
            PRESETS["oklahoma"].replace(knock_base=10),
            K("A", 3, 9, "5S"),
            Result.KNOCK,
            "A",
            32,
            id="spade",
        ),
    ],
)
def test_knock_base(rules, hand, result, winner, points):
    score = score_hand(rules, hand)
    assert (score.result, score.winner, score.points) == (result, Side(winner), points)


# -- 3. boxes that count at once ------------------------------------------------------------


PALACE = PRESETS["palace"]


def test_palace_five_knocks_of_ten_end_a_game_to_100_at_100_to_0():
    # Each knock: 11 - 1 = 10 points plus a box of 10 at once = 20. After four hands A
    # has 80 (provisional: 40 points + 40 in boxes); the fifth makes 100 and closes the
    # game. No game bonus, no shutout bonus: 50 points + 5 boxes × 10 = 100 to 0.
    four = score_match(PALACE, [K("A", 1, 11)] * 4)
    assert not four.games[0].complete
    assert four.games[0].total.as_dict() == {"A": 80, "B": 0}
    game = score_match(PALACE, [K("A", 1, 11)] * 5).games[0]
    assert (game.complete, game.winner, game.hands) == (True, Side.A, (1, 2, 3, 4, 5))
    assert game.points.as_dict() == {"A": 50, "B": 0}
    assert game.box_points.as_dict() == {"A": 50, "B": 0}
    assert (game.game_bonus.a, game.shutout, game.shutout_bonus.a) == (0, True, 0)
    assert game.total.as_dict() == {"A": 100, "B": 0}
    assert game.margin == 100


def test_the_same_hands_with_boxes_at_the_end_do_not_close_the_game():
    # Five knocks of 10 are 50 points: short of 100 when boxes wait for the end.
    rules = PALACE.replace(box_timing="end")
    assert not score_match(rules, [K("A", 1, 11)] * 5).games[0].complete


def test_running_boxes_under_modern_values():
    # Box 25 at once: knocks of 10 make 35, 70, 105, so the third closes the game.
    # Total 30 points + 3 × 25 + 100 (game) + 30 (shutout doubles the points) = 235.
    rules = MODERN.replace(box_timing="running")
    game = score_match(rules, [K("A", 1, 11)] * 3).games[0]
    assert (game.complete, game.total.a, game.margin) == (True, 235, 235)


def test_running_boxes_count_per_column_in_hollywood():
    # Box 25 at once, target 100. A's knocks of 30 (31 - 1): column 1 gets 55, 110
    # (closes at the second hand); column 2 gets 55 (hand 2), 110 (hand 3: closes).
    rules = HOLLYWOOD.replace(box_timing="running")
    sheet = score_match(rules, [K("A", 1, 31)] * 3)
    assert [h.columns for h in sheet.hands] == [(1,), (1, 2), (2, 3)]
    assert [(c.complete, c.points.a, c.boxes.a) for c in sheet.games] == [
        (True, 60, 2),
        (True, 60, 2),
        (False, 30, 1),
    ]


def test_running_boxes_count_spade_doubled_boxes():
    # Oklahoma, boxes doubled on spades, box 25 at once, target 150: a knock of 3 against
    # 19 with the 7S is (19 - 3) × 2 = 32 and 2 boxes (50): 82. Two of them: 164, closed.
    rules = PRESETS["oklahoma"].replace(box_timing="running", spade_double_boxes=True)
    one = score_match(rules, [K("A", 3, 19, "7S")])
    assert not one.games[0].complete
    two = score_match(rules, [K("A", 3, 19, "7S")] * 2)
    assert two.games[0].complete and two.games[0].boxes.a == 4


# -- 4. Hollywood: the last column doubled, columns opening in turn --------------------------


def test_the_last_column_to_finish_counts_double():
    # Each gin against 75 scores 100 and closes the first open column A has not entered:
    # column 1, then 2, then 3. Each is a shutout: 100 + 25 + 100 + 100 = 325; column 3,
    # the last to finish, counts twice: 650. Match total 325 + 325 + 650 = 1300.
    rules = HOLLYWOOD.replace(hollywood_last_doubled=True)
    sheet = score_match(rules, [G("A", 75)] * 3)
    assert [c.doubled for c in sheet.games] == [False, False, True]
    assert [c.total.a for c in sheet.games] == [325, 325, 650]
    assert sheet.games[2].margin == 650
    assert sheet.match.total.a == 1300
    data = sheet.to_dict()
    assert [c["doubled"] for c in data["columns"]] == [False, False, True]


def test_no_column_counts_double_before_the_match_is_over():
    rules = HOLLYWOOD.replace(hollywood_last_doubled=True)
    sheet = score_match(rules, [G("A", 75)] * 2)
    assert [c.doubled for c in sheet.games] == [False, False, False]
    assert sheet.match.total.a == 650


def test_of_columns_closed_by_one_hand_the_highest_numbered_counts_double():
    # A: knock of 50 (column 1), then 50 again (columns 1-2: column 1 closes at 100),
    # then a gin against 75 (100) into columns 2 and 3: both close with hand 3.
    # Column 2: 150 + 2 boxes × 25 + 100 + 150 (shutout) = 450; column 3: 100 + 25 + 100
    # + 100 = 325, the last (furthest right) to finish, doubled: 650.
    rules = HOLLYWOOD.replace(hollywood_last_doubled=True)
    sheet = score_match(rules, [K("A", 1, 51), K("A", 1, 51), G("A", 75)])
    # Column 1: 100 + 2 × 25 + 100 + 100 = 350.
    assert [c.total.a for c in sheet.games] == [350, 450, 650]
    assert [c.doubled for c in sheet.games] == [False, False, True]


def test_the_winner_of_a_split_match_can_come_from_the_doubled_column():
    # Two columns, the last doubled. A closes column 1 with one gin against 75 (325).
    # B then wins column 2 with a gin against 75 as B's first win (B never entered column
    # 1, so it goes in column 2): 325, doubled 650. One column each, B's total is higher.
    rules = HOLLYWOOD.replace(hollywood_columns=2, hollywood_last_doubled=True)
    sheet = score_match(rules, [G("A", 75), G("B", 75)])
    assert [h.columns for h in sheet.hands] == [(1,), (2,)]
    assert sheet.match.total.as_dict() == {"A": 325, "B": 650}
    assert sheet.match.winner == Side.B


def test_rolling_columns_open_three_at_a_time():
    # Four columns. A wins knocks of 30 (31 - 1). Together: the 4th win goes in columns
    # 1-4 (column 1 closes at 120). Rolling: only columns 1-3 are open, so the 4th win
    # goes in 1-3; column 1 closes and column 4 opens; the 5th win goes in 2-4.
    hands = [K("A", 1, 31)] * 5
    together = score_match(HOLLYWOOD.replace(hollywood_columns=4), hands)
    assert [h.columns for h in together.hands] == [(1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), (2, 3, 4)]
    assert [c.points.a for c in together.games] == [120, 120, 90, 60]
    rolling = score_match(
        HOLLYWOOD.replace(hollywood_columns=4, hollywood_columns_open="rolling"), hands
    )
    assert [h.columns for h in rolling.hands] == [(1,), (1, 2), (1, 2, 3), (1, 2, 3), (2, 3, 4)]
    assert [c.points.a for c in rolling.games] == [120, 120, 90, 30]
    assert not rolling.complete


def test_rolling_columns_play_every_column_then_stop():
    # Five columns, rolling, each gin against 75 closes one column (100 each): five
    # gins close columns 1 to 5 in turn and the match; a sixth hand is refused.
    rules = HOLLYWOOD.replace(hollywood_columns=5, hollywood_columns_open="rolling")
    sheet = score_match(rules, [G("A", 75)] * 5)
    assert [h.columns for h in sheet.hands] == [(1,), (2,), (3,), (4,), (5,)]
    assert sheet.complete and sheet.match.won.a == 5
    with pytest.raises(ScoringError, match="already complete"):
        score_match(rules, [G("A", 75)] * 6)


def test_rolling_with_three_columns_or_fewer_is_together():
    hands = [K("A", 1, 11), K("B", 2, 12), K("A", 1, 21), K("B", 3, 13), K("A", 2, 12)]
    for columns in (1, 2, 3):
        rules = HOLLYWOOD.replace(hollywood_columns=columns)
        rolling = rules.replace(hollywood_columns_open="rolling")
        assert score_match(rolling, hands).games == score_match(rules, hands).games


def test_a_player_shut_out_of_a_closed_column_enters_the_newly_opened_one():
    # Rolling, four columns. A gins against 75 three times, closing columns 1-3 (100
    # each); B never won. B's first win then goes in column 4, the only open one.
    rules = HOLLYWOOD.replace(hollywood_columns=4, hollywood_columns_open="rolling")
    sheet = score_match(rules, [G("A", 75)] * 3 + [K("B", 1, 21)])
    assert sheet.hands[-1].columns == (4,)
    assert sheet.games[3].points.as_dict() == {"A": 0, "B": 20}


# -- 5. Tedesco: aces at 15, runs round the corner ------------------------------------------


def test_tedesco_preset():
    rules = PRESETS["tedesco"]
    assert (rules.oklahoma, rules.format, rules.hollywood_columns, rules.game_target) == (
        True,
        "hollywood",
        3,
        200,
    )
    assert (rules.ace_value, rules.runs_around_the_corner, rules.max_deadwood) == (15, True, 110)


@pytest.mark.parametrize(
    ("ace_value", "most"),
    [
        (1, 98),  # two each of 10, J, Q, K (80) and two nines (18)
        (9, 98),  # aces at 9 tie with the nines
        (10, 100),  # aces join the tens: two each of A, 10, J, Q, K
        (11, 102),
        (15, 110),  # two aces at 15 (30) and two each of 10, J, Q, K (80)
    ],
)
def test_the_largest_deadwood_follows_the_ace(ace_value, most):
    assert largest_deadwood(ace_value) == most
    assert MODERN.replace(ace_value=ace_value).max_deadwood == most


def _melds(cards, around_the_corner):
    """Any set (three of a rank) or run (three in sequence in a suit) in ``cards``."""
    order = "A23456789TJQK"
    found = []
    for trio in combinations(cards, 3):
        ranks = sorted(order.index(c[0]) for c in trio)
        if len({c[0] for c in trio}) == 1:
            found.append(trio)
        elif len({c[1] for c in trio}) == 1:
            runs = [[i, i + 1, i + 2] for i in range(11)]
            runs.append([0, 11, 12])  # Q-K-A: the ace high, which Tedesco allows
            if around_the_corner:
                runs.append([0, 1, 12])  # K-A-2
            if ranks in runs:
                found.append(trio)
    return found


@pytest.mark.parametrize("around_the_corner", [False, True])
def test_the_largest_deadwood_is_a_real_hand(around_the_corner):
    # Two each of five ranks, suits alternating by rank: no set, no run, even K-A-2.
    aces_high = ["AS", "AH", "KD", "KC", "QS", "QH", "JD", "JC", "TS", "TH"]
    aces_low = ["9S", "9H", "TD", "TC", "JS", "JH", "QD", "QC", "KS", "KH"]
    assert _melds(aces_high, around_the_corner) == []
    assert _melds(aces_low, around_the_corner) == []
    values = {"A": 15, "K": 10, "Q": 10, "J": 10, "T": 10, "9": 9}
    assert sum(values[c[0]] for c in aces_high) == 110
    values["A"] = 1
    assert sum(values[c[0]] for c in aces_low) == 98


def test_deadwood_is_checked_against_the_rules_own_bound():
    tedesco = PRESETS["tedesco"]
    # 110 is allowed with aces at 15: a knock of 1 against it scores 109.
    assert score_hand(tedesco, K("A", 1, 110, "5H")).points == 109
    # A gin against 110: 25 + 110 = 135 (an ace knock card means gin only).
    assert score_hand(tedesco, G("A", 110, "AH")).points == 135
    with pytest.raises(ScoringError, match="between 0 and 110, not 111"):
        score_hand(tedesco, K("A", 1, 111, "5H"))
    with pytest.raises(ScoringError, match="between 0 and 98, not 99"):
        score_hand(MODERN, K("A", 1, 99))
    with pytest.raises(ScoringError, match="only gin"):
        score_hand(tedesco, K("A", 1, 20, "AH"))


def test_a_tedesco_match():
    # Knock cards set the limit; three columns to 200. A gins against 110 (135) with
    # the 2C up: column 1. A knocks 1 against 66 (65) with the 9D: columns 1-2, so
    # column 1 reaches 200 and closes (A's shutout). A has 65 in column 2.
    sheet = score_match(PRESETS["tedesco"], [G("A", 110, "2C"), K("A", 1, 66, "9D")])
    first, second, _third = sheet.games
    assert (first.complete, first.winner, first.points.a) == (True, Side.A, 200)
    # 200 + 2 × 25 + 100 + 200 (shutout doubles the points) = 550.
    assert first.total.a == 550
    assert (second.complete, second.points.a) == (False, 65)


# -- 6. presets, bounds and the contract ----------------------------------------------------


def test_palace_preset():
    rules = PRESETS["palace"].to_dict()
    assert {k: rules[k] for k in ("gin_bonus", "big_gin_bonus", "undercut_bonus")} == {
        "gin_bonus": 25,
        "big_gin_bonus": None,
        "undercut_bonus": 20,
    }
    assert (rules["box_bonus"], rules["box_timing"], rules["game_bonus"]) == (10, "running", 0)
    assert (rules["shutout"], rules["game_target"], rules["tie"]) == ("none", 100, "undercut")


@pytest.mark.parametrize(
    ("knob", "value", "mentions"),
    [
        ("tie", "split", "tie must be one of undercut, no_score, knocker"),
        ("knock_base", -1, "knock_base must be between 0 and 500"),
        ("knock_base", 501, "knock_base must be between 0 and 500"),
        ("knock_base", "15", "knock_base must be a whole number"),
        ("box_timing", "later", "box_timing must be one of end, running"),
        ("hollywood_last_doubled", "yes", "hollywood_last_doubled must be true or false"),
        ("hollywood_columns_open", "all", "must be one of together, rolling"),
        ("ace_value", 0, "ace_value must be between 1 and 15"),
        ("ace_value", 16, "ace_value must be between 1 and 15"),
        ("ace_value", 1.5, "ace_value must be a whole number"),
        ("runs_around_the_corner", 1, "runs_around_the_corner must be true or false"),
    ],
)
def test_bad_house_rules_are_refused(knob, value, mentions):
    with pytest.raises(ScoringError, match=mentions) as caught:
        resolve_rules({"preset": "modern", knob: value})
    assert caught.value.field == knob


def test_the_new_whole_number_knobs_are_bounded():
    assert KNOB_RANGES["knock_base"] == (0, 500)
    assert KNOB_RANGES["ace_value"] == (1, 15)


def test_the_issue_examples_through_the_contract():
    tie = score_request(
        {
            "rules": {"preset": "modern", "tie": "knocker"},
            "hands": [{"kind": "knock", "by": "A", "deadwood": 5, "defender_deadwood": 5}],
        }
    ).to_dict()
    hand = tie["hands"][0]
    assert (hand["result"], hand["winner"], hand["points"], hand["boxes"]) == ("knock", "A", 0, 1)
    base = score_request(
        {
            "rules": {"preset": "modern", "knock_base": 15},
            "hands": [{"kind": "knock", "by": "A", "deadwood": 5, "defender_deadwood": 13}],
        }
    ).to_dict()
    assert base["hands"][0]["points"] == 23
    assert base["rules"]["knock_base"] == 15
