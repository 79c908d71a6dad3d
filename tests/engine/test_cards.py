"""Settling a hand from its cards: worked examples from the rule books, and the engine's
melds, lay-offs and the knocker's choice held against a naive brute force.

The brute force here shares nothing with ``scoring/engine/cards.py``: cards are
``(rank 1..13, suit)`` pairs, a meld is checked by its definition, partitions are found by
trying every subset, and lay-offs by growing the knocker's melds card by card.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from engine import PRESETS, Card, HandKind, ScoringError
from engine.cards import mask_of, rule, settle
from engine.hands import HandCards
from engine.melds import arrangements, deadwood, defend

Naive = tuple[int, str]  # (rank 1..13, suit)
RANKS = "A23456789TJQK"


def naive(text: str) -> Naive:
    return RANKS.index(text[0]) + 1, text[1]


def text_of(card: Naive) -> str:
    return RANKS[card[0] - 1] + card[1]


def points(cards) -> int:
    return sum(min(rank, 10) for rank, _suit in cards)


def is_meld(cards) -> bool:
    cards = list(cards)
    if len(cards) < 3:
        return False
    ranks = sorted(rank for rank, _ in cards)
    suits = {suit for _, suit in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(suits) == len(cards)
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def partitions(cards: frozenset):
    """Every way to split ``cards`` into melds and the rest: (melds, rest)."""
    if not cards:
        yield (), frozenset()
        return
    first = min(cards)
    others = cards - {first}
    for melds, rest in partitions(others):  # ``first`` unmatched
        yield melds, rest | {first}
    kin = [c for c in others if c[0] == first[0] or c[1] == first[1]]
    for size in range(2, len(kin) + 1):
        for group in itertools.combinations(kin, size):
            meld = frozenset((first, *group))
            if is_meld(meld):
                for melds, rest in partitions(others - meld):
                    yield (meld, *melds), rest


@cache
def naive_deadwood(cards: frozenset) -> int:
    return min(points(rest) for _melds, rest in partitions(cards))


def layable(knocker_melds, cards) -> bool:
    """Whether every card of ``cards`` can be laid off, one at a time, on ``knocker_melds``
    as they grow (a lay-off on a lay-off counts)."""
    melds = [set(meld) for meld in knocker_melds]
    left = set(cards)
    while left:
        placed = next(
            ((card, meld) for card in left for meld in melds if is_meld(meld | {card})), None
        )
        if placed is None:
            return False
        card, meld = placed
        meld.add(card)
        left.remove(card)
    return True


def naive_defence(knocker_melds, cards: frozenset) -> int:
    best = 99
    for _melds, rest in partitions(cards):
        for size in range(len(rest) + 1):
            for laid in itertools.combinations(sorted(rest), size):
                if layable(knocker_melds, laid):
                    best = min(best, points(rest) - points(laid))
    return best


def naive_ruling(knocker: frozenset, defender: frozenset) -> tuple[int, int]:
    """(knocker deadwood, defender deadwood after lay-offs, the knocker choosing)."""
    least = naive_deadwood(knocker)
    if least == 0:
        return 0, naive_deadwood(defender)
    options = [melds for melds, rest in partitions(knocker) if points(rest) == least]
    return least, max(naive_defence(melds, defender) for melds in options)


# -- hands to test on ------------------------------------------------------------------------

DECK = [(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def melded_hand(rng: random.Random, taken: set, size: int = 10) -> frozenset:
    """A hand built around two or three melds (a dealt hand rarely has any)."""
    hand: set = set()
    for _ in range(rng.choice((1, 2, 3))):
        if rng.random() < 0.5:
            suit, length = rng.choice("SHDC"), rng.choice((3, 3, 4, 5))
            low = rng.randint(1, 14 - length)
            meld = {(rank, suit) for rank in range(low, low + length)}
        else:
            rank = rng.randint(1, 13)
            meld = set(rng.sample([(rank, s) for s in "SHDC"], rng.choice((3, 4))))
        if not meld & (hand | taken) and len(hand | meld) <= size:
            hand |= meld
    hand |= set(rng.sample([c for c in DECK if c not in hand | taken], size - len(hand)))
    return frozenset(hand)


def deals(seed: int, count: int) -> list[tuple[frozenset, frozenset]]:
    rng = random.Random(seed)
    found = []
    for i in range(count):
        if i % 4 == 0:  # a plain deal now and then
            cards = rng.sample(DECK, 20)
            found.append((frozenset(cards[:10]), frozenset(cards[10:])))
        else:
            knocker = melded_hand(rng, set())
            found.append((knocker, melded_hand(rng, set(knocker))))
    return found


def as_mask(cards) -> int:
    return mask_of(naive_to_card(card) for card in cards)


def naive_to_card(card: Naive) -> Card:
    return Card.parse(text_of(card))


def hand_cards(knocker, defender) -> HandCards:
    return HandCards.of(sorted(map(text_of, knocker)), sorted(map(text_of, defender)))


def cards(text: str) -> list[str]:
    return text.split()


# -- brute force -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_least_deadwood_is_the_least_over_every_partition(seed):
    for knocker, defender in deals(seed, 150):
        for hand in (knocker, defender):
            assert deadwood(as_mask(hand)) == naive_deadwood(hand), sorted(hand)


def test_eleven_card_hands_against_brute_force():
    rng = random.Random(11)
    for _ in range(150):
        hand = melded_hand(rng, set(), size=11)
        assert deadwood(as_mask(hand)) == naive_deadwood(hand), sorted(hand)


def test_every_optimal_arrangement_is_found():
    for knocker, _defender in deals(5, 120):
        least, options = arrangements(as_mask(knocker))
        found = {frozenset(options_melds) for options_melds in options}
        for melds, rest in partitions(knocker):
            if points(rest) == least:
                # the engine joins touching runs; every optimal partition, so joined, is there
                joined = _joined([as_mask(meld) for meld in melds])
                assert joined in found, (sorted(knocker), melds)


def _joined(melds: list[int]) -> frozenset:
    from engine.melds import canonical

    return frozenset(canonical(melds))


@pytest.mark.parametrize("seed", range(3))
def test_lay_offs_equal_a_brute_force_search(seed):
    for knocker, defender in deals(100 + seed, 40):
        _least, options = arrangements(as_mask(knocker))
        for melds in options[:2]:
            knocker_melds = [_naive_cards(meld) for meld in melds]
            expected = naive_defence(knocker_melds, defender)
            assert defend(melds, as_mask(defender)).deadwood == expected, (
                sorted(knocker),
                sorted(defender),
            )


def _naive_cards(mask: int) -> frozenset:
    return frozenset((i % 13 + 1, "SHDC"[i // 13]) for i in range(52) if mask >> i & 1)


@pytest.mark.parametrize("seed", range(3))
def test_the_knocker_chooses_the_arrangement_worst_for_the_defender(seed):
    for knocker, defender in deals(200 + seed, 40):
        ruling = rule(hand_cards(knocker, defender))
        expected = naive_ruling(knocker, defender)
        assert (ruling.knocker_deadwood, ruling.defender_deadwood) == expected, (
            sorted(knocker),
            sorted(defender),
        )
        # what the ruling shows adds up to what it says
        shown = {text_of(c) for c in knocker} - {str(c) for m in ruling.knocker_melds for c in m}
        assert {str(c) for c in ruling.knocker_unmatched} == shown
        assert points(map(naive, map(str, ruling.defender_unmatched))) == ruling.defender_deadwood


def test_a_choice_between_arrangements_is_made_against_the_defender():
    # 7-8-9 in spades, hearts and diamonds are three runs or three sets, deadwood A♣ = 1
    # either way. As runs the defender lays off 6♠ T♠ J♠ (26); as sets 7♣ 8♣ (15): the
    # knocker lays down the sets.
    knocker = cards("7S 8S 9S 7H 8H 9H 7D 8D 9D AC")
    defender = cards("7C 8C 6S TS KS KH QD QC JS 2H")
    least, options = arrangements(mask_of(HandCards.of(knocker, defender).knocker))
    assert least == 1 and len(options) == 2
    ruling = rule(HandCards.of(knocker, defender))
    assert ruling.knocker_deadwood == 1
    assert [str(c) for c, _ in ruling.layoffs] == ["7C", "8C"]
    assert ruling.defender_deadwood == 83 - 15
    assert all(len({c.rank for c in meld}) == 1 for meld in ruling.knocker_melds)


# -- worked examples from the rule books -------------------------------------------------------


def test_seven_seven_seven_eight_nine_the_seven_goes_in_the_run():
    # 7♠ 7♥ 7♦ 8♦ 9♦: a set of sevens leaves 8+9 = 17; the run 7-8-9♦ leaves 7+7 = 14.
    ruling = rule(
        HandCards.of(cards("7S 7H 7D 8D 9D 2C 3C 4C AH 2H"), cards("KS KH KD QS QH JS JH 5C 6C TC"))
    )
    assert ruling.knocker_deadwood == 14 + 1 + 2
    assert [[str(c) for c in meld] for meld in ruling.knocker_melds] == [
        ["7D", "8D", "9D"],
        ["2C", "3C", "4C"],
    ]


def test_seven_seven_seven_seven_eight_nine_set_and_run():
    # With the fourth seven both melds fit: 7♠7♥7♣ and 7♦8♦9♦, no deadwood among them.
    assert (
        deadwood(
            mask_of(
                HandCards.of(
                    cards("7S 7H 7D 7C 8D 9D 2C 3C 4C AH"), cards("KS KH KD QS QH JS JH 5C 6C TC")
                ).knocker
            )
        )
        == 1
    )


def test_lay_off_on_a_set_of_three_kings():
    knocker = cards("KS KH KD 2C 3C 4C 5C 6H 7H 8H")  # gin? no: K K K, 2-5♣, 6-8♥ → gin
    ruling = rule(HandCards.of(knocker, cards("KC QS QH 9S 9D 4S 4D 3H 2H AH")))
    assert ruling.kind is HandKind.GIN
    assert ruling.layoffs == ()  # no lay-offs on gin
    knocker = cards("KS KH KD 2C 3C 4C 5C 6H 7H 9S")  # 9♠ + 6♥ 7♥ = 22... knock
    ruling = rule(HandCards.of(knocker, cards("KC QS QH 9H 9D 4S 4D 3H 8H AH")))
    assert ruling.kind is HandKind.KNOCK
    laid = [str(c) for c, _ in ruling.layoffs]
    assert "KC" in laid  # the fourth king goes on the set
    assert ruling.knocker_deadwood == 6 + 7 + 9


def test_no_lay_offs_against_gin():
    knocker = cards("5S 6S 7S 9H 9D 9C 2D 3D 4D 5D")
    defender = cards("8S 4S 9S TD KH KC QC JD AS AH")  # 8♠ 4♠ would go on 5-7♠
    ruling = rule(HandCards.of(knocker, defender))
    assert ruling.kind is HandKind.GIN
    assert ruling.layoffs == ()
    assert ruling.defender_deadwood == 8 + 4 + 9 + 10 + 10 + 10 + 10 + 10 + 1 + 1


def test_lay_off_on_a_lay_off_extends_the_run_card_by_card():
    knocker = cards("5S 6S 7S 2H 2D 2C KD QC JH TH")  # 5-6-7♠, 2s; deadwood K Q J T: no
    knocker = cards("5S 6S 7S 2H 2D 2C AD AC 3H 4D")  # deadwood 1+1+3+4 = 9
    defender = cards("8S 9S KH KC QD QH JC JD 4C 6D")
    ruling = rule(HandCards.of(knocker, defender))
    assert ruling.knocker_deadwood == 9
    assert [str(c) for c, target in ruling.layoffs] == ["8S", "9S"]
    assert all(target == 0 or ruling.knocker_melds[target] for _c, target in ruling.layoffs)
    assert ruling.defender_deadwood == 10 * 6 + 4 + 6


def test_big_gin_with_eleven_cards():
    knocker = cards("AS 2S 3S 4S 9H 9D 9C JH JD JC JS")
    ruling = rule(HandCards.of(knocker, cards("KH KD 5C 6C 8H 2D 3D TS QH 7D")))
    assert ruling.kind is HandKind.BIG_GIN
    assert ruling.knocker_deadwood == 0 and ruling.layoffs == ()
    assert ruling.defender_deadwood == 10 + 10 + 5 + 6 + 8 + 2 + 3 + 10 + 10 + 7


def test_eleven_cards_with_deadwood_are_refused():
    knocker = cards("AS 2S 3S 4S 9H 9D 9C JH JD JC KS")
    with pytest.raises(ScoringError, match="11 cards leave 10 deadwood"):
        rule(HandCards.of(knocker, cards("KH KD 5C 6C 8H 2D 3D TS QH 7D")))


def test_runs_are_ace_low_only():
    # Q-K-A is no run: the ace counts 1 and the queen and king 10 each.
    assert (
        deadwood(
            mask_of(
                HandCards.of(
                    cards("QS KS AS 2H 4D 6C 8S TH JD 3C"), cards("KH KD 5C 6D 8H 2D 3D TS QH 7D")
                ).knocker
            )
        )
        == 10 + 10 + 1 + 2 + 4 + 6 + 8 + 10 + 10 + 3
    )
    # A-2-3 is one.
    assert (
        deadwood(
            mask_of(
                HandCards.of(
                    cards("AS 2S 3S 2H 4D 6C 8S TH JD 3C"), cards("KH KD 5C 6D 8H 2D 3D TS QH 7D")
                ).knocker
            )
        )
        == 2 + 4 + 6 + 8 + 10 + 10 + 3
    )


# -- the cards as input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("knocker", "defender", "message"),
    [
        pytest.param(
            cards("AS 2S 3S"),
            cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH"),
            "the knocker has 3 cards",
            id="short",
        ),
        pytest.param(
            cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS"),
            cards("AH 2H 3H 4H 5H 6H 7H 8H 9H"),
            "the defender has 9 cards",
            id="defender-short",
        ),
        pytest.param(
            cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS"),
            cards("AS 2H 3H 4H 5H 6H 7H 8H 9H TH"),
            "card AS is given twice",
            id="across",
        ),
        pytest.param(
            cards("AS AS 3S 4S 5S 6S 7S 8S 9S TS"),
            cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH"),
            "card AS is given twice",
            id="within",
        ),
        pytest.param(
            cards("1S 2S 3S 4S 5S 6S 7S 8S 9S TS"),
            cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH"),
            "'1S' is not a card",
            id="unknown",
        ),
        pytest.param("AS 2S", cards("AH"), "must be a list", id="not-a-list"),
    ],
)
def test_bad_cards_are_refused(knocker, defender, message):
    with pytest.raises(ScoringError, match=message) as caught:
        HandCards.of(knocker, defender)
    assert caught.value.field == "cards"


def test_ten_may_be_written_10_and_cards_in_any_case():
    hand = HandCards.of(
        cards("10s 2S 3S 4S 5S 6S 7S 8S 9S As"), cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH")
    )
    assert str(hand.knocker[0]) == "AS" and str(hand.knocker[-1]) == "TS"


MODERN, CLASSIC = PRESETS["modern"], PRESETS["classic"]
GIN_HAND = HandCards.of(
    cards("5S 6S 7S 9H 9D 9C 2D 3D 4D 5D"), cards("8S 4S 9S TD KH KC QC JD AS AH")
)
KNOCK_HAND = HandCards.of(
    cards("5S 6S 7S 2H 2D 2C AD AC 3H 4D"), cards("8S 9S KH KC QD QH JC JD 4C 6D")
)


def test_settle_takes_the_kind_and_counts_from_the_cards():
    settled = settle(MODERN, KNOCK_HAND)
    assert (settled.kind, settled.deadwood, settled.defender_deadwood) == (HandKind.KNOCK, 9, 70)
    settled = settle(MODERN, GIN_HAND, kind=HandKind.GIN, defender_deadwood=73)
    assert (settled.kind, settled.deadwood, settled.defender_deadwood) == (HandKind.GIN, None, 73)


@pytest.mark.parametrize(
    ("hand", "given", "field", "message"),
    [
        (KNOCK_HAND, {"deadwood": 8}, "deadwood", "the knocker 9 deadwood, not 8"),
        (KNOCK_HAND, {"defender_deadwood": 87}, "defender_deadwood", "70 deadwood after lay-offs"),
        (GIN_HAND, {"defender_deadwood": 1}, "defender_deadwood", "73 deadwood, not 1"),
        (GIN_HAND, {"kind": HandKind.KNOCK}, "kind", "that is gin, not a knock"),
        (KNOCK_HAND, {"kind": HandKind.GIN}, "kind", "leave 9 deadwood: that is a knock"),
        (KNOCK_HAND, {"kind": HandKind.BIG_GIN}, "kind", "a big gin needs"),
    ],
)
def test_settle_refuses_counts_the_cards_contradict(hand, given, field, message):
    with pytest.raises(ScoringError, match=message) as caught:
        settle(MODERN, hand, **given)
    assert caught.value.field == field


def test_big_gin_is_gin_under_rules_without_one():
    hand = HandCards.of(
        cards("AS 2S 3S 4S 9H 9D 9C JH JD JC JS"), cards("KH KD 5C 6C 8H 2D 3D TS QH 7D")
    )
    assert settle(MODERN, hand).kind is HandKind.BIG_GIN
    assert settle(CLASSIC, hand).kind is HandKind.GIN
    assert settle(CLASSIC, hand, kind=HandKind.GIN).kind is HandKind.GIN


def test_unsupported_ace_rules_are_refused():
    class TedescoRules:
        big_gin_bonus = 31
        ace_value = 15
        runs_around_the_corner = True

    with pytest.raises(ScoringError, match="aces low"):
        settle(TedescoRules(), KNOCK_HAND)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "changes", [{"ace_value": 15}, {"runs_around_the_corner": True}], ids=["ace-15", "corner"]
)
def test_the_tedesco_knobs_are_refused_not_miscounted(changes):
    rules = MODERN.replace(**changes)
    with pytest.raises(ScoringError, match="aces low") as caught:
        settle(rules, KNOCK_HAND)
    assert caught.value.field == "cards"
