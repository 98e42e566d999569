"""docs/protocol.md's examples have the shapes server/protocol.py types (issue 24, item 3).

Each JSON example of an update, a snapshot or a refusal is read from the docs and
checked against its TypedDict: every required key present, no key the type does not
name, nested records and listed codes included.
"""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server import protocol as p
from server.rules.vocabulary import RefusalCode

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def example_after(heading: str) -> list[Any]:
    """The JSON values (one a line, or one spread over lines) of the first json block after ``heading``."""
    block = DOCS.split(heading, 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    try:
        return [json.loads(block)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in block.splitlines() if line.strip()]


def problems(value: Any, kind: Any, where: str = "") -> list[str]:
    """Where ``value`` does not fit ``kind`` (a TypedDict, a list, a Literal, a union or a plain type)."""
    if is_typeddict(kind):
        return _record(value, kind, where)
    origin, args = get_origin(kind), get_args(kind)
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin in (Union, types.UnionType):
        fits = [problems(value, arg, where) for arg in args]
        return [] if any(not found for found in fits) else min(fits, key=len)
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        return [found for i, item in enumerate(value) if item != "..."  # the docs elide with "..."
                for found in problems(item, args[0], f"{where}[{i}]")]
    if kind is type(None):
        return [] if value is None else [f"{where}: not null"]
    if kind is float:
        return [] if isinstance(value, int | float) and not isinstance(value, bool) else [f"{where}: not a number"]
    if isinstance(kind, type) and origin is None and kind not in (object, Any):
        return [] if isinstance(value, kind) else [f"{where}: not {kind.__name__}"]
    return []  # JSON, Any: a game's own part, documented with the game


def _record(value: Any, kind: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: not an object"]
    hints = get_type_hints(kind)
    found = [f"{where}: lacks {key!r}" for key in sorted(kind.__required_keys__ - value.keys())]
    found += [f"{where}: {key!r} is not part of {kind.__name__}" for key in sorted(value.keys() - hints.keys())]
    for key in value.keys() & hints.keys():
        found += problems(value[key], hints[key], f"{where}.{key}")
    return found


def test_the_table_update_example_is_a_table_update() -> None:
    (update,) = example_after("### table_update")
    assert problems(update, p.TableUpdate) == []


def test_the_snapshot_example_is_a_snapshot() -> None:
    (snapshot,) = example_after("## 7. The snapshot")
    assert problems(snapshot, p.TableSnapshot) == []


def test_the_answer_that_carries_an_update_carries_a_table_update() -> None:
    answer = json.loads(DOCS.split("**Your answer first, with your update in it.**", 1)[1]
                        .split("```json\n", 2)[2].split("```", 1)[0])
    assert answer["ok"] is True
    assert problems(answer["update"], p.TableUpdate) == []


def test_the_refusal_example_is_a_refusal() -> None:
    refusal = example_after("- **Requests** are Socket.IO events")[1]
    assert problems(refusal, p.Refused) == []


@given(st.sampled_from(sorted(get_args(RefusalCode))), st.text(max_size=30),
       st.none() | st.floats(min_value=0, max_value=60))
def test_every_refusal_the_server_builds_is_a_refusal(code: RefusalCode, message: str, wait: float | None) -> None:
    assert problems(p.error(code, message or None, retry_after=wait), p.Refused) == []


@pytest.mark.parametrize("broken", [
    {"table": "main", "seq": 1},  # most keys missing
    {"ok": False, "error": {"code": "db/conflict", "message": "x"}},  # the store's own code
])
def test_the_check_finds_what_does_not_fit(broken: dict[str, Any]) -> None:
    kind = p.Refused if "ok" in broken else p.TableUpdate
    assert problems(broken, kind) != []


def test_a_move_carries_its_action_and_args_and_the_v2_form_beside_action_is_the_same_move() -> None:
    (nested,) = example_after("### move")
    move = p.parse_request("move", nested)
    assert isinstance(move, p.Move)
    assert (move.action, move.args) == ("raise", {"amount": 20})
    assert p.parse_request("move", {"table": "main", "action": "raise", "amount": 20}) == move
    assert p.parse_request("move", {"table": "main", "action": "wager", "stake": 5}) == p.Move(
        table="main", action="wager", args={"stake": 5})  # any game's move: the game checks it
    with pytest.raises(p.ProtocolError) as mixed:
        p.parse_request("move", {"table": "main", "action": "raise", "args": {}, "amount": 20})
    assert (mixed.value.code, mixed.value.message) == ("request/malformed",
                                                        "move: 'amount' is not part of this request")


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=200),
                    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=3), inner,
                                                                                  max_size=10), max_leaves=30))
def test_a_move_argument_beyond_the_wires_bounds_is_refused_in_a_sentence_and_within_them_is_taken(
        value: Any) -> None:
    try:
        move = p.parse_request("move", {"table": "main", "action": "bet", "args": {"x": value}})
    except p.ProtocolError as refused:
        refusal = (refused.code, refused.message)
    else:
        refusal = None
    if refusal is not None:
        assert refusal[0] == "request/malformed"
        assert refusal[1].startswith("move: ")
        assert "pydantic" not in refusal[1].lower()
        return
    assert isinstance(move, p.Move)
    assert _within_bounds(move.args.get("x"), depth=0)  # a null argument is one not sent: validated away


def _within_bounds(value: Any, depth: int) -> bool:
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return abs(value) <= 10**9
    if isinstance(value, str):
        return len(value) <= 128
    if isinstance(value, list) and depth == 0:
        return len(value) <= 9 and all(_within_bounds(v, 1) for v in value)
    if isinstance(value, dict) and depth == 1:
        return len(value) <= 8 and all(not isinstance(v, list | dict) and _within_bounds(v, 2) for v in value.values())
    return False
