"""Whole events played through the pages from seeded random results, every invariant
checked after every round (:mod:`tests.events.scenarios`, :mod:`tests.events.invariants`)."""

from __future__ import annotations

import pytest

from . import scenarios

pytestmark = pytest.mark.django_db

# Issue 28's seams, fixed on other branches: on this branch's main (1d612d1) a staged event
# loses its non-qualifiers after the cut (Find me, their page, standings.json/csv/PDF, the
# projector, the club pages, the prizes), a qualifier's page sums one stage over a list of
# all, verify_tournament refuses a match decided on time, and there is no director's ruling
# on a level match. Played against main at b648967 (those fixes merged), the pools and the
# browser event pass; the Swiss events still show two problems: verify_tournament's
# "decision basis game_points: stored none, computed [0, 0]" for a level match ruled with
# no hands played (scoring/timing.py NO_SCORE), and the finalists' club pages counting
# fewer hands won than the standings (club/players.py scores a staged match with the
# tournament's rules, so a longer final's hands do not score there). Strict: a test that
# passes fails, and its marker must go.
SEAMS = pytest.mark.xfail(
    strict=True,
    reason="issue 28 seams: staged events after the cut, time decisions, level rulings",
)


def with_seeds(*default: int):
    def mark(test):
        test.seeds = default
        return test

    return mark


@SEAMS
@with_seeds(1)
@pytest.mark.parametrize("players", [7, 12])
def test_swiss_then_cut(director_client, tmp_path, players, seed):
    scenarios.swiss_then_cut(director_client, tmp_path, players=players, seed=seed)


@SEAMS
@with_seeds(1)
def test_swiss_of_33_then_cut(director_client, tmp_path, seed):
    scenarios.swiss_then_cut(director_client, tmp_path, players=33, seed=seed)


@SEAMS
@with_seeds(1)
def test_pools_then_cut(director_client, tmp_path, seed):
    scenarios.pools_then_cut(director_client, tmp_path, seed=seed)


@with_seeds(1)
def test_double_elimination_of_13(director_client, tmp_path, seed):
    scenarios.one_bracket(
        director_client, tmp_path, kind="double_elimination", players=13, seed=seed
    )


@with_seeds(1, 2)
def test_round_robin_of_6(director_client, tmp_path, seed):
    scenarios.one_bracket(director_client, tmp_path, kind="round_robin", players=6, seed=seed)


@with_seeds(1)
def test_team_night(director_client, tmp_path, seed):
    scenarios.team_night(director_client, tmp_path, seed=seed)


@with_seeds(1)
def test_club_night_with_money_and_a_side_pot(director_client, tmp_path, seed):
    scenarios.club_night(director_client, tmp_path, seed=seed)
