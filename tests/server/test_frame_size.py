"""A request's size is measured from the frame it came in when that frame is short (server/transport/frames.py).

The gateway refuses a request of over ``MAX_REQUEST_BYTES`` of JSON (``json.dumps`` of its payload).
Encoding every request only to measure it is a conversion on every move's path; a frame of ``n``
characters cannot hold a payload that ``json.dumps`` writes in more than ``MOST_GROWTH * n``
characters, so a short frame's request is surely small, and only a long one is measured. These
check that bound on any JSON a client may send, and that an unknown frame is always measured.
"""

from __future__ import annotations

import json
import sys
from types import FrameType
from typing import Any

import engineio.json
from hypothesis import given
from hypothesis import strategies as st

from server import protocol as p
from server.transport.frames import FRAME_LENGTH, MOST_GROWTH, surely_small

from .conftest import Server

NUMBER_TEXT = st.from_regex(r"\A-?(0|[1-9][0-9]{0,20})(\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?\Z")
JSON_VALUES: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20)


def frame(text: str) -> str:
    """The Socket.IO frame of a ``move`` request whose payload's JSON text is ``text`` (with an ack id)."""
    return f'421["move",{text}]'


@given(JSON_VALUES, st.booleans(), st.booleans())
def test_json_dumps_writes_at_most_most_growth_characters_per_character_of_the_frame(
        value: Any, compact: bool, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, separators=(",", ":") if compact else None)
    measured = len(json.dumps(engineio.json.loads(text), default=str))
    assert measured <= MOST_GROWTH * len(frame(text))


@given(NUMBER_TEXT)
def test_a_number_the_client_wrote_short_grows_within_the_bound(text: str) -> None:
    measured = len(json.dumps(engineio.json.loads(text), default=str))
    assert measured <= MOST_GROWTH * len(frame(text))


@given(st.integers(0, 10_000))
def test_only_a_text_frame_short_enough_is_taken_as_small(length: int) -> None:
    token = FRAME_LENGTH.set(length)
    try:
        assert surely_small(p.MAX_REQUEST_BYTES) == (length * MOST_GROWTH <= p.MAX_REQUEST_BYTES)
    finally:
        FRAME_LENGTH.reset(token)


def test_a_request_from_no_known_frame_is_always_measured() -> None:
    token = FRAME_LENGTH.set(None)  # a binary frame; a handler called without the frame guard
    try:
        assert not surely_small(p.MAX_REQUEST_BYTES)
    finally:
        FRAME_LENGTH.reset(token)


class Encodes:
    """Counts the gateway's own calls of ``json.dumps`` (its size check) while it is installed."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, frame: FrameType, event: str, _arg: object) -> None:
        caller = frame.f_back
        if event == "call" and frame.f_code is json.dumps.__code__ and caller is not None \
                and caller.f_globals.get("__name__") == "server.transport.gateway":
            self.count += 1


async def encodes_of(call: Any) -> int:
    encodes = Encodes()
    sys.setprofile(encodes)
    try:
        await call
    finally:
        sys.setprofile(None)
    return encodes.count


async def test_a_short_request_is_not_encoded_to_be_measured_and_a_long_one_is(server: Server) -> None:
    _host, (alice,) = await server.table(None)
    assert await encodes_of(alice.call("snapshot", {"table": "main"})) == 0
    long = {"table": "main", "action": "bet", "seed": "x" * 400}  # under the limit, but not surely so from its frame
    assert await encodes_of(alice.refused("move", long)) == 1
    assert await alice.refused("move", {"table": "main", "action": "bet", "seed": "x" * 5000}) == "request/too_large"
