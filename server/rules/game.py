"""The small interface every game's rules offer to the table task.

A table drives one hand at a time through a :class:`Game`: it builds a hand with
:meth:`Game.new_hand`, asks :meth:`Game.decide` what a command causes (events, or
a :class:`~server.rules.errors.Violation`), folds events in with
:meth:`Game.evolve`, records the chip transfers :meth:`Game.postings` names, and
publishes what :meth:`Game.public_event` / :meth:`Game.private_events` let each
viewer see. Nothing here does I/O; each game lives in its own package
(``server.rules.hcf``, ``server.rules.caribbean``, ``server.rules.sixcard``) and
the table never branches on which one it holds.

Some state outlives a hand (Caribbean Stud's jackpot meter): a game reads it from
the ``carry`` mapping given to :meth:`Game.new_hand` and hands it back from
:meth:`Game.carry_out`; the table records it with every finished hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from server.rules.arrange import SeatDeck
from server.rules.cards import Card

JSON = dict[str, Any]
AccountId = int

SettingsT = TypeVar("SettingsT")
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT")


@dataclass(frozen=True, slots=True)
class Player:
    """A seated player taking part in a hand (not sitting out)."""

    seat: int
    stack: int
    willing_to_bank: bool = True
    present: bool = True


@dataclass(frozen=True, slots=True)
class Transfer:
    """Move ``amount`` (> 0) chips from place ``src`` to place ``dst`` (names from :mod:`server.rules.places`)."""

    src: str
    dst: str
    amount: int
    kind: str


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """The clock a hand's state calls for: what it times, whose it is, how long it runs."""

    kind: str  # offer, bets, decision, exchange...
    seat: int | None
    seconds: float
    turn: int | None = None  # the spot or box decided, when one seat decides several in a row
    step: int = 0  # a decision that leaves the same box in turn (a draw) starts a new clock

    @property
    def key(self) -> tuple[str, int | None, int | None, int]:
        """The clock restarts whenever this changes."""
        return (self.kind, self.seat, self.turn, self.step)


class TableSettings(Protocol):
    """What the table itself reads of any game's settings."""

    @property
    def seats(self) -> int: ...
    @property
    def min_buy_in(self) -> int: ...
    @property
    def max_buy_in(self) -> int: ...
    @property
    def default_buy_in(self) -> int: ...
    @property
    def pause_seconds(self) -> float: ...
    @property
    def offer_seconds(self) -> float: ...
    @property
    def house_banked(self) -> bool: ...
    def as_dict(self) -> JSON: ...


class HandLike(Protocol):
    """What the table reads of any game's hand state."""

    @property
    def phase(self) -> str: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def server_seed(self) -> bytes: ...
    @property
    def arranged_deck(self) -> tuple[Card, ...] | None: ...
    @property
    def seat_deck(self) -> SeatDeck | None: ...
    @property
    def commitment(self) -> str: ...


class GameRules(Protocol[SettingsT, StateT, CommandT, EventT]):
    """One game's rules, as the table task drives them. Every method is pure.

    Generic over the game's settings, hand state, command and event types, so each
    adapter is checked against it with its own types (``hcf/game.py`` and the others
    name theirs); the table holds any game as :data:`Game`.
    """

    name: str
    terminal: frozenset[str]

    def settings_from_mapping(self, values: Mapping[str, Any], base: SettingsT | None = None) -> SettingsT:
        """Validated settings (``base`` supplies what ``values`` leaves out); raises SettingsError."""
        ...

    def new_hand(self, settings: SettingsT, players: Sequence[Player], server_seed: bytes, *, offer_from: int,
                 arranged_deck: Sequence[Card] | SeatDeck | None, carry: Mapping[str, Any]) -> StateT:
        """A fresh hand; ``carry`` is what the table kept from the hand before (may be empty)."""
        ...

    def opening_events(self, state: StateT) -> list[EventT]:
        """What a new hand announces first."""
        ...

    def decide(self, state: StateT, command: CommandT) -> list[EventT]:
        """The events ``command`` causes, or raise a Violation; the state is not touched."""
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Apply one event. Events are facts: this never refuses."""
        ...

    def postings(self, state: StateT, event: EventT, table: str, accounts: Mapping[int, int]) -> list[Transfer]:
        """The chip transfers ``event`` causes, given the state just before it."""
        ...

    def event_as_json(self, event: EventT) -> JSON:
        """An event as logged (cards included)."""
        ...

    def event_from_json(self, data: Mapping[str, Any]) -> EventT:
        """Rebuild a logged event."""
        ...

    def command_as_json(self, command: CommandT) -> JSON:
        """A command as recorded in the hand's input log."""
        ...

    def command_from_json(self, data: Mapping[str, Any]) -> CommandT:
        """Rebuild a recorded command."""
        ...

    def public_event(self, event: EventT) -> JSON:
        """What every viewer sees of an event."""
        ...

    def private_events(self, state: StateT, event: EventT) -> list[tuple[int, JSON]]:
        """Extra payloads for single seats (their own cards), given the state before ``event``."""
        ...

    def hand_view(self, state: StateT, viewer: int | None) -> JSON:
        """Everything the seat ``viewer`` (None: a spectator) may see of the hand now."""
        ...

    def summary(self, state: StateT) -> JSON:
        """The game's part of a finished hand's public record (bets, results, shown cards, seeds)."""
        ...

    def player_seeds(self, state: StateT) -> list[tuple[int, str]]:
        """The player seeds mixed into this hand's deck, in seat order."""
        ...

    def choices(self, state: StateT, seat: int) -> list[JSON]:
        """The hand-level moves ``seat`` may make now (protocol v2 section 3, docs/choices.md); [] when none."""
        ...

    def clock(self, state: StateT) -> ClockSpec | None:
        """The clock the state calls for now, if any."""
        ...

    def clock_command(self, state: StateT, clock: ClockSpec) -> CommandT:
        """The command to run when ``clock`` runs out."""
        ...

    def late_seats(self, state: StateT, clock: ClockSpec) -> list[int]:
        """The seats that let ``clock`` run out (counted toward sitting them out)."""
        ...

    def acted(self, event: EventT) -> int | None:
        """The seat that acted by its own choice in ``event``, if any."""
        ...

    def move(self, seat: int, action: str, args: Mapping[str, Any]) -> CommandT:
        """Turn a player's move (the protocol's ``play`` event) into a command; raise RuleError if unknown."""
        ...

    def leave(self, seat: int) -> CommandT:
        """The command for a player who leaves mid-hand."""
        ...

    def stay(self, seat: int) -> CommandT:
        """The command taking back a leave before it acts on the hand (refused with a Violation after)."""
        ...

    def declare_dead(self, seat: int) -> CommandT:
        """The floor's command declaring one seat's hand dead."""
        ...

    def misdeal(self, reason: str) -> CommandT:
        """The floor's command voiding the whole hand."""
        ...

    def void_event(self, reason: str) -> EventT:
        """The event that voids an interrupted hand (on recovery)."""
        ...

    def pause_after(self, state: StateT) -> float:
        """Seconds from the end of this hand (settled, void or not dealt) to the next one's start."""
        ...

    def next_offer_from(self, state: StateT) -> int:
        """Where the next hand's button/offer starts."""
        ...

    def dealer_seat(self, state: StateT) -> int | None:
        """The seat banking this hand (None: the house)."""
        ...

    def carry_out(self, state: StateT, carry: Mapping[str, Any]) -> JSON:
        """What the next hand inherits once this one is over (``carry`` is what this one started with)."""
        ...

    def table_view(self, settings: SettingsT, carry: Mapping[str, Any]) -> JSON:
        """Table-wide figures shown on every screen between and during hands (a jackpot meter)."""
        ...


class Game(GameRules[Any, Any, Any, Any], Protocol):
    """Any one game, as the table holds it: it never looks inside a game's settings, states, commands or events."""
