"""The small interface every game's rules offer to the table task.

A table drives one hand at a time through a :class:`Game`: it builds a hand with
:meth:`~GameRules.new_hand`, asks :meth:`~GameRules.decide` what a command causes (events,
or a :class:`~server.rules.errors.Violation`), folds events in with
:meth:`~GameRules.evolve`, records the chip transfers :meth:`~GameRules.postings` names,
logs events and commands in the forms of the game's :attr:`~GameRules.codec`, and
publishes what :meth:`~GameRules.public_event` / :meth:`~GameRules.private_events` let
each viewer see. Nothing here does I/O; each game lives in its own package
(``server.rules.hcf``, ``server.rules.caribbean``, ``server.rules.sixcard``) and the table
never branches on which one it holds.

The commands every game has (a leave, taking it back, the floor's dead hand and
misdeal, a clock run out: server/rules/commands.py) the table builds itself, and a
void hand's event too; each game's command and event types include them.

Some state outlives a hand (Caribbean Stud's jackpot meter): a game reads it from
the ``carry`` mapping given to :meth:`~GameRules.new_hand` and hands it back in
:meth:`~GameRules.after_hand`'s answer; the table records it with every finished hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.moves import Moves
from server.rules.vocabulary import JSON as JSON  # re-exported: the seam speaks the vocabulary
from server.rules.vocabulary import AccountId as AccountId

if TYPE_CHECKING:  # codec.py reads this module's JSON aliases; the seam only names these types
    from server.rules.codec import MessageCodec
    from server.rules.commands import SharedCommand
    from server.rules.events import Event

JSONIn = Mapping[str, Any]
"""A JSON object as the rules read it (settings, a move's arguments, a carry, a log line)."""

TABLE_CLOCK: Final = "table_clock"
"""A key the table sets in the carry it passes to :meth:`~GameRules.new_hand` and :meth:`~GameRules.after_hand`:
its own clock's seconds now (the injected clock, a plain number), for rules that count time across hands.
The rules never read a clock; a game that counts nothing ignores it."""
SEAT_NAMES: Final = "seat_names"
"""A key the table sets in the same carries: each seated player's name by seat (``{"3": "alice"}``), for rules
that remember players across hands (a seat changes hands; a name does not)."""

SettingsT = TypeVar("SettingsT")
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT", bound="Event")
ExpireT = TypeVar("ExpireT", covariant=True)  # a clock that closes the bets is a clock of any game that has them


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
class ClockSpec(Generic[ExpireT]):
    """The clock a hand's state calls for: what it times, whose it is, how long it runs, what ends it.

    When it runs out the table runs ``expire`` (None: the shared ``ClockExpired(seat)``)
    and counts the ``late`` seats toward sitting them out (None: the clock's own seat).
    """

    kind: str  # offer, bets, decision, exchange...
    seat: int | None
    seconds: float
    turn: int | None = None  # the spot or box decided, when one seat decides several in a row
    step: int = 0  # a decision that leaves the same box in turn (a draw) starts a new clock
    expire: ExpireT | None = None
    late: tuple[int, ...] | None = None

    @property
    def key(self) -> tuple[str, int | None, int | None, int]:
        """The clock restarts whenever this changes."""
        return (self.kind, self.seat, self.turn, self.step)

    @property
    def late_seats(self) -> tuple[int, ...]:
        """The seats that let this clock run out, were it to run out now."""
        if self.late is not None:
            return self.late
        return () if self.seat is None else (self.seat,)


@dataclass(frozen=True, slots=True)
class AfterHand:
    """What a finished hand (settled, void or not dealt) leaves the table for the next one."""

    pause: float  # seconds to the next hand's start
    offer_from: int  # where the next hand's button or bank offer starts
    carry: JSON  # what the next hand inherits (a jackpot meter, last bets for Re-Bet)
    waiting: str | None = None  # why the next hand waits on the seats (a seat change starts it at once), if it does
    message: str = ""  # ``waiting`` in a sentence, for the table's ``table_waiting`` event
    retried: bool = False  # the next attempt is the same hand (nobody banked): one hand for who is absent (section 4)
    ends_game: bool = False  # the game ends: the table says ``message``, deals no more and stays closed until the
    # host reopens it (stacks stay); it keeps ``carry`` all the same, so the rules know a reopened table
    notice: str = ""  # a sentence the table tells every seat now (a warning), whatever comes next


@dataclass(frozen=True, slots=True, kw_only=True)
class TableWords:
    """The words a game's table uses for its parts, so the generic table says none of a game's own."""

    place: str  # what one betting place is called: a seat, a spot, a box
    banker: str  # who banks a hand a player banks (a game the house banks never says it); a phrase, said in
    # the reader's language


def log_fields(payload: JSONIn, keys: Iterable[str]) -> JSON:
    """The ``keys`` ``payload`` has, for one log line: a game's :meth:`~GameRules.log_fields` picks its own.

    >>> log_fields({"type": "bets_placed", "seat": 2, "ante": 10}, ("ante", "amount"))
    {'ante': 10}
    """
    return {key: payload[key] for key in keys if key in payload}


def nets(rows: object, place: str) -> dict[object, object]:
    """Each place's net from a settlement's list of results (``place`` names the key of each row's place).

    >>> nets([{"spot": 1, "net": 10}, {"spot": 2, "net": -5}], "spot")
    {1: 10, 2: -5}
    """
    if not isinstance(rows, list):
        return {}
    return {row.get(place): row.get("net") for row in rows if isinstance(row, Mapping)}


class SeatLimits(Protocol):
    """What seating reads of any game's settings: the seats and the buy-in's limits."""

    @property
    def seats(self) -> int: ...
    @property
    def min_buy_in(self) -> int: ...
    @property
    def max_buy_in(self) -> int: ...
    @property
    def default_buy_in(self) -> int: ...


class TableSettings(SeatLimits, Protocol):
    """What the table itself reads of any game's settings."""

    @property
    def pause_seconds(self) -> float: ...
    @property
    def offer_seconds(self) -> float: ...
    @property
    def house_banked(self) -> bool: ...
    @property
    def time_bank_seconds(self) -> float:
        """Each player's time bank for the session, drawn when a clock of their turn runs out (0: none)."""
        ...
    @property
    def chips(self) -> tuple[int, ...]:
        """The chips in play, smallest first (the setting ``chips``; none: not said): a drill's payouts use them."""
        ...
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
    name theirs); the table holds any game as :data:`Game`. The commands the table
    builds itself (:data:`~server.rules.commands.SharedCommand`) are part of every
    game's ``CommandT``, and a void hand's ``HandVoided`` of its ``EventT``.
    """

    name: str
    terminal: frozenset[str]
    codec: MessageCodec[CommandT, EventT]
    """The JSON forms of the game's events (the log) and commands (the hand's input log)."""
    clocked_events: frozenset[str]
    """The types of the public events that start a clock: the table adds the clock's deadline to each."""
    deal_event: str
    """The type of the event that deals the cards: an attempt that records it is a numbered hand."""
    words: TableWords
    """What the table calls the game's places and its player banker."""
    moves: Moves
    """The moves the wire's ``move`` may name at this game's tables and each one's arguments: they are checked
    against it before :meth:`move` sees them, and a client is told them (the snapshot's ``moves``)."""

    def log_fields(self, payload: JSONIn) -> JSON:
        """The game's fields of one published event's log line (``payload``): never a card, never a seed."""
        ...

    def settings_from_mapping(self, values: JSONIn, base: SettingsT | None = None) -> SettingsT:
        """Validated settings (``base`` supplies what ``values`` leaves out); raises SettingsError."""
        ...

    def new_hand(self, settings: SettingsT, players: Sequence[Player], server_seed: bytes, *, offer_from: int,
                 arranged_deck: Sequence[Card] | SeatDeck | None, carry: JSONIn) -> StateT:
        """A fresh hand; ``carry`` is what the table kept from the hand before (may be empty)."""
        ...

    def opening_events(self, state: StateT) -> list[EventT]:
        """What a new hand announces first."""
        ...

    def decide(self, state: StateT, command: CommandT | SharedCommand) -> list[EventT]:
        """The events ``command`` causes, or raise a Violation; the state is not touched."""
        ...

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Apply one event. Events are facts: this never refuses."""
        ...

    def postings(self, state: StateT, event: EventT, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
        """The chip transfers ``event`` causes, given the state just before it."""
        ...

    def public_event(self, event: EventT) -> JSON:
        """What every viewer sees of an event: a new dict at each call, shared with nothing (the table adds the
        hand's id and number to it where it is, and sends it as it is)."""
        ...

    def private_events(self, state: StateT, event: EventT) -> list[tuple[int, JSON]]:
        """Extra payloads for single seats (their own cards), given the state before ``event``."""
        ...

    def hand_view(self, state: StateT, viewer: int | None) -> JSON:
        """Everything the seat ``viewer`` (None: a spectator) may see of the hand now."""
        ...

    def choices(self, state: StateT, seat: int) -> list[JSON]:
        """The hand-level moves ``seat`` may make now (protocol v2 section 3, docs/choices.md); [] when none."""
        ...

    def move(self, seat: int, action: str, args: JSONIn) -> CommandT:
        """Turn a player's move (the protocol's ``move`` request), which :attr:`moves` admits, into a command."""
        ...

    def clock(self, state: StateT) -> ClockSpec[CommandT] | None:
        """The clock the state calls for now, if any: what runs and who is late when it runs out."""
        ...

    def summary(self, state: StateT) -> JSON:
        """The game's part of a finished hand's public record: bets, results, shown cards, and
        ``player_seeds`` (``[[seat, seed], ...]`` in seat order, what the deck mixed in)."""
        ...

    def after_hand(self, state: StateT, carry: JSONIn) -> AfterHand:
        """What a hand that is over leaves the next one (``carry`` is what this one started with)."""
        ...

    def dealer_seat(self, state: StateT) -> int | None:
        """The seat banking this hand (None: the house); the table shows its button."""
        ...

    def table_view(self, settings: SettingsT, carry: JSONIn) -> JSON:
        """Table-wide figures shown on every screen between and during hands (a jackpot meter)."""
        ...


# Python has no existential types: the table holds one game whose four types it never names. Each
# game is checked against GameRules with its own types where it is defined (``_CHECKED`` in hcf/game.py).
class Game(GameRules[Any, Any, Any, Any], Protocol):
    """Any one game, as the table holds it: it never looks inside a game's settings, states, commands or events."""

