"""The commands and events of the betting round both house-banked games run, and their dealer reveal.

Bets are placed, then confirmed with *Deal* or taken back with *Clear*; a player
who bets nothing this hand says *Pass*. The betting closes once every player of
the hand has confirmed or passed (or is leaving), or when its clock runs out
(docs/rules/caribbean.md section 3.1).

>>> BetsCleared(2, "clock").as_json()
{'type': 'bets_cleared', 'seat': 2, 'reason': 'clock'}
>>> BetsPassed(3).as_json()
{'type': 'bets_passed', 'seat': 3}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from server.rules.cards import Card
from server.rules.events import CARDS, Codec, Event


@dataclass(frozen=True, slots=True)
class ConfirmBets:
    """*Deal*: the player's bets are final."""

    seat: int


@dataclass(frozen=True, slots=True)
class ClearBets:
    """*Clear*: take every bet of the player back, confirmed or not, while betting is open."""

    seat: int


@dataclass(frozen=True, slots=True)
class PassBets:
    """*Pass*: no bets from this player this hand (unconfirmed ones go back); betting need not wait for them."""

    seat: int


@dataclass(frozen=True, slots=True)
class BetsConfirmed(Event):
    """``seat`` pressed *Deal*: its bets are final."""

    type: ClassVar[str] = "bets_confirmed"
    seat: int


@dataclass(frozen=True, slots=True)
class BetsCleared(Event):
    """``seat``'s bets went back: ``clear`` (by choice), ``left``, or ``clock`` (unconfirmed at the close)."""

    type: ClassVar[str] = "bets_cleared"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class BetsPassed(Event):
    """``seat`` passed: it bets nothing this hand unless it bets again while betting is still open."""

    type: ClassVar[str] = "bets_passed"
    seat: int


@dataclass(frozen=True, slots=True)
class DealerRevealed(Event):
    """The dealer's five cards are shown, and whether they qualify (the game's rule says how)."""

    type: ClassVar[str] = "dealer_revealed"
    codecs: ClassVar[dict[str, Codec]] = {"cards": CARDS}
    cards: tuple[Card, ...]
    qualifies: bool
