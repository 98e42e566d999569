"""A seat leaving a 6 Card Poker hand, taking the leave back, or declared dead by the floor (section 7).

A leave acts at once where the seat is waited for (its bets go back, the box in
turn folds, its exchange choice is Continue); elsewhere it waits for the seat's turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.rules.errors import Violation
from server.rules.machine import need_stay
from server.rules.sixcard.betting import BETTING
from server.rules.sixcard.decisions import advance, after_decision
from server.rules.sixcard.evolve import evolve
from server.rules.sixcard.messages import (
    BoxFolded,
    DeclareDead,
    Event,
    ExchangeContinued,
    Leave,
    LeaveWithdrawn,
    PlayerLeaving,
    SeatDead,
    Stay,
)
from server.rules.sixcard.showdown import close_exchange_if_ready
from server.rules.sixcard.state import HandState


def _stay(state: HandState, cmd: Stay) -> list[Event]:
    """Take back a leave that has not acted yet: the seat bets, decides and exchanges as if it never asked."""
    state.player(cmd.seat)
    need_stay(state.leaving, state.left_out, cmd.seat)
    return [LeaveWithdrawn(cmd.seat)]


def _leave(state: HandState, cmd: Leave) -> list[Event]:
    state.player(cmd.seat)
    if cmd.seat in state.leaving:
        return []
    leaving = PlayerLeaving(cmd.seat)
    events: list[Event] = [leaving]
    after = evolve(state, leaving)
    if state.phase == "betting":
        return BETTING.leave(state, leaving)
    turn = state.turn
    if turn is not None and state.box(turn).seat == cmd.seat:
        return [leaving, *after_decision(after, BoxFolded(cmd.seat, turn, "left"))]
    if state.phase == "exchange" and cmd.seat in state.exchange_owners and cmd.seat not in state.continued:
        return close_exchange_if_ready(state, [leaving, ExchangeContinued(cmd.seat, (), "left")])
    return events


def _declare_dead(state: HandState, cmd: DeclareDead) -> list[Event]:
    if state.phase not in ("decisions", "exchange"):
        raise Violation(f"cannot declare a seat dead in the {state.phase} phase", "phase/wrong")
    state.player(cmd.seat)
    live = tuple(b.box for b in state.boxes_of(cmd.seat) if b.box not in state.dead)
    if not live:
        raise Violation(f"seat {cmd.seat} has no live box", "seat/not_in_hand")
    dead = SeatDead(cmd.seat, live, "floor")
    after = evolve(state, dead)
    if state.phase == "exchange":
        return close_exchange_if_ready(state, [dead])
    if state.turn != after.turn:
        return [dead, *advance(after)]
    return [dead]


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    Leave: _leave, Stay: _stay, DeclareDead: _declare_dead,
}
"""Leaving, staying and the floor's commands, by type."""
