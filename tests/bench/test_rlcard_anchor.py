"""The bench's anchor (:mod:`tools.bench.rlcard_anchor`) is RLCard's routine, and it counts
the deadwood our engine counts, so timing one against the other compares like with like."""

from __future__ import annotations

import random

import pytest

from engine import melds
from tools.bench import cards_bench
from tools.bench import rlcard_anchor as rlcard


def test_port_passes_rlcards_own_melding_test():
    """RLCard's ``tests/games/test_gin_rummy_game.py::test_melding``, on the port."""
    hand_text = ["9H", "AC", "TH", "3C", "3D", "7C", "QH", "3H", "8C", "8D"]
    hand_text += ["4D", "7H", "8S", "5H", "4H", "AS", "TD", "3S", "2S", "AH"]
    hand = [rlcard.card_from_text(x) for x in hand_text]

    set_melds = [
        ["3C", "3D", "3H", "3S"],
        ["8C", "8D", "8S"],
        ["AC", "AS", "AH"],
        ["3D", "3H", "3S"],
        ["3C", "3H", "3S"],
        ["3C", "3D", "3S"],
        ["3C", "3D", "3H"],
    ]
    found = rlcard.get_all_set_melds(hand)
    assert {frozenset(m) for m in set_melds} == {frozenset(map(str, m)) for m in found}
    runs = [[str(card) for card in meld] for meld in rlcard.get_all_run_melds(hand)]
    assert runs == [["AS", "2S", "3S"], ["3H", "4H", "5H"]]
    assert len(rlcard.get_meld_clusters(hand=hand)) == 36


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS 2S 3S 4H 5H 6H 7C 7D 7H KD", 10),  # three melds, a king left
        ("AS 2S 3S 4S 4H 4D 5C 9C TD JH", 34),  # 4S to the set, not the run: 5+9+10+10
        ("2S 3S 4S 5S 6S 7S 8S 9S TS JS", 0),  # one run of ten
        ("AS 3H 5D 7C 9S JH KD 2C 4S 6H", 57),  # no meld at all
    ],
)
def test_anchor_counts_known_hands(text, expected):
    hand = [rlcard.card_from_text(card) for card in text.split()]
    assert rlcard.deadwood(hand) == expected


def test_hand_of_turns_our_mask_into_the_same_cards():
    rng = random.Random(5)
    for _ in range(200):
        indices = rng.sample(range(52), 10)
        mask = sum(1 << i for i in indices)
        hand = rlcard.hand_of(mask)
        assert sorted(rlcard.get_card_id(card) for card in hand) == sorted(indices)


@pytest.mark.parametrize("kind", ["dealt", "melded"])
def test_anchor_agrees_with_our_engine_on_the_bench_hands(kind):
    """A few thousand of the hands the cards bench times (each deal: two hands)."""
    hands = [mask for deal in cards_bench.deals(kind, 1500, seed=29) for mask in deal]
    counted = [(rlcard.deadwood(rlcard.hand_of(mask)), melds.deadwood(mask)) for mask in hands]
    differ = [
        (hex(mask), pair) for mask, pair in zip(hands, counted, strict=True) if pair[0] != pair[1]
    ]
    assert differ == []
    assert len({theirs for theirs, _ in counted}) > 20  # a spread of counts, not one answer
    if kind == "melded":
        assert any(theirs == 0 for theirs, _ in counted)  # gin hands among them
