"""Pairing figures for ``make bench``: no database, pure modules only.

- **Swiss**: a field of N players (1,024 by default) plays 8 rounds with seeded random
  results through :func:`pairing.swiss.pair_round`; then round 9 is paired several
  times and the median CPU time taken. The issue's budget is absolute: under one second.
- **Losers'-bracket rematches**: double eliminations of 3 to 64 players, each played with
  the same random results by our drop order and by brackets-manager.js's default
  (:mod:`tests.tournaments.rematches`): early rematches (before the losers' final) and
  immediate ones (a player's first losers' match), ours at or below the peer's at every
  size.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from pairing.swiss import SwissPlayer, pair_round
from tests.tournaments.rematches import sweep, table_lines

SWISS_BUDGET_SECONDS = 1.0
REMATCH_SIZES = range(3, 65)


def swiss_field(players: int, rounds_played: int, seed: int = 2026) -> list[SwissPlayer]:
    """The field after ``rounds_played`` rounds of random results, ready for the next."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(1, players + 1), 0)
    met: dict[int, set[int]] = {p: set() for p in score}
    had_bye: set[int] = set()

    def field() -> list[SwissPlayer]:
        standings = sorted(score, key=lambda p: (-score[p], p))
        return [
            SwissPlayer(p, score[p], rank, frozenset(met[p]), p in had_bye)
            for rank, p in enumerate(standings, start=1)
        ]

    for number in range(1, rounds_played + 1):
        for a, b in pair_round(field(), seed=number).pairs:
            if b is None:
                had_bye.add(a)
                score[a] += 1
                continue
            met[a].add(b)
            met[b].add(a)
            score[rng.choice((a, b))] += 1
    return field()


def measure_swiss(players: int = 1024, round_number: int = 9, samples: int = 5) -> dict[str, Any]:
    field = swiss_field(players, round_number - 1)
    cpu: list[float] = []
    wall: list[float] = []
    result = None
    for _ in range(samples):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        result = pair_round(field, seed=round_number)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    assert result is not None
    seconds = statistics.median(cpu)
    return {
        "players": players,
        "round": round_number,
        "samples": samples,
        "median_cpu_s": round(seconds, 4),
        "median_wall_s": round(statistics.median(wall), 4),
        "method": result.method,
        "deviation": result.deviation,
        "rematches": len(result.rematches),
        "budget_s": SWISS_BUDGET_SECONDS,
        "pass": seconds < SWISS_BUDGET_SECONDS,
    }


def measure_rematches(result_sets: int = 1000) -> dict[str, Any]:
    table = sweep(REMATCH_SIZES, result_sets)
    sizes = {
        str(size): {
            "ours": {"early": mine.early, "immediate": mine.immediate},
            "peer": {"early": theirs.early, "immediate": theirs.immediate},
        }
        for size, (mine, theirs) in table.items()
    }
    worse = [
        size
        for size, (mine, theirs) in table.items()
        if mine.early > theirs.early or mine.immediate > theirs.immediate
    ]
    return {
        "result_sets": result_sets,
        "sizes": sizes,
        "worse_than_peer": worse,
        "pass": not worse,
        "lines": table_lines(table, result_sets),
    }
