"""The :class:`~server.rules.game.Game` methods every game answers by handing over to its own modules.

A game's adapter class names its modules (``hand``, ``messages``, ``postings``,
``view``) and inherits these; what differs from game to game (settings, the
clocks, the wire's moves, the summary) it writes itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from server.rules.commands import ClockExpired, CloseBets, DeclareDead, Leave, Misdeal, Stay
from server.rules.events import HandVoided
from server.rules.game import JSON, AccountId, ClockSpec, Transfer


class RulesAdapter:
    """Hands the table's generic questions to a game's ``hand``, ``messages``, ``postings`` and ``view`` modules."""

    hand: ModuleType
    messages: ModuleType
    postings_rules: ModuleType
    view: ModuleType

    def opening_events(self, state: Any) -> list[Any]:
        """What the game's ``hand.opening_events`` announces first."""
        return list(self.hand.opening_events(state))

    def decide(self, state: Any, command: Any) -> list[Any]:
        """See the game's ``hand.decide``."""
        return list(self.hand.decide(state, command))

    def evolve(self, state: Any, event: Any) -> Any:
        """See the game's ``hand.evolve``."""
        return self.hand.evolve(state, event)

    def postings(self, state: Any, event: Any, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
        """See the game's ``postings.hand_postings``."""
        transfers: list[Transfer] = self.postings_rules.hand_postings(state, event, table, accounts)
        return transfers

    def event_as_json(self, event: Any) -> JSON:
        """The event as logged (cards included)."""
        payload: JSON = event.as_json()
        return payload

    def event_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rebuild a logged event."""
        return self.messages.event_from_json(data)

    def command_as_json(self, command: Any) -> JSON:
        """A command as recorded in the hand's input log."""
        payload: JSON = self.messages.command_as_json(command)
        return payload

    def command_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rebuild a recorded command."""
        return self.messages.command_from_json(data)

    def public_event(self, event: Any) -> JSON:
        """See the game's ``view.public_event``."""
        payload: JSON = self.view.public_event(event)
        return payload

    def hand_view(self, state: Any, viewer: int | None) -> JSON:
        """See the game's ``view.hand_view``."""
        payload: JSON = self.view.hand_view(state, viewer)
        return payload

    def clock_command(self, state: Any, clock: ClockSpec) -> Any:  # noqa: ARG002 (the Game interface's signature)
        """Close the betting, or time out the seat whose clock ran."""
        if clock.kind == "bets":
            return CloseBets()
        return ClockExpired(clock.seat if clock.seat is not None else 0)

    def leave(self, seat: int) -> Any:
        """A player leaving mid-hand."""
        return Leave(seat)

    def stay(self, seat: int) -> Any:
        """A leaving player taking the leave back."""
        return Stay(seat)

    def declare_dead(self, seat: int) -> Any:
        """The floor kills one seat's hands."""
        return DeclareDead(seat)

    def misdeal(self, reason: str) -> Any:
        """The floor voids the hand."""
        return Misdeal(reason)

    def void_event(self, reason: str) -> Any:
        """The event voiding an interrupted hand."""
        return HandVoided(reason)
