"""A seat leaving a Caribbean Stud hand, taking the leave back, or declared dead by the floor (section 5).

A leave acts at once where the seat is waited for (its bets go back, its spot in
turn folds); its other spots fold as their turns come.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.rules.caribbean.betting import BETTING
from server.rules.caribbean.decisions import advance, after_decision
from server.rules.caribbean.evolve import apply_events, evolve
from server.rules.caribbean.messages import (
    DeclareDead,
    Event,
    Leave,
    LeaveWithdrawn,
    PlayerLeaving,
    SpotDead,
    SpotFolded,
    Stay,
)
from server.rules.caribbean.state import HandState
from server.rules.errors import Violation
from server.rules.machine import need_phase, need_stay


def _leave(state: HandState, cmd: Leave) -> list[Event]:
    state.player(cmd.seat)
    if cmd.seat in state.leaving:
        return []
    leaving = PlayerLeaving(cmd.seat)
    if state.phase == "betting":
        return BETTING.leave(state, leaving)
    turn = state.turn
    if turn is None or turn.seat != cmd.seat:
        return [leaving]  # the seat's spots fold as their turns come
    return [leaving, *after_decision(evolve(state, leaving), SpotFolded(turn.seat, turn.spot, "left"))]


def _stay(state: HandState, cmd: Stay) -> list[Event]:
    """Take back a leave that has not acted yet: the seat bets and decides as if it never asked."""
    state.player(cmd.seat)
    need_stay(state.leaving, state.left_out, cmd.seat)
    return [LeaveWithdrawn(cmd.seat)]


def _declare_dead(state: HandState, cmd: DeclareDead) -> list[Event]:
    need_phase(state.phase, "decisions", "declare a seat dead")
    state.player(cmd.seat)
    # A folded spot's Ante already belongs to the house, so only live spots can die.
    spots = [b.spot for b in state.bets if b.seat == cmd.seat and b.spot not in state.folded
             and b.spot not in state.dead]
    if not spots:
        raise Violation(f"seat {cmd.seat} has no live spot", "seat/not_in_hand")
    events: list[Event] = [SpotDead(cmd.seat, spot, "floor") for spot in spots]
    turn = state.turn
    if turn is None or turn.spot not in spots:
        return events
    return [*events, *advance(apply_events(state, events))]


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    Leave: _leave, Stay: _stay, DeclareDead: _declare_dead,
}
"""Leaving, staying and the floor's commands, by type."""
