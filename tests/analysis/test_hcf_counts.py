"""The class counts against a plain count: every subset of each suit's ranks left, one by one."""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from server.analysis import hcf_counts as hc
from server.rules.cards import parse_cards
from server.rules.hcf.evaluate import RUN_KEY, flush_key_of, run_key_of, suit_masks

_TABLES = hc._BelowTables()
_RUNS, _RUN_INDEX = hc.run_tables()


def canonical(masks: tuple[int, ...]) -> tuple[tuple[int, ...], np.ndarray]:
    """The class row of a hand: counts high to low, equal counts by mask, low to high."""
    ordered = sorted(masks, key=lambda m: (-m.bit_count(), m))
    return tuple(m.bit_count() for m in ordered), np.array([ordered], dtype=np.int64)


def plain_count(masks: tuple[int, ...], below: Callable[[int], bool]) -> int:
    """Dealer hands (7 of the cards left) whose every suit passes ``below(subset)``, by brute force."""
    product = [1] + [0] * 7
    for held in masks:
        left = hc.FULL & ~held
        poly = [0] * 8
        sub = left
        while True:  # every subset of the ranks left in this suit
            if sub.bit_count() <= 7 and below(sub):
                poly[sub.bit_count()] += 1
            if sub == 0:
                break
            sub = (sub - 1) & left
        product = [sum(product[i] * poly[k - i] for i in range(k + 1)) for k in range(8)]
    return product[7]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True))
# Runs are rare in random hands: some that have one, an ace-low one, a 7-card straight flush, two 3-card suits.
@example(parse_cards("Ah 2h 3h 4h 9c 9d 9s"))
@example(parse_cards("Th Jh Qh Kh Ah 2c 3d"))
@example(parse_cards("2s 3s 4s 5s 6s 7s 8s"))
@example(parse_cards("9h 8h 7h 9c 8c 7c 2d"))
@example(parse_cards("Ac Kc Qc Ad Kd Qd 2s"))
def test_each_count_matches_the_plain_count(cards: list[int]) -> None:
    masks = suit_masks(cards)
    pattern, row = canonical(masks)
    chunk = hc._chunk(pattern, row, np.ones(1, dtype=np.int64), _TABLES, _RUNS, _RUN_INDEX)
    key, run = flush_key_of(masks), run_key_of(masks)
    assert int(chunk.flush_key[0]) == key
    assert int(chunk.run_key[0]) == run

    def flush(sub: int) -> int:
        return sub.bit_count() << 13 | sub

    assert int(chunk.below[0]) == plain_count(masks, lambda d: flush(d) < key)
    assert int(chunk.not_above[0]) == plain_count(masks, lambda d: flush(d) <= key)
    assert int(chunk.unqualified[0]) == plain_count(masks, lambda d: flush(d) < hc.QUALIFY_FROM)
    if run:
        assert int(chunk.run_below[0]) == plain_count(masks, lambda d: RUN_KEY[d] < run)
        assert int(chunk.run_not_above[0]) == plain_count(masks, lambda d: RUN_KEY[d] <= run)
    assert plain_count(masks, lambda _: True) == comb(45, 7)
