"""The away switch and the time bank in the terminal: ``away`` / ``back``, and what the table says of them.

``away`` asks the table to act for you at once whenever a hand waits on you (pass, fold, decline the
bank) until you come back: ``back``, or any move of your own. ``back`` also ends sitting out, as ever.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.i18n import _, phrase

AWAY_HELP = phrase("  away / back           the table passes and folds for you at once, until 'back'")


def away_asked(line: str, snapshot: Mapping[str, Any] | None) -> bool | None:
    """The away switch a typed line asks for: ``away`` turns it on; ``back`` turns it off when you are away (else
    ``back`` is only the sit-out switch's); None for any other line.

    >>> away_asked("away", {}), away_asked(" Back ", {"you": {"seat": 2}, "seats": [{"seat": 2, "away": True}]})
    (True, False)
    >>> away_asked("back", {"you": {"seat": 2}, "seats": [{"seat": 2, "away": False}]}) is None
    True
    """
    verb = line.strip().lower()
    if verb == "away":
        return True
    if verb == "back" and your_seat(snapshot).get("away"):
        return False
    return None


def your_seat(snapshot: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """Your seat's entry in the table's ``seats`` ({} when you have none)."""
    seat = ((snapshot or {}).get("you") or {}).get("seat")
    return next((s for s in (snapshot or {}).get("seats") or [] if s.get("seat") == seat), {}) if seat else {}


def switched_text(on: bool) -> str:
    """What the player is told once the table took the switch."""
    if on:
        return _("you are away: the table passes, folds and declines the bank for you at once (type 'back' to play)")
    return _("you are back: the table waits for your moves again")


def event_text(event: Mapping[str, Any], who: str) -> str | None:
    """The log line of an away or time bank event (None for any other).

    >>> event_text({"type": "time_bank_drawn", "name": "bob", "left": 25.0}, "bob")
    'bob is using the time bank: 25 s left'
    >>> event_text({"type": "player_away", "name": "ana", "away": True}, "ana")
    'ana is away'
    """
    kind, name = event.get("type"), event.get("name") or who
    if kind == "player_away":
        return _("{name} is away", name=name) if event.get("away") else _("{name} is back", name=name)
    if kind == "time_bank_drawn":
        return _("{name} is using the time bank: {time} left", name=name, time=_seconds(event.get("left")))
    if kind == "time_bank_used":
        return _("{name} has {time} left in the time bank", name=name, time=_seconds(event.get("left")))
    return None


def _seconds(value: Any) -> str:
    return _("{n} s", n=int(value)) if isinstance(value, int | float) else _("some seconds")
