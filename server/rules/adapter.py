"""The :class:`~server.rules.game.GameRules` answers every game gives alike, or hands to its own modules.

A game's adapter class names its modules (``hand``, ``postings``, ``view``) and its
:class:`~server.rules.codec.MessageCodec`, and inherits these; what differs from
game to game (settings, the clocks, the wire's moves, the summary) it writes
itself. The answers of a game with nothing of its own to say there (no private
cards, no bank that rotates, nothing carried from hand to hand) are given here too,
so such a game does not write them.
"""

from __future__ import annotations

from collections.abc import Mapping
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


class RulesAdapter(Generic[StateT, CommandT, EventT]):
    """Hands the table's generic questions to a game's ``hand``, ``postings`` and ``view`` modules.

    The modules are plain modules, so what they return is typed here, once, as the game's own types.
    """

    hand: ModuleType
    postings_rules: ModuleType
    view: ModuleType

    def opening_events(self, state: StateT) -> list[EventT]:
        """What the game's ``hand.opening_events`` announces first."""
        events: list[EventT] = list(self.hand.opening_events(state))
        return events

    def decide(self, state: StateT, command: CommandT | SharedCommand) -> list[EventT]:
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

    def public_event(self, event: EventT) -> JSON:
        """See the game's ``view.public_event``."""
        payload: JSON = self.view.public_event(event)
        return payload

    def hand_view(self, state: StateT, viewer: int | None) -> JSON:
        """See the game's ``view.hand_view``."""
        payload: JSON = self.view.hand_view(state, viewer)
        return payload
