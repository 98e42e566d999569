"""The store's JSON text (server/persistence/records.py ``dump_json``): orjson's speed, the standard library's meaning.

Whatever the standard library wrote (compact, no NaN) reads back as the same value from the
text written now, and whatever it refused is refused as ``db/not_json``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.persistence.errors import StoreError
from server.persistence.records import dump_json, load_json

_SCALARS = (st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats(allow_nan=True, allow_infinity=True)
            | st.text())  # text includes lone surrogates, which orjson refuses and the standard library escapes
_KEYS = st.text() | st.integers(-(2**70), 2**70) | st.booleans() | st.floats(allow_nan=True)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                       | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=12)
_OBJECTS = st.dictionaries(_KEYS, _VALUES, max_size=5)


def _before(value: dict[Any, Any]) -> str | None:
    """What the store wrote before orjson: the standard library's strict, compact JSON (None: refused)."""
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None


@given(_OBJECTS)
def test_the_text_means_what_the_standard_library_wrote(value: dict[Any, Any]) -> None:
    before = _before(value)
    if before is None:
        with pytest.raises(StoreError) as refused:
            dump_json(value)
        assert refused.value.code == "db/not_json"
        return
    assert json.loads(dump_json(value)) == json.loads(before)
    assert load_json(dump_json(value)) == load_json(before)


@pytest.mark.parametrize("value", [{"x": float("nan")}, {"x": [1, {"y": float("-inf")}]}, {float("nan"): 1},
                                   {"when": __import__("datetime").datetime(2026, 12, 5)}, {"x": {1, 2}}])
def test_what_json_cannot_hold_is_refused(value: dict[Any, Any]) -> None:
    with pytest.raises(StoreError) as refused:
        dump_json(value)
    assert refused.value.code == "db/not_json"


def test_a_recorded_event_is_written_compactly() -> None:
    text = dump_json({"type": "player_raised", "seat": 3, "amount": 30, "name": "Zoë", "to": None})
    assert text == '{"type":"player_raised","seat":3,"amount":30,"name":"Zoë","to":null}'
    assert dump_json({"paid": {2: 15}, "name": "Zoë"}) == '{"paid":{"2":15},"name":"Zo\\u00eb"}'  # as before
