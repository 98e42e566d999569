"""docs/rules/caribbean.md section 1: the 5-card evaluator (server/rules/poker.py) and the dealer's A-K qualifier.

The counting tests walk every rank multiset once and weigh it by the number of suit
patterns that make it (flush or not): 6,175 evaluations stand for all 2,598,960 hands.
A full enumeration, slow in pure Python, checks the same counts card by card.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement, pairwise, permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import FULL_DECK, make_card, parse_cards
from server.rules.poker import CLASSES, class_name, compare, kind_of, qualifies_ak, rank5

SPEC_COUNTS = {
    "royal": 4, "straight_flush": 36, "quads": 624, "full_house": 3_744, "flush": 5_108, "straight": 10_200,
    "trips": 54_912, "two_pair": 123_552, "pair": 1_098_240, "high_card": 1_302_540,
}
ALL_HANDS = 2_598_960
AK_QUALIFIERS = 1_463_700


def value(text: str) -> int:
    return rank5(parse_cards(text, count=5))


def beats(better: str, worse: str) -> bool:
    return value(better) > value(worse)


def weighted_hands() -> Iterator[tuple[int, int]]:
    """(value, how many of the 2,598,960 hands have it), one rank multiset and flush-or-not at a time."""
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        # Equal ranks sit side by side, so position % 4 gives them distinct suits.
        yield rank5([make_card(r, i % 4) for i, r in enumerate(ranks)]), _plain_ways(counts)
        if len(counts) == 5:
            yield rank5([make_card(r, 0) for r in ranks]), 4


def _plain_ways(counts: Counter[int]) -> int:
    ways = math.prod(math.comb(4, n) for n in counts.values())
    return ways - 4 if len(counts) == 5 else ways  # five different ranks: the 4 one-suit patterns are flushes


@cache
def value_weights() -> dict[int, int]:
    weights: Counter[int] = Counter()
    for v, ways in weighted_hands():
        weights[v] += ways
    return dict(weights)


# ---------------------------------------------------------------- counts


def test_section1_the_multiset_walk_covers_every_hand() -> None:
    assert sum(value_weights().values()) == ALL_HANDS == math.comb(52, 5)


def test_section1_class_counts_over_all_hands() -> None:
    counts: Counter[str] = Counter()
    for v, ways in value_weights().items():
        counts[class_name(v)] += ways
    assert dict(counts) == SPEC_COUNTS


def test_section1_7462_distinct_values() -> None:
    assert len(value_weights()) == 7_462


def test_section1_dealer_qualifies_in_1463700_hands() -> None:
    qualifying = sum(ways for v, ways in value_weights().items() if qualifies_ak(v))
    assert qualifying == AK_QUALIFIERS
    assert round(qualifying / ALL_HANDS, 6) == 0.563187


@pytest.mark.slow
def test_section1_class_counts_by_full_enumeration() -> None:
    counts: Counter[str] = Counter()
    qualifying = 0
    for hand in combinations(FULL_DECK, 5):
        v = rank5(hand)
        counts[class_name(v)] += 1
        qualifying += qualifies_ak(v)
    assert dict(counts) == SPEC_COUNTS
    assert qualifying == AK_QUALIFIERS


# ---------------------------------------------------------------- ranking


def test_section1_categories_rank_high_to_low() -> None:
    by_class: dict[str, list[int]] = {}
    for v in value_weights():
        by_class.setdefault(class_name(v), []).append(v)
    ladder = list(CLASSES)
    for lower, higher in pairwise(ladder):
        assert max(by_class[lower]) < min(by_class[higher]), (lower, higher)


def test_section1_royal_is_the_top_straight_flush_named_apart() -> None:
    assert class_name(value("Ah Kh Qh Jh Th")) == "royal"
    assert class_name(value("Kh Qh Jh Th 9h")) == "straight_flush"
    assert kind_of(value("Ah Kh Qh Jh Th")) == kind_of(value("Kh Qh Jh Th 9h"))
    assert max(value_weights()) == value("As Ks Qs Js Ts")


def test_section1_wheel_is_the_lowest_straight_its_top_card_the_five() -> None:
    assert class_name(value("Ad 2c 3h 4s 5d")) == "straight"
    assert beats("2d 3c 4h 5s 6d", "Ad 2c 3h 4s 5d")
    straights = [v for v in value_weights() if class_name(v) == "straight"]
    assert min(straights) == value("Ad 2c 3h 4s 5d")


def test_section1_wheel_straight_flush_is_a_straight_flush_not_a_royal() -> None:
    assert class_name(value("Ah 2h 3h 4h 5h")) == "straight_flush"
    assert beats("2h 3h 4h 5h 6h", "Ah 2h 3h 4h 5h")
    assert beats("Ah 2h 3h 4h 5h", "Ac Ad Ah As Kc")


def test_section1_no_wrap_around() -> None:
    assert class_name(value("Qd Kc Ah 2s 3d")) == "high_card"
    assert class_name(value("Kd Ac 2h 3s 4d")) == "high_card"
    assert class_name(value("Qh Kh Ah 2h 3h")) == "flush"


def test_section1_ties_straight_by_top_card() -> None:
    assert beats("9d Tc Jh Qs Kd", "8d 9c Th Js Qd")
    assert value("9d Tc Jh Qs Kd") == value("9h Ts Jd Qc Kh")


def test_section1_ties_straight_flush_by_top_card() -> None:
    assert beats("9d Td Jd Qd Kd", "8h 9h Th Jh Qh")


def test_section1_ties_quads_by_quad_rank_then_kicker() -> None:
    assert beats("3c 3d 3h 3s 2c", "2c 2d 2h 2s Ac")
    assert beats("9c 9d 9h 9s Kc", "9c 9d 9h 9s Qc")


def test_section1_ties_full_house_by_the_three_then_the_pair() -> None:
    assert beats("3c 3d 3h 2s 2c", "2d 2h 2s Ac Ad")
    assert beats("Tc Td Th 5s 5c", "Tc Td Th 4s 4c")


def test_section1_ties_flush_by_all_five_ranks_from_the_top() -> None:
    assert beats("Ah Qh 9h 5h 3h", "Kd Qd Jd 9d 8d")
    assert beats("Ah Qh 9h 5h 3h", "Ad Jd 9d 5d 3d")
    assert beats("Ah Qh 9h 5h 3h", "Ad Qd 8d 5d 3d")
    assert beats("Ah Qh 9h 5h 3h", "Ad Qd 9d 4d 3d")
    assert beats("Ah Qh 9h 5h 3h", "Ad Qd 9d 5d 2d")


def test_section1_ties_three_of_a_kind_by_the_three_then_two_kickers() -> None:
    assert beats("5c 5d 5h 2s 3c", "4c 4d 4h As Kc")
    assert beats("5c 5d 5h Ks 3c", "5c 5d 5h Qs Jc")
    assert beats("5c 5d 5h Ks 4c", "5c 5d 5h Ks 3c")


def test_section1_ties_two_pair_by_higher_pair_lower_pair_kicker() -> None:
    assert beats("Jc Jd 2h 2s 3c", "Tc Td 9h 9s Ac")
    assert beats("Jc Jd 4h 4s 3c", "Jc Jd 3h 3s Ac")
    assert beats("Jc Jd 4h 4s 6c", "Jh Js 4c 4d 5c")


def test_section1_ties_one_pair_by_the_pair_then_three_kickers() -> None:
    assert beats("3c 3d 2h 4s 5c", "2c 2d Ah Ks Qc")
    assert beats("8c 8d Ah 4s 2c", "8h 8s Kh Qs Jc")
    assert beats("8c 8d Ah 5s 2c", "8h 8s Ac 4s 3c")
    assert beats("8c 8d Ah 5s 3c", "8h 8s Ac 5h 2c")


def test_section1_ties_high_card_by_all_five_ranks_from_the_top() -> None:
    assert beats("Ac 7d 5h 4s 2c", "Kc Qd Jh 9s 8c")
    assert beats("Ac Kd 5h 4s 2c", "Ac Qd Jh 9s 8c")
    assert beats("Ac Kd 6h 4s 2c", "Ac Kd 5h 4s 3c")
    assert beats("Ac Kd 6h 5s 2c", "Ac Kd 6h 4s 3c")
    assert beats("Ac Kd 6h 5s 3c", "Ac Kd 6h 5s 2c")


def test_section1_equal_in_every_rank_is_a_tie_and_suits_never_rank() -> None:
    assert value("Ac Kd 6h 5s 3c") == value("As Kh 6d 5c 3s")
    assert value("Ac Kc Qc 9c 3c") == value("As Ks Qs 9s 3s")
    assert compare(parse_cards("Ac Kd 6h 5s 3c"), parse_cards("As Kh 6d 5c 3s")) == 0


@given(st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True),
       st.permutations(range(4)), st.permutations(range(5)))
def test_section1_value_ignores_card_order_and_suit_names(hand: list[int], suits: list[int],
                                                          order: list[int]) -> None:
    renamed = [make_card(c >> 2, suits[c & 3]) for c in hand]
    assert rank5([renamed[i] for i in order]) == rank5(hand)


# ---------------------------------------------------------------- the dealer's qualifier


def test_section1_qualifier_any_pair_or_better() -> None:
    assert qualifies_ak(value("2c 2d 3h 4s 6c"))
    assert qualifies_ak(value("2c 3c 4c 5c 7c"))


def test_section1_qualifier_high_card_needs_an_ace_and_a_king() -> None:
    assert qualifies_ak(value("Ac Kd 4h 3s 2c"))
    assert not qualifies_ak(value("Ac Qd Jh Ts 9c"))
    assert not qualifies_ak(value("Kc Qd Jh Ts 8c"))


def test_section1_lowest_qualifier_is_a_k_4_3_2() -> None:
    lowest = value("Ac Kd 4h 3s 2c")
    for v in value_weights():
        assert qualifies_ak(v) == (v >= lowest)


def test_section1_highest_non_qualifier_is_a_q_j_t_9() -> None:
    assert max(v for v in value_weights() if not qualifies_ak(v)) == value("Ac Qd Jh Ts 9c")


def test_section1_hand_order_does_not_matter_to_the_qualifier() -> None:
    for order in permutations(parse_cards("Ac Kd 4h 3s 2c")):
        assert qualifies_ak(rank5(order))
