"""The betting round both house-banked games open every hand with (docs/rules/caribbean.md section 3.1).

Each player places bets, then presses *Deal* to confirm them, *Clear* to take
them back, or *Pass* to sit this hand out. Betting stays open until every player
of the hand has confirmed or passed (a player leaving is not waited for), or
until its clock runs out: unconfirmed bets go back and the confirmed ones are
dealt. So a player who is still making up their mind is never closed out by
faster players (issue 14, A.4). While another player of the hand has neither a
bet down nor passed, no one may hold more than the table's
``max_hands_while_waiting`` spots or boxes, so a free place is left for them.
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
from server.rules.house.messages import BetsCleared, BetsPassed, ClearBets, PassBets
from server.rules.machine import need_phase


class Betting(Protocol):
    """What the betting round reads of a hand state."""

    @property
    def phase(self) -> str: ...
    def player(self, seat: int) -> Player: ...
    @property
    def players(self) -> tuple[Player, ...]: ...
    @property
    def leaving(self) -> frozenset[int]: ...
    @property
    def passed(self) -> frozenset[int]: ...
    @property
    def bettors(self) -> Collection[int]:
        """Seats with bets placed, confirmed or not, while betting is open."""
        ...
    @property
    def unconfirmed(self) -> Sequence[int]:
        """Seats with bets not yet confirmed, in seat order."""
        ...


S = TypeVar("S", bound=Betting)


def waiting(state: Betting) -> list[int]:
    """Seats of the hand with no bet down that have not passed and are not leaving, in seat order."""
    return [p.seat for p in state.players
            if p.seat not in state.bettors and p.seat not in state.passed and p.seat not in state.leaving]


def undecided(state: Betting) -> list[int]:
    """Seats the betting still waits for: no answer yet, or bets not confirmed; in seat order."""
    return sorted({*waiting(state), *state.unconfirmed})


def check_hold(state: Betting, seat: int, count: int, limit: int, word: str) -> None:
    """Refuse ``count`` places (``word``: spot, box) for ``seat`` over ``limit`` while another player waits for one."""
    others = [other for other in waiting(state) if other != seat]
    if count > limit and others:
        plural = word + ("es" if word.endswith("x") else "s")
        who = (f"seat {others[0]} has" if len(others) == 1
               else f"seats {', '.join(str(o) for o in others)} have")
        raise Violation(f"you may hold at most {limit} {word if limit == 1 else plural} while {who} not bet or "
                        f"passed yet, got {count}", "bet/others_waiting")


@dataclass(frozen=True, slots=True)
class BettingRound(Generic[S]):
    """One game's betting round: its ``apply_events``, and ``close``: the events closing the bets (and dealing)."""

    apply_events: Callable[[S, Iterable[Any]], S]
    close: Callable[[S], list[Any]]

    def close_if_ready(self, state: S, events: list[Any]) -> list[Any]:
        """``events``, then the close once every player of the hand has confirmed or passed."""
        after = self.apply_events(state, events)
        if undecided(after):
            return events
        return [*events, *self.close(after)]

    def clear(self, state: S, cmd: ClearBets) -> list[Any]:
        """*Clear*: the player's bets go back; the betting waits for them to bet again or pass."""
        need_phase(state.phase, "betting", "clear bets")
        state.player(cmd.seat)
        if cmd.seat not in state.bettors:
            raise Violation("you have no bets to clear", "bet/none")
        return self.close_if_ready(state, [BetsCleared(cmd.seat, "clear")])

    def pass_bets(self, state: S, cmd: PassBets) -> list[Any]:
        """*Pass*: no bets from this player this hand (unconfirmed bets go back)."""
        need_phase(state.phase, "betting", "pass")
        state.player(cmd.seat)
        if cmd.seat in state.leaving:
            raise Violation("you are leaving the table: no more bets this hand", "seat/leaving")
        if cmd.seat in state.bettors and cmd.seat not in state.unconfirmed:
            raise Violation("your bets are confirmed: Clear them first to pass", "bet/confirmed")
        if cmd.seat in state.passed:
            raise Violation("you have already passed this hand", "bet/already_answered")
        return self.close_if_ready(state, [BetsPassed(cmd.seat)])

    def close_bets(self, state: S, _cmd: CloseBets) -> list[Any]:
        """The betting clock ran out: unconfirmed bets go back, and the confirmed ones close."""
        need_phase(state.phase, "betting", "close the bets")
        events: list[Any] = [BetsCleared(seat, "clock") for seat in state.unconfirmed]
        return [*events, *self.close(self.apply_events(state, events))]

    def leave(self, state: S, leaving: PlayerLeaving) -> list[Any]:
        """A player leaving while betting is open: their bets, if any, go back; the betting stops waiting for them."""
        if leaving.seat not in state.bettors:
            return self.close_if_ready(state, [leaving])
        return self.close_if_ready(state, [leaving, BetsCleared(leaving.seat, "left")])
