"""Five-card poker hands, shared by Caribbean Stud and 6 Card Poker (docs/rules/caribbean.md section 1).

A hand's value is one int, higher is better, equal is a tie: the class index in
the top bits, then up to five rank indices (0..12 for 2..A) most significant
first, in the order the tie rules compare them. ``A-2-3-4-5`` counts its five
as the top card.

>>> from server.rules.cards import parse_cards
>>> class_name(rank5(parse_cards("Ah Kh Qh Jh Th")))
'royal'
>>> class_name(rank5(parse_cards("5d 4c 3h 2s Ad")))
'straight'
>>> rank5(parse_cards("Ac Ad 9h 9s 2c")) > rank5(parse_cards("Kc Kd Qh Qs Ac"))
True
>>> qualifies_ak(rank5(parse_cards("Ac Kd 4h 3s 2c"))), qualifies_ak(rank5(parse_cards("Ac Qd Jh Ts 9c")))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from server.rules.cards import Card

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

CLASSES: Final = ("high_card", "pair", "two_pair", "trips", "straight", "flush", "full_house", "quads",
                  "straight_flush", "royal")
"""Every class name, low to high; ``royal`` is the ace-high straight flush, named apart."""

ACE: Final = 12
KING: Final = 11
_SHIFT: Final = 20
_WHEEL: Final = 0b1000000001111  # A 5 4 3 2


def _pack(kind: int, ranks: Sequence[int]) -> int:
    value = kind
    for rank in ranks:
        value = value << 4 | rank
    return value << 4 * (5 - len(ranks))


def _straight_top(mask: int) -> int | None:
    if mask == _WHEEL:
        return 3  # the five
    low = (mask & -mask).bit_length() - 1
    return low + 4 if mask == 0b11111 << low else None


def rank5(cards: Sequence[Card]) -> int:
    """The value of exactly five cards (higher wins, equal ties)."""
    if len(cards) != 5:
        raise ValueError(f"a poker hand is 5 cards, got {len(cards)}")
    counts = [0] * 13
    mask = 0
    for card in cards:
        rank = card >> 2
        counts[rank] += 1
        mask |= 1 << rank
    flush = len({card & 3 for card in cards}) == 1
    if bin(mask).count("1") == 5:
        top = _straight_top(mask)
        high = sorted((card >> 2 for card in cards), reverse=True)
        if top is not None:
            return _pack(STRAIGHT_FLUSH if flush else STRAIGHT, [top])
        return _pack(FLUSH if flush else HIGH_CARD, high)
    # Groups by size then rank, largest first: the order the tie rules compare them.
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    shape = tuple(n for n, _ in groups)
    ranks = [r for _, r in groups]
    kind = {(4, 1): QUADS, (3, 2): FULL_HOUSE, (3, 1, 1): TRIPS, (2, 2, 1): TWO_PAIR,
            (2, 1, 1, 1): PAIR}[shape]
    return _pack(kind, ranks)


def kind_of(value: int) -> int:
    """The class index (``HIGH_CARD`` .. ``STRAIGHT_FLUSH``) of a value."""
    return value >> _SHIFT


def top_rank(value: int) -> int:
    """The first rank the tie rules compare (a straight's top card, a pair's rank...)."""
    return value >> (_SHIFT - 4) & 15


def class_name(value: int) -> str:
    """The class name of a value, ``royal`` apart from other straight flushes."""
    kind = kind_of(value)
    if kind == STRAIGHT_FLUSH and top_rank(value) == ACE:
        return "royal"
    return CLASSES[kind]


def qualifies_ak(value: int) -> bool:
    """Caribbean Stud's dealer: any pair or better, or high card holding an ace and a king."""
    if kind_of(value) >= PAIR:
        return True
    return top_rank(value) == ACE and (value >> (_SHIFT - 8) & 15) == KING


def qualifies_pair(value: int) -> bool:
    """6 Card Poker's dealer: a pair of twos or better."""
    return kind_of(value) >= PAIR


def best_five(cards: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """The best 5-card hand among 5 or more cards: its value and its cards (first found on ties)."""
    if len(cards) < 5:
        raise ValueError(f"a poker hand needs 5 cards, got {len(cards)}")
    best_value, best_cards = -1, tuple(cards[:5])
    for five in combinations(cards, 5):
        value = rank5(five)
        if value > best_value:
            best_value, best_cards = value, five
    return best_value, tuple(best_cards)


def compare(first: Sequence[Card], second: Sequence[Card]) -> int:
    """1 if ``first`` (best five) wins, 2 if ``second`` does, 0 for a tie."""
    a, b = best_five(first)[0], best_five(second)[0]
    return 0 if a == b else (1 if a > b else 2)
