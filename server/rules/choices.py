"""The shapes every game's hand-level choices are written in (protocol v2, section 3; docs/choices.md).

A choice is one request a seat may send now: ``{"request": "move", "action": ...}``
plus its arguments. An argument is given as a fixed value, a :func:`span` of
whole chips (``{"min": a, "max": b}``, both included), or a list of alternatives
(values or spans). A ``limits`` key, when present, is never sent back: it states
what the arguments must keep together (the stack must cover them), which no
single range can say.

>>> move("raise", amount=span(10, 40))
{'request': 'move', 'action': 'raise', 'amount': {'min': 10, 'max': 40}}
>>> optional(1, 100), optional(5, 100), optional(5, 4)
({'min': 0, 'max': 100}, [0, {'min': 5, 'max': 100}], 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from server.rules.game import JSON

SEED_TEXT: Final[JSON] = {"max_length": 128}
"""A player seed's argument: optional text of at most this many characters."""


def move(action: str, **args: Any) -> JSON:
    """One ``move`` choice: the action and its arguments, in the order given."""
    return {"request": "move", "action": action, **args}


def span(low: int, high: int) -> JSON:
    """Whole chips from ``low`` to ``high``, both included."""
    return {"min": low, "max": high}


def optional(low: int, high: int) -> JSON | list[Any] | int:
    """Zero (no such bet), or ``low`` to ``high`` chips; just 0 when ``high < low``.

    A plain span when the two meet (``low`` is 1), so a client sees one range.
    """
    if high < low:
        return 0
    if low <= 1:
        return span(0, high)
    return [0, span(low, high)]


def bet_list(count: JSON, each: JSON, place: str) -> JSON:
    """A list argument: ``count`` entries (a span), each an object shaped as ``each``, no ``place`` twice."""
    return {"count": count, "each": each, "distinct": place}


def value_list(count: list[int], each: JSON) -> JSON:
    """A list argument of ``count`` (one of the values) distinct values, each as ``each`` allows."""
    return {"count": count, "each": each, "distinct": True}


# ---------------------------------------------------------------- reading a choice back


def admits(choice: Mapping[str, Any], args: Mapping[str, Any]) -> bool:
    """Whether ``args`` are arguments the choice offers: each within its range or alternatives, and the limits kept.

    What a client may check before sending; the rules accept exactly what this admits
    (tests/rules hold it). Every argument is given, except a seed (text) which may be left out.

    >>> bet = move("bet", ante=span(5, 50), flush_bonus=span(0, 20), limits={"cover": {"max": 60, "ante": 2,
    ...            "flush_bonus": 1}})
    >>> admits(bet, {"ante": 25, "flush_bonus": 10}), admits(bet, {"ante": 25, "flush_bonus": 11})
    (True, False)
    """
    given = {k: v for k, v in choice.items() if k not in _NOT_ARGS}
    if set(args) - set(given):
        return False
    for name, spec in given.items():
        if name not in args:
            if not _is_text(spec):
                return False
        elif not fits(spec, args[name]):
            return False
    return _keeps(choice.get("limits", {}), args, given)


_NOT_ARGS: Final = frozenset({"request", "action", "limits"})


def fits(spec: Any, value: Any) -> bool:
    """Whether ``value`` is one ``spec`` allows: a fixed value, a span, text, alternatives or a list of entries."""
    if isinstance(spec, list):
        return any(fits(alternative, value) for alternative in spec)
    if not isinstance(spec, Mapping):
        return type(value) is type(spec) and value == spec  # True is not 1
    if "count" in spec:
        return _fits_list(spec, value)
    if _is_text(spec):
        return value is None or (isinstance(value, str) and len(value) <= spec["max_length"])
    return _whole(value) and spec["min"] <= value <= spec["max"]


def _is_text(spec: Any) -> bool:
    return isinstance(spec, Mapping) and "max_length" in spec


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_spec(spec: Any) -> bool:
    """Whether a mapping describes one value (a span, text, a list) rather than an object's fields."""
    return isinstance(spec, Mapping) and bool({"min", "max_length", "count"} & set(spec))


def _fits_list(spec: Mapping[str, Any], value: Any) -> bool:
    if not isinstance(value, list) or not fits(spec["count"], len(value)):
        return False
    each = spec["each"]
    if is_spec(each):
        return all(fits(each, entry) for entry in value) and len(set(value)) == len(value)
    if not all(isinstance(entry, Mapping) and set(entry) == set(each) and all(fits(each[k], entry[k]) for k in each)
               for entry in value):
        return False
    places = [entry[spec["distinct"]] for entry in value]
    return len(set(places)) == len(places)


def _entries(args: Mapping[str, Any], given: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The entries of the choice's list argument (by place), if it has one."""
    for name, spec in given.items():
        if isinstance(spec, Mapping) and "count" in spec and not is_spec(spec["each"]):
            return sorted(args.get(name, []), key=lambda entry: entry[spec["distinct"]])
    return []


def cost(choice: Mapping[str, Any], args: Mapping[str, Any]) -> int:
    """Chips of ``args`` the stack must cover under the choice's ``limits.cover`` (0 without one)."""
    cover = choice.get("limits", {}).get("cover")
    if cover is None:
        return 0
    given = {k: v for k, v in choice.items() if k not in _NOT_ARGS}
    return _cost(cover, args, _entries(args, given))


def _keeps(limits: Mapping[str, Any], args: Mapping[str, Any], given: Mapping[str, Any]) -> bool:
    """The limits no single range says: the stack's cover, the Ante ratio, what each box needs."""
    entries = _entries(args, given)
    cover = limits.get("cover")
    if cover is not None and _cost(cover, args, entries) > cover["max"]:
        return False
    ratio = limits.get("ante_ratio")
    antes = [entry["ante"] for entry in entries if entry["ante"]]
    if ratio is not None and antes and max(antes) > ratio * min(antes):
        return False
    needs = limits.get("box_needs")
    return needs is None or all(any(entry[k] for k in needs) for entry in entries)


def _cost(cover: Mapping[str, Any], args: Mapping[str, Any], entries: list[Mapping[str, Any]]) -> int:
    """Chips the stack must cover: each argument (or each entry's) times its weight.

    A list of weights goes by the entry's place among the entries that have that bet, in place order.
    """
    total = 0
    for name, weight in cover.items():
        if name == "max":
            continue
        if name in args:
            total += int(args[name]) * weight
            continue
        having = [int(entry[name]) for entry in entries if entry[name]]
        weights = weight if isinstance(weight, list) else [weight] * len(having)
        total += sum(w * v for w, v in zip(weights, having, strict=False))
    return total
