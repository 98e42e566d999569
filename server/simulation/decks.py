"""Seeded decks for the simulator: one row of 52 cards per hand.

A seed is a hex string, read as a number: it seeds numpy's ``SeedSequence`` and a
``PCG64`` generator, and every hand takes the next 52 cards of a Fisher-Yates shuffle
of ``0..51`` (``Generator.permuted``, row by row). Hand ``i`` therefore gets the same
deck whatever the chunk sizes it is drawn in, and the same seed gives the same run.

>>> stream = DeckStream("c0ffee")
>>> first = stream.take(3)
>>> first.shape, sorted(first[0].tolist()) == list(range(52))
((3, 52), True)
>>> again = DeckStream("C0FFEE")
>>> bool((again.take(1) == first[:1]).all() and (again.take(2) == first[1:]).all())
True
"""

from __future__ import annotations

import secrets
import string
from typing import Final

import numpy as np
import numpy.typing as npt

from server.rules.cards import DECK_SIZE

Decks = npt.NDArray[np.uint8]
"""(hands, 52) card numbers in dealing order, as :mod:`server.rules.cards` numbers them."""

_HEX: Final = frozenset(string.hexdigits)


class SeedError(ValueError):
    """A seed that is not a non-empty hex string."""


def parse_seed(text: str) -> int:
    """The number a hex seed stands for.

    >>> parse_seed("ff"), parse_seed("00ff")
    (255, 255)
    """
    cleaned = text.strip()
    if not cleaned or not set(cleaned) <= _HEX:
        raise SeedError(f"a seed is a non-empty string of hex digits (0-9, a-f), got {text!r}")
    return int(cleaned, 16)


def random_seed() -> str:
    """A fresh 128-bit seed, in hex, for a run that was given none."""
    return secrets.token_hex(16)


class DeckStream:
    """The decks of a run, hand after hand."""

    def __init__(self, seed: str) -> None:
        self._generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(parse_seed(seed))))
        self._ordered = np.arange(DECK_SIZE, dtype=np.uint8)

    def take(self, count: int) -> Decks:
        """The next ``count`` decks."""
        rows = np.broadcast_to(self._ordered, (count, DECK_SIZE))
        return self._generator.permuted(rows, axis=1)
