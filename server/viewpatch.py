"""Patches of a snapshot's nested views: what changed in a dict, as a list of path operations.

A ``table_update`` sends a key of the snapshot whole when it first appears (or belongs
to a new hand) and, after that, only the leaves of it that changed (docs/protocol.md
section 4). Each operation is ``[path, value]`` (set the key at the end of ``path``) or
``[path]`` (remove a dict's key); a path is a list of dict keys and list indices from the
snapshot's top level. A list whose length changed is sent whole, one of the same length
item by item (the path's step is then the item's index). The server and the clients
both use this module, so the two sides agree on what an operation means.

:func:`apply_update` is how a client's model follows one update; ``feed.js`` does the same,
and both are run over the cases of ``tests/vectors/viewpatch.json``. A patch that does not
fit the model raises :class:`PatchMismatchError`: the client drops its model and asks a snapshot.

>>> old = {"turn": 2, "seats": {"1": {"ante": 5, "raise": 0}, "2": {"ante": 5, "raise": 0}}}
>>> new = {"turn": 1, "seats": {"1": {"ante": 5, "raise": 10}, "2": {"ante": 5, "raise": 0}}}
>>> ops = diff(old, new, ["hand"])
>>> ops
[[['hand', 'turn'], 1], [['hand', 'seats', '1', 'raise'], 10]]
>>> apply({"hand": old}, ops)["hand"] == new
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from server.rules.vocabulary import JSON

Op = list[Any]  # [path, value] or [path]: JSON arrays on the wire


class PatchMismatchError(ValueError):
    """An update does not fit the model: it is not the model the server patched (drop it, ask a snapshot)."""


def diff(old: Mapping[str, Any] | Sequence[Any], new: Mapping[str, Any] | Sequence[Any],
         path: Sequence[str | int]) -> list[Op]:
    """The operations that turn ``old`` into ``new``, both found at ``path`` of a snapshot ([] when equal).

    Dicts are compared key by key, lists of the same length item by item; anything else that
    differs (a list that grew or shrank, a number, a dict that replaced a list) is set whole.
    """
    ops: list[Op] = []
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key, value in new.items():
            if key in old:
                diff_item(old[key], value, [*path, key], ops)
            else:
                ops.append([[*path, key], value])
        ops.extend([[*path, key]] for key in old if key not in new)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (before, after) in enumerate(zip(old, new, strict=True)):
            diff_item(before, after, [*path, index], ops)
    elif old != new:
        ops.append([list(path), new])
    return ops


def diff_item(before: Any, after: Any, path: list[str | int], ops: list[Op]) -> None:
    """Add to ``ops`` what turns ``before`` into ``after`` at ``path``: nothing when equal, operations inside a
    patchable pair, else ``after`` set whole (one step of :func:`diff`)."""
    if before is after or before == after:
        return
    if patchable(before, after):
        ops.extend(diff(before, after, path))
    else:
        ops.append([path, after])


def patchable(before: Any, after: Any) -> bool:
    """Whether ``after`` may go as operations on ``before``: dicts, or lists of the same length."""
    if isinstance(before, dict) and isinstance(after, dict):
        return True
    return isinstance(before, list) and isinstance(after, list) and len(before) == len(after)


def apply(model: JSON, ops: Sequence[Sequence[Any]]) -> JSON:
    """``model`` after ``ops``, as a new dict; the dicts and lists on each path are copied, ``model`` is not changed.

    An operation whose path does not lead through ``model`` raises :class:`PatchMismatchError`: the
    model is not the one the patch was made against (ask for a snapshot).
    """
    out = dict(model)
    copied: set[int] = {id(out)}  # the containers made here for this call: change them in place
    for op in ops:
        if not isinstance(op, list) or not op or not isinstance(op[0], list) or not op[0] or len(op) > 2:
            raise PatchMismatchError(f"not a patch operation: {op!r}")
        path = op[0]
        target: Any = out
        for key in path[:-1]:
            child = _child(target, key, path)
            if id(child) not in copied:
                child = dict(child) if isinstance(child, dict) else list(child)
                target[key] = child
                copied.add(id(child))
            target = child
        _set(target, path, op[1:])
    return out


def _child(target: Any, key: object, path: list[Any]) -> dict[str, Any] | list[Any]:
    if isinstance(target, dict) and isinstance(key, str):
        child = target.get(key)
    elif isinstance(target, list) and _index(key) and key < len(target):
        child = target[key]
    else:
        child = None
    if not isinstance(child, dict | list):
        raise PatchMismatchError(f"the patch's path {path!r} does not lead through the model")
    return child


def _set(target: Any, path: list[Any], value: Sequence[Any]) -> None:
    key = path[-1]
    if isinstance(target, dict) and isinstance(key, str):
        if value:
            target[key] = value[0]
        else:
            target.pop(key, None)
    elif isinstance(target, list) and _index(key) and key < len(target) and value:
        target[key] = value[0]
    else:
        raise PatchMismatchError(f"the patch's path {path!r} does not lead through the model")


def apply_update(model: Mapping[str, Any], update: Mapping[str, Any]) -> JSON:
    """``model`` after one ``table_update`` (docs/protocol.md section 4), as a new dict; ``model`` is not changed.

    The update's ``view`` keys replace the model's whole, then its ``patch`` operations apply, then
    its ``seq``, ``server_time`` and ``choices`` (each when the update has it) are set. A ``view``
    that is not a dict, a ``patch`` that is not a list, or an operation that does not lead through
    the model raises :class:`PatchMismatchError`.

    >>> apply_update({"seq": 4, "hand": {"turn": 1}}, {"seq": 5, "view": {"status": "playing"},
    ...              "patch": [[["hand", "turn"], 2]], "server_time": 9.5, "choices": {}})
    {'seq': 5, 'hand': {'turn': 2}, 'status': 'playing', 'server_time': 9.5, 'choices': {}}
    """
    view = update.get("view")
    patch = update.get("patch")
    if view is not None and not isinstance(view, dict):
        raise PatchMismatchError(f"an update's view is not a dict: {view!r}")
    if patch is not None and not isinstance(patch, list):
        raise PatchMismatchError(f"an update's patch is not a list: {patch!r}")
    out = apply({**model, **(view or {})}, patch or [])
    for key in ("seq", "server_time", "choices"):
        if key in update:
            out[key] = update[key]
    return out


def _index(key: object) -> TypeGuard[int]:
    return isinstance(key, int) and not isinstance(key, bool) and key >= 0


__all__ = ["Op", "PatchMismatchError", "apply", "apply_update", "diff", "diff_item", "patchable"]
