"""What both house-banked games answer alike behind the :class:`~server.rules.game.Game` interface.

The house deals and banks every hand: no bank is offered, no button moves, and a
hand opens straight into betting, timed by the betting clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Generic, Protocol, TypeVar

from server.rules.adapter import PlainGame, PlainHand, RulesAdapter
from server.rules.commands import CloseBets
from server.rules.errors import Violation
from server.rules.events import Event
from server.rules.game import JSON, AfterHand, ClockSpec, JSONIn, TableWords, log_fields, nets
from server.rules.house.betting import Betting, undecided


def malformed(sentence: str) -> Violation:
    """The refusal of a wire move whose arguments are not shaped as ``sentence`` says."""
    return Violation(sentence, "request/malformed")


def is_whole(value: object) -> bool:
    """Whether ``value`` is a whole number (a bool is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


_LOGGED: Final = ("ante", "dealer", "qualifies")


class HouseHand(Betting, PlainHand, Protocol):
    """What the house adapter reads of a game's hand state: the betting round's, the settings' pause, the offer."""


SettingsT = TypeVar("SettingsT")
HandT = TypeVar("HandT", bound=HouseHand)
CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT", bound=Event)


class HouseGame(RulesAdapter[HandT, CommandT, EventT], PlainGame[SettingsT, HandT, EventT],
                Generic[SettingsT, HandT, CommandT, EventT]):
    """A house-banked game's adapter; ``settings_type`` is its settings class (with ``from_mapping``)."""

    settings_type: type
    words: TableWords
    results: str  # the settlement's list of results, one a betting place: "spots", "boxes"

    def log_fields(self, payload: JSONIn) -> JSON:
        """An event's Ante and the dealer's hand; a settled hand's nets by betting place, and the house's."""
        out = log_fields(payload, _LOGGED)
        settlement = payload.get("settlement")
        if isinstance(settlement, Mapping):
            out |= {"results": nets(settlement.get(self.results), self.words.place), "house": settlement.get("house")}
        return out

    def private_events(self, state: HandT, event: EventT) -> list[tuple[int, JSON]]:
        """See the game's ``view.private_events``: each seat's own cards."""
        private: list[tuple[int, JSON]] = self.view.private_events(state, event)
        return private

    def bets_clock(self, state: HandT, seconds: float) -> ClockSpec[CloseBets]:
        """The betting round's clock: it closes the bets; who neither confirmed nor passed is late."""
        return ClockSpec("bets", None, seconds, expire=CloseBets(), late=tuple(undecided(state)))

    def after_hand(self, state: HandT, carry: JSONIn) -> AfterHand:
        """The results' pause (the same before new bets when nobody bet); no bank rotates."""
        return AfterHand(state.settings.pause_seconds, state.offer_from, self.carry_out(state, carry))

    def carry_out(self, state: HandT, carry: JSONIn) -> JSON:
        """What the next hand inherits: what this one started with."""
        return dict(carry)
