"""Invariants of partnership scoring on random matches (hypothesis).

The equivalences, precisely: under any head-to-head rules with ``team_size`` 1, a match of
one-board deals scores exactly as the same hands head to head (every game or column, the
match, the next dealer, each deal's winner, points and boxes, and the refusal of a deal
after the match is complete); and under ``team_size`` 2 with the other board of every deal
drawn (and no sweep bonus, which a drawn board never earns), a team match scores exactly as
the live boards' hands head to head, whichever board is the live one and whoever plays whom.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    KNOB_RANGES,
    PRESETS,
    BoardInput,
    HandInput,
    HandKind,
    Pair,
    ScoringError,
    Side,
    largest_match_total,
    pairing,
    score_match,
    score_team_match,
)

from .test_properties import legal_hand, playable, rules_and_hands, sides

DRAW = HandInput(HandKind.DRAW)


def same_results(team, head):
    assert team.games == head.games
    assert team.match == head.match
    assert team.next_dealer == head.next_dealer
    for deal, hand in zip(team.deals, head.hands, strict=True):
        score = deal.score
        assert (score.winner, score.points, score.boxes) == (
            hand.score.winner,
            hand.score.points,
            hand.score.boxes,
        )
        assert (deal.number, deal.game, deal.columns, deal.dealer) == (
            hand.number,
            hand.game,
            hand.columns,
            hand.dealer,
        )


@settings(max_examples=300, deadline=None)
@given(rules_and_hands(), st.none() | sides)
def test_one_board_deals_score_exactly_as_the_hands_head_to_head(case, dealer):
    rules, hands = case
    head, kept = playable(rules, hands)
    head = score_match(rules, kept, dealer)
    team = score_team_match(rules, [[BoardInput(hand)] for hand in kept], dealer)
    same_results(team, head)
    if head.match.complete:
        try:
            score_team_match(rules, [[BoardInput(h)] for h in [*kept, DRAW]], dealer)
        except ScoringError as error:
            assert error.deal == len(kept) + 1 and "already complete" in str(error)
        else:  # pragma: no cover - the assertion explains the failure
            raise AssertionError("a deal after the match was accepted")


@settings(max_examples=300, deadline=None)
@given(
    rules_and_hands(),
    st.none() | sides,
    st.sampled_from(["fixed", "alternate", "rotate"]),
    st.data(),
)
def test_a_drawn_partner_board_leaves_the_other_board_as_the_hand(case, dealer, opponents, data):
    rules, hands = case
    head, kept = playable(rules, hands)
    head = score_match(rules, kept, dealer)
    live = data.draw(st.lists(st.integers(0, 1), min_size=len(kept), max_size=len(kept)))
    team_rules = rules.replace(team_size=2, opponents=opponents)
    deals = [
        [BoardInput(hand), BoardInput(DRAW)] if at == 0 else [BoardInput(DRAW), BoardInput(hand)]
        for hand, at in zip(kept, live, strict=True)
    ]
    same_results(score_team_match(team_rules, deals, dealer), head)


@st.composite
def team_matches(draw):
    rules, _hands = draw(rules_and_hands())
    size = draw(st.integers(2, 4))
    rules = rules.replace(
        team_size=size,
        sweep_bonus=draw(st.sampled_from([0, 25, 50])),
        opponents=draw(st.sampled_from(["fixed", "alternate", "rotate"])),
        box_bonus=draw(st.integers(0, 500)),
        undercut_extra_boxes=draw(st.integers(0, 5)),
    )
    deals = draw(st.lists(st.lists(legal_hand(rules), min_size=size, max_size=size), max_size=25))
    return rules, [[BoardInput(hand) for hand in deal] for deal in deals]


def playable_deals(rules, deals):
    try:
        return score_team_match(rules, deals), deals
    except ScoringError as error:
        assert error.deal is not None and "already complete" in str(error)
        kept = deals[: error.deal - 1]
        return score_team_match(rules, kept), kept


@settings(max_examples=300, deadline=None)
@given(team_matches())
def test_deals_net_their_boards_and_totals_are_the_sum_of_their_parts(case):
    rules, deals = case
    sheet, kept = playable_deals(rules, deals)
    for deal in sheet.deals:
        score = deal.score
        for side in Side:
            won = sum(b.points for b in score.boards if b.winner is side)
            bonus = score.sweep_bonus if score.sweep is side else 0
            assert score.team_points[side] == won + bonus
        if score.sweep is not None:
            assert all(b.winner is score.sweep for b in score.boards)
            assert score.sweep_bonus == rules.sweep_bonus
        assert score.points == abs(score.team_points.a - score.team_points.b)
        if score.winner is None:
            assert score.points == 0 and score.boxes == 0
        else:
            assert score.team_points[score.winner] >= score.team_points[score.winner.other]
            assert score.boxes >= 1
        # Each board meets one player of the other team, every seat once.
        seats = pairing(rules, deal.number)
        assert sorted(s.b for s in seats) == list(range(1, rules.team_size + 1))
        assert deal.seats == seats
    for game in sheet.games:
        for side in Side:
            parts = (
                game.points[side]
                + game.box_points[side]
                + game.game_bonus[side]
                + game.shutout_bonus[side]
            )
            assert game.total[side] == parts * (2 if game.doubled else 1)
        won = Pair()
        for deal in sheet.deals:
            winner = deal.score.winner
            if winner is not None and game.number in (deal.columns or (deal.game,)):
                won = won.plus(winner, deal.score.points)
        assert game.points == won
    closed = [g for g in sheet.games if g.complete]
    assert sheet.match.total == sum((g.total for g in closed), Pair())
    # limits.largest_match_total, given the match's own knobs and boards, bounds it all.
    own = {name: (0, getattr(rules, name) or 0) for name in KNOB_RANGES}
    bound = largest_match_total(own, hands=len(kept) * rules.team_size)
    for game in sheet.games:
        assert max(game.total.a, game.total.b) <= bound


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 4), st.integers(1, 40))
def test_rotating_opponents_meet_everyone_once_in_team_size_deals(size, start):
    rules = PRESETS["modern"].replace(team_size=size, opponents="rotate")
    met = {(s.a, s.b) for deal in range(start, start + size) for s in pairing(rules, deal)}
    assert len(met) == size * size
