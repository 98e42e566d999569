"""A seat that is not answering: its clock runs out, it leaves or takes the leave back, the floor declares it dead.

Sections 4 and 5 of docs/rules/hcf.md. A leave acts at once where the seat is
waited for (the bank offered to it is declined, it passes the betting, its turn
folds); elsewhere it waits for the seat's turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.rules.errors import Violation
from server.rules.hcf.bank import after_decline, after_silence
from server.rules.hcf.betting import close_if_all_answered
from server.rules.hcf.decisions import advance, after_decision
from server.rules.hcf.evolve import evolve
from server.rules.hcf.messages import (
    BetsPassed,
    ClockExpired,
    DeclareDead,
    Event,
    HandVoided,
    Leave,
    LeaveWithdrawn,
    PlayerFolded,
    PlayerLeaving,
    SeatDead,
    Stay,
)
from server.rules.hcf.state import HandState
from server.rules.machine import need_phase, need_stay


def _clock(state: HandState, cmd: ClockExpired) -> list[Event]:
    if state.phase == "offer" and state.offered == cmd.seat:
        return after_silence(state, cmd.seat, cmd.reason)
    if state.phase == "decisions" and state.turn == cmd.seat:
        return after_decision(state, PlayerFolded(cmd.seat, cmd.reason))
    raise Violation(f"no clock of seat {cmd.seat} is running", "clock/stale")


def _leave(state: HandState, cmd: Leave) -> list[Event]:
    state.player(cmd.seat)
    if cmd.seat in state.leaving:
        return []
    events: list[Event] = [PlayerLeaving(cmd.seat)]
    if state.phase == "offer" and state.offered == cmd.seat:
        return [*events, *after_decline(state, cmd.seat, "left")]
    if state.phase == "betting" and cmd.seat in state.bettors and cmd.seat not in state.bets \
            and cmd.seat not in state.passed:
        return close_if_all_answered(state, [*events, BetsPassed(cmd.seat, "left")])
    if state.phase == "decisions" and state.turn == cmd.seat:
        return [*events, *after_decision(evolve(state, events[0]), PlayerFolded(cmd.seat, "left"))]
    return events


def _stay(state: HandState, cmd: Stay) -> list[Event]:
    """Take back a leave that has not acted yet: the seat bets, banks and decides as if it never asked."""
    state.player(cmd.seat)
    need_stay(state.leaving, state.left_out, cmd.seat)
    return [LeaveWithdrawn(cmd.seat)]


def _declare_dead(state: HandState, cmd: DeclareDead) -> list[Event]:
    if cmd.seat == state.dealer:
        # A dead DP misdeals the hand: the answer ``decide`` gives a Misdeal (it refused a finished hand already).
        return [HandVoided("dealer_dead")]
    need_phase(state.phase, "decisions", "declare a seat dead")
    if cmd.seat not in state.bets or cmd.seat in state.dead:
        raise Violation(f"seat {cmd.seat} has no live hand", "seat/not_in_hand")
    if state.raises.get(cmd.seat) == 0:
        raise Violation(f"seat {cmd.seat} folded: its bets already belong to the DP", "seat/not_in_hand")
    dead = SeatDead(cmd.seat, "floor")
    if state.turn != cmd.seat:
        return [dead]
    return [dead, *advance(evolve(state, dead))]


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    ClockExpired: _clock, Leave: _leave, Stay: _stay, DeclareDead: _declare_dead,
}
"""The clock's, leaving, staying and the floor's commands, by type."""
