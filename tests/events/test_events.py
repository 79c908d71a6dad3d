"""Whole events played through the pages from seeded random results, every invariant
checked after every round (:mod:`tests.events.scenarios`, :mod:`tests.events.invariants`)."""

from __future__ import annotations

import pytest

from . import scenarios

pytestmark = pytest.mark.django_db


def with_seeds(*default: int):
    def mark(test):
        test.seeds = default
        return test

    return mark


@with_seeds(1)
@pytest.mark.parametrize("players", [7, 12])
def test_swiss_then_cut(director_client, tmp_path, players, seed):
    scenarios.swiss_then_cut(director_client, tmp_path, players=players, seed=seed)


@with_seeds(1)
def test_swiss_of_33_then_cut(director_client, tmp_path, seed):
    scenarios.swiss_then_cut(director_client, tmp_path, players=33, seed=seed)


@with_seeds(1)
def test_swiss_then_cut_on_a_lossy_wifi(director_client, tmp_path, seed):
    """Issue 32: answers lost and resent, hands entered first from the other phone at the
    table; every hand is stored once, as the phones had it, and every invariant holds."""
    scenarios.swiss_then_cut(director_client, tmp_path, players=12, seed=seed, lossy_wifi=True)


@with_seeds(1)
def test_more_matches_than_tables(director_client, tmp_path, seed):
    """Issue 41: a queued match's link refuses hands and says where it stands in the queue."""
    scenarios.queued_swiss(director_client, tmp_path, seed=seed)


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


@with_seeds(1)
def test_players_entered_in_bulk(director_client, tmp_path, seed):
    """Issue 41: a CSV file into the tournament's entries and players ticked together."""
    scenarios.entered_in_bulk(director_client, tmp_path, seed=seed)
