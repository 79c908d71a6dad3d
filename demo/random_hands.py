"""Plausible hands drawn at random, as the engine's input: pure Python, no Django.

The demo, the benchmarks, the load tests and the estimate's simulated club nights
(``tools/estimate_sim.py``) all draw their hands here, so a seed gives the same hands
everywhere; :mod:`demo.hands` hands them to forms as :class:`scoring.loading.HandData`.
Nothing here is used when real players enter hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import Card, HandInput, HandKind, MatchState, RuleSet, Side
from engine.hands import knock_limit

SUITS = "SHDC"
RANKS = "A23456789TJQK"


def random_hand(rng: random.Random, rules: RuleSet, strength: float) -> HandInput:
    """One plausible hand under ``rules``; ``strength`` (0..1) is how often side A is the
    one going out."""
    by = Side.A if rng.random() < strength else Side.B
    card = Card(rng.choice(RANKS), rng.choice(SUITS)) if rules.oklahoma else None
    roll = rng.random()
    if roll < 0.04:
        return HandInput(HandKind.DRAW)
    limit = knock_limit(rules, card)
    if roll < 0.22 or limit == 0:
        big = rules.big_gin_bonus is not None and rng.random() < 0.08
        kind = HandKind.BIG_GIN if big else HandKind.GIN
        return HandInput(kind, by, None, rng.randint(8, 55), card)
    deadwood = rng.randint(1, limit)
    if rng.random() < 0.12:
        defender = rng.randint(max(0, deadwood - 6), deadwood)  # an undercut (or a tie)
    else:
        defender = rng.randint(deadwood + 1, deadwood + 45)
    return HandInput(HandKind.KNOCK, by, deadwood, min(defender, 98), card)


def match_inputs(
    rules: RuleSet, *, seed: int, strength: float = 0.55, limit: int | None = None
) -> Iterator[HandInput]:
    """Hands of one whole match (or its first ``limit`` hands), ending when it is decided."""
    rng = random.Random(seed)
    state = MatchState.start(rules, Side.A)
    count = 0
    while not state.complete and (limit is None or count < limit):
        hand = random_hand(rng, rules, strength)
        state = state.apply(hand)
        count += 1
        yield hand
