"""Whole matches: games, shutouts, best of N, Hollywood columns and the deal."""

from __future__ import annotations

import pytest

from engine import PRESETS, ScoringError, Side, score_match

from .helpers import BG, D, G, K

MODERN = PRESETS["modern"]
SHUTOUT_HANDS = [K("A", 2, 52), G("A", 14), K("A", 4, 20)]  # A: 50 + 39 + 16 = 105


@pytest.mark.parametrize(
    ("shutout", "shutout_bonus", "expected_bonus", "expected_total"),
    [
        pytest.param("double_points", 0, 105, 385, id="double-points"),
        pytest.param("double_total", 0, 280, 560, id="double-total"),
        pytest.param("bonus", 100, 100, 380, id="bonus-100"),
        pytest.param("bonus", 250, 250, 530, id="bonus-250"),
        pytest.param("none", 100, 0, 280, id="none"),
    ],
)
def test_shutout_rules(shutout, shutout_bonus, expected_bonus, expected_total):
    rules = MODERN.replace(shutout=shutout, shutout_bonus=shutout_bonus)
    game = score_match(rules, SHUTOUT_HANDS).games[0]
    assert game.complete and game.shutout and game.winner is Side.A
    assert game.shutout_bonus.as_dict() == {"A": expected_bonus, "B": 0}
    assert game.total.as_dict() == {"A": expected_total, "B": 0}
    assert game.margin == expected_total


def test_no_shutout_once_the_loser_won_a_hand():
    sheet = score_match(MODERN, [K("B", 5, 10), *SHUTOUT_HANDS])
    game = sheet.games[0]
    assert not game.shutout
    assert game.total.as_dict() == {"A": 105 + 75 + 100, "B": 5 + 25}
    assert game.margin == 280 - 30


def test_a_tie_or_draw_does_not_break_a_shutout():
    rules = MODERN.replace(tie="no_score")
    game = score_match(rules, [D(), K("B", 5, 5), *SHUTOUT_HANDS]).games[0]
    assert game.shutout
    assert game.hands == (1, 2, 3, 4, 5)


def test_first_to_target_wins_even_if_behind_in_total():
    # B piles up boxes with small hands; A reaches 100 first and wins the game.
    hands = [K("B", 9, 10)] * 6 + [G("A", 75)]
    game = score_match(MODERN, hands).games[0]
    assert game.winner is Side.A
    assert game.points.as_dict() == {"A": 100, "B": 6}
    assert game.total.as_dict() == {"A": 100 + 25 + 100, "B": 6 + 150}
    assert game.margin == 69


def test_unfinished_game_is_provisional():
    sheet = score_match(MODERN, [K("A", 6, 21), G("B", 17), D()])
    game = sheet.games[0]
    assert not game.complete and game.winner is None and game.margin is None
    assert game.total.as_dict() == {"A": 40, "B": 67}
    assert game.game_bonus.as_dict() == {"A": 0, "B": 0}
    assert not sheet.match.complete and sheet.match.total.as_dict() == {"A": 0, "B": 0}


def test_empty_match_lists_game_one():
    sheet = score_match(MODERN, [])
    assert [g.number for g in sheet.games] == [1]
    assert sheet.to_dict()["games"][0]["hands"] == []


def test_best_of_five_opens_the_next_game_and_stops_at_three():
    rules = PRESETS["tournament"].replace(game_target=50)
    win_a = [K("A", 1, 51)]  # one hand wins a game
    win_b = [K("B", 1, 51)]
    sheet = score_match(rules, win_a + win_b + win_a + win_b)
    assert [g.number for g in sheet.games] == [1, 2, 3, 4, 5]
    assert not sheet.games[-1].complete and sheet.games[-1].hands == ()
    assert sheet.match.won.as_dict() == {"A": 2, "B": 2}
    sheet = score_match(rules, win_a + win_b + win_a + win_b + win_a)
    assert sheet.match.complete and sheet.match.winner is Side.A
    assert len(sheet.games) == 5
    assert sheet.match.total.a == sum(g.total.a for g in sheet.games)


@pytest.mark.parametrize("preset", ["modern", "tournament", "classic", "oklahoma", "straight"])
def test_a_hand_after_the_match_is_over_is_refused(preset):
    rules = PRESETS[preset]
    card = "KC" if rules.oklahoma else None
    one_game = [G("A", 98, card)] * 10
    with pytest.raises(ScoringError, match="already complete") as caught:
        score_match(rules, one_game * rules.games_to_win + [G("B", 3, card)])
    assert caught.value.hand is not None
    assert f"hand {caught.value.hand}:" in str(caught.value)


def test_games_to_win_override():
    rules = MODERN.replace(games_to_win=2, game_target=30)
    sheet = score_match(rules, [K("A", 1, 31), K("A", 1, 31)])
    assert sheet.match.complete and sheet.match.winner is Side.A
    assert sheet.match.games_to_win == 2


def test_spade_doubling_in_a_game_with_double_boxes():
    rules = PRESETS["oklahoma"].replace(spade_double_boxes=True)
    sheet = score_match(rules, [K("A", 5, 19, "7S"), K("B", 2, 9, "3H")])
    game = sheet.games[0]
    assert game.boxes.as_dict() == {"A": 2, "B": 1}
    assert game.box_points.as_dict() == {"A": 50, "B": 25}


# Hollywood --------------------------------------------------------------------------------

HOLLYWOOD_FLAT = PRESETS["hollywood"].replace(game_target=10, game_bonus=0, box_bonus=0)


def test_hollywood_example_allocation():
    hands = [
        K("A", 1, 41),
        K("A", 1, 36),
        K("A", 1, 31),
        K("B", 1, 21),
        K("B", 1, 26),
        K("A", 1, 41),
        K("B", 1, 31),
        K("B", 1, 51),
    ]
    sheet = score_match(PRESETS["hollywood"], hands)
    assert [h.columns for h in sheet.hands] == [
        (1,),
        (1, 2),
        (1, 2, 3),
        (2,),
        (2, 3),
        (2, 3),
        (3,),
        (3,),
    ]
    assert [c.winner for c in sheet.games] == [Side.A, Side.A, Side.B]
    assert sheet.games[0].shutout and not sheet.games[1].shutout
    assert sheet.match.complete and sheet.match.winner is Side.A
    assert sheet.match.won.as_dict() == {"A": 2, "B": 1}
    assert sheet.match.total.as_dict() == {"A": 785, "B": 375}


def test_hollywood_draws_and_ties_enter_no_column():
    rules = PRESETS["hollywood"].replace(tie="no_score")
    sheet = score_match(rules, [D(), K("A", 4, 4), K("A", 1, 9)])
    assert [h.columns for h in sheet.hands] == [(), (), (1,)]
    assert sheet.games[0].hands == (3,)


def test_hollywood_shut_out_player_starts_in_next_open_column():
    rules = PRESETS["hollywood"]
    # A closes column 1 alone; B's first win then goes to column 2 (the lowest open one).
    sheet = score_match(rules, [G("A", 98), K("B", 1, 20)])
    assert sheet.games[0].complete and sheet.games[0].winner is Side.A
    assert sheet.hands[0].columns == (1,)
    assert sheet.hands[1].columns == (2,)


def test_hollywood_one_win_can_close_several_columns():
    rules = PRESETS["hollywood"]
    sheet = score_match(rules, [K("A", 1, 5), K("A", 1, 5), G("A", 98)])
    assert sheet.hands[2].columns == (1, 2, 3)
    assert all(c.complete for c in sheet.games)
    assert sheet.match.complete and sheet.match.winner is Side.A
    with pytest.raises(ScoringError, match="hand 4: the match is already complete"):
        score_match(rules, [K("A", 1, 5), K("A", 1, 5), G("A", 98), D()])


@pytest.mark.parametrize(
    ("hands", "winner"),
    [
        pytest.param(
            [K("A", 1, 31), K("B", 1, 21), K("A", 1, 21), K("B", 1, 21)], "A", id="split-total"
        ),
        pytest.param(
            [K("A", 1, 21), K("B", 1, 21), K("A", 1, 21), K("B", 1, 21)], "B", id="split-last"
        ),
        pytest.param(
            [K("B", 1, 21), K("A", 1, 21), K("B", 1, 21), K("A", 1, 21)], "A", id="split-last-a"
        ),
        pytest.param(
            [K("A", 1, 21), K("A", 1, 21), K("A", 1, 21), K("B", 1, 21)], "A", id="three-one"
        ),
    ],
)
def test_hollywood_four_columns(hands, winner):
    rules = HOLLYWOOD_FLAT.replace(hollywood_columns=4)
    sheet = score_match(rules, hands)
    assert len(sheet.games) == 4
    assert sheet.match.complete
    assert sheet.match.winner is Side(winner)


def test_hollywood_contract_shape():
    data = score_match(PRESETS["hollywood"], [K("A", 1, 20), D()]).to_dict()
    assert "games" not in data and len(data["columns"]) == 3
    assert data["hands"][0]["columns"] == [1] and "game" not in data["hands"][0]
    assert data["hands"][1]["columns"] == []
    assert data["match"] == {
        "format": "hollywood",
        "columns_won": {"A": 0, "B": 0},
        "complete": False,
        "winner": None,
        "total": {"A": 0, "B": 0},
    }


# The deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "first", "hands", "dealers", "next_dealer"),
    [
        pytest.param(
            "alternate",
            "B",
            [K("A", 1, 9), K("A", 1, 9), D(), K("A", 1, 9)],
            "BABB",
            "A",
            id="alternate",
        ),
        pytest.param(
            "winner",
            "B",
            [K("A", 1, 9), K("A", 1, 9), D(), K("A", 1, 9)],
            "BAAA",
            "A",
            id="winner",
        ),
        pytest.param(
            "loser",
            "B",
            [K("A", 1, 9), K("A", 1, 9), D(), K("A", 1, 9)],
            "BBBB",
            "B",
            id="loser",
        ),
        pytest.param(
            "winner", "A", [K("B", 1, 9), K("B", 9, 1), D()], "ABAA", "A", id="winner-undercut"
        ),
        pytest.param("alternate", "A", [K("A", 5, 5), K("A", 1, 9)], "AB", "A", id="tie-alt"),
        pytest.param("winner", "A", [K("A", 5, 5), K("B", 1, 9)], "AA", "B", id="tie-winner"),
        pytest.param("loser", "A", [K("A", 5, 5), K("B", 1, 9)], "AA", "A", id="tie-loser"),
    ],
)
def test_deal(deal, first, hands, dealers, next_dealer):
    rules = MODERN.replace(deal=deal, tie="no_score")
    sheet = score_match(rules, hands, Side(first))
    assert "".join(h.dealer for h in sheet.hands) == dealers[: len(hands)]
    assert sheet.next_dealer is Side(next_dealer)


def test_deal_runs_on_across_games():
    rules = MODERN.replace(game_target=20, games_to_win=2)
    sheet = score_match(rules, [K("A", 1, 30), K("B", 1, 30)], Side.A)
    assert [h.game for h in sheet.hands] == [1, 2]
    assert [h.dealer for h in sheet.hands] == [Side.A, Side.B]


def test_no_dealer_without_first_dealer():
    data = score_match(MODERN, [K("A", 1, 9)]).to_dict()
    assert "dealer" not in data["hands"][0]
    assert score_match(MODERN, []).next_dealer is None


def test_big_gin_null_in_a_match_names_the_hand():
    with pytest.raises(ScoringError) as caught:
        score_match(PRESETS["classic"], [K("A", 1, 9), BG("A", 9)])
    assert caught.value.hand == 2
    assert str(caught.value).startswith("hand 2: ")


def test_pair_is_indexed_by_side_only():
    from engine import Pair

    pair = Pair(3, 4)
    assert (pair[Side.A], pair[Side.B], pair["A"], pair["B"]) == (3, 4, 3, 4)
    with pytest.raises(KeyError):
        pair["a"]  # Django templates try item lookup before attributes
