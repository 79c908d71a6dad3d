"""Standings with tiebreaks: worked examples computed by hand. Pure tests: no Django."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from pairing import tiebreaks
from pairing.tiebreaks import MatchResult, Tiebreak, standings

T = Tiebreak

# Five players, three rounds (the bye rotates):
#   R1  1 beat 2  2–1 games, 250–180 points;  3 beat 4  2–0, 260–90;   5 bye
#   R2  1 beat 3  2–1, 240–200;               5 beat 2  2–0, 220–60;   4 bye
#   R3  5 beat 1  2–1, 230–210;               2 beat 4  2–1, 200–190;  3 bye
EVENT = [
    MatchResult(1, 2, winner=1, games_a=2, games_b=1, points_a=250, points_b=180),
    MatchResult(3, 4, winner=3, games_a=2, games_b=0, points_a=260, points_b=90),
    MatchResult(5, None, winner=5),
    MatchResult(1, 3, winner=1, games_a=2, games_b=1, points_a=240, points_b=200),
    MatchResult(5, 2, winner=5, games_a=2, games_b=0, points_a=220, points_b=60),
    MatchResult(4, None, winner=4),
    MatchResult(5, 1, winner=5, games_a=2, games_b=1, points_a=230, points_b=210),
    MatchResult(2, 4, winner=2, games_a=2, games_b=1, points_a=200, points_b=190),
    MatchResult(3, None, winner=3),
]
PLAYERS = [1, 2, 3, 4, 5]
EVERY = [T.MATCH_POINTS, T.BUCHHOLZ, T.GAMES_WON, T.POINT_MARGIN, T.TOTAL_POINTS]

# By hand, per player: match points (byes count), opponents' match wins (byes add none),
# games won, point margin, total points.
EXPECTED = {
    1: {"match_points": 2, "buchholz": 1 + 2 + 3, "games_won": 5, "point_margin": 90},
    2: {"match_points": 1, "buchholz": 2 + 3 + 1, "games_won": 3, "point_margin": -220},
    3: {"match_points": 2, "buchholz": 1 + 2, "games_won": 3, "point_margin": 130},
    4: {"match_points": 1, "buchholz": 2 + 1, "games_won": 1, "point_margin": -180},
    5: {"match_points": 3, "buchholz": 1 + 2, "games_won": 4, "point_margin": 180},
}
TOTAL_POINTS = {1: 700, 2: 440, 3: 460, 4: 280, 5: 450}


def test_every_value_worked_out_by_hand() -> None:
    rows = {row.player: row for row in standings(PLAYERS, EVENT, EVERY)}
    for player, expected in EXPECTED.items():
        values = rows[player].as_dict()
        assert {k: values[k] for k in expected} == expected, player
        assert values["total_points"] == TOTAL_POINTS[player]
    assert (rows[5].won, rows[5].lost, rows[5].byes) == (3, 0, 1)
    assert (rows[4].won, rows[4].lost, rows[4].byes) == (1, 2, 1)


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # 1 and 3 tie on 2 points; Buchholz 6 v 3. 2 and 4 tie on 1; Buchholz 6 v 3.
        ([T.MATCH_POINTS, T.BUCHHOLZ], [5, 1, 3, 2, 4]),
        # the same ties by point margin: 130 > 90, −180 > −220
        ([T.MATCH_POINTS, T.POINT_MARGIN], [5, 3, 1, 4, 2]),
        # head to head: 1 beat 3, 2 beat 4
        ([T.MATCH_POINTS, T.HEAD_TO_HEAD, T.POINT_MARGIN], [5, 1, 3, 2, 4]),
        # total points alone: 700, 460, 450, 440, 280
        ([T.TOTAL_POINTS], [1, 3, 5, 2, 4]),
        # games won first: 5, 4, 3, 3, 1 (2 and 3 tie: then match points 2 > 1)
        ([T.GAMES_WON, T.MATCH_POINTS], [1, 5, 3, 2, 4]),
    ],
    ids=["buchholz", "margin", "head-to-head", "total-points", "games-first"],
)
def test_the_chosen_order_decides(order: list[Tiebreak], expected: list[int]) -> None:
    rows = standings(PLAYERS, EVENT, order)
    assert [row.player for row in rows] == expected
    assert [row.place for row in rows] == [1, 2, 3, 4, 5]
    assert [name for name, _ in rows[0].values] == order


def test_head_to_head_counts_only_matches_among_the_tied() -> None:
    rows = standings(PLAYERS, EVENT, [T.MATCH_POINTS, T.HEAD_TO_HEAD])
    by_player = {row.player: row.value(T.HEAD_TO_HEAD) for row in rows}
    # 1 beat 2 as well, but 2 is not tied with 1: only the win over 3 counts.
    assert by_player == {5: None, 1: 1, 3: 0, 2: 1, 4: 0}


def test_players_who_never_met_stay_tied_and_share_a_place() -> None:
    results = [
        MatchResult(1, 3, winner=1),
        MatchResult(2, 4, winner=2),
        MatchResult(1, 4, winner=1),
        MatchResult(2, 3, winner=2),
    ]
    rows = standings([1, 2, 3, 4], results, [T.MATCH_POINTS, T.HEAD_TO_HEAD])
    assert [(r.player, r.place, r.value(T.HEAD_TO_HEAD)) for r in rows] == [
        (1, 1, 0),
        (2, 1, 0),
        (3, 3, 0),
        (4, 3, 0),
    ]
    # seed order among the tied: 2 before 1 when the seeds say so
    assert [r.player for r in standings([2, 1, 4, 3], results, [T.MATCH_POINTS])] == [2, 1, 4, 3]


def test_a_head_to_head_circle_leaves_the_tie_for_the_next_tiebreak() -> None:
    results = [
        MatchResult(1, 2, winner=1, points_a=100, points_b=90),
        MatchResult(2, 3, winner=2, points_a=100, points_b=20),
        MatchResult(3, 1, winner=3, points_a=100, points_b=50),
    ]
    order = [T.MATCH_POINTS, T.HEAD_TO_HEAD, T.POINT_MARGIN]
    rows = standings([1, 2, 3], results, order)
    assert [r.value(T.HEAD_TO_HEAD) for r in rows] == [1, 1, 1]
    # margins: 2: −10+80 = 70; 3: −80+50 = −30; 1: +10−50 = −40
    assert [(r.player, r.value(T.POINT_MARGIN)) for r in rows] == [(2, 70), (3, -30), (1, -40)]


def test_head_to_head_first_counts_every_win() -> None:
    rows = standings(PLAYERS, EVENT, [T.HEAD_TO_HEAD])
    # byes are not matches against anyone: 5 won twice over the board, as did 1
    assert [(r.player, r.place, r.value(T.HEAD_TO_HEAD)) for r in rows] == [
        (1, 1, 2),
        (5, 1, 2),
        (2, 3, 1),
        (3, 3, 1),
        (4, 5, 0),
    ]


def test_no_results_everyone_shares_first_place() -> None:
    rows = standings([3, 1, 2], [], [T.MATCH_POINTS, T.BUCHHOLZ])
    assert [(r.player, r.place) for r in rows] == [(3, 1), (1, 1), (2, 1)]
    assert rows[0].as_dict() == {"match_points": 0, "buchholz": 0}


def test_the_names_are_the_json_contract() -> None:
    assert [str(t) for t in Tiebreak] == [
        "match_points",
        "buchholz",
        "games_won",
        "point_margin",
        "head_to_head",
        "total_points",
    ]
    assert standings(PLAYERS, EVENT, ["buchholz"])[0].as_dict().keys() == {"buchholz"}  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: standings([1, 2], [], []), "at least one"),
        (lambda: standings([1, 2], [], [T.BUCHHOLZ, T.BUCHHOLZ]), "twice"),
        (lambda: standings([1, 1], [], [T.BUCHHOLZ]), "twice"),
        (lambda: standings([1, 2], [MatchResult(1, 3, winner=1)], [T.BUCHHOLZ]), "not in"),
        (lambda: standings([1], [], ["fide"]), "fide"),  # type: ignore[list-item]
        (lambda: MatchResult(1, 2, winner=3), "one of the players"),
        (lambda: MatchResult(1, None, winner=1, games_a=2), "bye"),
        (lambda: MatchResult(1, 1, winner=1), "themselves"),
    ],
    ids=["none", "twice", "player-twice", "stranger", "unknown-name", "winner", "bye", "self"],
)
def test_bad_input_is_refused(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=message):
        call()


def test_the_tiebreak_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(tiebreaks.__file__).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(str(node.module).split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
