"""Irregularities a drill injects, and their rulings (DRILLS section 5).

>>> ruling(Irregularity("miscount", 3), dealer=5)
{'ruling': 'dead_seat', 'seat': 3}
>>> ruling(Irregularity("miscount", 5), dealer=5), ruling(Irregularity("shuffler_fault"), dealer=None)
({'ruling': 'dead_hand'}, {'ruling': 'dead_hand'})
>>> ruling(Irregularity("none"), dealer=2)
{'ruling': 'play_on'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from server.i18n import told, with_say
from server.rules.cards import Card, card_text
from server.rules.drill.steps import JSON

Kind = Literal["miscount", "shuffler_fault", "none"]
KINDS: Final = ("miscount", "shuffler_fault", "none")
DEALER: Final = 0
"""The place of the dealer in an irregularity: the house's dealer (the DP at High Card Flush is a seat)."""


@dataclass(frozen=True, slots=True)
class Irregularity:
    """What goes wrong after the deal. ``seat`` (a miscount only): the seat, spot or box, or :data:`DEALER`."""

    kind: Kind
    seat: int | None = None

    def at_dealer(self, dealer: int | None) -> bool:
        """Whether a miscount hit the dealer's hand (the DP's seat, or the house's dealer)."""
        return self.kind == "miscount" and (self.seat == DEALER or self.seat == dealer)


def ruling(irregularity: Irregularity, *, dealer: int | None) -> JSON:
    """The right ruling: a miscount kills its seat, or the hand at the dealer; a shuffler fault kills the hand.

    ``dealer`` is the DP's seat (None where the house deals). A wrong card count is a
    dead hand (docs/rules/hcf.md section 5); a control with nothing wrong plays on.
    """
    if irregularity.kind == "none":
        return {"ruling": "play_on"}
    if irregularity.kind == "shuffler_fault" or irregularity.at_dealer(dealer):
        return {"ruling": "dead_hand"}
    return {"ruling": "dead_seat", "seat": irregularity.seat}


def injected(irregularity: Irregularity, deck: Sequence[Card] | None, dealt: int, place: str) -> JSON:
    """What the table announces when it injects ``irregularity``: for a miscount, the extra card from the stub.

    ``deck`` is in dealing order and ``dealt`` cards of it went to the hands, so the stub's
    next card is the one a miscount gives; when the deck is not known (a live table's
    shuffled deck), the card is not named. ``place`` names a hand: seat, spot or box.

    >>> injected(Irregularity("miscount", 2), [0, 1, 2, 3], 3, "seat")["card"]
    '2s'
    >>> injected(Irregularity("miscount", 2), None, 3, "seat")["message"]
    'drill: seat 2 is dealt an extra card from the stub'
    """
    if irregularity.kind == "shuffler_fault":
        return with_say({"type": "drill_irregularity", "kind": "shuffler_fault",
                         "message": told("drill: the shuffler flashes red")})
    if irregularity.kind == "none":
        return with_say({"type": "drill_irregularity", "kind": "none",
                         "message": told("drill: the floor is asked for a ruling on this deal")})
    who = told("the dealer") if irregularity.seat == DEALER else _place(place, irregularity.seat)
    event: JSON = {"type": "drill_irregularity", "kind": "miscount", "seat": irregularity.seat,
                   "message": told("drill: {who} is dealt an extra card from the stub", who=who)}
    if deck is not None and dealt < len(deck):
        card = card_text(deck[dealt])
        event |= {"card": card, "message": told("{sentence} ({card})", sentence=event["message"], card=card)}
    return with_say(event)


def _place(place: str, n: int | None) -> str:
    places = {"seat": told("seat {n}", n=n), "spot": told("spot {n}", n=n), "box": told("box {n}", n=n)}
    return places.get(place) or f"{place} {n}"
