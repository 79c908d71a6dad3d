"""Plausible hands for demos, benchmarks and load tests (seeded, so reproducible).

Nothing here is used when real players enter hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import Card, MatchState, RuleSet, Side
from engine.hands import knock_limit
from scoring.loading import HandData

SUITS = "SHDC"
RANKS = "A23456789TJQK"


def random_hand(rng: random.Random, rules: RuleSet, strength: float) -> HandData:
    """One plausible hand under ``rules``; ``strength`` (0..1) is how often side A is the
    one going out. A match's hands (:func:`match_hands`) and a team deal's boards
    (:func:`demo.teams.team_deals`) are drawn with it."""
    by = "A" if rng.random() < strength else "B"
    card = Card(rng.choice(RANKS), rng.choice(SUITS)) if rules.oklahoma else None
    card_text = str(card) if card else ""
    roll = rng.random()
    if roll < 0.04:
        return HandData("draw")
    limit = knock_limit(rules, card)
    if roll < 0.22 or limit == 0:
        kind = "big_gin" if rules.big_gin_bonus is not None and rng.random() < 0.08 else "gin"
        return HandData(kind, by, None, rng.randint(8, 55), card_text)
    deadwood = rng.randint(1, limit)
    if rng.random() < 0.12:
        defender = rng.randint(max(0, deadwood - 6), deadwood)  # an undercut (or a tie)
    else:
        defender = rng.randint(deadwood + 1, deadwood + 45)
    return HandData("knock", by, deadwood, min(defender, 98), card_text)


def match_hands(
    rules: RuleSet, *, seed: int, strength: float = 0.55, limit: int | None = None
) -> Iterator[HandData]:
    """Hands of one whole match (or its first ``limit`` hands), ending when it is decided."""
    rng = random.Random(seed)
    state = MatchState.start(rules, Side.A)
    count = 0
    while not state.complete and (limit is None or count < limit):
        hand = random_hand(rng, rules, strength)
        state = state.apply(hand.to_input())
        count += 1
        yield hand
