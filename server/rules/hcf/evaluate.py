"""High Card Flush hand values (docs/rules/hcf.md section 1).

Each suit's ranks form a 13-bit mask (bit 0 = deuce, bit 12 = ace). Two such
masks with the same number of cards compare, as plain ints, exactly as the rules
compare flushes "from the top down", so a flush's whole value is one int:
``size << 13 | mask``. A straight flush is ``length << 4 | top_rank``. Both come
from tables over all 8,192 masks, built once at import.

>>> from server.rules.cards import parse_cards
>>> hand = evaluate(parse_cards("Ah 4h 3h 2h Kc Qd Js"))
>>> hand.flush_size, hand.straight_flush_length, hand.qualifies, hand.raise_limit
(4, 4, True, 1)
>>> compare(parse_cards("Ah 4h 3h 2h Kc Qd Js"), parse_cards("Kd Qd Jd Td 2c 3c 4s"))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from server.rules.cards import RANKS, Card, make_card, rank_of, suit_of

HAND_SIZE: Final = 7
MIN_RUN: Final = 3
NINE: Final = 7  # rank index of the 9
_MASKS: Final = 1 << 13


def _longest_run(mask: int) -> tuple[int, int]:
    """(length, top rank) of the best run in one suit, the ace playing high or low."""
    extended = (mask << 1) | ((mask >> 12) & 1)  # bit 0 is the ace played low
    best_len, best_top, length = 0, 0, 0
    for bit in range(14):
        length = length + 1 if extended >> bit & 1 else 0
        if length and length >= best_len:
            best_len, best_top = length, bit - 1
    return min(best_len, 13), max(best_top, 0)  # one ace cannot end a run at both ends (no wrap-around)


def _run_table() -> tuple[int, ...]:
    keys = []
    for mask in range(_MASKS):
        length, top = _longest_run(mask)
        keys.append(length << 4 | top if length >= MIN_RUN else 0)
    return tuple(keys)


RUN_KEY: Final[tuple[int, ...]] = _run_table()
"""RUN_KEY[mask]: ``length << 4 | top_rank`` of the suit's best run, 0 below 3 cards."""


def suit_masks(cards: Sequence[Card]) -> tuple[int, int, int, int]:
    """The 13-bit rank mask of each suit."""
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card & 3] |= 1 << (card >> 2)
    return masks[0], masks[1], masks[2], masks[3]


def flush_key_of(masks: Sequence[int]) -> int:
    """Comparable value of the best flush: more cards first, then ranks top down."""
    return max(mask.bit_count() << 13 | mask for mask in masks)


def run_key_of(masks: Sequence[int]) -> int:
    """Comparable value of the best straight-flush run (0 when none of 3 or more)."""
    return max(RUN_KEY[mask] for mask in masks)


def flush_size_of(flush_key: int) -> int:
    """Cards in the flush encoded by ``flush_key``."""
    return flush_key >> 13


def run_length_of(run_key: int) -> int:
    """Cards in the run encoded by ``run_key`` (0 when none)."""
    return run_key >> 4


def raise_limit_for(flush_size: int) -> int:
    """Raise limit in Antes: 1x up to 4 cards, 2x with 5, 3x with 6 or 7.

    >>> [raise_limit_for(size) for size in range(2, 8)]
    [1, 1, 1, 2, 3, 3]
    """
    if flush_size >= 6:
        return 3
    return 2 if flush_size == 5 else 1


def qualifies_key(flush_key: int) -> bool:
    """A flush of 4 or more, or of 3 whose top card is a 9 or higher."""
    size = flush_key >> 13
    return size >= 4 or (size == 3 and (flush_key & (_MASKS - 1)).bit_length() - 1 >= NINE)


@dataclass(frozen=True, slots=True)
class HcfHand:
    """The values of one 7-card hand that the game needs."""

    cards: tuple[Card, ...]
    flush_key: int
    run_key: int

    @property
    def flush_size(self) -> int:
        """Cards in the best flush."""
        return self.flush_key >> 13

    @property
    def straight_flush_length(self) -> int:
        """Cards in the best straight flush, 0 when there is no run of 3 or more."""
        return self.run_key >> 4

    @property
    def qualifies(self) -> bool:
        """Whether this hand qualifies as the DP's or dealer's hand."""
        return qualifies_key(self.flush_key)

    @property
    def raise_limit(self) -> int:
        """How many Antes this hand may raise."""
        return raise_limit_for(self.flush_size)

    def flush_cards(self) -> tuple[Card, ...]:
        """The cards of the best flush, highest first."""
        masks = suit_masks(self.cards)
        for suit, mask in enumerate(masks):
            if mask.bit_count() << 13 | mask == self.flush_key:
                return tuple(make_card(r, suit) for r in range(12, -1, -1) if mask >> r & 1)
        raise AssertionError("flush key does not match the cards")

    def straight_flush_cards(self) -> tuple[Card, ...]:
        """The best run from its top card down (an ace played low comes last)."""
        if not self.run_key:
            return ()
        masks = suit_masks(self.cards)
        suit = next(s for s, mask in enumerate(masks) if RUN_KEY[mask] == self.run_key)
        top, length = self.run_key & 15, self.run_key >> 4
        return tuple(make_card((top - i) % 13, suit) for i in range(length))


def evaluate(cards: Sequence[Card]) -> HcfHand:
    """Evaluate a hand (normally 7 cards; any count works for display)."""
    masks = suit_masks(cards)
    return HcfHand(tuple(cards), flush_key_of(masks), run_key_of(masks))


def compare(first: Sequence[Card], second: Sequence[Card]) -> int:
    """1 if the first hand's flush is better, 2 if the second's, 0 for a tie."""
    a, b = flush_key_of(suit_masks(first)), flush_key_of(suit_masks(second))
    return 1 if a > b else 2 if b > a else 0


def describe_flush(cards: Sequence[Card]) -> str:
    """``'4-card flush A-4-3-2'``: for people."""
    ranks = "-".join(RANKS[rank_of(c)] for c in evaluate(cards).flush_cards())
    return f"{len(ranks.split('-'))}-card flush {ranks}"


__all__ = [
    "HAND_SIZE",
    "RUN_KEY",
    "HcfHand",
    "compare",
    "describe_flush",
    "evaluate",
    "flush_key_of",
    "flush_size_of",
    "qualifies_key",
    "raise_limit_for",
    "run_key_of",
    "run_length_of",
    "suit_masks",
    "suit_of",
]
