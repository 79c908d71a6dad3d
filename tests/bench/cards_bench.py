"""``make bench``'s card counts: µs per hand for the optimal melds and for the lay-offs
(:mod:`engine.cards`), pure Python with no database.

Two kinds of hands, seeded: **dealt** (ten cards each off a shuffled deck: few melds) and
**melded** (each hand built around one to three melds, as hands are when someone knocks).
Each figure is the median, over ``repeats`` passes, of one pass's CPU time divided by its
hands; the engine's per-hand memo caches are emptied before each pass and every hand of a
pass is a different one, so each is worked out, not looked up (a memo hit is reported too,
for information).

- **melds**: the least deadwood of one hand (:func:`melds.deadwood` without its memo). The
  anchor is RLCard's deadwood routine, about 18 µs per hand on these machines: budget
  ≤ 18 µs for dealt and for melded hands;
- **lay-offs**: on a knock, the knocker's optimal arrangements (:func:`melds.arrangements`)
  and the defender's best melds and lay-offs against each (:func:`melds.defend`), without
  their memos. Budget ≤ 54 µs (3 × the anchor: one search of each hand, and one of the
  defender's per arrangement). The whole ruling as pages show it (:func:`cards.rule`: the
  knocker's choice, the cards named) is reported beside it, for information.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine import cards, melds

MELDS_BUDGET_US = 18.0
LAYOFFS_BUDGET_US = 54.0
RUN_MASKS = melds.candidate_melds((1 << 52) - 1)


def melded(rng: random.Random, taken: int) -> int:
    """A hand (mask) built around one to three melds, avoiding the cards in ``taken``."""
    while True:
        mask = 0
        for _ in range(rng.choice((1, 2, 3))):
            meld = rng.choice(RUN_MASKS)
            if meld.bit_count() <= 5 and not meld & (mask | taken):
                mask |= meld
        if mask.bit_count() > 10:
            continue
        rest = [i for i in range(52) if not (mask | taken) >> i & 1]
        for i in rng.sample(rest, 10 - mask.bit_count()):
            mask |= 1 << i
        return mask


def deals(kind: str, count: int, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(f"{kind}-{seed}")
    found = []
    for _ in range(count):
        if kind == "dealt":
            deck = rng.sample(range(52), 20)
            knocker = sum(1 << i for i in deck[:10])
            defender = sum(1 << i for i in deck[10:])
        else:
            knocker = melded(rng, 0)
            defender = melded(rng, knocker)
        found.append((knocker, defender))
    return found


def hand_cards(knocker: int, defender: int) -> cards.HandCards:
    return cards.HandCards(cards.cards_of(knocker), cards.cards_of(defender))


def per_hand_us(
    work: Callable[[Any], object], items: Sequence[Any], repeats: int
) -> dict[str, Any]:
    """Median CPU µs per item over ``repeats`` passes, memo caches emptied before each."""
    passes = []
    for _ in range(repeats):
        for cached in (melds.deadwood, melds.arrangements, melds.defend, cards.rule):
            cached.cache_clear()
        start = time.process_time()
        for item in items:
            work(item)
        passes.append((time.process_time() - start) / len(items) * 1e6)
    return {
        "hands": len(items),
        "repeats": repeats,
        "us_per_hand": round(statistics.median(passes), 2),
    }


def run(*, hands: int = 2000, repeats: int = 5, seed: int = 18) -> dict[str, Any]:
    uncached_deadwood = melds.deadwood.__wrapped__
    uncached_rule = cards.rule.__wrapped__
    report: dict[str, Any] = {"anchor_us": 18.0, "melds": {}, "layoffs": {}}
    knocks: list[cards.HandCards] = []
    for kind in ("dealt", "melded"):
        dealt = deals(kind, hands, seed)
        report["melds"][kind] = per_hand_us(
            uncached_deadwood, [k for k, _ in dealt] + [d for _, d in dealt], repeats
        )
        if kind == "melded":
            # Knocks only: gin takes no lay-offs, and 10 cards never fail as 11 would.
            knocks = [hand_cards(k, d) for k, d in dealt if 0 < melds.deadwood(k) <= 98]
    arrange, defend = melds.arrangements.__wrapped__, melds.defend.__wrapped__

    def lay_offs(hand: tuple[int, int]) -> None:
        for option in arrange(hand[0])[1]:
            defend(option, hand[1])

    masks = [(cards.mask_of(h.knocker), cards.mask_of(h.defender)) for h in knocks]
    report["layoffs"]["melded"] = per_hand_us(lay_offs, masks, repeats)
    report["layoffs"]["ruling"] = per_hand_us(uncached_rule, knocks, repeats)
    for hand in knocks:
        cards.rule(hand)
    start = time.process_time()
    for hand in knocks:
        cards.rule(hand)
    report["layoffs"]["memo_hit_us"] = round((time.process_time() - start) / len(knocks) * 1e6, 3)
    slowest = max(report["melds"][kind]["us_per_hand"] for kind in ("dealt", "melded"))
    layoffs = report["layoffs"]["melded"]["us_per_hand"]
    report["checks"] = [
        {
            "name": "optimal melds, µs per hand (dealt / melded; RLCard ≈ 18)",
            "value": " / ".join(
                str(report["melds"][kind]["us_per_hand"]) for kind in ("dealt", "melded")
            ),
            "budget": f"≤ {MELDS_BUDGET_US:g}",
            "pass": slowest <= MELDS_BUDGET_US,
        },
        {
            "name": "lay-offs, µs per hand (melded knocks)",
            "value": layoffs,
            "budget": f"≤ {LAYOFFS_BUDGET_US:g}",
            "pass": layoffs <= LAYOFFS_BUDGET_US,
        },
    ]
    return report


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1, ensure_ascii=False))
