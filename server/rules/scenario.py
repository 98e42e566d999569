"""Reading a settle scenario's JSON (``hcf-server rules settle``): the checks on keys, cards and flags.

Each refuses with a :class:`SettleError` whose message starts with ``where``, the
place in the scenario, so a caller sees what to fix.

>>> cards("Ah Kd", "dealer")
(50, 45)
>>> flag({"play": 1}, "play", "spot 2")
Traceback (most recent call last):
...
server.rules.errors.SettleError: spot 2: play must be true or false, got 1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.rules.cards import Card, parse_cards
from server.rules.errors import RuleError, SettleError


def known(data: Mapping[str, Any], keys: Sequence[str], where: str) -> None:
    """Refuse a key of ``data`` that is not one of ``keys`` (the first in sorted order is named)."""
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise SettleError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(keys)})")


def cards(value: Any, where: str) -> tuple[Card, ...]:
    """Cards given as a string like ``'Ah Kd 9c'`` or a list of such cards."""
    if not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))):
        raise SettleError(f"{where}: cards are a string like 'Ah Kd 9c 4s 2h' or a list of such cards")
    try:
        return parse_cards(value)
    except RuleError as exc:
        raise SettleError(f"{where}: {exc.message}") from None


def flag(data: Mapping[str, Any], key: str, where: str) -> bool:
    """``data[key]`` if true or false; a missing key (or null) is false."""
    value = data.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise SettleError(f"{where}: {key} must be true or false, got {value!r}")
    return value
