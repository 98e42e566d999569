"""Commands (what someone asks) and events (what happened) of a Caribbean Stud hand.

Commands are imperative and may be refused; events are past tense and always
apply. Every event serializes to a JSON object with a ``type`` key, so the log,
the wire and a replay all speak the same shapes; :func:`event_from_json` and
:func:`command_from_json` rebuild exactly what was written.

>>> event = BetsClosed((ClosedBet(spot=2, seat=1, ante=10, jackpot=True),))
>>> event.as_json()
{'type': 'bets_closed', 'bets': [{'spot': 2, 'seat': 1, 'ante': 10, 'jackpot': True}]}
>>> event_from_json(event.as_json()) == event
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, NamedTuple

from server.rules import events
from server.rules.cards import Card
from server.rules.caribbean.settlement import CaribbeanSettlement, SpotResult
from server.rules.codec import MessageCodec
from server.rules.commands import ClockExpired as ClockExpired
from server.rules.commands import CloseBets as CloseBets
from server.rules.commands import DeclareDead as DeclareDead
from server.rules.commands import Leave as Leave
from server.rules.commands import Misdeal as Misdeal
from server.rules.commands import Stay as Stay
from server.rules.events import CARDS, HANDS, Codec, listed
from server.rules.events import DeckPrepared as DeckPrepared
from server.rules.events import Event as Event
from server.rules.events import HandNotDealt as HandNotDealt
from server.rules.events import HandVoided as HandVoided
from server.rules.events import LeaveWithdrawn as LeaveWithdrawn
from server.rules.events import PlayerLeaving as PlayerLeaving
from server.rules.house.messages import BetsCleared as BetsCleared
from server.rules.house.messages import BetsConfirmed as BetsConfirmed
from server.rules.house.messages import BetsPassed as BetsPassed
from server.rules.house.messages import ClearBets as ClearBets
from server.rules.house.messages import ConfirmBets as ConfirmBets
from server.rules.house.messages import DealerRevealed as DealerRevealed
from server.rules.house.messages import PassBets as PassBets

HOUSE = 0
"""The dealer's place in a deal order (spots are numbered from 1)."""


class SpotBet(NamedTuple):
    """One spot's bets as a player places them: the Ante and whether the jackpot wager rides too."""

    spot: int
    ante: int
    jackpot: bool = False


class ClosedBet(NamedTuple):
    """A confirmed spot's bets once betting closed, with the seat that owns the spot."""

    spot: int
    seat: int
    ante: int
    jackpot: bool


# ---------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class PlaceSpotBets:
    """Replace ``seat``'s unconfirmed bets with ``bets`` (empty: none), with an optional player seed.

    >>> command_as_json(PlaceSpotBets(3, (SpotBet(1, 10, True),), "abc"))
    {'command': 'place_spot_bets', 'seat': 3, 'bets': [[1, 10, True]], 'seed': 'abc'}
    """

    codecs: ClassVar[dict[str, Codec]] = {"bets": Codec(listed, lambda bets: tuple(SpotBet(*b) for b in bets))}
    seat: int
    bets: tuple[SpotBet, ...]
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class RepeatBets:
    """*Re-Bet*: place the player's bets of their last hand again, on the same spots."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlaySpot:
    """*Play*: the Back Bet (twice the Ante) on ``spot``; None means the spot in turn."""

    seat: int
    spot: int | None = None


@dataclass(frozen=True, slots=True)
class FoldSpot:
    """*Fold* ``spot`` (None: the spot in turn); its Ante is lost at once."""

    seat: int
    spot: int | None = None


Command = (
    PlaceSpotBets | ConfirmBets | RepeatBets | ClearBets | PassBets | CloseBets | PlaySpot | FoldSpot | ClockExpired
    | Leave | Stay | DeclareDead | Misdeal
)

# ---------------------------------------------------------------- events


def settlement_as_json(settlement: CaribbeanSettlement) -> dict[str, Any]:
    """The settlement's public JSON plus every field it needs to be rebuilt by :func:`settlement_from_json`."""
    out = settlement.as_json()
    for f in dataclasses.fields(settlement):
        if f.name not in ("spots", "order"):
            out.setdefault(f.name, getattr(settlement, f.name))
    out["spots"] = [r.as_json() | {"award_from_meter": r.award_from_meter} for r in settlement.spots]
    return out


def settlement_from_json(data: Mapping[str, Any]) -> CaribbeanSettlement:
    """Rebuild a settlement written by :func:`settlement_as_json`."""
    # A spot logged before dead spots said why has no dead_reason: it keeps the default.
    spots = tuple(SpotResult(**{f.name: s["class" if f.name == "cls" else f.name]
                                for f in dataclasses.fields(SpotResult)
                                if f.name != "dead_reason" or "dead_reason" in s}) for s in data["spots"])
    simple = {f.name: data[f.name] for f in dataclasses.fields(CaribbeanSettlement)
              if f.name not in ("spots", "order")}
    return CaribbeanSettlement(**(simple | {"order": tuple(data["order"]), "spots": spots}))


def _objects(bets: tuple[SpotBet, ...] | tuple[ClosedBet, ...]) -> list[dict[str, Any]]:
    return [b._asdict() for b in bets]


SETTLEMENT: Final = Codec(settlement_as_json, settlement_from_json)
SPOT_BETS: Final = Codec(_objects, lambda items: tuple(SpotBet(**b) for b in items))
"""Each spot bet as an object."""
CLOSED_BETS: Final = Codec(_objects, lambda items: tuple(ClosedBet(**b) for b in items))
"""Each closed bet as an object."""


@dataclass(frozen=True, slots=True)
class BettingOpened(Event):
    """Bets are open; the server seed is committed; ``meter`` (hundredths) is the jackpot now."""

    type: ClassVar[str] = "betting_opened"
    commitment: str
    seats: tuple[int, ...]
    meter: int


@dataclass(frozen=True, slots=True)
class SpotBetsPlaced(Event):
    """``seat``'s unconfirmed bets are now ``bets``; a seed given here is mixed into the deck if confirmed."""

    type: ClassVar[str] = "spot_bets_placed"
    codecs: ClassVar[dict[str, Codec]] = {"bets": SPOT_BETS}
    seat: int
    bets: tuple[SpotBet, ...]
    seed: str | None


@dataclass(frozen=True, slots=True)
class BetsClosed(Event):
    """Betting is over; ``bets`` (spot order) are the confirmed ones, and only they move chips."""

    type: ClassVar[str] = "bets_closed"
    codecs: ClassVar[dict[str, Codec]] = {"bets": CLOSED_BETS}
    bets: tuple[ClosedBet, ...]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Every hand, dealt one card at a time in ``order`` (spots, then the dealer as 0), five rounds."""

    type: ClassVar[str] = "cards_dealt"
    codecs: ClassVar[dict[str, Codec]] = {"hands": HANDS, "dealer": CARDS}
    order: tuple[int, ...]
    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """It is ``seat``'s decision on ``spot``."""

    type: ClassVar[str] = "turn_started"
    seat: int
    spot: int


@dataclass(frozen=True, slots=True)
class SpotPlayed(Event):
    """``seat`` played ``spot``, placing a Back Bet of ``bet`` chips."""

    type: ClassVar[str] = "spot_played"
    seat: int
    spot: int
    bet: int


@dataclass(frozen=True, slots=True)
class SpotFolded(Event):
    """``spot`` folded (``fold``, ``clock`` or ``left``): its Ante is lost now."""

    type: ClassVar[str] = "spot_folded"
    seat: int
    spot: int
    reason: str


@dataclass(frozen=True, slots=True)
class SpotDead(Event):
    """``spot`` is dead (``floor``): every bet on it goes back at settlement."""

    type: ClassVar[str] = "spot_dead"
    seat: int
    spot: int
    reason: str


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    """The results, the meter after them, and ``shown``: the spots everyone may now see."""

    type: ClassVar[str] = "hand_settled"
    codecs: ClassVar[dict[str, Codec]] = {"settlement": SETTLEMENT, "shown": HANDS}
    settlement: CaribbeanSettlement
    shown: tuple[tuple[int, tuple[Card, ...]], ...]


EVENT_TYPES: dict[str, type[Event]] = events.event_types(
    BettingOpened, SpotBetsPlaced, BetsConfirmed, BetsCleared, BetsPassed, PlayerLeaving, LeaveWithdrawn, BetsClosed,
    HandNotDealt,
    DeckPrepared, CardsDealt, TurnStarted, SpotPlayed, SpotFolded, SpotDead, DealerRevealed, HandSettled,
    HandVoided,
)


COMMAND_TYPES: Final[dict[str, type]] = {
    "place_spot_bets": PlaceSpotBets, "confirm_bets": ConfirmBets, "repeat_bets": RepeatBets,
    "clear_bets": ClearBets, "pass_bets": PassBets, "play_spot": PlaySpot, "fold_spot": FoldSpot,
}

CODEC: Final = MessageCodec[Command, Event](EVENT_TYPES.values(), COMMAND_TYPES)
"""This game's JSON forms: events as logged, commands as recorded in the hand's input log."""
event_from_json: Final = CODEC.event_from_json
command_as_json: Final = CODEC.command_as_json
command_from_json: Final = CODEC.command_from_json
