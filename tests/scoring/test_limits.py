"""The largest numbers the bounded rules allow fit the database's integer columns
(PostgreSQL's: SQLite would store anything), worked out and then played for real.

CI runs the suite a second time on PostgreSQL, where an ``integer`` is 32 bits: there the
worst-case match below would fail with "integer out of range" if the bound were wrong.
"""

from __future__ import annotations

import json

import pytest

from archive import api as archive
from archive.schema import INT_RANGES
from archive.verify import verify
from engine import (
    KNOB_RANGES,
    MAX_DEADWOOD,
    MAX_HANDS,
    BoardInput,
    Card,
    HandInput,
    HandKind,
    Side,
    largest_match_total,
    resolve_rules,
    score_team_match,
)
from engine.limits import largest_deal, largest_hand
from scoring.loading import HandData
from scoring.models import Hand
from scoring.services import confirm_result, record_hand
from tests.factories import make_entries, make_match, make_tournament
from tournaments.models import Match

INT_MAX = 2**31 - 1
MOST = {name: high for name, (_low, high) in KNOB_RANGES.items()}


def column_range(model, name: str) -> tuple[int, int]:
    return INT_RANGES[model._meta.get_field(name).get_internal_type()]


def test_the_largest_hand_and_match_total_under_the_bounds():
    # A big gin against 110 deadwood (two aces at 15 and two each of K, Q, J, 10),
    # spade-doubled: 2 × (500 + 110). Boxes: 2 × (1 + 5).
    assert largest_hand() == (1220, 12)
    # A partnership deal of four boards, each that hand, plus a sweep of 500: 4 × 1220 +
    # 500 = 5380 points; boxes 1 + 4 × (12 - 1) = 45 (at most 2,500 such deals: every board
    # is one of the match's 10,000 hands, so a match's boxes stay within 10,000 × 12).
    assert largest_deal() == (5380, 45)
    # Hollywood, ten columns and the last one doubled: 11 × (w + 2·hands·B·x), with the
    # deal closing a column: w = 2 × (4999 + 5380 + 500) = 21,758, and 2 × 10,000 × 12 ×
    # 500 = 120,000,000. (Head to head alone it was 11 × (13,438 + 120,000,000).)
    assert largest_match_total() == 11 * (21_758 + 120_000_000) == 1_320_239_338
    assert largest_match_total() < INT_MAX
    head_to_head = {k: v for k, v in KNOB_RANGES.items() if k not in ("team_size", "sweep_bonus")}
    assert largest_match_total(head_to_head) == 1_320_147_818


def test_every_column_storing_a_score_fits_the_largest_value():
    for name in ("total_a", "total_b"):
        low, high = column_range(Match, name)
        assert low <= 0 and largest_match_total() <= high
    for name in ("score_a", "score_b"):  # games (or columns) won
        assert column_range(Match, name)[1] >= max(MOST["games_to_win"], MOST["hollywood_columns"])
    assert column_range(Hand, "number")[1] >= MAX_HANDS
    for name in ("deadwood", "defender_deadwood"):
        assert column_range(Hand, name)[1] >= MAX_DEADWOOD


def test_the_old_limits_did_not_fit():
    """The setup form used to allow 10,000 for every bonus, target and extra box."""
    old = {name: (low, 10_000) for name, (low, _high) in KNOB_RANGES.items()}
    old.update(knock_limit=(0, 10), games_to_win=(1, 10), hollywood_columns=(1, 10))
    assert largest_match_total(old) > INT_MAX


# The worst case played: Hollywood with the most columns, a shutout doubling each
# column's total and the last column doubled again, aces at 15, spades doubling points
# and boxes, every bonus and extra at its most
# except the gin bonus (0, so that gins earn boxes without closing a column), and the
# most hands. A wins every hand: ten gins worth nothing enter A in every column, gins
# against 1 deadwood bring every column to 4998, more gins against nothing fill the
# match up to its last hand, a big gin against 110 (1220 points) closes all ten at once
# (column 10, the highest-numbered of those closed last, counts double).
WORST_RULES = {
    "format": "hollywood",
    "hollywood_columns": MOST["hollywood_columns"],
    "game_target": MOST["game_target"],
    "gin_bonus": 0,
    "big_gin_bonus": MOST["big_gin_bonus"],
    "game_bonus": MOST["game_bonus"],
    "box_bonus": MOST["box_bonus"],
    "gin_extra_boxes": MOST["gin_extra_boxes"],
    "shutout": "double_total",
    "spade_double": True,
    "spade_double_boxes": True,
    "ace_value": MOST["ace_value"],
    "hollywood_last_doubled": True,
}


def worst_hands() -> list[HandData]:
    columns, target = MOST["hollywood_columns"], MOST["game_target"]
    nothing = HandData("gin", "A", None, 0, "AS")
    two = HandData("gin", "A", None, 1, "AS")  # 1 deadwood, doubled
    steps = (target - 1) // 2
    filler = MAX_HANDS - 1 - columns - steps
    last = HandData("big_gin", "A", None, MAX_DEADWOOD, "AS")
    return [nothing] * columns + [two] * steps + [nothing] * filler + [last]


def worst_total() -> int:
    """The worst case's total, column by column: column c holds hands c to the last."""
    columns = MOST["hollywood_columns"]
    points = 2 * ((MOST["game_target"] - 1) // 2) + largest_hand()[0]
    box_points = largest_hand()[1] * MOST["box_bonus"]
    return sum(
        2
        * (points + box_points * (MAX_HANDS - column + 1) + MOST["game_bonus"])
        * (2 if column == columns else 1)
        for column in range(1, columns + 1)
    )


@pytest.mark.django_db
def test_the_worst_match_is_played_stored_exported_and_imported():
    tournament = make_tournament(preset="oklahoma", rules=WORST_RULES)
    a, b = make_entries(tournament=tournament, count=2)
    match = make_match(tournament=tournament, key="W1-1", a=a, b=b, table=1)
    *first, last = worst_hands()
    assert len(first) + 1 == MAX_HANDS
    Hand.objects.bulk_create(
        [
            Hand(
                match=match,
                number=number,
                kind=h.kind,
                by=h.by,
                defender_deadwood=h.defender_deadwood,
                knock_card=h.knock_card,
            )
            for number, h in enumerate(first, start=1)
        ],
        batch_size=1000,
    )
    sheet = record_hand(match=match, number=MAX_HANDS, data=last, user=tournament.owner)
    assert sheet.match.complete and sheet.match.winner == "A"
    assert sheet.match.total.a == worst_total() == 1_319_499_796
    assert worst_total() <= largest_match_total() < INT_MAX
    confirm_result(match=match, user=tournament.owner)

    match.refresh_from_db()
    assert (match.status, match.winner_side, match.score_a) == ("complete", "A", 10)
    assert (match.total_a, match.total_b) == (worst_total(), 0)
    assert verify(tournament) == (1, [])

    # The tournament's own archive imports (it used to be refused for a total too large).
    document = json.loads(archive.dumps(archive.export_tournament(tournament)))
    report = archive.import_archive(document, slug="worst-again")
    assert report.hands == MAX_HANDS
    copy = Match.objects.get(tournament=report.tournament)
    assert (copy.total_a, copy.winner_side) == (worst_total(), "A")
    assert verify(report.tournament) == (1, [])


def test_the_largest_team_match_fits():
    """The worst partnership match played in the engine (no team rows are stored yet):
    teams of four, every board a spade-doubled big gin against 110 for A (1220 each) with
    a sweep of 500, Hollywood with ten columns to 5000 and every bonus at its most. Each
    deal scores 4 × 1220 + 500 = 5380 and closes the columns A has entered; the total stays
    within the worked-out bound."""
    rules = resolve_rules(
        {
            "preset": "tedesco",
            **{k: v for k, v in WORST_RULES.items() if k != "gin_bonus"},
            "team_size": MOST["team_size"],
            "sweep_bonus": MOST["sweep_bonus"],
            "undercut_extra_boxes": MOST["undercut_extra_boxes"],
        }
    )
    big = HandInput(HandKind.BIG_GIN, Side.A, None, MAX_DEADWOOD, Card.parse("AS"))
    deals = [[BoardInput(big)] * 4] * MOST["hollywood_columns"]
    sheet = score_team_match(rules, deals)
    assert sheet.complete and sheet.match.winner is Side.A
    assert all(d.score.points == 5380 for d in sheet.deals)
    assert 0 < sheet.match.total.a <= largest_match_total() < INT_MAX
