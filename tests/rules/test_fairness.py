"""docs/rules/hcf.md section 6: the committed, seeded, verifiable shuffle."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import FULL_DECK, format_cards
from server.rules.fairness import (
    SEED_BYTES,
    byte_stream,
    commitment,
    deal_deck,
    derive_deck_seed,
    player_seed_bytes,
    shuffled_deck,
    verify_commitment,
)

ZERO_SEED = bytes(SEED_BYTES)

# The deck of server seed = 32 zero bytes and no player seeds, pinned by value:
# any change to the derivation, the stream, the sampling or the shuffle breaks it.
ZERO_SEED_COMMITMENT = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
ZERO_SEED_DECK = (
    "9h Ac 8d 7d Kd 8s 9d 2c 7h Td 6d 3c 9c Kh Qc 4h Js 3s 5s 6c 2d 4c 6h 3h Qh 6s "
    "Qs Kc Jc Qd 5d Ad 8h Th 5h 4d Ah 7c As Jd Ks Ts 9s 8c 3d 4s Tc 5c 2h 7s 2s Jh"
)


def deck_of(server_seed: bytes, player_seeds: Sequence[bytes] = ()) -> tuple[int, ...]:
    return shuffled_deck(derive_deck_seed(server_seed, player_seeds))


def seed(n: int) -> bytes:
    return hashlib.sha256(b"test seed %d" % n).digest()


def test_section6_commitment_is_sha256_hex_of_the_server_seed() -> None:
    server_seed = seed(1)
    published = commitment(server_seed)
    assert published == hashlib.sha256(server_seed).hexdigest()
    assert len(published) == 64
    assert all(c in "0123456789abcdef" for c in published)
    assert verify_commitment(server_seed, published)
    assert verify_commitment(server_seed, published.upper())
    assert not verify_commitment(seed(2), published)


def test_section6_known_vector_zero_seed() -> None:
    assert commitment(ZERO_SEED) == ZERO_SEED_COMMITMENT
    assert format_cards(deck_of(ZERO_SEED)) == ZERO_SEED_DECK


def test_section6_same_inputs_give_the_same_deck() -> None:
    players = [b"alice", player_seed_bytes("bob \N{SNOWMAN}")]
    assert deck_of(seed(3), players) == deck_of(seed(3), list(players))
    assert deal_deck(seed(3), players) == deal_deck(seed(3), players)
    published, deck_seed, deck = deal_deck(seed(3), players)
    assert published == commitment(seed(3))
    assert deck_seed == derive_deck_seed(seed(3), players)
    assert deck == shuffled_deck(deck_seed)


def test_section6_deck_is_52_distinct_cards() -> None:
    for n in range(50):
        assert sorted(deck_of(seed(n))) == list(FULL_DECK)


def test_section6_player_seeds_are_mixed_in_seat_order() -> None:
    assert deck_of(seed(4), [b"a", b"b"]) != deck_of(seed(4), [b"b", b"a"])


def test_section6_a_changed_player_seed_changes_the_deck() -> None:
    base = deck_of(seed(5), [b"alice", b"bob"])
    assert deck_of(seed(5), [b"alice", b"bob!"]) != base
    assert deck_of(seed(5), [b"alice"]) != base
    assert deck_of(seed(5), []) != base
    assert deck_of(seed(6), [b"alice", b"bob"]) != base


def test_section6_seed_lengths_are_framed() -> None:
    # Without the length prefixes these two would derive the same deck seed.
    assert derive_deck_seed(seed(7), [b"ab", b"c"]) != derive_deck_seed(seed(7), [b"a", b"bc"])
    assert derive_deck_seed(seed(7), [b""]) != derive_deck_seed(seed(7), [])


def test_section6_player_seed_enters_as_utf8() -> None:
    assert player_seed_bytes("héllo") == "héllo".encode()


# ---------------------------------------------------------------- the documented algorithm, rebuilt


def documented_deck(server_seed: bytes, player_seeds: Sequence[bytes]) -> list[int]:
    """The shuffle as the module docstring documents it, written out again from scratch."""
    message = b"hcf-table/deck/v1" + b"".join(len(s).to_bytes(4, "big") + s for s in player_seeds)
    deck_seed = hmac.new(server_seed, message, hashlib.sha256).digest()

    def stream() -> Iterator[int]:
        counter = 0
        while True:
            block = b"hcf-table/stream/v1" + counter.to_bytes(8, "big")
            yield from hmac.new(deck_seed, block, hashlib.sha256).digest()
            counter += 1

    source = stream()

    def below(n: int) -> int:
        while True:
            x = int.from_bytes(bytes([next(source), next(source), next(source), next(source)]), "big")
            if x < 2**32 - 2**32 % n:
                return x % n

    deck = list(range(52))
    for i in range(51, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("players", [[], [b"x"], [b"alice", b"", b"carol"]])
def test_section6_deck_follows_the_documented_function(players: list[bytes]) -> None:
    for n in range(5):
        assert list(deck_of(seed(n), players)) == documented_deck(seed(n), players)


def test_section6_byte_stream_is_hmac_counter_blocks() -> None:
    stream = byte_stream(b"k" * 32)
    first = bytes(next(stream) for _ in range(64))
    blocks = [hmac.new(b"k" * 32, b"hcf-table/stream/v1" + i.to_bytes(8, "big"), hashlib.sha256).digest()
              for i in range(2)]
    assert first == b"".join(blocks)


# ---------------------------------------------------------------- uniformity

CHI2_SEEDS = 20_000
# 51 degrees of freedom: the 0.1% tail starts near 87.97. Loose for a sound
# shuffle, yet a shuffle that favours or avoids a card fails it.
CHI2_LIMIT = 88.0


def first_card_chi2(shuffle: Callable[[bytes], Sequence[int]]) -> float:
    counts = Counter(shuffle(seed(n))[0] for n in range(CHI2_SEEDS))
    expected = CHI2_SEEDS / 52
    return sum((counts[card] - expected) ** 2 / expected for card in FULL_DECK)


def sattolo_deck(server_seed: bytes) -> list[int]:
    """An off-by-one Fisher-Yates (``j`` below ``i``): it never leaves a card in place."""
    stream = byte_stream(derive_deck_seed(server_seed, []))
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = int.from_bytes(bytes(next(stream) for _ in range(4)), "big") % i
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_section6_first_card_is_uniform_chi_square() -> None:
    assert first_card_chi2(deck_of) < CHI2_LIMIT


def test_section6_uniformity_check_can_fail() -> None:
    assert first_card_chi2(sattolo_deck) > CHI2_LIMIT


@given(st.binary(max_size=64), st.lists(st.binary(max_size=40), max_size=7))
def test_section6_any_seed_gives_a_permutation_of_52_cards(server_seed: bytes, players: list[bytes]) -> None:
    deck = deck_of(server_seed, players)
    assert len(deck) == 52
    assert sorted(deck) == list(FULL_DECK)
