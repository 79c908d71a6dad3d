"""The club rating, pure: OpenSkill's Plackett-Luce model over matches in the order played.

Plain data in (who played whom and who won, in order), plain data out (each player's mean
and uncertainty before and after each match). No Django: :mod:`club.ratings` loads the
matches and stores what this returns.

Scale: OpenSkill's default (mean 25, uncertainty 25/3) times 60, so a new player starts at
1500 ± 500, numbers a club reads like the Elo-style ratings it knows. Every parameter is
scaled by the same factor (beta, tau), so the model is the library's default one: ratings
divided by 60 are exactly what ``PlackettLuce()`` gives (a test holds this).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from openskill.models import PlackettLuce

SCALE = 60.0
START_MU = 25.0 * SCALE
START_SIGMA = 25.0 / 3.0 * SCALE

# A rating is *provisional* (shown "1712?") while its uncertainty is above two thirds of a
# new player's (sigma over 333, "± 667" shown), as chess servers mark a rating until its
# deviation is small (lichess: Glicko RD over 110, a new player starting at 500). The
# fraction is chosen so that it takes as many matches as there: about ten against settled
# players, about twenty in a club where everyone is new (tests/club/test_rating.py).
PROVISIONAL_SIGMA = START_SIGMA * 2 / 3

MODEL = PlackettLuce(
    mu=START_MU,
    sigma=START_SIGMA,
    beta=25.0 / 6.0 * SCALE,
    tau=25.0 / 300.0 * SCALE,
)


@dataclass(frozen=True, slots=True)
class Played:
    """A rated match: two players, the winner first or not."""

    match_id: int
    player_a: int
    player_b: int
    a_won: bool


@dataclass(frozen=True, slots=True)
class Step:
    """One player's rating around one match."""

    match_id: int
    sequence: int
    player: int
    opponent: int
    won: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def replay(matches: Iterable[Played]) -> Iterator[Step]:
    """Rate ``matches`` in the order given, every player starting new: two steps a match
    (A's, then B's)."""
    ratings: dict[int, tuple[float, float]] = {}
    rating = MODEL.rating
    rate = MODEL.rate
    for sequence, played in enumerate(matches, start=1):
        a = ratings.get(played.player_a, (START_MU, START_SIGMA))
        b = ratings.get(played.player_b, (START_MU, START_SIGMA))
        first, second = (a, b) if played.a_won else (b, a)
        [[won], [lost]] = rate(
            [[rating(mu=first[0], sigma=first[1])], [rating(mu=second[0], sigma=second[1])]]
        )
        after_a, after_b = (won, lost) if played.a_won else (lost, won)
        ratings[played.player_a] = (after_a.mu, after_a.sigma)
        ratings[played.player_b] = (after_b.mu, after_b.sigma)
        yield Step(
            played.match_id,
            sequence,
            played.player_a,
            played.player_b,
            played.a_won,
            a[0],
            a[1],
            after_a.mu,
            after_a.sigma,
        )
        yield Step(
            played.match_id,
            sequence,
            played.player_b,
            played.player_a,
            not played.a_won,
            b[0],
            b[1],
            after_b.mu,
            after_b.sigma,
        )


def shown(mu: float) -> int:
    """The rating as people read it: a whole number."""
    return round(mu)


def provisional(sigma: float) -> bool:
    """Whether a rating with this uncertainty is still provisional (:data:`PROVISIONAL_SIGMA`)."""
    return sigma > PROVISIONAL_SIGMA


def spread(sigma: float) -> int:
    """The uncertainty shown next to it: two standard deviations (about 95 %)."""
    return round(2 * sigma)
