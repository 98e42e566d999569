"""docs/fairness.md (docs/rules/hcf.md section 6) agrees with server/rules/fairness.py, byte for byte.

The reference verifier printed in the doc is executed as it stands and compared with
the code on the doc's test vectors and on random seeds; the vectors printed in the
doc are recomputed from the code. Neither can drift from the server.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.rules import fairness
from server.rules.cards import card_text, format_cards
from server.rules.hcf.hand import deal_hands
from server.rules.hcf.settlement import deal_order

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
TEXT = DOC.read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", TEXT, flags=re.DOTALL | re.MULTILINE)


def _only_block(language: str) -> str:
    blocks = _blocks(language)
    assert len(blocks) == 1, f"docs/fairness.md should hold exactly one ```{language} block"
    return blocks[0]


VECTORS: list[dict[str, Any]] = json.loads(_only_block("json"))
VECTOR_IDS = [f"vector{n}" for n in range(1, len(VECTORS) + 1)]


@pytest.fixture(scope="module")
def verifier() -> dict[str, Any]:
    """The doc's verifier, run in a fresh namespace (not as ``__main__``)."""
    namespace: dict[str, Any] = {"__name__": "verify_deal"}
    exec(compile(_only_block("python"), str(DOC), "exec"), namespace)
    return namespace


def _code_deal(server_seed: bytes, player_seeds: list[str]) -> tuple[str, bytes, list[str]]:
    commitment, deck_seed, deck = fairness.deal_deck(
        server_seed, [fairness.player_seed_bytes(seed) for seed in player_seeds])
    return commitment, deck_seed, [card_text(card) for card in deck]


def _rejected_reads(deck_seed: bytes) -> list[dict[str, Any]]:
    """Replay the shuffle's reads over the code's byte stream, noting every rejection."""
    stream, reads, rejected = fairness.byte_stream(deck_seed), 0, []
    for i in range(fairness.DECK_SIZE - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        while True:
            x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
            reads += 1
            if x < limit:
                break
            rejected.append({"read": reads, "n": i + 1, "x": f"{x:08x}"})
    return rejected


def _random_seed_text(rng: random.Random) -> str:
    alphabet = "abcXYZ019 -_/\x00\u00eb\u00e9\u2660\u2665\u20ac\U0001f0a1\u4e2d"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 128)))


# ---------------------------------------------------------------- the printed vectors


def test_the_doc_prints_a_few_vectors_one_with_a_rejection_and_one_with_a_deal() -> None:
    assert 2 <= len(VECTORS) <= 4
    assert any(v["rejected"] for v in VECTORS)
    assert any("deal" in v for v in VECTORS)


@pytest.mark.parametrize("vector", VECTORS, ids=VECTOR_IDS)
def test_printed_vector_matches_the_code(vector: dict[str, Any]) -> None:
    server_seed = bytes.fromhex(vector["server_seed"])
    assert len(server_seed) == fairness.SEED_BYTES
    commitment, deck_seed, deck = _code_deal(server_seed, vector["player_seeds"])
    assert vector["commitment"] == commitment
    assert vector["deck_seed"] == deck_seed.hex()
    assert vector["first_10"] == " ".join(deck[:10])
    assert vector["rejected"] == _rejected_reads(deck_seed)
    assert fairness.verify_commitment(server_seed, vector["commitment"])


@pytest.mark.parametrize("vector", VECTORS, ids=VECTOR_IDS)
def test_printed_hmac_message_is_the_one_the_code_keys_with_the_server_seed(vector: dict[str, Any]) -> None:
    message = bytes.fromhex(vector["hmac_message"])
    assert message.startswith(fairness.DECK_DOMAIN)
    rest, seeds = message[len(fairness.DECK_DOMAIN):], []
    while rest:
        size = int.from_bytes(rest[:4], "big")
        seeds.append(rest[4:4 + size].decode("utf-8"))
        rest = rest[4 + size:]
    assert seeds == vector["player_seeds"]
    expected = hmac.new(bytes.fromhex(vector["server_seed"]), message, hashlib.sha256).hexdigest()
    assert expected == vector["deck_seed"]


def test_printed_deal_example_follows_the_deal_order_and_the_code() -> None:
    vector = next(v for v in VECTORS if "deal" in v)
    example = vector["deal"]
    order = (*(s for s in deal_order(example["seats"], example["button"]) if s in example["antes"]),
             example["button"])
    assert list(order) == example["order"]
    deck = fairness.shuffled_deck(bytes.fromhex(vector["deck_seed"]))
    hands = {str(seat): format_cards(cards) for seat, cards in deal_hands(deck, order)}
    assert hands == example["hands"]


def test_doc_shows_what_a_verifier_without_rejection_sampling_would_get() -> None:
    vector = next(v for v in VECTORS if v["rejected"])
    stream, deck = fairness.byte_stream(bytes.fromhex(vector["deck_seed"])), list(range(52))
    for i in range(51, 0, -1):
        j = int.from_bytes(bytes(next(stream) for _ in range(4)), "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    biased = format_cards(deck[:5])
    assert biased != vector["first_10"][:len(biased)]
    assert f"`{biased} ...`" in TEXT
    assert f"`{vector['first_10'][:len(biased)]} ...`" in TEXT


def test_doc_names_the_constants_of_the_code() -> None:
    assert fairness.SHUFFLE_VERSION == 1
    assert "(version 1, `server/rules/fairness.py`)" in TEXT
    assert f'"{fairness.DECK_DOMAIN.decode()}"' in TEXT
    assert f'"{fairness.STREAM_DOMAIN.decode()}"' in TEXT
    assert "hcf-server rules deal SERVER_SEED_HEX [PLAYER_SEED ...]" in TEXT


# ---------------------------------------------------------------- the reference verifier


@pytest.mark.parametrize("vector", VECTORS, ids=VECTOR_IDS)
def test_reference_verifier_reproduces_the_vector(verifier: dict[str, Any], vector: dict[str, Any]) -> None:
    server_seed = bytes.fromhex(vector["server_seed"])
    deck = verifier["verify"](vector["server_seed"], vector["commitment"].upper(), vector["player_seeds"])
    assert " ".join(deck[:10]) == vector["first_10"]
    assert deck == _code_deal(server_seed, vector["player_seeds"])[2]
    assert verifier["deck_seed"](server_seed, vector["player_seeds"]).hex() == vector["deck_seed"]
    assert verifier["commitment"](server_seed) == vector["commitment"]


def test_reference_verifier_matches_the_code_on_random_seeds(verifier: dict[str, Any]) -> None:
    rng = random.Random(20240611)
    for _ in range(200):
        server_seed = rng.randbytes(fairness.SEED_BYTES)
        player_seeds = [_random_seed_text(rng) for _ in range(rng.randint(0, 7))]
        commitment, deck_seed, deck = _code_deal(server_seed, player_seeds)
        assert verifier["commitment"](server_seed) == commitment
        assert verifier["deck_seed"](server_seed, player_seeds) == deck_seed
        assert verifier["shuffle"](deck_seed) == deck
        assert verifier["verify"](server_seed.hex(), commitment, player_seeds) == deck


def test_reference_stream_matches_the_code_across_blocks(verifier: dict[str, Any]) -> None:
    seed = bytes(range(32))
    ours: Iterator[int] = verifier["byte_stream"](seed)
    theirs = fairness.byte_stream(seed)
    assert [next(ours) for _ in range(32 * 9)] == [next(theirs) for _ in range(32 * 9)]


@pytest.mark.parametrize("n", range(2, 53))
def test_reference_rejection_sampling_matches_the_code(verifier: dict[str, Any], n: int) -> None:
    limit = 2**32 - 2**32 % n
    words = [w for w in (limit, 2**32 - 1, limit - 1, limit, 0, 2**32 - 1, n, 7 * n + 3) if w < 2**32]
    data = b"".join(w.to_bytes(4, "big") for w in words)
    accepted = [w % n for w in words if w < limit]
    ours, theirs = iter(data), iter(data)
    assert [verifier["uniform_below"](ours, n) for _ in accepted] == accepted
    assert [fairness._uniform_below(theirs, n) for _ in accepted] == accepted
    assert list(ours) == list(theirs) == []


def test_reference_verifier_refuses_a_server_seed_that_misses_the_commitment(verifier: dict[str, Any]) -> None:
    vector = VECTORS[0]
    with pytest.raises(ValueError, match="commitment"):
        verifier["verify"](vector["server_seed"], "00" * 32, vector["player_seeds"])
    with pytest.raises(ValueError, match="commitment"):
        verifier["verify"](vector["server_seed"][:-2], vector["commitment"], vector["player_seeds"])


def test_reference_deal_matches_the_code(verifier: dict[str, Any]) -> None:
    rng = random.Random(7)
    for _ in range(100):
        order = rng.sample(range(8), rng.randint(2, 7))
        deck = rng.sample(range(52), rng.choice([52, 52, rng.randint(0, 51)]))
        expected = {seat: [card_text(c) for c in cards] for seat, cards in deal_hands(deck, order)}
        assert verifier["deal"]([card_text(c) for c in deck], order) == expected
