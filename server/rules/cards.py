"""Cards and their notation.

A card is a small int: ``rank * 4 + suit`` with rank 0..12 for ``2..A`` and suit
0..3 for ``c d h s``. Ints keep hands cheap to copy, hash and evaluate; the
:class:`Card` helpers turn them into text and back.

>>> parse_cards("Ah 10h 9h")
(50, 34, 30)
>>> format_cards(parse_cards("ah td 2C"))
'Ah Td 2c'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from server.rules.errors import RuleError

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
DECK_SIZE: Final = 52
FULL_DECK: Final[tuple[int, ...]] = tuple(range(DECK_SIZE))

Card = int


class CardError(RuleError):
    """Bad card notation: an unknown rank or suit, a duplicate, a wrong count."""

    default_code = "cards/invalid"


def rank_of(card: Card) -> int:
    """Rank index 0..12 (2..A)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """Suit index 0..3 (c d h s)."""
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    """The card of a rank index and a suit index."""
    return rank * 4 + suit


def card_text(card: Card) -> str:
    """``'Ah'`` for the ace of hearts.

    >>> card_text(make_card(12, 2))
    'Ah'
    """
    if not 0 <= card < DECK_SIZE:
        raise CardError(f"no such card number: {card}")
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_card(text: str) -> Card:
    """Parse one card, case-insensitive, accepting ``10`` for ``T``.

    >>> card_text(parse_card("10S"))
    'Ts'
    """
    token = text.strip()
    if len(token) < 2:
        raise CardError(f"bad card {text!r}: a card is a rank and a suit, like 'Ah'")
    rank_part, suit_part = token[:-1].upper(), token[-1].lower()
    if rank_part == "10":
        rank_part = "T"
    if len(rank_part) != 1 or rank_part not in RANKS:
        raise CardError(f"bad card {text!r}: unknown rank {token[:-1]!r} (use 2-9, T, J, Q, K, A)")
    if suit_part not in SUITS:
        raise CardError(f"bad card {text!r}: unknown suit {token[-1]!r} (use c, d, h, s)")
    return make_card(RANKS.index(rank_part), SUITS.index(suit_part))


def parse_cards(text: str | Sequence[str], count: int | None = None) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas; reject duplicates and wrong counts."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(parse_card(token) for token in tokens)
    seen: set[Card] = set()
    for token, card in zip(tokens, cards, strict=True):
        if card in seen:
            raise CardError(f"duplicate card {card_text(card)} (given as {token!r})")
        seen.add(card)
    if count is not None and len(cards) != count:
        raise CardError(f"expected {count} cards, got {len(cards)}")
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Space-separated notation."""
    return " ".join(card_text(card) for card in cards)


def cards_list(cards: Iterable[Card]) -> list[str]:
    """Notation as a list of strings, for JSON."""
    return [card_text(card) for card in cards]
