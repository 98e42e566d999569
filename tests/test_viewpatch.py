"""server/viewpatch.py: a patch made by ``diff`` turns the old view into the new one, and nothing else."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.viewpatch import PatchMismatchError, apply, apply_update, diff

leaves = st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "Ah", ""])
keys = st.sampled_from(["phase", "seats", "1", "2", "cards", "turn"])
# Views as the table sends them: dicts and lists of dicts, lists and leaves.
views = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                     max_leaves=25)
dicts = st.dictionaries(keys, views, max_size=5)


@given(old=dicts, new=dicts)
def test_a_patch_turns_the_old_view_into_the_new_and_leaves_the_old_alone(old: dict[str, Any],
                                                                         new: dict[str, Any]) -> None:
    model = {"hand": old, "seq": 3}
    kept = copy.deepcopy(model)
    ops = diff(old, new, ["hand"])
    ops = json.loads(json.dumps(ops))  # as the wire carries them
    out = apply(model, ops)
    assert out == {"hand": new, "seq": 3}
    assert model == kept, "apply changed the model it was given"
    assert (ops == []) == (old == new)


@given(old=dicts, new=dicts)
def test_a_patch_names_only_what_changed(old: dict[str, Any], new: dict[str, Any]) -> None:
    """No operation sets a value the old view already held there."""
    model = {"hand": old}
    for op in diff(old, new, ["hand"]):
        target: Any = model
        for step in op[0][:-1]:
            target = target[step]
        if len(op) == 2 and isinstance(target, dict) and op[0][-1] in target:
            assert target[op[0][-1]] != op[1]


def test_a_list_of_the_same_length_is_patched_item_by_item() -> None:
    old = {"seats": [{"seat": 1, "stack": 100}, {"seat": 2, "stack": 50}]}
    new = {"seats": [{"seat": 1, "stack": 90}, {"seat": 2, "stack": 50}]}
    assert diff(old, new, []) == [[["seats", 0, "stack"], 90]]
    assert diff(old, {"seats": old["seats"][:1]}, []) == [[["seats"], old["seats"][:1]]]


@pytest.mark.parametrize("ops", [
    [[["hand", "seats", "9", "ante"], 5]],  # no seat 9 in the model
    [[["hand", "phase", "x"], 5]],  # through a leaf
    [[["hand", "bettors", 7], 1]],  # past the list's end
    [[["hand", "bettors", "0"], 1]],  # a list's step is an index
    [[]],
    [["hand", 1]],  # a path is a list
    [[["hand"], 1, 2]],
])
def test_a_patch_that_does_not_fit_the_model_is_refused(ops: list[Any]) -> None:
    model = {"hand": {"phase": "bets", "seats": {"1": {"ante": 0}}, "bettors": [1]}}
    with pytest.raises(PatchMismatchError, match="patch"):
        apply(model, ops)


# The cases the terminal (this module) and the browser (feed.js, tests/web/test_feed_vectors.py) both run.
VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "vectors" / "viewpatch.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", VECTORS, ids=[case["name"] for case in VECTORS])
def test_every_shared_vector_gives_its_result(case: dict[str, Any]) -> None:
    kept = copy.deepcopy(case["model"])
    if case.get("fits", True):
        assert apply_update(case["model"], case["update"]) == case["result"]
    else:
        with pytest.raises(PatchMismatchError):
            apply_update(case["model"], case["update"])
    assert case["model"] == kept, "apply_update changed the model it was given"


def test_the_vectors_hold_each_kind_of_case() -> None:
    """Normal updates, removals, list growth and patches that do not fit: each is there, and each name once."""
    names = [case["name"] for case in VECTORS]
    assert len(names) == len(set(names))
    ops = [op for case in VECTORS for op in case["update"].get("patch") or []]
    assert any(len(op) == 1 for op in ops), "no removal"
    assert any(isinstance(op[-1], list) and len(op) == 2 for op in ops), "no list sent whole"
    assert any(case.get("fits") is False for case in VECTORS)
    assert any("result" in case for case in VECTORS)


@given(old=dicts, new=dicts, shared=dicts)
def test_apply_update_gives_the_new_model(old: dict[str, Any], new: dict[str, Any], shared: dict[str, Any]) -> None:
    """A view's keys whole and a hand's patch: the model follows the server's, and the old one is left alone."""
    model = {"seq": 1, "hand": old, "choices": {}}
    kept = copy.deepcopy(model)
    update = json.loads(json.dumps({"from_seq": 2, "seq": 2, "server_time": 1.5, "view": shared,
                                    "patch": diff(old, new, ["hand"]), "choices": {"moves": []}}))
    # the keys drawn never name hand, seq, server_time or choices
    assert apply_update(model, update) == {**shared, "hand": new, "seq": 2, "server_time": 1.5,
                                           "choices": {"moves": []}}
    assert model == kept
