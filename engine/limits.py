"""How large the numbers of a match can get under the bounded knobs (``rules.KNOB_RANGES``)
and hands (``rules.MAX_HANDS``): the proof, in code, that a total fits a 32-bit column.

What this module does not do: check anything at run time. The bounds are enforced where
knobs and hands come in (``rules.check_knob``, ``match``); a test holds the result of
:func:`largest_match_total` below the database's integer columns.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.rules import KNOB_RANGES, MAX_HANDS, largest_deadwood


def largest_hand(ranges: Mapping[str, tuple[int, int]] = KNOB_RANGES) -> tuple[int, int]:
    """(points, boxes): the most one hand can score, each at its largest.

    Points: a big gin or gin against the largest deadwood (which the ace's value sets),
    or an undercut of the largest knock by a defender with nothing, or a knock against
    the largest deadwood plus the knock base; doubled by a spade. Boxes: one, plus the
    larger extra, doubled by a spade.
    """
    most = {name: high for name, (_low, high) in ranges.items()}
    deadwood = largest_deadwood(most.get("ace_value", 1))
    base = max(
        most["big_gin_bonus"] + deadwood,
        most["gin_bonus"] + deadwood,
        most["knock_limit"] + most["undercut_bonus"],
        deadwood - 1 + most.get("knock_base", 0),
    )
    extra = max(most["gin_extra_boxes"], most["undercut_extra_boxes"])
    return 2 * base, 2 * (1 + extra)


def largest_deal(ranges: Mapping[str, tuple[int, int]] = KNOB_RANGES) -> tuple[int, int]:
    """(points, boxes): the most one partnership deal can score (``teams.py``), each at its
    largest; with teams of one (or no team knobs in ``ranges``), :func:`largest_hand`.

    Points: every board won for the most a hand scores, plus the sweep bonus (teams of two
    or more). Boxes: one, plus each board's extras (its boxes less one).
    """
    points, boxes = largest_hand(ranges)
    most = {name: high for name, (_low, high) in ranges.items()}
    size = most.get("team_size", 1)
    sweep = most.get("sweep_bonus", 0) if size > 1 else 0
    return size * points + sweep, 1 + size * (boxes - 1)


def largest_match_total(
    ranges: Mapping[str, tuple[int, int]] = KNOB_RANGES, hands: int = MAX_HANDS
) -> int:
    """An upper bound on one side's match total (and so on any game or column total).

    With T the target, P and B the most points and boxes of a hand, g the game bonus,
    s the shutout bonus and x the box bonus (each at its most):

    * In a partnership match a deal counts as a hand, with P the most a deal scores
      (:func:`largest_deal`). Its boxes grow with the team, but so does what it uses up
      of ``hands`` (every board is a hand): teams of N have at most hands/N deals of at
      most 1 + N(B - 1) boxes, hands·(B - 1 + 1/N) ≤ hands·B in all. So B stays a hand's.

    * A closed game's winner was below T before the hand that closed it, so has at most
      T - 1 + P points; the loser at most T - 1 and no bonus. (With ``box_timing:
      running`` the winner's points plus running boxes were below T: fewer points.)
    * The winner's total without boxes is then at most w = max(2(T - 1 + P + g),
      T - 1 + P + g + s): ``double_total`` doubles points and game bonus, the other
      shutout rules add less.
    * Boxes: each hand gives its winner at most B, paid x each, counted twice at most
      (``double_total``). In the games format a hand is in one game; in Hollywood it
      can be in every column.
    * Games format: a side ends with at most W games won and W - 1 lost, so
      W·w + (W - 1)(T - 1) + 2·hands·B·x. Hollywood, with C columns each won or lost, one
      of which may count double (``hollywood_last_doubled``): (C + 1)·w +
      2·(C + 1)·hands·B·x. The bound is the larger of the two.
    """
    most = {name: high for name, (_low, high) in ranges.items()}
    (points, _deal_boxes), (_hand_points, boxes) = largest_deal(ranges), largest_hand(ranges)
    target, game_bonus = most["game_target"], most["game_bonus"]
    won_points = target - 1 + points + game_bonus
    won = max(2 * won_points, won_points + most["shutout_bonus"])
    box_points = 2 * hands * boxes * most["box_bonus"]
    games_to_win, columns = most["games_to_win"], most["hollywood_columns"]
    games = games_to_win * won + (games_to_win - 1) * (target - 1) + box_points
    hollywood = (columns + 1) * (won + box_points)
    return max(games, hollywood)
