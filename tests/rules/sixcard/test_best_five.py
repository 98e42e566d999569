"""docs/rules/sixcard.md section 1: a box plays its best five; the dealer qualifies with a pair of twos or better.

Every hand is counted by grouping: a rank multiset fixes the hand except for its
suits, and only whether five or six cards share a suit changes the result. So each
multiset is valued once per suit pattern that matters, weighted by how many suit
assignments give that pattern.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from math import comb, prod

from server.rules.cards import make_card, parse_cards
from server.rules.poker import best_five, class_name, qualifies_pair, rank5

SIX_CARD_COUNTS = {
    "royal": 188, "straight_flush": 1_656, "quads": 14_664, "full_house": 165_984, "flush": 205_792,
    "straight": 361_620, "trips": 732_160, "two_pair": 2_532_816, "pair": 9_730_740, "high_card": 6_612_900,
}


def _multisets(size: int) -> Iterator[tuple[int, ...]]:
    for ranks in combinations_with_replacement(range(13), size):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


def _spread(ranks: Sequence[int]) -> tuple[int, ...]:
    """Suits cycled over the sorted ranks: equal ranks get distinct suits, no suit holds five."""
    return tuple(make_card(rank, i % 4) for i, rank in enumerate(ranks))


def _suited(ranks: Sequence[int], off: int | None = None) -> tuple[int, ...]:
    """All in clubs, except the card at index ``off`` in diamonds."""
    return tuple(make_card(rank, 1 if i == off else 0) for i, rank in enumerate(ranks))


def _six_card_patterns(ranks: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
    """(a hand, how many suit assignments it stands for) covering every hand of these ranks once."""
    counts = Counter(ranks)
    total = prod(comb(4, n) for n in counts.values())
    if len(counts) == 6:
        yield _suited(ranks), 4                      # six of one suit
        for off in range(6):
            yield _suited(ranks, off), 4 * 3          # five of one suit, this card of another
        yield _spread(ranks), total - 4 - 6 * 12
    elif len(counts) == 5:
        # The five ranks in one suit: the paired rank's other card is in one of the 3 other suits.
        paired = next(r for r, n in counts.items() if n == 2)
        single = sorted(set(ranks))
        yield (*_suited(single), make_card(paired, 1)), 4 * 3
        yield _spread(ranks), total - 12
    else:
        yield _spread(ranks), total


def test_section1_best_five_counts_over_all_six_card_hands() -> None:
    found: Counter[str] = Counter()
    for ranks in _multisets(6):
        for hand, weight in _six_card_patterns(ranks):
            found[class_name(best_five(hand)[0])] += weight
    assert sum(found.values()) == comb(52, 6) == 20_358_520
    assert dict(found) == SIX_CARD_COUNTS


def test_section1_dealer_qualifies_with_a_pair_or_better_in_1296420_hands() -> None:
    qualifying = 0
    total = 0
    for ranks in _multisets(5):
        counts = Counter(ranks)
        weight = prod(comb(4, n) for n in counts.values())
        total += weight
        if len(counts) == 5:  # four of the 1,024 suit assignments are flushes, which qualify
            qualifying += 4 * qualifies_pair(rank5(_suited(ranks))) + (weight - 4) * qualifies_pair(
                rank5(_spread(ranks)))
        else:
            qualifying += weight * qualifies_pair(rank5(_spread(ranks)))
    assert total == 2_598_960
    assert qualifying == 1_296_420


def test_section1_lowest_qualifier_is_a_pair_of_twos() -> None:
    assert qualifies_pair(rank5(parse_cards("2c 2d 3h 4s 6c")))
    assert not qualifies_pair(rank5(parse_cards("Ac Kd Qh Js 9c")))


def test_section1_only_the_best_five_of_six_counts() -> None:
    value, best = best_five(parse_cards("Ah Kh Qh Jh 9h Th"))
    assert class_name(value) == "royal"
    assert sorted(best) == sorted(parse_cards("Ah Kh Qh Jh Th"))
    # Two pair plus a sixth card making a flush: the flush is the one hand.
    value, _ = best_five(parse_cards("As Ks Kd 9s 9c 2s"))
    assert class_name(value) == "two_pair"
    value, _ = best_five(parse_cards("As Ks Kd 9s 3s 2s"))
    assert class_name(value) == "flush"
