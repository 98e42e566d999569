"""Seeds and decks: a hex seed, the same decks for the same seed, any batch sizes."""

from __future__ import annotations

import numpy as np
import pytest

from server.rules.cards import DECK_SIZE
from server.simulation.decks import DeckStream, SeedError, parse_seed, random_seed


def test_every_deck_is_a_permutation_of_the_52_cards() -> None:
    decks = DeckStream("1").take(2000)
    assert decks.shape == (2000, DECK_SIZE)
    assert np.array_equal(np.sort(decks, axis=1), np.tile(np.arange(DECK_SIZE), (2000, 1)))


def test_same_seed_same_decks_whatever_the_batches() -> None:
    whole = DeckStream("DeadBeef").take(100)
    stream = DeckStream("deadbeef")
    parts = np.concatenate([stream.take(n) for n in (1, 30, 69)])
    assert np.array_equal(whole, parts)


def test_other_seed_other_decks() -> None:
    assert not np.array_equal(DeckStream("1").take(5), DeckStream("2").take(5))


def test_cards_are_spread_evenly() -> None:
    # Each card lands in the first position about 1/52 of the time.
    counts = np.bincount(DeckStream("5").take(52_000)[:, 0], minlength=DECK_SIZE)
    assert counts.min() > 800
    assert counts.max() < 1200


@pytest.mark.parametrize("text", ["", "  ", "xyz", "0x10", "12 34", "-1"])
def test_a_seed_must_be_hex(text: str) -> None:
    with pytest.raises(SeedError, match="hex"):
        parse_seed(text)


def test_random_seeds_are_fresh_hex() -> None:
    first, second = random_seed(), random_seed()
    assert first != second
    assert parse_seed(first) >= 0
