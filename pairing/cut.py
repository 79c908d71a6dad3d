"""From one stage to the next: pools dealt snake-wise and the qualifiers' seed order.

Pure Python, standard library only. Players are ids; standings come in as lists of ids
already in standing order (:mod:`pairing.tiebreaks` makes them).

* :func:`snake_pools` deals a field in seed order into pools of ``size`` snake-wise
  (1 2 3 4 / 8 7 6 5 / 9 10 …), so every pool gets an even share of the strong seeds.
* :func:`qualifiers` takes the top ``k`` of one standings list (a Swiss stage, or any
  stage ranked as one field), or the top ``k`` of each pool, and returns them in the
  seed order of the next stage's bracket. Seeded into a standard bracket
  (:func:`pairing.brackets.single_elimination`), the top qualifiers get the byes when
  the number is not a power of two, and the pool winners, seeded 1 … P, are kept apart
  (the top four in different quarters). A pool's runner-up does not meet its own pool's
  winner in the first round: the runner-up of the pool of the i-th best winner takes
  seed ``P + i``, which in a full bracket of ``2P`` meets the winner seeded
  ``P + 1 - i``, from another pool (except the middle pool of an odd number of pools).

What this module does not do: know about Django, compute standings, or make matches.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["qualifiers", "snake_pools"]


def snake_pools(players: Sequence[int], size: int) -> list[list[int]]:
    """``players`` (seed order) dealt snake-wise into ``ceil(n / size)`` pools.

    Pools differ in size by at most one; every pool has at least two players.
    """
    if size < 2:
        raise ValueError(f"a pool needs at least two players, not {size}")
    count = -(-len(players) // size)
    if count < 1 or len(players) < 2:
        raise ValueError("pools need at least two players")
    pools: list[list[int]] = [[] for _ in range(count)]
    for index, player in enumerate(players):
        lap, offset = divmod(index, count)
        pools[offset if lap % 2 == 0 else count - 1 - offset].append(player)
    if min(len(pool) for pool in pools) < 2:
        raise ValueError(f"{len(players)} players do not make pools of {size}")
    return pools


def qualifiers(standings: Sequence[Sequence[int]], k: int) -> list[int]:
    """The top ``k`` of each standings list, in the next stage's seed order.

    One list: simply its top ``k``. Several (pools): every pool's first, ordered as
    the pools are given (the caller orders pools by their winners' standing), then
    every pool's second in the same order, and so on.
    """
    if k < 1:
        raise ValueError(f"at least one player must advance, not {k}")
    if any(len(pool) < k for pool in standings):
        raise ValueError(f"a pool has fewer than {k} players")
    if len(standings) == 1:
        return list(standings[0][:k])
    return [pool[place] for place in range(k) for pool in standings]
