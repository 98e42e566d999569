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


def bet_list(count: JSON, each: JSON) -> JSON:
    """A list argument: ``count`` entries (a span), each shaped as ``each``, no spot or box twice."""
    return {"count": count, "each": each}
