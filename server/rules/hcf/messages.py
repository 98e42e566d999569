"""Commands (what someone asks) and events (what happened) of a High Card Flush hand.

Commands are imperative and may be refused; events are past tense and always
apply. Every event serializes to a JSON object with a ``type`` key, so the log,
the wire and a replay all speak the same shapes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from server.rules.cards import Card, cards_list, parse_cards
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
class CloseBets:
    """The betting clock ran out: whoever has not answered sits this hand out."""


@dataclass(frozen=True, slots=True)
class Fold:
    """The player in turn folds."""

    seat: int


@dataclass(frozen=True, slots=True)
class Raise:
    """The player in turn raises ``amount`` chips."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class ClockExpired:
    """The running clock of ``seat`` (the offer or the decision) ran out."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The player asked to leave: they fold at their turn and stand up after the hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclareDead:
    """The floor declares one seat's hand dead."""

    seat: int


@dataclass(frozen=True, slots=True)
class Misdeal:
    """The whole hand is dead: ``misdeal``, ``shuffler_fault``, ``interrupted``, ``shutdown``."""

    reason: str = "misdeal"


Command = (
    AcceptBank | DeclineBank | PlaceBets | PassBets | CloseBets | Fold | Raise
    | ClockExpired | Leave | DeclareDead | Misdeal
)

# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; ``type`` names it on the wire and in the log."""

    type: ClassVar[str] = "event"

    def as_json(self) -> dict[str, Any]:
        """JSON-ready payload with a ``type`` key."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, Settlement):
        return value.as_json() | {"void": value.void}
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


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
class PlayerLeaving(Event):
    """A player asked to leave; they stand up after the hand."""

    type: ClassVar[str] = "player_leaving"
    seat: int


@dataclass(frozen=True, slots=True)
class BetsClosed(Event):
    """Betting is over; ``seats`` have an Ante and play."""

    type: ClassVar[str] = "bets_closed"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandNotDealt(Event):
    """No hand this time: ``no_bank`` (nobody took the bank) or ``no_ante``."""

    type: ClassVar[str] = "hand_not_dealt"
    reason: str


@dataclass(frozen=True, slots=True)
class FeesCollected(Event):
    """Collection fees taken now and held apart: ``(seat, chips)`` pairs."""

    type: ClassVar[str] = "fees_collected"
    fees: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class DeckPrepared(Event):
    """The deck is fixed: derived from the seeds, or arranged by the host."""

    type: ClassVar[str] = "deck_prepared"
    arranged: bool
    player_seeds: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Every hand, dealt one card at a time in ``order``; seat 0 is the house dealer."""

    type: ClassVar[str] = "cards_dealt"
    order: tuple[int, ...]
    hands: tuple[tuple[int, tuple[Card, ...]], ...]

    def as_json(self) -> dict[str, Any]:
        """Cards in notation."""
        return {"type": self.type, "order": list(self.order),
                "hands": [[seat, cards_list(cards)] for seat, cards in self.hands]}


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
    seat: int
    cards: tuple[Card, ...]
    qualifies: bool

    def as_json(self) -> dict[str, Any]:
        """Cards in notation."""
        return {"type": self.type, "seat": self.seat, "cards": cards_list(self.cards),
                "qualifies": self.qualifies}


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    """The results; ``shown`` are the hands that reached settlement."""

    type: ClassVar[str] = "hand_settled"
    settlement: Settlement
    shown: tuple[tuple[int, tuple[Card, ...]], ...]

    def as_json(self) -> dict[str, Any]:
        """Settlement and shown cards in notation."""
        return {"type": self.type, "settlement": _jsonable(self.settlement),
                "shown": [[seat, cards_list(cards)] for seat, cards in self.shown]}


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The whole hand is dead; every bet and fee goes back."""

    type: ClassVar[str] = "hand_voided"
    reason: str


HandEvent = Event

EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        BankOffered, BankDeclined, BankAccepted, BettingOpened, BetsPlaced, BetsPassed,
        PlayerLeaving, BetsClosed, HandNotDealt, FeesCollected, DeckPrepared, CardsDealt,
        SeatDead, TurnStarted, PlayerFolded, PlayerRaised, DealerRevealed, HandSettled,
        HandVoided,
    )
}


def event_from_json(data: dict[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.as_json` (for replays)."""
    cls = EVENT_TYPES[data["type"]]
    args = {k: v for k, v in data.items() if k != "type"}
    if cls is CardsDealt:
        return CardsDealt(tuple(args["order"]),
                          tuple((s, parse_cards(c)) for s, c in args["hands"]))
    if cls is DealerRevealed:
        return DealerRevealed(args["seat"], parse_cards(args["cards"]), args["qualifies"])
    if cls is HandSettled:
        return HandSettled(_settlement_from_json(args["settlement"]),
                           tuple((s, parse_cards(c)) for s, c in args["shown"]))
    return cls(**{k: tuple(_tuplify(v)) if isinstance(v, list) else v for k, v in args.items()})


def _tuplify(items: list[Any]) -> list[Any]:
    return [tuple(_tuplify(v)) if isinstance(v, list) else v for v in items]


def _settlement_from_json(data: dict[str, Any]) -> Settlement:
    dealer = data["dealer"]
    seats = tuple(
        SeatResult(s["seat"], s["dead"], s["folded"], s["ante"], s["raise"],
                   s["straight_flush_bonus"], s["flush_bonus"], s["fee"])
        for s in data["seats"]
    )
    return Settlement(dealer["qualifies"], dealer["fee"], dealer["net"], tuple(data["order"]),
                      seats, data["house"], data.get("void", False))


COMMAND_TYPES: dict[str, type] = {
    "accept_bank": AcceptBank, "decline_bank": DeclineBank, "place_bets": PlaceBets, "pass_bets": PassBets,
    "close_bets": CloseBets, "fold": Fold, "raise": Raise, "clock_expired": ClockExpired, "leave": Leave,
    "declare_dead": DeclareDead, "misdeal": Misdeal,
}
_COMMAND_NAMES = {cls: name for name, cls in COMMAND_TYPES.items()}


def command_as_json(command: Command) -> dict[str, Any]:
    """A command as recorded in the hand's input log (for replays)."""
    return {"command": _COMMAND_NAMES[type(command)], **dataclasses.asdict(command)}


def command_from_json(data: dict[str, Any]) -> Command:
    """Rebuild a command recorded by :func:`command_as_json`."""
    cls = COMMAND_TYPES[data["command"]]
    command: Command = cls(**{k: v for k, v in data.items() if k != "command"})
    return command
