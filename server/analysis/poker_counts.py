"""Exact class counts of the 2,598,960 five-card hands, for Caribbean Stud and 6 Card Poker.

A hand is a multiset of five ranks (at most four of each) and its suits. Each multiset
is valued once by :func:`server.rules.poker.rank5`: with five distinct ranks, 4 of its
4**5 suit choices are flushes and the rest are not; otherwise no suit choice is a
flush, and there are prod(C(4, k)) of them for ranks held k times.

>>> counts = class_counts()
>>> counts["royal"], counts["flush"], counts["high_card"], sum(counts.values())
(4, 5108, 1302540, 2598960)
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Final

from server.rules.cards import make_card
from server.rules.poker import CLASSES, class_name, qualifies_ak, rank5

HANDS: Final = comb(52, 5)


@cache
def _multisets() -> tuple[tuple[str, int, bool], ...]:
    """(class, ways, dealer qualifies with A-K) for every rank multiset, flush and not."""
    out = []
    for ranks in combinations_with_replacement(range(13), 5):
        held = Counter(ranks)
        if max(held.values()) > 4:
            continue
        # Equal ranks sit side by side, so i % 4 gives them distinct suits (and two suits at least: no flush).
        plain = rank5([make_card(r, i % 4) for i, r in enumerate(ranks)])
        ways = prod(comb(4, k) for k in held.values())
        if len(held) == 5:
            flush = rank5([make_card(r, 0) for r in ranks])
            out.append((class_name(flush), 4, qualifies_ak(flush)))
            ways -= 4
        out.append((class_name(plain), ways, qualifies_ak(plain)))
    return tuple(out)


def class_counts() -> dict[str, int]:
    """Hands of each class (``royal`` apart), low to high as :data:`~server.rules.poker.CLASSES`."""
    counts = dict.fromkeys(CLASSES, 0)
    for name, ways, _ in _multisets():
        counts[name] += ways
    return counts


def ak_qualifying() -> int:
    """Hands that qualify as a Caribbean Stud dealer's (A-K or better): 1,463,700."""
    return sum(ways for _, ways, ok in _multisets() if ok)
