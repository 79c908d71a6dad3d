"""score_boards: a team match stored board by board, read as a sheet whose hands are its
deals (what the web app, the public pages and verify_tournament read)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    TEAM_PRESETS,
    HandInput,
    HandKind,
    ScoringError,
    Side,
    deals_of,
    score_boards,
    score_team_match,
)

from .test_properties import playable, rules_and_hands

DRAW = HandInput(HandKind.DRAW)


def knock(by: Side, deadwood: int, defender: int) -> HandInput:
    return HandInput(HandKind.KNOCK, by, deadwood, defender)


def test_the_books_two_deals_as_a_sheet_of_deals():
    rules = TEAM_PRESETS["partnership"]
    boards = [
        knock(Side.A, 2, 18),  # A beats B by 16
        knock(Side.A, 3, 15),  # C beats D by 12: A/C 28
        knock(Side.A, 3, 10),  # A beats B by 7
        knock(Side.B, 2, 15),  # D beats C by 13: B/D 6
    ]
    sheet = score_boards(rules, boards)
    assert [h.number for h in sheet.hands] == [1, 2]
    assert [(h.score.winner, h.score.points, h.score.boxes) for h in sheet.hands] == [
        (Side.A, 28, 1),
        (Side.B, 6, 1),
    ]
    assert sheet.games[0].points.as_dict() == {"A": 28, "B": 6}
    # The sheet of deals agrees with the engine's board-by-board one.
    team = score_team_match(rules, deals_of(rules, boards))
    assert sheet.games == team.games and sheet.match == team.match


def test_a_missing_board_is_refused_naming_the_deal():
    rules = TEAM_PRESETS["partnership"]
    with pytest.raises(ScoringError) as refused:
        score_boards(rules, [knock(Side.A, 2, 18), knock(Side.A, 3, 15), DRAW])
    assert refused.value.deal == 2 and "2 boards" in str(refused.value)


@settings(max_examples=200, deadline=None)
@given(rules_and_hands(), st.sampled_from([2, 3]))
def test_boards_of_a_drawn_partner_read_as_the_hands_head_to_head(case, size):
    """Every deal = one live board and drawn partners: the sheet of deals is the
    head-to-head sheet of the live boards, hand for hand."""
    rules, hands = case
    head, kept = playable(rules, hands)
    team_rules = rules.replace(team_size=size)
    boards = [board for hand in kept for board in [hand, *([DRAW] * (size - 1))]]
    sheet = score_boards(team_rules, boards)
    assert sheet.games == head.games and sheet.match == head.match
    assert [(h.number, h.score.winner, h.score.points) for h in sheet.hands] == [
        (h.number, h.score.winner, h.score.points) for h in head.hands
    ]
