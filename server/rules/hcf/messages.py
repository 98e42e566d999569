"""Commands (what someone asks) and events (what happened) of a High Card Flush hand.

Commands are imperative and may be refused; events are past tense and always
apply. Every event serializes to a JSON object with a ``type`` key, so the log,
the wire and a replay all speak the same shapes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from server.rules import events
from server.rules.cards import Card
from server.rules.codec import MessageCodec
from server.rules.commands import ClockExpired as ClockExpired
from server.rules.commands import CloseBets as CloseBets
from server.rules.commands import DeclareDead as DeclareDead
from server.rules.commands import Leave as Leave
from server.rules.commands import Misdeal as Misdeal
from server.rules.commands import Stay as Stay
from server.rules.events import CARDS, HANDS, Codec
from server.rules.events import DeckPrepared as DeckPrepared
from server.rules.events import Event as Event
from server.rules.events import HandNotDealt as HandNotDealt
from server.rules.events import HandVoided as HandVoided
from server.rules.events import LeaveWithdrawn as LeaveWithdrawn
from server.rules.events import PlayerLeaving as PlayerLeaving
from server.rules.hcf.settlement import SeatResult, Settlement

# ---------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class AcceptBank:
    """The offered player takes the bank (becomes the DP)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclineBank:
    """The offered player passes the bank on."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlaceBets:
    """A player confirms an Ante and optional bonus bets, with an optional seed."""

    seat: int
    ante: int
    straight_flush_bonus: int = 0
    flush_bonus: int = 0
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class PassBets:
    """A player sits this hand out."""

    seat: int


@dataclass(frozen=True, slots=True)
class Fold:
    """The player in turn folds."""

    seat: int


@dataclass(frozen=True, slots=True)
class Raise:
    """The player in turn raises ``amount`` chips."""

    seat: int
    amount: int


Command = (
    AcceptBank | DeclineBank | PlaceBets | PassBets | CloseBets | Fold | Raise
    | ClockExpired | Leave | Stay | DeclareDead | Misdeal
)

# ---------------------------------------------------------------- events


def _settlement_as_json(settlement: Settlement) -> dict[str, Any]:
    return settlement.as_json() | {"void": settlement.void}


def _settlement_from_json(data: Mapping[str, Any]) -> Settlement:
    dealer = data["dealer"]
    seats = tuple(
        SeatResult(s["seat"], s["dead"], s["folded"], s["ante"], s["raise"],
                   s["straight_flush_bonus"], s["flush_bonus"], s["fee"],
                   # logged before dead seats said why: those keys are absent
                   s.get("dead_reason"), s.get("bank"), s.get("owed"))
        for s in data["seats"]
    )
    return Settlement(dealer["qualifies"], dealer["fee"], dealer["net"], tuple(data["order"]),
                      seats, data["house"], data.get("void", False))


SETTLEMENT: Final = Codec(_settlement_as_json, _settlement_from_json)
"""A settlement as its public JSON plus ``void``."""



@dataclass(frozen=True, slots=True)
class BankOffered(Event):
    """The bank is offered to ``seat``."""

    type: ClassVar[str] = "bank_offered"
    seat: int


@dataclass(frozen=True, slots=True)
class BankDeclined(Event):
    """``seat`` declined (``declined``, ``clock`` or ``left``)."""

    type: ClassVar[str] = "bank_declined"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class BankAccepted(Event):
    """``seat`` is the DP of this hand; the button sits in front of them."""

    type: ClassVar[str] = "bank_accepted"
    seat: int


@dataclass(frozen=True, slots=True)
class BettingOpened(Event):
    """Bets are open; the server seed is committed."""

    type: ClassVar[str] = "betting_opened"
    dealer: int | None
    commitment: str
    bettors: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BetsPlaced(Event):
    """A player's confirmed bets (their seed, if any, is revealed with the hand)."""

    type: ClassVar[str] = "bets_placed"
    seat: int
    ante: int
    straight_flush_bonus: int
    flush_bonus: int
    seed: str | None


@dataclass(frozen=True, slots=True)
class BetsPassed(Event):
    """A player sits this hand out (``passed``, ``clock``, ``left``)."""

    type: ClassVar[str] = "bets_passed"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class BetsClosed(Event):
    """Betting is over; ``seats`` have an Ante and play."""

    type: ClassVar[str] = "bets_closed"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FeesCollected(Event):
    """Collection fees taken now and held apart: ``(seat, chips)`` pairs."""

    type: ClassVar[str] = "fees_collected"
    fees: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Every hand, dealt one card at a time in ``order``; seat 0 is the house dealer."""

    type: ClassVar[str] = "cards_dealt"
    codecs: ClassVar[dict[str, Codec]] = {"hands": HANDS}
    order: tuple[int, ...]
    hands: tuple[tuple[int, tuple[Card, ...]], ...]


@dataclass(frozen=True, slots=True)
class SeatDead(Event):
    """One seat's hand is dead: ``floor``, ``card_count``."""

    type: ClassVar[str] = "seat_dead"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """It is ``seat``'s decision."""

    type: ClassVar[str] = "turn_started"
    seat: int


@dataclass(frozen=True, slots=True)
class PlayerFolded(Event):
    """``seat`` folded (``fold``, ``clock`` or ``left``)."""

    type: ClassVar[str] = "player_folded"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerRaised(Event):
    """``seat`` raised ``amount``."""

    type: ClassVar[str] = "player_raised"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class DealerRevealed(Event):
    """The DP's (or house's, seat 0) hand is shown."""

    type: ClassVar[str] = "dealer_revealed"
    codecs: ClassVar[dict[str, Codec]] = {"cards": CARDS}
    seat: int
    cards: tuple[Card, ...]
    qualifies: bool


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    """The results; ``shown`` are the hands that reached settlement."""

    type: ClassVar[str] = "hand_settled"
    codecs: ClassVar[dict[str, Codec]] = {"settlement": SETTLEMENT, "shown": HANDS}
    settlement: Settlement
    shown: tuple[tuple[int, tuple[Card, ...]], ...]


HandEvent = Event

EVENT_TYPES: dict[str, type[Event]] = events.event_types(
    BankOffered, BankDeclined, BankAccepted, BettingOpened, BetsPlaced, BetsPassed,
    PlayerLeaving, LeaveWithdrawn, BetsClosed, HandNotDealt, FeesCollected, DeckPrepared, CardsDealt,
    SeatDead, TurnStarted, PlayerFolded, PlayerRaised, DealerRevealed, HandSettled,
    HandVoided,
)


COMMAND_TYPES: Final[dict[str, type]] = {
    "accept_bank": AcceptBank, "decline_bank": DeclineBank, "place_bets": PlaceBets, "pass_bets": PassBets,
    "fold": Fold, "raise": Raise,
}

CODEC: Final = MessageCodec[Command, Event](EVENT_TYPES.values(), COMMAND_TYPES)
"""This game's JSON forms: events as logged, commands as recorded in the hand's input log."""
event_from_json: Final = CODEC.event_from_json
command_as_json: Final = CODEC.command_as_json
command_from_json: Final = CODEC.command_from_json
