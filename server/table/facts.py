"""What the table tells every game's rules afresh with each carry: its clock and its players' names.

The seam (server/rules/game.py) names two carry keys the table sets before every
``new_hand``, ``after_hand`` and ``table_view``: :data:`~server.rules.game.TABLE_CLOCK`
(the table's clock now, in seconds) and :data:`~server.rules.game.SEAT_NAMES` (each seat's
player, by name). A game that counts time or remembers players across hands reads them
(High Card Flush's house rules for the bank, docs/rules/hcf.md section 9); the others
ignore them. They are the table's facts, never the game's memory: the table takes them
out of every carry a game hands back, so a hand's record keeps only what the game kept.
Pure: the caller gives the clock's reading.

>>> given({"meter": 5}, now=12.5, names={3: "ann"})
{'meter': 5, 'table_clock': 12.5, 'seat_names': {'3': 'ann'}}
>>> at_clock(given({}, now=1.0, names={1: "bo"}), 9.0)
{'table_clock': 9.0, 'seat_names': {'1': 'bo'}}
>>> taken({"meter": 5, "table_clock": 12.5, "seat_names": {"3": "ann"}})
{'meter': 5}
"""

from __future__ import annotations

from collections.abc import Mapping

from server.rules.game import JSON, SEAT_NAMES, TABLE_CLOCK, JSONIn

FACTS = (TABLE_CLOCK, SEAT_NAMES)


def given(carry: JSONIn, *, now: float, names: Mapping[int, str]) -> JSON:
    """``carry`` with the table's clock ``now`` and each seat's player name (``names``: seat -> name)."""
    return {**taken(carry), TABLE_CLOCK: now, SEAT_NAMES: {str(seat): name for seat, name in sorted(names.items())}}


def at_clock(carry: JSONIn, now: float) -> JSON:
    """``carry`` with the table's clock moved to ``now`` (the names it was given stay: the hand's players)."""
    return {**carry, TABLE_CLOCK: now}


def taken(carry: JSONIn) -> JSON:
    """``carry`` without the table's facts: what a game keeps from hand to hand."""
    return {key: value for key, value in carry.items() if key not in FACTS}
