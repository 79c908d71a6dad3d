"""A match as the exports list it (``matches.csv``, the rounds of ``standings.json``): its
scores as its sheet shows them, and its row of ``standings.json``.

A sheet's match total counts the games played out; a match decided on time (or walked
over) in the middle of a game also has that game's points so far, which its sheet shows
in the game's row. Those count here too: a match won on time 28–0 in its first game reads
28–0, not 0–0. Games (or Hollywood columns) won are the sheet's. A match without hands
keeps its stored summary. No queries.
"""

from __future__ import annotations

from typing import Any

from engine import MatchSheet, points_at_call
from tournaments.match_names import RoundNames, decided
from tournaments.models import Match


def sheet_scores(match: Match, sheet: MatchSheet | None) -> tuple[int, int, int, int]:
    """(games A, games B, points A, points B) as the match's sheet shows them."""
    if sheet is None:
        return match.score_a, match.score_b, match.total_a, match.total_b
    won = sheet.match.won
    # the games not played out count their points so far (engine.points_at_call)
    points = sheet.match.total if sheet.complete else points_at_call(sheet)
    return won.a, won.b, points.a, points.b


def pairing_json(
    match: Match,
    names: RoundNames,
    sheet: MatchSheet | None = None,
    withdrawals: frozenset[int] | set[int] = frozenset(),
) -> dict[str, Any]:
    """One match of a stage's rounds in ``standings.json``."""
    a, b = match.side_a, match.side_b
    winner = match.winner_side.lower() if match.winner_side else None
    games_a, games_b, points_a, points_b = sheet_scores(match, sheet)
    if a is None and b is not None:  # a bye on the upper line: its player is "a"
        a, b = b, None
        winner = "a" if winner else None
        games_a, games_b, points_a, points_b = games_b, games_a, points_b, points_a
    stage = match.stage.name if match.stage_id is not None else None
    return {
        "table": match.table,
        "a": a.player.name if a is not None else None,
        "b": b.player.name if b is not None else None,
        "winner": winner,
        "stage": stage,
        "round": names.round(match),
        "match": names.match(match),
        "decided": decided(match, set(withdrawals)) or None,
        "games": {"a": games_a, "b": games_b},
        "points": {"a": points_a, "b": points_b},
    }
