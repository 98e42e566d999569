"""The betting round both house-banked games open every hand with (RULES-caribbean.md section 3, step 1).

Each player places bets, then presses *Deal* to confirm them or *Clear* to take
them back. Betting closes as soon as everyone with a bet has confirmed (and
someone has), or when its clock runs out: unconfirmed bets go back and the
confirmed ones are dealt. A player who leaves while betting takes their bets back.
What a bet is, and what closing deals, is each game's own (``close``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from server.rules.commands import CloseBets
from server.rules.errors import Violation
from server.rules.events import PlayerLeaving
from server.rules.game import Player
from server.rules.house.messages import BetsCleared, ClearBets
from server.rules.machine import need_phase


class Betting(Protocol):
    """What the betting round reads of a hand state."""

    @property
    def phase(self) -> str: ...
    def player(self, seat: int) -> Player: ...
    @property
    def bettors(self) -> Collection[int]:
        """Seats with bets placed, confirmed or not, while betting is open."""
        ...
    @property
    def unconfirmed(self) -> Sequence[int]:
        """Seats with bets not yet confirmed, in seat order."""
        ...


S = TypeVar("S", bound=Betting)


@dataclass(frozen=True, slots=True)
class BettingRound(Generic[S]):
    """One game's betting round: its ``apply_events``, and ``close``: the events closing the bets (and dealing)."""

    apply_events: Callable[[S, Iterable[Any]], S]
    close: Callable[[S], list[Any]]

    def close_if_ready(self, state: S, events: list[Any]) -> list[Any]:
        """``events``, then the close once everyone with a bet has confirmed (and someone has)."""
        after = self.apply_events(state, events)
        if not after.bettors or after.unconfirmed:
            return events
        return [*events, *self.close(after)]

    def clear(self, state: S, cmd: ClearBets) -> list[Any]:
        """*Clear*: the player's bets go back."""
        need_phase(state.phase, "betting", "clear bets")
        state.player(cmd.seat)
        if cmd.seat not in state.bettors:
            raise Violation("you have no bets to clear", "bet/none")
        return self.close_if_ready(state, [BetsCleared(cmd.seat, "clear")])

    def close_bets(self, state: S, _cmd: CloseBets) -> list[Any]:
        """The betting clock ran out: unconfirmed bets go back, and the confirmed ones close."""
        need_phase(state.phase, "betting", "close the bets")
        events: list[Any] = [BetsCleared(seat, "clock") for seat in state.unconfirmed]
        return [*events, *self.close(self.apply_events(state, events))]

    def leave(self, state: S, leaving: PlayerLeaving) -> list[Any]:
        """A player leaving while betting is open: their bets, if any, go back."""
        if leaving.seat not in state.bettors:
            return [leaving]
        return self.close_if_ready(state, [leaving, BetsCleared(leaving.seat, "left")])
