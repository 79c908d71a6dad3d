"""The bench's measured anchor: RLCard's gin rummy deadwood routine, ported as it is.

``make bench`` judges our card counts (:mod:`tools.bench.cards_bench`) and the club
rating's recompute (:mod:`tools.bench.club_bench`) against this routine timed in the same
run, on the same hands, so that a slow or busy machine slows both sides alike.

Ported from RLCard (https://github.com/datamllab/rlcard, commit d7d0a957, 2024-06-26),
``rlcard/games/gin_rummy/utils/melding.py`` (``get_meld_clusters``,
``get_best_meld_clusters``, ``get_all_run_melds``, ``get_all_set_melds``) and
``rlcard/games/gin_rummy/utils/utils.py`` (``card_from_card_id``, ``card_from_text``,
``get_card_id``, ``get_rank_id``, ``get_suit_id``, ``get_deadwood_value``,
``get_deadwood``, ``get_deadwood_count``), with the ``Card`` of ``rlcard/games/base.py``;
the gin rummy code is by William Hale, RLCard by the DATA Lab at Texas A&M University.
Copyright (c) 2019 DATA Lab at Texas A&M University; RLCard is under the MIT License (not
Apache-2.0: its ``LICENSE.md`` and ``setup.py`` say MIT), whose notice is kept here:

    Permission is hereby granted, free of charge, to any person obtaining a copy of this
    software and associated documentation files (the "Software"), to deal in the Software
    without restriction, including without limitation the rights to use, copy, modify,
    merge, publish, distribute, sublicense, and/or sell copies of the Software, and to
    permit persons to whom the Software is furnished to do so, subject to the following
    conditions:

    The above copyright notice and this permission notice shall be included in all copies
    or substantial portions of the Software.

    THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
    INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A
    PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT
    HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF
    CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR
    THE USE OR OTHER DEALINGS IN THE SOFTWARE.

The algorithm is RLCard's, unchanged: every run (sub-runs too) and every set of three and
four as lists of ``Card`` objects, every cluster of one to three disjoint melds
(``frozenset.isdisjoint``), each cluster's deadwood counted by list membership, the least
kept; the hand's deadwood is that of the first best cluster, as RLCard's ``round.py`` and
``scorers.py`` count it. Only the names of the error and of the helper below are ours, the
numpy encoders and the unused per-suit run finder are left out, and a hand comes in as our
card mask (:mod:`engine.melds`: bit ``suit × 13 + rank``, ace 0, the same numbering as
RLCard's ``card_id``) turned into RLCard cards outside the timed work.
"""

from __future__ import annotations

from collections.abc import Iterable


class GinRummyProgramError(Exception):
    pass


class Card:
    """``rlcard.games.base.Card``."""

    suit = None
    rank = None
    valid_suit = ["S", "H", "D", "C", "BJ", "RJ"]
    valid_rank = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]

    def __init__(self, suit, rank):
        self.suit = suit
        self.rank = rank

    def __eq__(self, other):
        if isinstance(other, Card):
            return self.rank == other.rank and self.suit == other.suit
        else:
            # don't attempt to compare against unrelated types
            return NotImplemented

    def __hash__(self):
        suit_index = Card.valid_suit.index(self.suit)
        rank_index = Card.valid_rank.index(self.rank)
        return rank_index + 100 * suit_index

    def __str__(self):
        return self.rank + self.suit


# -- rlcard/games/gin_rummy/utils/utils.py ---------------------------------------------------

rank_to_deadwood_value = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}


def card_from_card_id(card_id: int) -> Card:
    if not (0 <= card_id < 52):
        raise GinRummyProgramError(f"card_id is {card_id}: should be 0 <= card_id < 52.")
    rank_id = card_id % 13
    suit_id = card_id // 13
    rank = Card.valid_rank[rank_id]
    suit = Card.valid_suit[suit_id]
    return Card(rank=rank, suit=suit)


# deck is always in order from AS, 2S, ..., AH, 2H, ..., AD, 2D, ..., AC, 2C, ... QC, KC
_deck = [card_from_card_id(card_id) for card_id in range(52)]  # want this to be read-only


def card_from_text(text: str) -> Card:
    if len(text) != 2:
        raise GinRummyProgramError(f"len(text) is {len(text)}: should be 2.")
    return Card(rank=text[0], suit=text[1])


def get_card_id(card: Card) -> int:
    rank_id = get_rank_id(card)
    suit_id = get_suit_id(card)
    return rank_id + 13 * suit_id


def get_rank_id(card: Card) -> int:
    return Card.valid_rank.index(card.rank)


def get_suit_id(card: Card) -> int:
    return Card.valid_suit.index(card.suit)


def get_deadwood_value(card: Card) -> int:
    rank = card.rank
    deadwood_value = rank_to_deadwood_value.get(rank, 10)  # default to 10 is key does not exist
    return deadwood_value


def get_deadwood(hand: Iterable[Card], meld_cluster: list[Iterable[Card]]) -> list[Card]:
    if len(list(hand)) != 10:
        raise GinRummyProgramError(f"Hand contain {len(list(hand))} cards: should be 10 cards.")
    meld_cards = [card for meld_pile in meld_cluster for card in meld_pile]
    deadwood = [card for card in hand if card not in meld_cards]
    return deadwood


def get_deadwood_count(hand: list[Card], meld_cluster: list[Iterable[Card]]) -> int:
    if len(hand) != 10:
        raise GinRummyProgramError(f"Hand contain {len(hand)} cards: should be 10 cards.")
    deadwood = get_deadwood(hand=hand, meld_cluster=meld_cluster)
    deadwood_values = [get_deadwood_value(card) for card in deadwood]
    return sum(deadwood_values)


# -- rlcard/games/gin_rummy/utils/melding.py -------------------------------------------------


def get_meld_clusters(hand: list[Card]) -> list[list[list[Card]]]:
    result: list[list[list[Card]]] = []
    all_run_melds = [frozenset(x) for x in get_all_run_melds(hand)]
    all_set_melds = [frozenset(x) for x in get_all_set_melds(hand)]
    all_melds = all_run_melds + all_set_melds
    all_melds_count = len(all_melds)
    for i in range(0, all_melds_count):  # noqa: PIE808 (RLCard's line)
        first_meld = all_melds[i]
        first_meld_list = list(first_meld)
        meld_cluster_1 = [first_meld_list]
        result.append(meld_cluster_1)
        for j in range(i + 1, all_melds_count):
            second_meld = all_melds[j]
            second_meld_list = list(second_meld)
            if not second_meld.isdisjoint(first_meld):
                continue
            meld_cluster_2 = [first_meld_list, second_meld_list]
            result.append(meld_cluster_2)
            for k in range(j + 1, all_melds_count):
                third_meld = all_melds[k]
                third_meld_list = list(third_meld)
                if not third_meld.isdisjoint(first_meld) or not third_meld.isdisjoint(second_meld):
                    continue
                meld_cluster_3 = [first_meld_list, second_meld_list, third_meld_list]
                result.append(meld_cluster_3)
    return result


def get_best_meld_clusters(hand: list[Card]) -> list[list[list[Card]]]:
    if len(hand) != 10:
        raise GinRummyProgramError(f"Hand contain {len(hand)} cards: should be 10 cards.")
    result: list[list[list[Card]]] = []
    meld_clusters = get_meld_clusters(hand=hand)
    meld_clusters_count = len(meld_clusters)
    if meld_clusters_count > 0:
        deadwood_counts = [
            get_deadwood_count(hand=hand, meld_cluster=meld_cluster)
            for meld_cluster in meld_clusters
        ]
        best_deadwood_count = min(deadwood_counts)
        for i in range(meld_clusters_count):
            if deadwood_counts[i] == best_deadwood_count:
                result.append(meld_clusters[i])
    return result


def get_all_run_melds(hand: list[Card]) -> list[list[Card]]:
    card_count = len(hand)
    hand_by_suit = sorted(hand, key=get_card_id)
    max_run_melds = []

    i = 0
    while i < card_count - 2:
        card_i = hand_by_suit[i]
        j = i + 1
        card_j = hand_by_suit[j]
        while get_rank_id(card_j) == get_rank_id(card_i) + j - i and card_j.suit == card_i.suit:
            j += 1
            if j < card_count:
                card_j = hand_by_suit[j]
            else:
                break
        max_run_meld = hand_by_suit[i:j]
        if len(max_run_meld) >= 3:
            max_run_melds.append(max_run_meld)
        i = j

    result = []
    for max_run_meld in max_run_melds:
        max_run_meld_count = len(max_run_meld)
        for i in range(max_run_meld_count - 2):
            for j in range(i + 3, max_run_meld_count + 1):
                result.append(max_run_meld[i:j])
    return result


def get_all_set_melds(hand: list[Card]) -> list[list[Card]]:
    max_set_melds = []
    hand_by_rank = sorted(hand, key=lambda x: x.rank)
    set_meld: list[Card] = []
    current_rank = None
    for card in hand_by_rank:
        if current_rank is None or current_rank == card.rank:
            set_meld.append(card)
        else:
            if len(set_meld) >= 3:
                max_set_melds.append(set_meld)
            set_meld = [card]
        current_rank = card.rank
    if len(set_meld) >= 3:
        max_set_melds.append(set_meld)
    result = []
    for max_set_meld in max_set_melds:
        result.append(max_set_meld)
        if len(max_set_meld) == 4:
            for meld_card in max_set_meld:
                result.append([card for card in max_set_meld if card != meld_card])
    return result


# -- ours ------------------------------------------------------------------------------------


def hand_of(mask: int) -> list[Card]:
    """Our card mask as an RLCard hand (cards from RLCard's deck, in card-id order)."""
    return [_deck[card_id] for card_id in range(52) if mask >> card_id & 1]


def deadwood(hand: list[Card]) -> int:
    """The hand's deadwood as RLCard counts it (``round.py``, ``scorers.py``): the first
    best meld cluster's deadwood count, or the whole hand's when it holds no meld."""
    best_meld_clusters = get_best_meld_clusters(hand=hand)
    best_meld_cluster = [] if not best_meld_clusters else best_meld_clusters[0]
    return get_deadwood_count(hand=hand, meld_cluster=best_meld_cluster)
