"""Every word the PDFs print, supplied by the caller already translated.

The renderers never translate: the view builds ``Labels(hand=gettext("Hand"), …)`` in the
tournament's language. Fields holding ``{n}``, ``{page}`` or ``{pages}`` are
``str.format`` templates; numbers and names are data, never labels.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Labels:
    # scoresheet header and footer
    table: str = "Table"
    versus: str = "vs"
    page: str = "Page {page} of {pages}"
    scan_hint: str = "Scan to enter hands"
    match_result: str = "Match result"
    games_won: str = "Games won"
    columns_won: str = "Columns won"
    match_total: str = "Match total"
    signature: str = "Signature"
    in_progress: str = "in progress"
    # grids
    game: str = "Game {n}"
    column: str = "Column {n}"
    hand: str = "Hand"
    points: str = "Points"
    total: str = "Total"
    hand_points: str = "Hand points"
    boxes: str = "Boxes"
    box_points: str = "Box points"
    game_bonus: str = "Game bonus"
    shutout: str = "Shutout"
    game_total: str = "Game total"
    winner: str = "Winner"
    not_played: str = "not played"
    continued: str = "continued on the next page"
    # hand markers, printed small next to the points
    gin: str = "gin"
    big_gin: str = "big gin"
    undercut: str = "U/C"
    draw: str = "draw"
    tie: str = "tie"
    # bracket and standings
    round_robin_results: str = "Results"
    place: str = "Place"
    player: str = "Player"
