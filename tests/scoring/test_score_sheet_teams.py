"""score_sheet with partnership matches (issue 20), through the real command: the deals
form of the contract, and each refusal (one line on stderr, nothing on stdout, exit 1)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from .test_score_sheet_command import run

KNOCK = {"kind": "knock", "by": "A", "deadwood": 4, "defender_deadwood": 20}
PAIRS = {"preset": "modern", "team_size": 2}


def score(request: dict) -> dict:
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(json.dumps(request)))
        call_command("score_sheet", "-", stdout=out)
    return json.loads(out.getvalue())


def test_the_books_example_through_the_process():
    # A beats B by 16 and C beats D by 12: A/C 28. Then A beats B by 7, D beats C by 13:
    # B/D 6. Each team: one box per deal won, 25 each.
    request = {
        "rules": PAIRS,
        "first_dealer": "B",
        "deals": [
            [KNOCK, {**KNOCK, "deadwood": 2, "defender_deadwood": 14, "player": 2}],
            [
                {**KNOCK, "deadwood": 3, "defender_deadwood": 10},
                {"kind": "knock", "by": "B", "deadwood": 5, "defender_deadwood": 18},
            ],
        ],
    }
    result = run("-", stdin=json.dumps(request))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rules"]["team_size"] == 2 and data["rules"]["opponents"] == "fixed"
    assert "hands" not in data
    first, second = data["deals"]
    assert first["boards"][0] == {
        "number": 1,
        "game": 1,
        "kind": "knock",
        "by": "A",
        "player": 1,
        "seats": {"A": 1, "B": 1},
        "result": "knock",
        "winner": "A",
        "points": 16,
        "multiplier": 1,
        "boxes": 1,
        "dealer": "B",
    }
    assert first["boards"][1]["player"] == 2 and first["boards"][1]["points"] == 12
    assert {k: first[k] for k in ("number", "game", "winner", "points", "boxes", "dealer")} == {
        "number": 1,
        "game": 1,
        "winner": "A",
        "points": 28,
        "boxes": 1,
        "dealer": "B",
    }
    # deal: alternate (modern): A's team deals the second deal.
    assert (second["winner"], second["points"], second["dealer"]) == ("B", 6, "A")
    assert second["team_points"] == {"A": 7, "B": 13}
    game = data["games"][0]
    assert game["hands"] == [1, 2]
    assert game["points"] == {"A": 28, "B": 6}
    assert game["total"] == {"A": 53, "B": 31}
    assert data["match"] == {
        "format": "games",
        "games_to_win": 1,
        "games_won": {"A": 0, "B": 0},
        "complete": False,
        "winner": None,
        "total": {"A": 0, "B": 0},
    }


def test_a_tedesco_team_deal_in_hollywood_columns():
    # tedesco_threes: knock cards; three boards won by A: 10 + 45 + 26 = 81, sweep 25: 106
    # into column 1 (A's first win).
    data = score(
        {
            "rules": "tedesco_threes",
            "deals": [
                [
                    {**KNOCK, "deadwood": 2, "defender_deadwood": 12, "knock_card": "9H"},
                    {"kind": "gin", "by": "A", "defender_deadwood": 20, "knock_card": "7D"},
                    {**KNOCK, "deadwood": 4, "defender_deadwood": 30, "knock_card": "5C"},
                ]
            ],
        }
    )
    deal = data["deals"][0]
    assert (deal["sweep"], deal["sweep_bonus"], deal["points"]) == ("A", 25, 106)
    assert deal["columns"] == [1] and deal["boards"][2]["columns"] == [1]
    assert data["columns"][0]["points"] == {"A": 106, "B": 0}
    assert data["match"]["format"] == "hollywood"


def test_head_to_head_requests_are_as_before():
    hands = [{"kind": "gin", "by": "B", "defender_deadwood": 7}]
    data = score({"rules": {"preset": "modern", "team_size": 1}, "hands": hands})
    assert data == score({"rules": "modern", "hands": hands})
    assert data["hands"][0]["points"] == 32 and "deals" not in data


@pytest.mark.parametrize(
    ("request_data", "message"),
    [
        (
            {"rules": "modern", "deals": []},
            "deals are for teams: set team_size (2 to 4) in the rules, or give hands",
        ),
        (
            {"rules": PAIRS, "hands": []},
            "these rules are for teams of 2: give deals (each a list of 2 boards)",
        ),
        ({"rules": PAIRS, "hands": [], "deals": []}, "give hands or deals, not both"),
        ({"rules": PAIRS, "deals": {}}, "deals must be a list"),
        (
            {"rules": PAIRS, "deals": [[KNOCK, KNOCK], KNOCK]},
            "deal 2: a deal must be a list of boards",
        ),
        (
            {"rules": PAIRS, "deals": [[KNOCK]]},
            "deal 1: a deal has 2 boards (one for each player of a team), not 1",
        ),
        (
            {"rules": PAIRS, "deals": [[KNOCK, KNOCK, KNOCK]]},
            "deal 1: a deal has 2 boards (one for each player of a team), not 3",
        ),
        ({"rules": PAIRS, "deals": [[KNOCK, 7]]}, "deal 1, board 2: a board must be an object"),
        (
            {"rules": PAIRS, "deals": [[KNOCK, {**KNOCK, "seat": 1}]]},
            "deal 1, board 2: unknown field seat",
        ),
        (
            {"rules": PAIRS, "deals": [[KNOCK, {**KNOCK, "player": "2"}]]},
            "deal 1, board 2: player must be a whole number, not '2'",
        ),
        (
            {"rules": PAIRS, "deals": [[KNOCK, {**KNOCK, "player": 1}]]},
            "deal 1, board 2: player 1 of team A does not play at this board "
            "(seat 2 of team A does)",
        ),
        (
            {"rules": PAIRS, "deals": [[KNOCK, {**KNOCK, "player": 5}]]},
            "deal 1, board 2: player must be a seat from 1 to 2, not 5",
        ),
        (
            {"rules": PAIRS, "deals": [[KNOCK, {**KNOCK, "by": "C"}]]},
            "deal 1, board 2: by must be A or B, not 'C'",
        ),
        (
            {"rules": PAIRS, "deals": [[{**KNOCK, "deadwood": 11}, KNOCK]]},
            "deal 1, board 1: knocker deadwood 11 is over the knock limit of 10",
        ),
        (
            {
                "rules": "partnership",
                "deals": [[{"kind": "gin", "by": "A", "defender_deadwood": 98}] * 2] * 2,
            },
            "deal 2: the match is already complete; no more deals can be entered",
        ),
        (
            {"rules": {"preset": "modern", "team_size": 5}, "deals": []},
            "rules: team_size must be between 1 and 4",
        ),
        (
            {"rules": {"preset": "partnership", "opponents": "swap"}, "deals": []},
            "rules: opponents must be one of fixed, alternate, rotate",
        ),
        (
            {"rules": {"preset": "partnership", "sweep_bonus": -5}, "deals": []},
            "rules: sweep_bonus must be between 0 and 500",
        ),
    ],
)
def test_refusals(request_data, message, capsys):
    with pytest.raises(SystemExit) as caught, pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(json.dumps(request_data)))
        call_command("score_sheet", "-")
    out, err = capsys.readouterr()
    assert caught.value.code == 1
    assert out == ""
    assert err == f"error: {message}\n"


def test_a_refusal_from_the_real_process():
    result = run("-", stdin=json.dumps({"rules": PAIRS, "deals": [[KNOCK]]}))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        "error: deal 1: a deal has 2 boards (one for each player of a team), not 1\n"
    )
