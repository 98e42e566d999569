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

from server.i18n import Phrase, phrase

# The fields as a sentence names them.
FIELDS: Final[Mapping[str, str]] = {
    "table": phrase("the table name"), "seat": phrase("the seat"), "buy_in": phrase("the buy-in"),
    "amount": phrase("the amount"), "ante": phrase("the Ante"),
    "straight_flush_bonus": phrase("the Straight Flush bonus"), "flush_bonus": phrase("the Flush bonus"),
    "bonus": phrase("the bonus bet"), "seed": phrase("a player seed"), "account": phrase("the account name"),
    "cards": phrase("the cards"), "settings": phrase("the settings"), "action": phrase("the action"),
    "spot": phrase("the spot"), "box": phrase("the box"), "bets": phrase("the bets"),
    "discard": phrase("the cards to exchange"), "sitting_out": "sitting_out", "willing": "willing",
    "accept": "accept", "jackpot": "jackpot", "hands": phrase("the cards by seat"),
}
_CHIPS: Final = frozenset({"buy_in", "amount", "ante", "straight_flush_bonus", "flush_bonus", "bonus"})
_KINDS: Final[Mapping[str, Phrase]] = {  # each says {field}
    "int_type": phrase("{field} is a whole number"), "int_parsing": phrase("{field} is a whole number"),
    "int_from_float": phrase("{field} is a whole number"), "bool_type": phrase("{field} is true or false"),
    "bool_parsing": phrase("{field} is true or false"), "string_type": phrase("{field} is text"),
    "dict_type": phrase("{field} is an object of names and values"), "list_type": phrase("{field} is a list"),
}


def explain(request: str, errors: Sequence[Mapping[str, Any]]) -> str:
    """One sentence for the first of pydantic's ``errors()`` on ``request`` (a phrase: docs/i18n.md).

    >>> explain("host", [{"type": "greater_than_equal", "loc": ("amount",), "ctx": {"ge": 1}}])
    'host: the amount is at least 1 chip'
    >>> explain("sit", [{"type": "int_type", "loc": ("seat",)}])
    'sit: the seat is a whole number'
    >>> explain("move", [{"type": "less_than_equal", "loc": ("discard", 0), "ctx": {"le": 6}}])
    'move: the cards to exchange (item 1) is at most 6'
    """
    if not errors:
        return phrase("{request}: the request is not valid", request=request)
    first = errors[0]
    loc = tuple(first.get("loc") or ())
    name = next((str(part) for part in reversed(loc) if isinstance(part, str)), "")
    field: str = FIELDS.get(name, name or phrase("the request"))
    for item in (part + 1 for part in loc if isinstance(part, int)):
        field = phrase("{field} (item {item})", field=field, item=item)
    return phrase("{request}: {complaint}", request=request, complaint=_complaint(first, name, field))


def _complaint(error: Mapping[str, Any], name: str, field: str) -> str:
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    chips = name in _CHIPS
    if kind in ("greater_than_equal", "greater_than"):
        low = ctx.get("ge", ctx.get("gt"))
        if kind.endswith("equal"):
            return phrase("{field} is at least {low}", field=field, low=_number(low, chips))
        return phrase("{field} is above {low}", field=field, low=low)
    if kind in ("less_than_equal", "less_than"):
        return phrase("{field} is at most {high}", field=field, high=_number(ctx.get("le", ctx.get("lt")), chips))
    if kind == "missing":
        return phrase("{field} is missing", field=field)
    if kind == "extra_forbidden":
        return phrase("{name} is not part of this request", name=repr(name))
    if kind == "literal_error":
        return phrase("{field} is one of {expected}", field=field, expected=ctx.get("expected"))
    if kind == "string_too_long":
        return phrase("{field} has at most {count} characters", field=field, count=ctx.get("max_length"))
    if kind == "string_too_short":
        return phrase("{field} cannot be empty", field=field)
    if kind == "string_pattern_mismatch":
        return phrase("{field} uses only letters, digits, '_', '-' and '.'", field=field)
    if kind == "too_long":
        return phrase("{field} has at most {count} entries", field=field, count=ctx.get("max_length"))
    if kind in _KINDS:
        return phrase(_KINDS[kind].msgid, field=field)
    return phrase("{field} is not valid here", field=field)


def _number(value: Any, chips: bool) -> str:
    """``1 chip``, ``1,000,000,000 chips``, ``6``."""
    if not isinstance(value, int):
        return str(value)
    if not chips:
        return f"{value:,}"
    return phrase("{count} chip", count=f"{value:,}") if value == 1 else phrase("{count} chips", count=f"{value:,}")
