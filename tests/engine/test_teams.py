"""Partnership gin (issue 20): the books' worked numbers and hand-worked games, each
comment saying how its numbers were worked out from the rules (docs/rules.md,
"Partnership gin"), never from the engine's output."""

from __future__ import annotations

import pytest

from engine import (
    PRESETS,
    TEAM_KNOBS,
    TEAM_PRESETS,
    BoardInput,
    Result,
    ScoringError,
    Side,
    pairing,
    resolve_rules,
    score_deal,
    score_match,
    score_team_match,
)

from .helpers import BG, D, G, K

MODERN = PRESETS["modern"]
PAIRS = MODERN.replace(team_size=2)
PARTNERSHIP = TEAM_PRESETS["partnership"]
THREES = TEAM_PRESETS["tedesco_threes"]


def boards(*hands, players=None):
    players = players or [None] * len(hands)
    return [BoardInput(hand, player) for hand, player in zip(hands, players, strict=True)]


# -- the books' examples --------------------------------------------------------------------


def test_the_books_two_deals_a_c_score_28_then_b_d_score_6():
    # A&C v B&D. Deal 1: A beats B by 16 (knock 4 against 20), C beats D by 12 (2 against
    # 14): A/C score 16 + 12 = 28. Deal 2: A beats B by 7 (3 against 10), D beats C by 13
    # (D knocks 5 against 18): B/D win 13 - 7 = 6.
    sheet = score_team_match(
        PAIRS,
        [
            boards(K("A", 4, 20), K("A", 2, 14)),
            boards(K("A", 3, 10), K("B", 5, 18)),
        ],
    )
    first, second = sheet.deals
    assert [b.points for b in first.score.boards] == [16, 12]
    assert (first.score.winner, first.score.points) == (Side.A, 28)
    assert [b.points for b in second.score.boards] == [7, 13]
    assert second.score.team_points.as_dict() == {"A": 7, "B": 13}
    assert (second.score.winner, second.score.points) == (Side.B, 6)
    # One score per team: the game holds the deals' net points and a box per deal won.
    game = sheet.games[0]
    assert game.points.as_dict() == {"A": 28, "B": 6}
    assert game.boxes.as_dict() == {"A": 1, "B": 1}


def test_one_member_wins_by_12_the_other_loses_by_10_the_side_wins_by_2():
    # Bicycle: "if one member wins his hand by 12 points and the other member loses his by
    # 10 points, that side wins the hand by 2 points" (and one box).
    deal = score_deal(PAIRS, boards(K("A", 2, 14), K("B", 1, 11)))
    assert (deal.winner, deal.points, deal.boxes) == (Side.A, 2, 1)


# -- a game to 125 with a box and a shutout (the partnership preset) ------------------------


def test_a_partnership_game_to_125_with_boxes_and_a_shutout():
    # partnership: game to 125, game bonus 100, box 25, shutout bonus 100, gin 25,
    # undercut 25, the deal's winners deal next, opponents alternate.
    deals = [
        # 1: gin against 30 = 25 + 30 = 55; knock 5 against 25 = 20. A 75, one box.
        boards(G("A", 30), K("A", 5, 25)),
        # 2: A knock 3 against 13 = 10; B knock 2 against 12 = 10. 10 - 10: nobody wins.
        boards(K("A", 3, 13), K("B", 2, 12)),
        # 3: A knocks 8, B holds 5: undercut, B 3 + 25 = 28; gin against 40 = 65 for A.
        #    A wins 65 - 28 = 37: 112, two boxes.
        boards(K("A", 8, 5), G("A", 40)),
        # 4: a drawn board counts nothing; knock 1 against 14 = 13: A 125 reaches 125.
        boards(D(), K("A", 1, 14)),
    ]
    sheet = score_team_match(PARTNERSHIP, deals, first_dealer=Side.B)
    assert [(d.score.winner, d.score.points) for d in sheet.deals] == [
        (Side.A, 75),
        (None, 0),
        (Side.A, 37),
        (Side.A, 13),
    ]
    # The board undercut keeps its own result and bonus.
    assert sheet.deals[2].score.boards[0].result is Result.UNDERCUT
    game = sheet.games[0]
    # 125 points, 3 boxes × 25 = 75, game bonus 100, shutout (B won no deal) 100: 400.
    assert game.complete and game.winner is Side.A
    assert game.points.as_dict() == {"A": 125, "B": 0}
    assert game.box_points.as_dict() == {"A": 75, "B": 0}
    assert game.shutout and game.shutout_bonus.as_dict() == {"A": 100, "B": 0}
    assert game.total.as_dict() == {"A": 400, "B": 0} and game.margin == 400
    assert game.hands == (1, 2, 3, 4)  # the deals played in the game
    assert sheet.match.complete and sheet.match.winner is Side.A
    # B deals first; A won deal 1 and deals; nobody won deal 2: the dealer stays (as after
    # a tie under deal: winner); A won deals 3 and 4.
    assert [d.dealer for d in sheet.deals] == [Side.B, Side.A, Side.A, Side.A]
    # Opponents alternate: A1 v B1, A2 v B2, then A1 v B2, A2 v B1, and so on.
    assert [[(s.a, s.b) for s in d.seats] for d in sheet.deals[:2]] == [
        [(1, 1), (2, 2)],
        [(1, 2), (2, 1)],
    ]
    with pytest.raises(ScoringError) as caught:
        score_team_match(PARTNERSHIP, [*deals, boards(D(), D())])
    assert str(caught.value) == (
        "deal 5: the match is already complete; no more deals can be entered"
    )


def test_the_losing_team_that_won_a_deal_is_not_shut_out():
    # A wins deal 1 by 30 (knock 1 against 31), B wins deal 2 by 5 (5 against 10), A wins
    # deal 3 by 100 (gin against 75 = 100): A 130 ≥ 125. B won a deal: no shutout.
    sheet = score_team_match(
        PARTNERSHIP,
        [
            boards(K("A", 1, 31), D()),
            boards(D(), K("B", 5, 10)),
            boards(G("A", 75), D()),
        ],
    )
    game = sheet.games[0]
    assert game.points.as_dict() == {"A": 130, "B": 5}
    assert not game.shutout
    # A: 130 + 2 boxes (50) + 100; B: 5 + 1 box (25).
    assert game.total.as_dict() == {"A": 280, "B": 30}


# -- Tedesco teams of three and four: the sweep bonus ---------------------------------------


def test_a_tedesco_team_of_three_deal_with_the_sweep():
    # tedesco_threes: Oklahoma knock cards, Hollywood three columns to 300, sweep 25.
    # Board 1: knock 2 against 12 under a 9 = 10. Board 2: gin against 20 = 25 + 20 = 45.
    # Board 3: knock 4 against 30 under a 5 (limit 5) = 26. All three won by A: 81 + 25.
    sweep = boards(K("A", 2, 12, "9H"), G("A", 20, "7D"), K("A", 4, 30, "5C"))
    # Next deal, with spades doubling (Tedesco leaves it to the director): a spade knock
    # card doubles board 1 only: (13 - 3) × 2 = 20 for A; board 2, B
    # gins against 10 = 35; board 3, A knocks 1 against 6 under a 2 = 5. A 25, B 35: B wins
    # by 10; no sweep. B's first win enters column 1.
    split = boards(K("A", 3, 13, "7S"), G("B", 10, "3H"), K("A", 1, 6, "2D"))
    sheet = score_team_match(THREES.replace(spade_double=True), [sweep, split])
    first, second = sheet.deals
    assert first.score.sweep is Side.A and first.score.sweep_bonus == 25
    assert first.score.team_points.as_dict() == {"A": 106, "B": 0}
    assert (first.score.winner, first.score.points, first.score.boxes) == (Side.A, 106, 1)
    assert first.columns == (1,)
    assert [b.multiplier for b in second.score.boards] == [2, 1, 1]
    assert second.score.sweep is None and second.score.sweep_bonus == 0
    assert (second.score.winner, second.score.points) == (Side.B, 10)
    assert second.columns == (1,)
    column = sheet.games[0]
    assert column.points.as_dict() == {"A": 106, "B": 10}
    assert not sheet.match.complete


def test_teams_of_four_sweep_for_50():
    # Four knocks of 1 against 11 = 10 each: 40, plus the sweep of 50 for teams of four.
    rules = THREES.replace(team_size=4, sweep_bonus=50, oklahoma=False)
    deal = score_deal(rules, boards(*[K("B", 1, 11)] * 4))
    assert (deal.winner, deal.points, deal.sweep) == (Side.B, 90, Side.B)


# -- drawn boards ---------------------------------------------------------------------------


def test_a_drawn_board_counts_nothing_and_breaks_the_sweep():
    # Board 1 drawn; board 2: knock 4 against 9 = 5. A wins 5 and a box; with a sweep bonus
    # of 25 A still gets none: not every teammate won.
    rules = PAIRS.replace(sweep_bonus=25)
    deal = score_deal(rules, boards(D(), K("A", 4, 9)))
    assert (deal.winner, deal.points, deal.boxes, deal.sweep) == (Side.A, 5, 1, None)


def test_a_deal_of_drawn_boards_is_a_draw_the_dealer_deals_again():
    # Deal 1 all drawn: nobody scores, the same team deals again (as after a drawn hand);
    # deal 2 nobody wins on points (10 - 10) but hands were played: under deal: alternate
    # the deal passes (as after a no-score tie).
    sheet = score_team_match(
        PAIRS,
        [boards(D(), D()), boards(K("A", 1, 11), K("B", 1, 11)), boards(D(), D())],
        first_dealer=Side.A,
    )
    assert [d.score.winner for d in sheet.deals] == [None, None, None]
    assert [d.dealer for d in sheet.deals] == [Side.A, Side.A, Side.B]
    assert sheet.games[0].points.as_dict() == {"A": 0, "B": 0}


# -- boxes and 0-point boards ---------------------------------------------------------------


def test_the_deal_winner_takes_the_extra_boxes_of_the_boards_it_won():
    # gin_extra_boxes 1: A gins (2 boxes) on board 1 and wins the deal; B's gin on board 2
    # is worth 25 + 5 = 30 against A's 25 + 40 = 65. A: 1 box for the deal + 1 extra.
    rules = PAIRS.replace(gin_extra_boxes=1)
    deal = score_deal(rules, boards(G("A", 40), G("B", 5)))
    assert (deal.winner, deal.points, deal.boxes) == (Side.A, 35, 2)


def test_a_deal_won_for_nothing_is_won_by_the_only_team_that_won_a_board():
    # tie: knocker, no base: a 5-5 knock is won by the knocker for 0. The other board is a
    # draw. 0 - 0, but only A won a board: A wins the deal for 0 and a box (as head to head
    # a hand won for 0 is a hand won).
    rules = PAIRS.replace(tie="knocker")
    deal = score_deal(rules, boards(K("A", 5, 5), D()))
    assert (deal.winner, deal.points, deal.boxes) == (Side.A, 0, 1)


def test_big_gin_and_oklahoma_apply_per_board():
    # Big gin against 10: 31 + 10 = 41. Oklahoma: the other board's ace knock card allows
    # gin only (Oklahoma knock limit per board).
    deal = score_deal(PAIRS, boards(BG("A", 10), K("B", 2, 9)))
    assert (deal.winner, deal.points) == (Side.A, 41 - 7)
    rules = PAIRS.replace(oklahoma=True)
    with pytest.raises(ScoringError) as caught:
        score_team_match(rules, [boards(K("A", 2, 9, "9C"), K("B", 1, 9, "AS"))])
    assert str(caught.value) == (
        "deal 1, board 2: the knock card is an ace: only gin is allowed in this hand"
    )
    assert caught.value.field == "kind" and caught.value.board == 2


# -- who plays whom -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opponents", "deal", "b_seats"),
    [
        ("fixed", 1, [1, 2, 3]),
        ("fixed", 4, [1, 2, 3]),
        ("alternate", 1, [1, 2, 3]),
        ("alternate", 2, [2, 3, 1]),
        ("alternate", 3, [1, 2, 3]),
        ("rotate", 2, [2, 3, 1]),
        ("rotate", 3, [3, 1, 2]),
        ("rotate", 4, [1, 2, 3]),
    ],
)
def test_the_seats_at_each_board(opponents, deal, b_seats):
    rules = MODERN.replace(team_size=3, opponents=opponents)
    seats = pairing(rules, deal)
    assert [s.a for s in seats] == [1, 2, 3]
    assert [s.b for s in seats] == b_seats


def test_a_board_names_the_seat_playing_there():
    rules = PAIRS.replace(opponents="alternate")
    # Deal 2 under alternate: board 1 is A1 v B2, board 2 is A2 v B1.
    ok = [boards(D(), D()), boards(K("B", 2, 9), K("A", 2, 9), players=[2, 2])]
    assert score_team_match(rules, ok).deals[1].score.winner is None
    wrong = [boards(D(), D()), boards(K("B", 2, 9), K("A", 2, 9), players=[1, None])]
    with pytest.raises(ScoringError) as caught:
        score_team_match(rules, wrong)
    assert str(caught.value) == (
        "deal 2, board 1: player 1 of team B does not play at this board (seat 2 of team B does)"
    )
    with pytest.raises(ScoringError, match="deal 1, board 2: player must be a seat from 1 to 2"):
        score_team_match(rules, [boards(D(), K("A", 2, 9), players=[None, 3])])


# -- refusals -------------------------------------------------------------------------------


def test_a_deal_has_exactly_team_size_boards():
    with pytest.raises(ScoringError) as caught:
        score_team_match(PAIRS, [boards(D(), D()), boards(D())])
    assert str(caught.value) == "deal 2: a deal has 2 boards (one for each player of a team), not 1"
    assert (caught.value.deal, caught.value.board) == (2, None)


def test_head_to_head_scoring_refuses_team_rules():
    with pytest.raises(ScoringError) as caught:
        score_match(PAIRS, [K("A", 2, 9)])
    assert str(caught.value) == (
        "hand 1: these rules are for teams of 2: enter the match deal by deal"
    )
    assert score_match(PAIRS, []).games[0].hands == ()


def test_a_team_match_has_at_most_max_hands_boards():
    many = [boards(*[D()] * 4)] * 2500
    rules = MODERN.replace(team_size=4)
    assert len(score_team_match(rules, many).deals) == 2500
    with pytest.raises(ScoringError) as caught:
        score_team_match(rules, [*many, boards(*[D()] * 4)])
    assert str(caught.value) == "deal 2501: a match has at most 10000 hands (every board is a hand)"


def test_board_messages_translate_with_their_prefix():
    with pytest.raises(ScoringError) as caught:
        score_team_match(PAIRS, [boards(D(), K("A", 11, 20))])
    catalogue = {
        "deal %(deal)d, board %(board)d: %(problem)s": "mano %(deal)d, mesa %(board)d: %(problem)s",
        "knocker deadwood %(deadwood)d is over the knock limit of %(limit)d": (
            "%(deadwood)d pasa del límite de %(limit)d"
        ),
    }
    rendered = caught.value.render(lambda s: catalogue.get(s, s))
    assert rendered == "mano 1, mesa 2: 11 pasa del límite de 10"


# -- knobs and presets ----------------------------------------------------------------------


def test_the_team_knobs_are_one_block_and_off_in_every_head_to_head_preset():
    for rules in PRESETS.values():
        data = rules.to_dict()
        names = list(data)
        assert names[names.index("team_size") :][:3] == list(TEAM_KNOBS)
        assert {k: data[k] for k in TEAM_KNOBS} == {
            "team_size": 1,
            "opponents": "fixed",
            "sweep_bonus": 0,
        }


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # rummy-games.com: game 125, game bonus 100, shutout bonus 100; Bicycle: the
        # winners deal next, players alternate opponents; else regular gin.
        (
            "partnership",
            {
                "team_size": 2,
                "game_target": 125,
                "game_bonus": 100,
                "shutout": "bonus",
                "shutout_bonus": 100,
                "box_bonus": 25,
                "deal": "winner",
                "opponents": "alternate",
                "format": "games",
            },
        ),
        # Tedesco: "three games to 200 head to head or with teams of two".
        ("tedesco_pairs", {"team_size": 2, "game_target": 200, "sweep_bonus": 0}),
        # "teams of three play to 300, 25 extra points if all three teammates win".
        (
            "tedesco_threes",
            {"team_size": 3, "game_target": 300, "sweep_bonus": 25, "format": "hollywood"},
        ),
    ],
)
def test_team_presets(name, expected):
    data = resolve_rules(name).to_dict()
    assert data["preset"] == name
    assert {k: data[k] for k in expected} == expected


@pytest.mark.parametrize(
    ("knob", "value", "message"),
    [
        ("team_size", 0, "rules: team_size must be between 1 and 4"),
        ("team_size", 5, "rules: team_size must be between 1 and 4"),
        ("team_size", "2", "rules: team_size must be a whole number"),
        ("sweep_bonus", -1, "rules: sweep_bonus must be between 0 and 500"),
        ("sweep_bonus", 501, "rules: sweep_bonus must be between 0 and 500"),
        ("opponents", "random", "rules: opponents must be one of fixed, alternate, rotate"),
    ],
)
def test_bad_team_knobs(knob, value, message):
    with pytest.raises(ScoringError) as caught:
        resolve_rules({"preset": "partnership", knob: value})
    assert str(caught.value) == message
    assert caught.value.field == knob
