"""docs/rules/hcf.md section 1: flushes, straight-flush runs, qualifying, raise limits.

The exact-combinatorics tests at the bottom derive, independently of the
server code, how many of the C(52, 7) = 133,784,560 seven-card hands have each
flush size and each straight-flush length, and check the evaluator against them.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import FULL_DECK, RANKS, format_cards, make_card, parse_cards, rank_of, suit_of
from server.rules.hcf.evaluate import (
    RUN_KEY,
    compare,
    describe_flush,
    evaluate,
    flush_key_of,
    flush_size_of,
    qualifies_key,
    raise_limit_for,
    run_key_of,
    run_length_of,
    suit_masks,
)


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def better(first: str, second: str) -> int:
    return compare(cards(first), cards(second))


# ---------------------------------------------------------------- flushes


def test_section1_flush_groups_cards_by_suit_ranks_descending() -> None:
    hand = evaluate(cards("2h Kc 9h Ah 5d Qs 4h"))
    assert format_cards(hand.flush_cards()) == "Ah 9h 4h 2h"
    assert hand.flush_size == 4


def test_section1_more_cards_beat_fewer_whatever_the_ranks() -> None:
    assert better("5h 4h 3h 2h Kc Qd 9s", "Ac Kc Qc 2d 3d 4s 5s") == 1


def test_section1_ace_always_high_in_flush_comparison() -> None:
    # A-4-3-2 beats K-Q-J-T: the ace is never played low in a flush.
    assert better("Ah 4h 3h 2h Kc Qd Js", "Kd Qd Jd Td 2c 3c 4s") == 1
    assert better("Kd Qd Jd Td 2c 3c 4s", "Ah 4h 3h 2h Kc Qd Js") == 2


def test_section1_equal_counts_compare_from_the_top_down() -> None:
    assert better("Ah Qh 3h 2h 5c 6d 8s", "Ad Jd Td 9d 5c 6h 8s") == 1  # Q beats J at the 2nd card
    assert better("Ah Kh 9h 3h 5c 6d 8s", "Ad Kd 9d 4d 5c 6h 8s") == 2  # decided by the last card


def test_section1_identical_flushes_tie() -> None:
    assert better("Ah Kh 9h 2h 5c 6d 8s", "Ac Kc 9c 2c 5d 6h 8h") == 0


def test_section1_suits_have_no_rank() -> None:
    for first, second in itertools.permutations("cdhs", 2):
        a = cards(f"A{first} K{first} 9{first} 2{first} 5{second} 6{second} 8{second}")
        b = cards(f"A{second} K{second} 9{second} 2{second} 5{first} 6{first} 8{first}")
        assert compare(a, b) == 0


def test_section1_hand_flush_is_its_best_group() -> None:
    # Two 3-card groups: the K-high one is the flush.
    hand = evaluate(cards("Kh 3h 2h Qc Jc Tc 4d"))
    assert format_cards(hand.flush_cards()) == "Kh 3h 2h"
    assert hand.flush_size == 3


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("Ac Kd Qh Js 9c 8d 7h", 2),
        ("Ac Kc Qc Js 9d 8d 7h", 3),
        ("Ac Kc Qc Jc 9d 8d 7h", 4),
        ("Ac Kc Qc Jc 9c 8d 7h", 5),
        ("Ac Kc Qc Jc 9c 8c 7h", 6),
        ("Ac Kc Qc Jc 9c 8c 7c", 7),
    ],
)
def test_section1_flush_size_is_2_to_7(text: str, size: int) -> None:
    assert evaluate(cards(text)).flush_size == size


def test_section1_describe_flush_for_people() -> None:
    assert describe_flush(cards("Ah 4h 3h 2h Kc Qd Js")) == "4-card flush A-4-3-2"


# ---------------------------------------------------------------- straight flushes


def run_of(text: str) -> tuple[int, str]:
    hand = evaluate(cards(text))
    return hand.straight_flush_length, format_cards(hand.straight_flush_cards())


def test_section1_straight_flush_ace_high_q_k_a() -> None:
    assert run_of("Qs Ks As 2c 5d 7h 9c") == (3, "As Ks Qs")


def test_section1_straight_flush_ace_low_a_2_3_has_top_3() -> None:
    hand = evaluate(cards("As 2s 3s 8c 5d 7h Jc"))
    assert hand.straight_flush_length == 3
    assert RANKS[hand.run_key & 15] == "3"
    assert format_cards(hand.straight_flush_cards()) == "3s 2s As"


def test_section1_ace_low_run_loses_to_any_other_run_of_three() -> None:
    low = evaluate(cards("As 2s 3s 8c 5d 7h Jc"))
    other = evaluate(cards("2h 3h 4h 8c 5d 7s Jc"))
    assert other.run_key > low.run_key


def test_section1_no_wrap_around_k_a_2_is_not_a_run() -> None:
    assert run_of("Ks As 2s 8c 5d 7h Jc") == (0, "")


@pytest.mark.parametrize("text", ["Ah Kh 8c 5d 7s Jc 2d", "9h Th 3c 5d 7s Jc 2d", "Ah 2h 8c 5d 7s Jc 4d"])
def test_section1_runs_shorter_than_three_do_not_count(text: str) -> None:
    hand = evaluate(cards(text))
    assert hand.straight_flush_length == 0
    assert hand.run_key == 0
    assert hand.straight_flush_cards() == ()


def test_section1_longest_run_wins() -> None:
    # A 4-run 2-5 in clubs against a 3-run Q-A in hearts.
    assert run_of("2c 3c 4c 5c Qh Kh Ah") == (4, "5c 4c 3c 2c")
    long = evaluate(cards("2c 3c 4c 5c Qh Kd Ad"))
    short = evaluate(cards("Qh Kh Ah 2c 5d 7s 9c"))
    assert long.run_key > short.run_key


def test_section1_equal_length_higher_top_wins() -> None:
    assert run_of("4c 5c 6c Jh Qh Kh 2d") == (3, "Kh Qh Jh")
    assert run_of("As 2s 3s 4s 9d Td Jd Qd")[1] == "Qd Jd Td 9d"  # display works for any count
    high = evaluate(cards("Jh Qh Kh 2c 5d 7s 9c"))
    low = evaluate(cards("Th Jh Qh 2c 5d 7s 9c"))
    assert high.run_key > low.run_key
    same = evaluate(cards("Jc Qc Kc 2h 5d 7s 9h"))
    assert high.run_key == same.run_key


def test_section1_run_within_one_suit_only() -> None:
    assert run_of("5c 6d 7h 8s 9c Tc Jd") == (0, "")


# ---------------------------------------------------------------- qualifying and raise limits


@pytest.mark.parametrize(
    ("text", "qualifies"),
    [
        ("9h 3h 2h Kc Qd Js 5c", True),   # 9-3-2 of one suit qualifies
        ("8h 7h 6h Kc Qd Js 5c", False),  # 8-7-6 does not
        ("8h 6h 4h 2h Kc Qd Js", True),   # 8-6-4-2 does (4 cards)
        ("Ah Kh Qc Jc Td 9d 8s", False),  # 2-card flushes never
        ("Th 3h 2h 9c 8c 7c 5d", True),   # best 3-card group T-high
    ],
)
def test_section1_qualifying(text: str, qualifies: bool) -> None:
    assert evaluate(cards(text)).qualifies is qualifies


def test_section1_qualifying_judged_on_the_best_flush() -> None:
    # 9-3-2 clubs beats 8-7-6 hearts, so the hand qualifies.
    assert evaluate(cards("8h 7h 6h 9c 3c 2c Ad")).qualifies


@pytest.mark.parametrize(("size", "limit"), [(2, 1), (3, 1), (4, 1), (5, 2), (6, 3), (7, 3)])
def test_section1_raise_limit_1x_2x_3x(size: int, limit: int) -> None:
    assert raise_limit_for(size) == limit
    suited = " ".join(f"{r}h" for r in "AKQJT98"[:size])
    rest = " ".join(["2c", "3d", "4s", "5c", "6d", "7s", "8c"][: 7 - size])
    assert evaluate(cards(f"{suited} {rest}")).raise_limit == limit


def test_section1_worked_example() -> None:
    hand = evaluate(cards("Ah 4h 3h 2h Kc Qd Js"))
    assert format_cards(hand.flush_cards()) == "Ah 4h 3h 2h"
    assert hand.flush_size == 4
    assert format_cards(hand.straight_flush_cards()) == "4h 3h 2h Ah"
    assert hand.straight_flush_length == 4
    assert hand.qualifies
    assert hand.raise_limit == 1
    assert flush_size_of(hand.flush_key) == 4
    assert run_length_of(hand.run_key) == 4
    assert qualifies_key(hand.flush_key)


# ---------------------------------------------------------------- properties

FlushValue = tuple[int, tuple[int, ...]]
hands7 = st.lists(st.sampled_from(FULL_DECK), min_size=7, max_size=7, unique=True)


def reference_flush(hand: Sequence[int]) -> FlushValue:
    """The rules' flush, written plainly: (count, ranks high to low) of the best suit group."""
    groups = [sorted((rank_of(c) for c in hand if suit_of(c) == s), reverse=True) for s in range(4)]
    return max((len(g), tuple(g)) for g in groups)


def sign(a: FlushValue, b: FlushValue) -> int:
    return 1 if a > b else 2 if b > a else 0


@given(hands7, hands7)
def test_section1_compare_is_antisymmetric_and_matches_the_flush_definition(
    a: list[int], b: list[int]
) -> None:
    result = compare(a, b)
    assert result == sign(reference_flush(a), reference_flush(b))
    assert compare(b, a) == {0: 0, 1: 2, 2: 1}[result]
    assert (result == 0) == (reference_flush(a) == reference_flush(b))
    assert compare(a, a) == 0


@given(hands7, hands7, hands7)
def test_section1_compare_is_transitive(a: list[int], b: list[int], c: list[int]) -> None:
    for x, y, z in itertools.permutations([a, b, c]):
        if compare(x, y) != 2 and compare(y, z) != 2:  # x >= y >= z
            assert compare(x, z) != 2
            if compare(x, y) == 1 or compare(y, z) == 1:
                assert compare(x, z) == 1


@given(hands7, st.permutations(range(4)))
def test_section1_suits_have_no_rank_evaluation_invariant_under_suit_permutation(
    hand: list[int], perm: list[int]
) -> None:
    renamed = [make_card(rank_of(c), perm[suit_of(c)]) for c in hand]
    before, after = evaluate(hand), evaluate(renamed)
    assert (before.flush_key, before.run_key) == (after.flush_key, after.run_key)
    assert (before.qualifies, before.raise_limit) == (after.qualifies, after.raise_limit)
    assert compare(hand, renamed) == 0


@given(hands7)
def test_section1_reported_cards_are_a_flush_and_a_run_of_the_hand(hand: list[int]) -> None:
    value = evaluate(hand)
    flush = value.flush_cards()
    assert set(flush) <= set(hand)
    assert len({suit_of(c) for c in flush}) == 1
    assert (len(flush), tuple(rank_of(c) for c in flush)) == reference_flush(hand)
    run = value.straight_flush_cards()
    assert len(run) == value.straight_flush_length
    assert set(run) <= set(hand)
    if run:
        assert len(run) >= 3
        assert len({suit_of(c) for c in run}) == 1
        assert (len(run), reference_run(suit_mask(run))[1]) == reference_run(suit_mask(run))
        assert reference_run(suit_mask(run)) == max(reference_run(m) for m in suit_masks(hand))


# ---------------------------------------------------------------- exact combinatorics
#
# Computed by the functions below, independently of server code:
# per suit, the 8,192 rank masks grouped by (popcount, best run length with runs
# under 3 counted as 0); the four suits combined by convolution over card counts
# summing to 7, keeping the largest count (flush size) or the longest run
# (straight-flush length) across suits. Both distributions sum to C(52, 7).
# They agree with the published High Card Flush tables (e.g. the Wizard of Odds').

HANDS: int = math.comb(52, 7)  # 133,784,560
EXACT_FLUSH_SIZES: dict[int, int] = {
    2: 24_676_704,
    3: 78_881_088,
    4: 26_137_540,
    5: 3_814_668,
    6: 267_696,
    7: 6_864,
}
EXACT_STRAIGHT_FLUSH_LENGTHS: dict[int, int] = {  # 0: no run of 3 or more
    0: 124_423_848,
    3: 8_642_932,
    4: 676_196,
    5: 39_960,
    6: 1_592,
    7: 32,
}


def suit_mask(cards_of_one_suit: Sequence[int]) -> int:
    return sum(1 << rank_of(c) for c in cards_of_one_suit)


# Every run as a window of positions -1 (ace low) .. 12 (ace high), best first;
# a window may not hold the ace twice (-1..12 would be a wrap-around).
_WINDOWS = sorted(
    ((hi - lo + 1, hi, sum(1 << (12 if p == -1 else p) for p in range(lo, hi + 1)))
     for lo in range(-1, 13) for hi in range(lo, 13) if (lo, hi) != (-1, 12)),
    reverse=True,
)


@cache
def reference_run(mask: int) -> tuple[int, int]:
    """(length, top rank) of the best run of consecutive ranks in a suit mask."""
    return next(((length, top) for length, top, window in _WINDOWS if mask & window == window), (0, 0))


def reference_run_key(mask: int) -> int:
    length, top = reference_run(mask)
    return length << 4 | top if length >= 3 else 0


def per_suit_counts() -> Counter[tuple[int, int]]:
    """Masks of at most 7 cards by (cards, run length counted as 0 below 3)."""
    counts: Counter[tuple[int, int]] = Counter()
    for mask in range(1 << 13):
        size = mask.bit_count()
        if size <= 7:
            length = reference_run(mask)[0]
            counts[size, length if length >= 3 else 0] += 1
    return counts


def exact_distributions() -> tuple[dict[int, int], dict[int, int]]:
    """Hands by flush size and by straight-flush length, by convolution over the four suits."""
    per_suit = per_suit_counts()
    # state: (cards so far, largest suit so far, longest run so far) -> hands
    states: Counter[tuple[int, int, int]] = Counter({(0, 0, 0): 1})
    for _suit in range(4):
        grown: Counter[tuple[int, int, int]] = Counter()
        for (total, biggest, longest), ways in states.items():
            for (size, length), masks in per_suit.items():
                if total + size <= 7:
                    grown[total + size, max(biggest, size), max(longest, length)] += ways * masks
        states = grown
    flush: Counter[int] = Counter()
    run: Counter[int] = Counter()
    for (total, biggest, longest), ways in states.items():
        if total == 7:
            flush[biggest] += ways
            run[longest] += ways
    return dict(flush), dict(run)


def test_reference_run_function_examples() -> None:
    assert reference_run(suit_mask(cards("Qh Kh Ah"))) == (3, 12)
    assert reference_run(suit_mask(cards("Ah 2h 3h"))) == (3, 1)
    assert reference_run(suit_mask(cards("Kh Ah 2h"))) == (2, 12)
    assert reference_run((1 << 13) - 1) == (13, 12)


def test_section1_exact_flush_and_straight_flush_counts() -> None:
    flush, run = exact_distributions()
    assert flush == EXACT_FLUSH_SIZES
    assert run == EXACT_STRAIGHT_FLUSH_LENGTHS
    assert sum(flush.values()) == sum(run.values()) == HANDS == 133_784_560
    # A brute-force cross-check of the simplest entries.
    assert flush[7] == 4 * math.comb(13, 7)
    assert run[7] == 4 * 8  # A-7 .. 8-A in each suit


def test_section1_run_table_agrees_with_reference_on_all_8192_masks() -> None:
    disagree = [mask for mask in range(1 << 13) if RUN_KEY[mask] != reference_run_key(mask)]
    assert disagree == []


def test_section1_flush_key_agrees_with_reference_on_all_suit_groups() -> None:
    for mask in range(1 << 13):
        assert flush_key_of([mask, 0, 0, 0]) >> 13 == mask.bit_count()
    assert run_key_of([0, 0, 0, 0]) == 0


SAMPLE = 200_000


def test_section1_sampled_frequencies_match_exact_shares() -> None:
    rng = random.Random(20240607)
    flush: Counter[int] = Counter()
    run: Counter[int] = Counter()
    for _ in range(SAMPLE):
        hand = evaluate(rng.sample(FULL_DECK, 7))
        flush[hand.flush_size] += 1
        run[hand.straight_flush_length] += 1
    for observed, exact in ((flush, EXACT_FLUSH_SIZES), (run, EXACT_STRAIGHT_FLUSH_LENGTHS)):
        assert set(observed) <= set(exact)
        for key, ways in exact.items():
            share = ways / HANDS
            expected = SAMPLE * share
            standard_error = math.sqrt(SAMPLE * share * (1 - share))
            assert abs(observed[key] - expected) <= 5 * standard_error + 1, (key, observed[key], expected)
