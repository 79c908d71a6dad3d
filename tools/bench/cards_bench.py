"""``make bench``'s card counts: our optimal melds and lay-offs (:mod:`engine.cards`) against
RLCard's deadwood routine (:mod:`tools.bench.rlcard_anchor`), timed in turns on the same
hands, pure Python with no database.

Two kinds of hands, seeded: **dealt** (ten cards each off a shuffled deck: few melds) and
**melded** (each hand built around one to three melds, as hands are when someone knocks).
Each pass times RLCard and ours in turns, a slice of the hands at a time (RLCard, ours,
ours, RLCard … : who goes first alternates), so whatever else slows the machine during
the pass slows both sides alike; the engine's per-hand memo caches are emptied before
each pass and every hand of a pass is a different one, so each is worked out, not looked
up (a memo hit is reported too, for information). A ratio is the median over ``repeats``
passes of one pass's ratio (ours ÷ RLCard, CPU time per hand); the µs per hand (medians)
are reported beside it, for information: they move with the machine, the ratios do not.

- **melds**: the least deadwood of one hand (:func:`melds.deadwood` without its memo)
  ÷ RLCard's deadwood of the same hand: budget ≤ 1.0 for dealt and for melded hands;
- **lay-offs**: on a knock, the knocker's optimal arrangements (:func:`melds.arrangements`)
  and the defender's best melds and lay-offs against each (:func:`melds.defend`), without
  their memos, per knock ÷ RLCard per melded hand (the hands the knocks are dealt from, in
  the same pass). Budget ≤ 3.0: one search of each hand, and one of the defender's per
  arrangement. The whole ruling as pages show it (:func:`cards.rule`: the knocker's
  choice, the cards named) is reported beside it, for information.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine import cards, melds
from tools.bench import rlcard_anchor

MELDS_BUDGET = 1.0  # × RLCard's deadwood routine, per hand
LAYOFFS_BUDGET = 3.0  # × the same, per knock
SLICES = 20  # turns each side takes in a pass
SEED = 18
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


def clear_memos() -> None:
    for cached in (melds.deadwood, melds.arrangements, melds.defend, cards.rule):
        cached.cache_clear()


def per_hand_us(
    work: Callable[[Any], object], items: Sequence[Any], repeats: int
) -> dict[str, Any]:
    """Median CPU µs per item over ``repeats`` passes, memo caches emptied before each."""
    passes = []
    for _ in range(repeats):
        clear_memos()
        start = time.process_time()
        for item in items:
            work(item)
        passes.append((time.process_time() - start) / len(items) * 1e6)
    return {
        "hands": len(items),
        "repeats": repeats,
        "us_per_hand": round(statistics.median(passes), 2),
    }


Job = tuple[Callable[[Any], object], Sequence[Any]]


def in_turns(
    jobs: dict[str, Job],
    repeats: int,
    *,
    slices: int = SLICES,
    clock: Callable[[], float] = time.process_time,
) -> list[dict[str, float]]:
    """CPU µs per item of every job, pass by pass: in each of ``repeats`` passes (memo
    caches emptied first) the jobs take turns, one slice of their items each, the order
    reversed every other turn (A, B, B, A …), so that they share the machine's ups and
    downs; a pass's figure for a job is its slices' time summed over its items."""
    names = list(jobs)
    passes = []
    for _ in range(repeats):
        clear_memos()
        spent = dict.fromkeys(names, 0.0)
        for turn in range(slices):
            for name in names if turn % 2 == 0 else names[::-1]:
                work, items = jobs[name]
                part = items[turn * len(items) // slices : (turn + 1) * len(items) // slices]
                start = clock()
                for item in part:
                    work(item)
                spent[name] += clock() - start
        passes.append({name: spent[name] / len(jobs[name][1]) * 1e6 for name in names})
    return passes


def figures(passes: list[dict[str, float]], name: str, items: int) -> dict[str, Any]:
    return {
        "hands": items,
        "repeats": len(passes),
        "us_per_hand": round(statistics.median(p[name] for p in passes), 2),
    }


def ratio(passes: list[dict[str, float]], name: str, anchor: str) -> float:
    """The median over the passes of ``name`` ÷ ``anchor`` within each pass."""
    return round(statistics.median(p[name] / p[anchor] for p in passes), 3)


def anchor_hands(masks: Sequence[int]) -> list[list[rlcard_anchor.Card]]:
    return [rlcard_anchor.hand_of(mask) for mask in masks]


def run(*, hands: int = 2000, repeats: int = 5, seed: int = SEED) -> dict[str, Any]:
    uncached_deadwood = melds.deadwood.__wrapped__
    uncached_rule = cards.rule.__wrapped__
    arrange, defend = melds.arrangements.__wrapped__, melds.defend.__wrapped__

    def lay_offs(hand: tuple[int, int]) -> None:
        for option in arrange(hand[0])[1]:
            defend(option, hand[1])

    report: dict[str, Any] = {"anchor": {}, "melds": {}, "layoffs": {}}
    knocks: list[cards.HandCards] = []
    for kind in ("dealt", "melded"):
        dealt = deals(kind, hands, seed)
        masks = [k for k, _ in dealt] + [d for _, d in dealt]
        jobs: dict[str, Job] = {
            "rlcard": (rlcard_anchor.deadwood, anchor_hands(masks)),
            "melds": (uncached_deadwood, masks),
        }
        if kind == "melded":
            # Knocks only: gin takes no lay-offs, and 10 cards never fail as 11 would.
            knocks = [hand_cards(k, d) for k, d in dealt if 0 < melds.deadwood(k) <= 98]
            pairs = [(cards.mask_of(h.knocker), cards.mask_of(h.defender)) for h in knocks]
            jobs["layoffs"] = (lay_offs, pairs)
        passes = in_turns(jobs, repeats)
        report["anchor"][kind] = figures(passes, "rlcard", len(masks))
        report["melds"][kind] = figures(passes, "melds", len(masks))
        report["melds"][kind]["ratio_rlcard"] = ratio(passes, "melds", "rlcard")
        if kind == "melded":
            report["layoffs"]["melded"] = figures(passes, "layoffs", len(knocks))
            report["layoffs"]["melded"]["ratio_rlcard"] = ratio(passes, "layoffs", "rlcard")
    report["layoffs"]["ruling"] = per_hand_us(uncached_rule, knocks, repeats)
    for hand in knocks:
        cards.rule(hand)
    start = time.process_time()
    for hand in knocks:
        cards.rule(hand)
    report["layoffs"]["memo_hit_us"] = round((time.process_time() - start) / len(knocks) * 1e6, 3)
    worst = max(report["melds"][kind]["ratio_rlcard"] for kind in ("dealt", "melded"))
    layoffs = report["layoffs"]["melded"]["ratio_rlcard"]
    report["checks"] = [
        {
            "name": "optimal melds ÷ RLCard's deadwood, CPU per hand (dealt / melded)",
            "value": " / ".join(
                str(report["melds"][kind]["ratio_rlcard"]) for kind in ("dealt", "melded")
            ),
            "budget": f"≤ {MELDS_BUDGET:g}",
            "pass": worst <= MELDS_BUDGET,
        },
        {
            "name": "lay-offs per melded knock ÷ RLCard's deadwood per hand (CPU)",
            "value": layoffs,
            "budget": f"≤ {LAYOFFS_BUDGET:g}",
            "pass": layoffs <= LAYOFFS_BUDGET,
        },
    ]
    return report


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=1, ensure_ascii=False))
