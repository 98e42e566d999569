"""Exact shares of a single random 7-card hand, by counting, to check the simulator against.

Each suit's 13-bit rank mask is one of 8,192; a hand is four masks whose card counts
add up to 7. Counting hands by their masks' classes, suit by suit, gives exact
fractions over the C(52, 7) = 133,784,560 hands, in well under a second.

>>> shares = hand_shares()
>>> sum(shares.flush_size.values()), shares.flush_size[7] == Fraction(4 * 1716, 133784560)
(Fraction(1, 1), True)
>>> round(float(shares.qualifies), 4)  # the dealer or DP qualifies this often
0.7536
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from server.rules.cards import DECK_SIZE
from server.rules.hcf.evaluate import HAND_SIZE, RUN_KEY, HcfHand, qualifies_key
from server.rules.hcf.settings import PayTable
from server.rules.hcf.strategy import basic_raise

_SUITS = 4
_MASKS = 1 << 13

# (cards, flush size so far, run length so far, qualifying 3-card suit seen, raising 3-card suit seen)
_State = tuple[int, int, int, bool, bool]


@dataclass(frozen=True, slots=True)
class HandShares:
    """Exact probabilities for one random 7-card hand."""

    flush_size: dict[int, Fraction]
    straight_flush_length: dict[int, Fraction]
    qualifies: Fraction
    basic_raises: Fraction

    def own_hand_return(self, pays: PayTable, *, runs: bool) -> Fraction:
        """Expected result per unit of a bonus paid on the hand alone (the ``standard`` profile)."""
        odds = dict(pays)
        shares = self.straight_flush_length if runs else self.flush_size
        return sum((share * odds[n] if n in odds else -share for n, share in shares.items()), Fraction(0))


def _suit_classes(flag: Callable[[int], bool], raise_flag: Callable[[int], bool]) -> Counter[_State]:
    """How many masks of one suit fall in each (count, size, run, flag, raise flag) class."""
    classes: Counter[_State] = Counter()
    for mask in range(_MASKS):
        count = mask.bit_count()
        if count <= HAND_SIZE:
            key = count << 13 | mask
            classes[count, count, RUN_KEY[mask] >> 4, flag(key), raise_flag(key)] += 1
    return classes


@cache
def hand_shares() -> HandShares:
    """Flush size, straight-flush length, qualifying and basic-raise shares, exactly."""
    # A 3-card best flush qualifies (or is raised) exactly when some 3-card suit's key does.
    classes = _suit_classes(lambda key: key >> 13 == 3 and qualifies_key(key),
                            lambda key: key >> 13 == 3 and basic_raise(HcfHand((), key, 0), 1) > 0)
    states: Counter[_State] = Counter({(0, 0, 0, False, False): 1})
    for _ in range(_SUITS):
        grown: Counter[_State] = Counter()
        for (cards, size, run, q3, r3), ways in states.items():
            for (c, s, r, q, rr), masks in classes.items():
                if cards + c <= HAND_SIZE:
                    grown[cards + c, max(size, s), max(run, r), q3 or q, r3 or rr] += ways * masks
        states = grown
    hands = comb(DECK_SIZE, HAND_SIZE)
    flush: Counter[int] = Counter()
    runs: Counter[int] = Counter()
    qualifying = raising = 0
    for (cards, size, run, q3, r3), ways in states.items():
        if cards != HAND_SIZE:
            continue
        flush[size] += ways
        runs[run] += ways
        qualifying += ways if size >= 4 or (size == 3 and q3) else 0
        raising += ways if size >= 4 or (size == 3 and r3) else 0
    return HandShares(
        {n: Fraction(w, hands) for n, w in sorted(flush.items())},
        {n: Fraction(w, hands) for n, w in sorted(runs.items())},
        Fraction(qualifying, hands),
        Fraction(raising, hands),
    )
