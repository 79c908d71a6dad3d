"""The club rating's pure replay, against openskill's own published examples."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from club.rating import MODEL, SCALE, START_MU, START_SIGMA, Played, replay, shown, spread


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9)


def test_the_readme_example_of_openskill():
    """openskill.py's README: four new players, two against two; the winners gain what
    the losers lose, with the same uncertainty."""
    model = PlackettLuce()
    r = model.rating
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert a == b and x == y


def test_the_test_suites_normal_case():
    """openskill.py's tests/models/data/plackettluce.json, "normal": a model with mu
    20.35125162611535 and sigma 8.33148112355601, one player beating a team of two."""
    model = PlackettLuce(mu=20.35125162611535, sigma=8.33148112355601)
    [[one], [two, three]] = model.rate([[model.rating()], [model.rating(), model.rating()]])
    assert close(one.mu, 23.855123082692877) and close(one.sigma, 8.22447878583752)
    for player in (two, three):
        assert close(player.mu, 16.84738016953782) and close(player.sigma, 8.179571171464575)


@pytest.mark.parametrize("a_won", [True, False], ids=["A wins", "B wins"])
def test_the_club_scale_is_the_default_model_times_sixty(a_won):
    default = PlackettLuce()
    winner, loser = default.rate([[default.rating()], [default.rating()]])
    step_a, step_b = replay([Played(1, 10, 20, a_won)])
    won, lost = (step_a, step_b) if a_won else (step_b, step_a)
    assert close(won.mu_after, winner[0].mu * SCALE)
    assert close(won.sigma_after, winner[0].sigma * SCALE)
    assert close(lost.mu_after, loser[0].mu * SCALE)
    assert (won.won, lost.won) == (True, False)
    assert (won.mu_before, won.sigma_before) == (START_MU, START_SIGMA)


def test_a_replay_carries_each_rating_forward_in_order():
    steps = list(replay([Played(1, 1, 2, True), Played(2, 1, 3, False)]))
    assert [(s.match_id, s.sequence, s.player) for s in steps] == [
        (1, 1, 1),
        (1, 1, 2),
        (2, 2, 1),
        (2, 2, 3),
    ]
    assert steps[2].mu_before == steps[0].mu_after
    assert steps[2].sigma_before == steps[0].sigma_after
    assert steps[3].mu_before == START_MU  # new player
    assert steps[2].mu_after < steps[2].mu_before  # player 1 lost the second match


def test_ratings_depend_on_the_order_played():
    """Player 3 loses to player 2: after 2 lost to 1 (a weaker 2), or before (a new 2)."""
    forward = list(replay([Played(1, 1, 2, True), Played(2, 2, 3, True)]))
    backward = list(replay([Played(2, 2, 3, True), Played(1, 1, 2, True)]))
    three = next(s for s in forward if s.player == 3)
    three_first = next(s for s in backward if s.player == 3)
    assert three.mu_after < three_first.mu_after  # losing to a weaker player costs more


def test_what_people_read():
    assert (shown(1657.6), spread(241.26)) == (1658, 483)


def test_the_model_is_the_librarys_plackett_luce():
    assert isinstance(MODEL, PlackettLuce)


@pytest.mark.parametrize(
    "module", ["club/rating", "club/seasons", "money/money", "club/chart", "club/csv_text"]
)
def test_the_pure_club_modules_import_no_django(module):
    import ast
    from pathlib import Path

    source = Path(__file__).resolve().parents[2] / f"{module}.py"
    names = set()
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    assert not {
        n for n in names if n.split(".")[0] in {"django", "tournaments", "scoring", "public"}
    }


def test_a_rating_is_provisional_until_its_uncertainty_has_fallen_by_a_third():
    """Provisional (as chess servers mark a rating with "?") while sigma is above two
    thirds of a new player's: after a night or two, not after about twenty matches."""
    from club.rating import PROVISIONAL_SIGMA, provisional

    assert pytest.approx(START_SIGMA * 2 / 3) == PROVISIONAL_SIGMA
    assert provisional(START_SIGMA)
    assert provisional(PROVISIONAL_SIGMA + 0.01)
    assert not provisional(PROVISIONAL_SIGMA)
    # Player 1 meets a new player every time (the slowest case: nobody is known yet).
    steps = replay(Played(n, 1, 2 + n, n % 2 == 0) for n in range(20))
    mine = [step.sigma_after for step in steps if step.player == 1]
    assert all(provisional(sigma) for sigma in mine[:8])  # two club nights
    assert not provisional(mine[19])
