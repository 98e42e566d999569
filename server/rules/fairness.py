"""The provably fair shuffle (docs/rules/hcf.md section 6), version 1.

Every step is specified in ``docs/fairness.md`` so anyone can rebuild a deck
with their own code:

1. ``commitment = SHA-256(server_seed)``, published before bets close.
2. ``deck_seed = HMAC-SHA256(key=server_seed, msg=b"hcf-table/deck/v1" ||
   for each player seed in seat order: len(seed) as 4 bytes big-endian || seed)``.
3. The byte stream is ``HMAC-SHA256(key=deck_seed, msg=b"hcf-table/stream/v1" ||
   counter as 8 bytes big-endian)`` for counter 0, 1, 2, ... concatenated.
4. A uniform integer below ``n`` takes the next 4 bytes as a big-endian
   ``x``; if ``x >= 2**32 - (2**32 % n)`` it is thrown away and the next 4 bytes
   are taken (rejection sampling: no modulo bias); otherwise it is ``x % n``.
5. Fisher-Yates: start from the 52 cards in order ``2c 2d 2h 2s 3c ... As`` and
   for ``i`` from 51 down to 1 swap position ``i`` with position ``j = uniform(i + 1)``.
   The deck is dealt from position 0 upward.

>>> seed = bytes(32)
>>> commitment(seed)[:16]
'66687aadf862bd77'
>>> deck = shuffled_deck(derive_deck_seed(seed, []))
>>> len(deck), len(set(deck))
(52, 52)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from server.rules.cards import DECK_SIZE, Card

SHUFFLE_VERSION: Final = 1
DECK_DOMAIN: Final = b"hcf-table/deck/v1"
STREAM_DOMAIN: Final = b"hcf-table/stream/v1"
SEED_BYTES: Final = 32


def commitment(server_seed: bytes) -> str:
    """Hex SHA-256 of the server seed: what is published before bets close."""
    return hashlib.sha256(server_seed).hexdigest()


def player_seed_bytes(seed: str) -> bytes:
    """A player seed as it enters the derivation: its UTF-8 bytes."""
    return seed.encode("utf-8")


def derive_deck_seed(server_seed: bytes, player_seeds: Sequence[bytes]) -> bytes:
    """Mix the server seed with every player seed received, in seat order."""
    message = bytearray(DECK_DOMAIN)
    for seed in player_seeds:
        message += len(seed).to_bytes(4, "big") + seed
    return hmac.new(server_seed, bytes(message), hashlib.sha256).digest()


def byte_stream(deck_seed: bytes) -> Iterator[int]:
    """The endless, portable byte stream that drives the shuffle."""
    counter = 0
    while True:
        block = STREAM_DOMAIN + counter.to_bytes(8, "big")
        yield from hmac.new(deck_seed, block, hashlib.sha256).digest()
        counter += 1


def _uniform_below(stream: Iterator[int], n: int) -> int:
    limit = 2**32 - (2**32 % n)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if x < limit:
            return x % n


def shuffled_deck(deck_seed: bytes) -> tuple[Card, ...]:
    """The 52 cards in dealing order, from the deck seed alone."""
    deck = list(range(DECK_SIZE))
    stream = byte_stream(deck_seed)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = _uniform_below(stream, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def deal_deck(server_seed: bytes, player_seeds: Sequence[bytes]) -> tuple[str, bytes, tuple[Card, ...]]:
    """(commitment, deck seed, deck) for one hand: everything a verifier recomputes."""
    deck_seed = derive_deck_seed(server_seed, player_seeds)
    return commitment(server_seed), deck_seed, shuffled_deck(deck_seed)


def verify_commitment(server_seed: bytes, published: str) -> bool:
    """Whether a revealed server seed matches the commitment published earlier."""
    return hmac.compare_digest(commitment(server_seed), published.lower())


def seeded_deck(server_seed: bytes, player_seeds: Iterable[tuple[int, str]]) -> tuple[Card, ...]:
    """A hand's deck: the server seed mixed with the players' ``(seat, seed)`` text seeds, in the order given."""
    return shuffled_deck(derive_deck_seed(server_seed, [player_seed_bytes(seed) for _, seed in player_seeds]))
