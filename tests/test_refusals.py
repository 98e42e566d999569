"""Whatever a client sends, a refused request is explained in our words (issue 14 B.11)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.protocol import REQUESTS, ProtocolError, parse_request

PYDANTIC = ("Input should", "String should", "Field required", "Extra inputs", "List should", "valid integer",
            "validation error", "pydantic")
KEYS = sorted({name for model in REQUESTS.values() for name in model.model_fields} | {"tabel", "sat"})
SCALARS = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | st.text(max_size=8)
VALUES = SCALARS | st.lists(SCALARS, max_size=12) | st.dictionaries(st.sampled_from(KEYS), SCALARS, max_size=3)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(REQUESTS)), st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=6))
def test_a_refused_request_is_one_sentence_of_ours(event: str, payload: dict[str, Any]) -> None:
    refusal = _refusal(event, payload)
    if refusal is not None:
        code, message = refusal
        assert code == "request/malformed"
        assert message.startswith(f"{event}: ")
        assert not any(words in message for words in PYDANTIC), message
        assert "\n" not in message


def _refusal(event: str, payload: dict[str, Any]) -> tuple[str, str] | None:
    try:
        parse_request(event, payload)
    except ProtocolError as exc:
        return exc.code, exc.message
    return None


def test_the_limits_are_said_in_chips_and_characters() -> None:
    cases = {
        ("top_up", "amount", 10**12): "top_up: the amount is at most 1,000,000,000 chips",
        ("move", "seed", "x" * 200): "move: a player seed has at most 128 characters",
        ("move", "amount", 10**12): "move: the amount is at most 1,000,000,000 chips",
        ("sit", "buy_in", -5): "sit: the buy-in is at least 0 chips",
        ("sit", "seat", "3"): "sit: the seat is a whole number",
    }
    for (event, key, value), sentence in cases.items():
        payload = {"table": "main", "action": "bet", "ante": 10, "amount": 5, key: value}
        # A move's arguments go beside its action (the v2 form): every key is one of a move's.
        payload = {k: v for k, v in payload.items() if k in REQUESTS[event].model_fields or event == "move"}
        assert _refusal(event, payload) == ("request/malformed", sentence)
