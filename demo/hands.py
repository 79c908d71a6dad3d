"""Plausible hands for demos, benchmarks and load tests (seeded, so reproducible), as
forms and archives give them: :class:`scoring.loading.HandData`. They are drawn by
:mod:`demo.random_hands`, the pure generator.

Nothing here is used when real players enter hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import HandInput, RuleSet
from scoring.loading import HandData

from . import random_hands


def as_data(hand: HandInput) -> HandData:
    """A drawn hand as a form would send it."""
    return HandData(
        hand.kind.value,
        hand.by.value if hand.by else "",
        hand.deadwood,
        hand.defender_deadwood,
        str(hand.knock_card) if hand.knock_card else "",
    )


def random_hand(rng: random.Random, rules: RuleSet, strength: float) -> HandData:
    """One plausible hand under ``rules`` (:func:`demo.random_hands.random_hand`); a team
    deal's boards (:func:`demo.teams.team_deals`) are drawn with it."""
    return as_data(random_hands.random_hand(rng, rules, strength))


def match_hands(
    rules: RuleSet, *, seed: int, strength: float = 0.55, limit: int | None = None
) -> Iterator[HandData]:
    """Hands of one whole match (or its first ``limit`` hands), ending when it is decided."""
    for hand in random_hands.match_inputs(rules, seed=seed, strength=strength, limit=limit):
        yield as_data(hand)
