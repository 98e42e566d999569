"""What both house-banked games answer alike behind the :class:`~server.rules.game.Game` interface.

The house deals and banks every hand: no bank is offered, no button moves, and a
hand opens straight into betting, timed by the betting clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.rules.adapter import RulesAdapter
from server.rules.errors import Violation
from server.rules.game import JSON, ClockSpec
from server.rules.house.betting import undecided


def malformed(sentence: str) -> Violation:
    """The refusal of a wire move whose arguments are not shaped as ``sentence`` says."""
    return Violation(sentence, "request/malformed")


def is_whole(value: Any) -> bool:
    """Whether ``value`` is a whole number (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


class HouseGame(RulesAdapter):
    """A house-banked game's adapter; ``settings_type`` is its settings class (with ``from_mapping``)."""

    settings_type: Any

    def settings_from_mapping(self, values: Mapping[str, Any], base: Any = None) -> Any:
        """Validated settings (a ``game`` key naming this game is allowed); raises SettingsError."""
        return self.settings_type.from_mapping(values, base)

    def private_events(self, state: Any, event: Any) -> list[tuple[int, JSON]]:
        """See the game's ``view.private_events``: each seat's own cards."""
        private: list[tuple[int, JSON]] = self.view.private_events(state, event)
        return private

    def late_seats(self, state: Any, clock: ClockSpec) -> list[int]:
        """Seats that neither confirmed nor passed when betting closed, or the seat whose decision lapsed."""
        if clock.kind == "bets":
            return undecided(state)
        if clock.kind == "decision" and clock.seat is not None:
            return [clock.seat]
        return []

    def pause_after(self, state: Any) -> float:
        """The results' pause, and the same before new bets when nobody bet."""
        pause: float = state.settings.pause_seconds
        return pause

    def next_offer_from(self, state: Any) -> int:
        """No bank rotates: unchanged."""
        offer_from: int = state.offer_from
        return offer_from

    def dealer_seat(self, state: Any) -> int | None:
        """The house deals and banks."""
        return None
