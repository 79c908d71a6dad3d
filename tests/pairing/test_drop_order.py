"""The losers'-bracket drop order: rematches as late as brackets-manager.js's default or later.

Pure tests: no database, no Django. The comparison plays both brackets with the same
coin tosses (see :mod:`tests.tournaments.rematches`, which also writes the peer's
default from its source); ``make bench`` runs the same sweep with more result sets.
"""

from __future__ import annotations

import ast
import math
import sys
from pathlib import Path

import pytest

from pairing import drop_order
from pairing.brackets import double_elimination, standard_order
from pairing.drop_order import _default_orders, drop_orders, rematch_risk
from tests.tournaments.rematches import Count, ours, peer, play, sweep, table_lines

SIZES = range(3, 65)
RESULT_SETS = 200


def round_one_byes(players: int) -> list[bool]:
    size = 1 << (players - 1).bit_length()
    order = standard_order(size)
    return [max(order[2 * j], order[2 * j + 1]) > players for j in range(size // 2)]


def test_no_more_rematches_than_the_peer_default_at_any_size() -> None:
    table = sweep(SIZES, RESULT_SETS)
    print("\n" + "\n".join(table_lines(table, RESULT_SETS)))
    for size, (mine, theirs) in table.items():
        assert mine.early <= theirs.early, size
        assert mine.immediate <= theirs.immediate, size
    # where the byes allow (10, 33–47) and from 33 lines up, clearly fewer
    for size in (10, 33, 40, 47, 48, 64):
        mine, theirs = table[size]
        assert mine.early < theirs.early * 0.8, size
        assert mine.immediate < theirs.immediate * 0.5, size


@pytest.mark.parametrize("players", [10, 24, 40, 64], ids=lambda n: f"n{n}")
def test_the_exact_expectation_agrees_with_simulation(players: int) -> None:
    byes = round_one_byes(players)
    early, immediate = rematch_risk(byes, drop_orders(byes))
    count = Count()
    bracket, losers = double_elimination(players), ours(players)
    result_sets = 1000
    for result_set in range(result_sets):
        play(bracket, losers, 7919 * result_set + players, count)
    for exact, seen in ((early, count.early), (immediate, count.immediate)):
        mean = float(exact) * result_sets
        assert abs(seen - mean) <= 5 * math.sqrt(mean) + 3, (players, seen, mean)


@pytest.mark.parametrize("players", SIZES, ids=lambda n: f"n{n}")
def test_drop_orders_never_expect_more_than_the_default(players: int) -> None:
    byes = round_one_byes(players)
    orders = drop_orders(byes)
    assert [sorted(order) for order in orders] == [list(range(len(o))) for o in orders]
    early, immediate = rematch_risk(byes, orders)
    default_early, default_immediate = rematch_risk(byes, _default_orders(2 * len(byes)))
    assert early <= default_early and immediate <= default_immediate


def test_the_peer_and_we_agree_on_losers_round_one() -> None:
    def round_one(side: object) -> bool:
        return side is None or (isinstance(side, tuple) and str(side[1]).startswith("W1-"))

    for players in SIZES:
        mine, theirs = ours(players).matches, peer(players).matches
        first = [m for m in theirs if all(round_one(side) for side in m)]
        assert mine[: len(first)] == tuple(first), players


def test_large_fields_keep_the_default_orders() -> None:
    byes = round_one_byes(1000)
    assert drop_orders(byes) == _default_orders(1024)
    assert drop_orders(byes)[0] == tuple(reversed(range(256)))


def test_the_drop_order_module_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(drop_order.__file__).read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0
            imported.add(str(node.module).split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
