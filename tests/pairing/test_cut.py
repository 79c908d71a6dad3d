"""The cut, pure: pools dealt snake-wise and the qualifiers' seed order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing.brackets import single_elimination
from pairing.cut import qualifiers, snake_pools


@pytest.mark.parametrize(
    ("players", "size", "pools"),
    [
        pytest.param(8, 4, [[1, 4, 5, 8], [2, 3, 6, 7]], id="8-in-pools-of-4"),
        pytest.param(7, 4, [[1, 4, 5], [2, 3, 6, 7]], id="uneven"),
        pytest.param(24, 6, None, id="24-in-pools-of-6"),
    ],
)
def test_snake_pools(players, size, pools):
    dealt = snake_pools(list(range(1, players + 1)), size)
    if pools is not None:
        assert dealt == pools
    assert sorted(p for pool in dealt for p in pool) == list(range(1, players + 1))
    assert max(map(len, dealt)) - min(map(len, dealt)) <= 1


def test_pools_too_small_are_refused():
    with pytest.raises(ValueError):
        snake_pools([1, 2, 3], 2)  # a pool of one
    with pytest.raises(ValueError):
        snake_pools([1, 2, 3, 4], 1)


@given(pools=st.integers(2, 8), k=st.integers(1, 3))
def test_pool_winners_apart_and_runners_up_never_meet_their_winner_first(pools, k):
    tables = [[100 * p + place for place in range(4)] for p in range(pools)]
    seeded = qualifiers(tables, k)
    assert seeded[:pools] == [table[0] for table in tables]
    assert len(seeded) == pools * k
    if k < 2 or pools % 2:
        return
    bracket = single_elimination(len(seeded))
    pool_of = {player: player // 100 for player in seeded}
    for match in bracket.rounds(bracket.matches[0].section)[0]:
        if match.a.seed is not None and match.b.seed is not None:
            a, b = seeded[match.a.seed - 1], seeded[match.b.seed - 1]
            assert pool_of[a] != pool_of[b]


def test_top_k_of_one_table():
    assert qualifiers([[5, 3, 9, 1]], 2) == [5, 3]
    with pytest.raises(ValueError):
        qualifiers([[1, 2]], 3)
