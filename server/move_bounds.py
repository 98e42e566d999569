"""A move's arguments on the wire: the bounds any game's move fits within, checked before the game reads them.

The protocol's ``Move`` names no game's moves (docs/protocol.md): it only bounds what is sent, here, so that a
game's own check (server/rules/moves.py) meets numbers, text and small lists, never a payload built to cost.
"""

from __future__ import annotations

import re
from typing import Any, Final

from server.refusals import explain
from server.rules.errors import Refusal

MOST_ARGS: Final = 12
MOST_ENTRIES: Final = 9  # a list argument's entries (every spot's or box's bets)
MOST_FIELDS: Final = 8  # an entry's fields
MOST_TEXT: Final = 128
MOST_NUMBER: Final = 10**9
_NAME: Final = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")


def bounded(name: str, value: Any) -> None:
    """Refuse (ProtocolError) a move's argument beyond what any game takes: a number, true or false, text,
    or a list of those or of objects of them, each within the wire's bounds.

    >>> bounded("ante", 10), bounded("bets", [{"spot": 1, "ante": 10, "jackpot": True}])
    (None, None)
    >>> bounded("amount", 10**12)
    Traceback (most recent call last):
    ...
    server.rules.errors.Refusal: move: the amount is at most 1,000,000,000 chips
    """
    _bounded(("args", name), value, entries=True)


def _bounded(loc: tuple[str | int, ...], value: Any, *, entries: bool = False) -> None:
    complaint = _complaint_of(value)
    if complaint is None and isinstance(value, list) and entries:
        for i, entry in enumerate(value):
            _entry((*loc, i), entry)
        return
    if complaint is not None:
        raise Refusal("request/malformed", explain("move", [{"loc": loc, **complaint}]))


def _complaint_of(value: Any) -> dict[str, Any] | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        if abs(value) <= MOST_NUMBER:
            return None
        return {"type": "less_than_equal", "ctx": {"le": MOST_NUMBER}} if value > 0 else \
            {"type": "greater_than_equal", "ctx": {"ge": -MOST_NUMBER}}
    if isinstance(value, str):
        return None if len(value) <= MOST_TEXT else {"type": "string_too_long", "ctx": {"max_length": MOST_TEXT}}
    if isinstance(value, list):
        return None if len(value) <= MOST_ENTRIES else {"type": "too_long", "ctx": {"max_length": MOST_ENTRIES}}
    return {"type": "int_type" if isinstance(value, float) else "value_error"}


def _entry(loc: tuple[str | int, ...], entry: Any) -> None:
    if not isinstance(entry, dict):
        _bounded(loc, entry)
        if isinstance(entry, list):  # a list in a list: no game takes one
            raise Refusal("request/malformed", explain("move", [{"loc": loc, "type": "value_error"}]))
        return
    if len(entry) > MOST_FIELDS or not all(isinstance(k, str) and _NAME.match(k) for k in entry):
        raise Refusal("request/malformed", explain("move", [{"loc": loc, "type": "value_error"}]))
    for key, value in entry.items():
        if isinstance(value, list | dict):
            raise Refusal("request/malformed", explain("move", [{"loc": (*loc, key), "type": "value_error"}]))
        _bounded((*loc, key), value)
