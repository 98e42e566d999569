"""A request the models refuse, said in our words (never pydantic's).

Every socket request and the HTTP host command are validated by the models of
:mod:`server.protocol`; :func:`explain` turns the first complaint into one
sentence naming the field as a person knows it, with the limit that was broken.
Seats, spots and boxes are only bounded loosely here: the table checks them
against its own number of seats, spots or boxes and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

# The fields as a sentence names them.
FIELDS: Final[Mapping[str, str]] = {
    "table": "the table name", "seat": "the seat", "buy_in": "the buy-in", "amount": "the amount",
    "ante": "the Ante", "straight_flush_bonus": "the Straight Flush bonus", "flush_bonus": "the Flush bonus",
    "bonus": "the bonus bet", "seed": "a player seed", "account": "the account name", "cards": "the cards",
    "settings": "the settings", "action": "the action", "spot": "the spot", "box": "the box",
    "bets": "the bets", "discard": "the cards to exchange", "sitting_out": "sitting_out",
    "willing": "willing", "accept": "accept", "jackpot": "jackpot", "hands": "the cards by seat",
}
_CHIPS: Final = frozenset({"buy_in", "amount", "ante", "straight_flush_bonus", "flush_bonus", "bonus"})
_KINDS: Final[Mapping[str, str]] = {
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "bool_type": "true or false", "bool_parsing": "true or false", "string_type": "text",
    "dict_type": "an object of names and values", "list_type": "a list",
}


def explain(request: str, errors: Sequence[Mapping[str, Any]]) -> str:
    """One sentence for the first of pydantic's ``errors()`` on ``request``.

    >>> explain("host", [{"type": "greater_than_equal", "loc": ("amount",), "ctx": {"ge": 1}}])
    'host: the amount is at least 1 chip'
    >>> explain("sit", [{"type": "int_type", "loc": ("seat",)}])
    'sit: the seat is a whole number'
    >>> explain("move", [{"type": "less_than_equal", "loc": ("discard", 0), "ctx": {"le": 6}}])
    'move: the cards to exchange (item 1) is at most 6'
    """
    if not errors:
        return f"{request}: the request is not valid"
    first = errors[0]
    loc = tuple(first.get("loc") or ())
    name = next((str(part) for part in reversed(loc) if isinstance(part, str)), "")
    items = [part + 1 for part in loc if isinstance(part, int)]
    field = FIELDS.get(name, name or "the request") + "".join(f" (item {i})" for i in items)
    return f"{request}: {_complaint(first, name, field)}"


def _complaint(error: Mapping[str, Any], name: str, field: str) -> str:
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    unit = " chip" if name in _CHIPS else ""
    if kind in ("greater_than_equal", "greater_than"):
        low = ctx.get("ge", ctx.get("gt"))
        return f"{field} is at least {_number(low, unit)}" if kind.endswith("equal") else f"{field} is above {low}"
    if kind in ("less_than_equal", "less_than"):
        return f"{field} is at most {_number(ctx.get('le', ctx.get('lt')), unit)}"
    if kind == "missing":
        return f"{field} is missing"
    if kind == "extra_forbidden":
        return f"{name!r} is not part of this request"
    if kind == "literal_error":
        return f"{field} is one of {ctx.get('expected')}"
    if kind == "string_too_long":
        return f"{field} has at most {ctx.get('max_length')} characters"
    if kind == "string_too_short":
        return f"{field} cannot be empty"
    if kind == "string_pattern_mismatch":
        return f"{field} uses only letters, digits, '_', '-' and '.'"
    if kind == "too_long":
        return f"{field} has at most {ctx.get('max_length')} entries"
    if kind in _KINDS:
        return f"{field} is {_KINDS[kind]}"
    return f"{field} is not valid here"


def _number(value: Any, unit: str) -> str:
    """``1 chip``, ``1,000,000,000 chips``, ``6``."""
    if not isinstance(value, int):
        return str(value)
    return f"{value:,}{unit}{'s' if unit and value != 1 else ''}"
