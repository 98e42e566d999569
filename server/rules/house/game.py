"""What both house-banked games answer alike behind the :class:`~server.rules.game.Game` interface.

The house deals and banks every hand: no bank is offered, no button moves, and a
hand opens straight into betting, timed by the betting clock.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from server.rules.adapter import RulesAdapter
from server.rules.errors import Violation
from server.rules.events import Event
from server.rules.game import JSON, ClockSpec
from server.rules.house.betting import Betting, undecided


def malformed(sentence: str) -> Violation:
    """The refusal of a wire move whose arguments are not shaped as ``sentence`` says."""
    return Violation(sentence, "request/malformed")


def is_whole(value: Any) -> bool:
    """Whether ``value`` is a whole number (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


class Pauses(Protocol):
    """What the house adapter reads of a game's settings."""

    @property
    def pause_seconds(self) -> float: ...


class HouseHand(Betting, Protocol):
    """What the house adapter reads of a game's hand state: the betting round's, the settings' pause, the offer."""

    @property
    def settings(self) -> Pauses: ...
    @property
    def offer_from(self) -> int: ...


HandT = TypeVar("HandT", bound=HouseHand)
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT", bound=Event)


class HouseGame(RulesAdapter[HandT, CommandT, EventT]):
    """A house-banked game's adapter; ``settings_type`` is its settings class (with ``from_mapping``)."""

    settings_type: type

    def private_events(self, state: HandT, event: EventT) -> list[tuple[int, JSON]]:
        """See the game's ``view.private_events``: each seat's own cards."""
        private: list[tuple[int, JSON]] = self.view.private_events(state, event)
        return private

    def late_seats(self, state: HandT, clock: ClockSpec) -> list[int]:
        """Seats that neither confirmed nor passed when betting closed, or the seat whose decision lapsed."""
        if clock.kind == "bets":
            return undecided(state)
        if clock.kind == "decision" and clock.seat is not None:
            return [clock.seat]
        return []

    def pause_after(self, state: HandT) -> float:
        """The results' pause, and the same before new bets when nobody bet."""
        return state.settings.pause_seconds

    def next_offer_from(self, state: HandT) -> int:
        """No bank rotates: unchanged."""
        return state.offer_from

    def dealer_seat(self, state: HandT) -> int | None:
        """The house deals and banks."""
        return None
