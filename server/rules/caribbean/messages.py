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
from typing import Any, ClassVar, NamedTuple

from server.rules.cards import Card, cards_list, parse_cards
from server.rules.caribbean.settlement import CaribbeanSettlement, SpotResult

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
    """Replace ``seat``'s unconfirmed bets with ``bets`` (empty: none), with an optional player seed."""

    seat: int
    bets: tuple[SpotBet, ...]
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class ConfirmBets:
    """*Deal*: the player's bets are final."""

    seat: int


@dataclass(frozen=True, slots=True)
class RepeatBets:
    """*Re-Bet*: place the player's bets of their last hand again, on the same spots."""

    seat: int


@dataclass(frozen=True, slots=True)
class ClearBets:
    """*Clear*: take every bet of the player back (confirmed ones too, while betting is open)."""

    seat: int


@dataclass(frozen=True, slots=True)
class CloseBets:
    """The betting clock ran out: unconfirmed bets go back and the hand is dealt (or not)."""


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


@dataclass(frozen=True, slots=True)
class ClockExpired:
    """The decision clock of ``seat`` ran out: the spot in turn folds."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The player asked to leave: their bets go back while betting, else their spots fold at their turns."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclareDead:
    """The floor declares every undecided or played spot of ``seat`` dead."""

    seat: int


@dataclass(frozen=True, slots=True)
class Misdeal:
    """The whole hand is dead: ``misdeal``, ``shuffler_fault``, ``interrupted``, ``shutdown``."""

    reason: str = "misdeal"


Command = (
    PlaceSpotBets | ConfirmBets | RepeatBets | ClearBets | CloseBets | PlaySpot | FoldSpot | ClockExpired
    | Leave | DeclareDead | Misdeal
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
    if isinstance(value, SpotBet | ClosedBet):
        return value._asdict()
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


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
    seat: int
    bets: tuple[SpotBet, ...]
    seed: str | None


@dataclass(frozen=True, slots=True)
class BetsConfirmed(Event):
    """``seat`` pressed *Deal*."""

    type: ClassVar[str] = "bets_confirmed"
    seat: int


@dataclass(frozen=True, slots=True)
class BetsCleared(Event):
    """``seat``'s bets went back: ``clear`` (by choice), ``left``, or ``clock`` (unconfirmed at the close)."""

    type: ClassVar[str] = "bets_cleared"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerLeaving(Event):
    """A player asked to leave; they stand up after the hand."""

    type: ClassVar[str] = "player_leaving"
    seat: int


@dataclass(frozen=True, slots=True)
class BetsClosed(Event):
    """Betting is over; ``bets`` (spot order) are the confirmed ones, and only they move chips."""

    type: ClassVar[str] = "bets_closed"
    bets: tuple[ClosedBet, ...]


@dataclass(frozen=True, slots=True)
class HandNotDealt(Event):
    """No hand this time: ``no_ante`` (nobody confirmed a bet) or ``no_players``."""

    type: ClassVar[str] = "hand_not_dealt"
    reason: str


@dataclass(frozen=True, slots=True)
class DeckPrepared(Event):
    """The deck is fixed: derived from the seeds (seat order), or arranged by the host."""

    type: ClassVar[str] = "deck_prepared"
    arranged: bool
    player_seeds: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Every hand, dealt one card at a time in ``order`` (spots, then the dealer as 0), five rounds."""

    type: ClassVar[str] = "cards_dealt"
    order: tuple[int, ...]
    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]

    def as_json(self) -> dict[str, Any]:
        """Cards in notation (the whole deal: this is the logged form, never the public one)."""
        return {"type": self.type, "order": list(self.order),
                "hands": [[spot, cards_list(cards)] for spot, cards in self.hands],
                "dealer": cards_list(self.dealer)}


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
class DealerRevealed(Event):
    """The dealer's five cards are shown, and whether they qualify (A-K or better)."""

    type: ClassVar[str] = "dealer_revealed"
    cards: tuple[Card, ...]
    qualifies: bool

    def as_json(self) -> dict[str, Any]:
        """Cards in notation."""
        return {"type": self.type, "cards": cards_list(self.cards), "qualifies": self.qualifies}


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    """The results, the meter after them, and ``shown``: the spots everyone may now see."""

    type: ClassVar[str] = "hand_settled"
    settlement: CaribbeanSettlement
    shown: tuple[tuple[int, tuple[Card, ...]], ...]

    def as_json(self) -> dict[str, Any]:
        """Settlement (every field, so it rebuilds exactly) and shown cards in notation."""
        return {"type": self.type, "settlement": settlement_as_json(self.settlement),
                "shown": [[spot, cards_list(cards)] for spot, cards in self.shown]}


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The whole hand is dead; every bet goes back, folded Antes included."""

    type: ClassVar[str] = "hand_voided"
    reason: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        BettingOpened, SpotBetsPlaced, BetsConfirmed, BetsCleared, PlayerLeaving, BetsClosed, HandNotDealt,
        DeckPrepared, CardsDealt, TurnStarted, SpotPlayed, SpotFolded, SpotDead, DealerRevealed, HandSettled,
        HandVoided,
    )
}


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
    spots = tuple(SpotResult(**{f.name: s["class" if f.name == "cls" else f.name]
                                for f in dataclasses.fields(SpotResult)}) for s in data["spots"])
    simple = {f.name: data[f.name] for f in dataclasses.fields(CaribbeanSettlement)
              if f.name not in ("spots", "order")}
    return CaribbeanSettlement(**(simple | {"order": tuple(data["order"]), "spots": spots}))


def _hands(items: list[Any]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    return tuple((spot, parse_cards(cards)) for spot, cards in items)


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.as_json` (for replays)."""
    cls = EVENT_TYPES[data["type"]]
    args = {k: v for k, v in data.items() if k != "type"}
    if cls is SpotBetsPlaced:
        return SpotBetsPlaced(args["seat"], tuple(SpotBet(**b) for b in args["bets"]), args["seed"])
    if cls is BetsClosed:
        return BetsClosed(tuple(ClosedBet(**b) for b in args["bets"]))
    if cls is CardsDealt:
        return CardsDealt(tuple(args["order"]), _hands(args["hands"]), parse_cards(args["dealer"]))
    if cls is DealerRevealed:
        return DealerRevealed(parse_cards(args["cards"]), args["qualifies"])
    if cls is HandSettled:
        return HandSettled(settlement_from_json(args["settlement"]), _hands(args["shown"]))
    if cls is DeckPrepared:
        return DeckPrepared(args["arranged"], tuple((seat, seed) for seat, seed in args["player_seeds"]))
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in args.items()})


COMMAND_TYPES: dict[str, type] = {
    "place_spot_bets": PlaceSpotBets, "confirm_bets": ConfirmBets, "repeat_bets": RepeatBets,
    "clear_bets": ClearBets, "close_bets": CloseBets, "play_spot": PlaySpot, "fold_spot": FoldSpot,
    "clock_expired": ClockExpired, "leave": Leave, "declare_dead": DeclareDead, "misdeal": Misdeal,
}
_COMMAND_NAMES = {cls: name for name, cls in COMMAND_TYPES.items()}


def command_as_json(command: Command) -> dict[str, Any]:
    """A command as recorded in the hand's input log (for replays).

    >>> command_as_json(PlaceSpotBets(3, (SpotBet(1, 10, True),), "abc"))
    {'command': 'place_spot_bets', 'seat': 3, 'bets': [[1, 10, True]], 'seed': 'abc'}
    """
    out: dict[str, Any] = {"command": _COMMAND_NAMES[type(command)]}
    for f in dataclasses.fields(command):
        value = getattr(command, f.name)
        out[f.name] = [list(bet) for bet in value] if f.name == "bets" else value
    return out


def command_from_json(data: Mapping[str, Any]) -> Command:
    """Rebuild a command recorded by :func:`command_as_json`."""
    cls = COMMAND_TYPES[data["command"]]
    args = {k: v for k, v in data.items() if k != "command"}
    if cls is PlaceSpotBets:
        args["bets"] = tuple(SpotBet(*bet) for bet in args["bets"])
    command: Command = cls(**args)
    return command
