"""The :class:`~server.rules.game.Game` methods every game answers by handing over to its own modules.

A game's adapter class names its modules (``hand``, ``messages``, ``postings``,
``view``) and inherits these; what differs from game to game (settings, the
clocks, the wire's moves, the summary) it writes itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, Generic, TypeVar

from server.rules.commands import ClockExpired, CloseBets, DeclareDead, Leave, Misdeal, Stay
from server.rules.events import Event, HandVoided
from server.rules.game import JSON, AccountId, ClockSpec, Transfer

StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT", bound=Event)

SharedCommand = ClockExpired | CloseBets | DeclareDead | Leave | Misdeal | Stay
"""The commands every game has (each game's own command union includes them)."""


class RulesAdapter(Generic[StateT, CommandT, EventT]):
    """Hands the table's generic questions to a game's ``hand``, ``messages``, ``postings`` and ``view`` modules.

    The modules are plain modules, so what they return is typed here, once, as the game's own types.
    """

    hand: ModuleType
    messages: ModuleType
    postings_rules: ModuleType
    view: ModuleType

    def opening_events(self, state: StateT) -> list[EventT]:
        """What the game's ``hand.opening_events`` announces first."""
        events: list[EventT] = list(self.hand.opening_events(state))
        return events

    def decide(self, state: StateT, command: CommandT) -> list[EventT]:
        """See the game's ``hand.decide``."""
        events: list[EventT] = list(self.hand.decide(state, command))
        return events

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """See the game's ``hand.evolve``."""
        after: StateT = self.hand.evolve(state, event)
        return after

    def postings(self, state: StateT, event: EventT, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
        """See the game's ``postings.hand_postings``."""
        transfers: list[Transfer] = self.postings_rules.hand_postings(state, event, table, accounts)
        return transfers

    def event_as_json(self, event: EventT) -> JSON:
        """The event as logged (cards included)."""
        return event.as_json()

    def event_from_json(self, data: Mapping[str, Any]) -> EventT:
        """Rebuild a logged event."""
        event: EventT = self.messages.event_from_json(data)
        return event

    def command_as_json(self, command: CommandT) -> JSON:
        """A command as recorded in the hand's input log."""
        payload: JSON = self.messages.command_as_json(command)
        return payload

    def command_from_json(self, data: Mapping[str, Any]) -> CommandT:
        """Rebuild a recorded command."""
        command: CommandT = self.messages.command_from_json(data)
        return command

    def public_event(self, event: EventT) -> JSON:
        """See the game's ``view.public_event``."""
        payload: JSON = self.view.public_event(event)
        return payload

    def hand_view(self, state: StateT, viewer: int | None) -> JSON:
        """See the game's ``view.hand_view``."""
        payload: JSON = self.view.hand_view(state, viewer)
        return payload

    def clock_command(
            self, state: StateT, clock: ClockSpec) -> CommandT | SharedCommand:  # noqa: ARG002 (the Game's signature)
        """Close the betting, or time out the seat whose clock ran."""
        if clock.kind == "bets":
            return CloseBets()
        return ClockExpired(clock.seat if clock.seat is not None else 0)

    def leave(self, seat: int) -> Leave:
        """A player leaving mid-hand."""
        return Leave(seat)

    def stay(self, seat: int) -> Stay:
        """A leaving player taking the leave back."""
        return Stay(seat)

    def declare_dead(self, seat: int) -> DeclareDead:
        """The floor kills one seat's hands."""
        return DeclareDead(seat)

    def misdeal(self, reason: str) -> Misdeal:
        """The floor voids the hand."""
        return Misdeal(reason)

    def void_event(self, reason: str) -> HandVoided:
        """The event voiding an interrupted hand."""
        return HandVoided(reason)
