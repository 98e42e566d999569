"""The :class:`~server.rules.game.GameRules` answers every game gives alike, or hands to its own modules.

A game's adapter class names its modules (``hand``, ``postings``, ``view``) and its
:class:`~server.rules.codec.MessageCodec`, and inherits these; what differs from
game to game (settings, the clocks, the wire's moves, the summary) it writes
itself. The answers of a game with nothing of its own to say there (no private
cards, no bank that rotates, nothing carried from hand to hand) are given here too,
so such a game does not write them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Generic, Protocol, TypeVar

from server.rules.commands import SharedCommand
from server.rules.events import Event
from server.rules.game import JSON, AccountId, AfterHand, JSONIn, Transfer

StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT", bound=Event)


class Pauses(Protocol):
    """What the default :meth:`PlainGame.after_hand` reads of a game's settings."""

    @property
    def pause_seconds(self) -> float: ...


class PlainHand(Protocol):
    """What the defaults of :class:`PlainGame` read of a hand: its settings' pause, where its offer started."""

    @property
    def settings(self) -> Pauses: ...
    @property
    def offer_from(self) -> int: ...


PlainT = TypeVar("PlainT", bound=PlainHand)
SettingsT = TypeVar("SettingsT")


class PlainGame(Generic[SettingsT, PlainT, EventT]):
    """The answers of a game with no private cards, no player bank and nothing that outlives a hand."""

    def opening_events(self, state: PlainT) -> list[EventT]:  # noqa: ARG002 (the Game seam)
        """Nothing to announce: the hand opens as its state says."""
        return []

    def private_events(self, state: PlainT, event: EventT) -> list[tuple[int, JSON]]:  # noqa: ARG002 (the seam)
        """No private payloads: every card is dealt face up."""
        return []

    def after_hand(self, state: PlainT, carry: JSONIn) -> AfterHand:
        """The table's pause; nothing rotates; nothing outlives the hand but what it started with."""
        return AfterHand(state.settings.pause_seconds, state.offer_from, dict(carry))

    def dealer_seat(self, state: PlainT) -> int | None:  # noqa: ARG002 (the Game seam)
        """The house banks."""
        return None

    def table_view(self, settings: SettingsT, carry: JSONIn) -> JSON:  # noqa: ARG002 (the Game seam)
        """No table-wide figures."""
        return {}


StateI = TypeVar("StateI")
CommandC = TypeVar("CommandC", contravariant=True)
EventI = TypeVar("EventI", bound=Event)


class HandModule(Protocol[StateI, CommandC, EventI]):
    """What a game's ``hand`` module offers the table (a module satisfies it: mypy checks each game's)."""

    def opening_events(self, state: StateI, /) -> list[EventI]: ...
    def decide(self, state: StateI, command: CommandC, /) -> list[EventI]: ...
    def evolve(self, state: StateI, event: EventI, /) -> StateI: ...


class RulesAdapter(Generic[StateT, CommandT, EventT]):
    """Hands the table's generic questions to a game's ``hand``, ``postings`` and ``view`` modules.

    ``hand`` is a typed module protocol (:class:`HandModule`), so a wrong signature in a game's hand
    module is caught where the game names it; ``postings_rules`` and ``view`` are read as modules, and
    what they give is typed here, once. What the table asks on every move (decide, evolve, the
    transfers, the public event) is the module's own function, handed out as it is: a move goes from
    the table to the game's rules in one call, with no forwarding call in between (docs/server.md,
    one raise's path).
    """

    hand: HandModule[StateT, CommandT | SharedCommand, EventT]
    postings_rules: ModuleType
    view: ModuleType

    @property
    def opening_events(self) -> Callable[[StateT], list[EventT]]:
        """The game's ``hand.opening_events``: what a new hand announces first."""
        return self.hand.opening_events

    @property
    def decide(self) -> Callable[[StateT, CommandT | SharedCommand], list[EventT]]:
        """The game's ``hand.decide``: the events a command causes, or a Violation."""
        return self.hand.decide

    @property
    def evolve(self) -> Callable[[StateT, EventT], StateT]:
        """The game's ``hand.evolve``: one event applied."""
        return self.hand.evolve

    @property
    def postings(self) -> Callable[[StateT, EventT, str, Mapping[int, AccountId]], list[Transfer]]:
        """The game's ``postings.hand_postings``: the chip transfers an event causes, given the state before it."""
        transfers: Callable[[StateT, EventT, str, Mapping[int, AccountId]], list[Transfer]] = \
            self.postings_rules.hand_postings
        return transfers

    @property
    def public_event(self) -> Callable[[EventT], JSON]:
        """The game's ``view.public_event``: what every viewer sees of an event, a new dict at each call."""
        shown: Callable[[EventT], JSON] = self.view.public_event
        return shown

    def hand_view(self, state: StateT, viewer: int | None) -> JSON:
        """See the game's ``view.hand_view``."""
        payload: JSON = self.view.hand_view(state, viewer)
        return payload
