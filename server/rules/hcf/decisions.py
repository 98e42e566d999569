"""The players' decisions in High Card Flush, raise or fold, and the showdown after them (sections 3.5 to 3.8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.i18n import phrase
from server.rules.errors import Violation
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.evolve import evolve
from server.rules.hcf.messages import (
    DealerRevealed,
    Event,
    Fold,
    HandSettled,
    PlayerFolded,
    PlayerRaised,
    Raise,
    TurnStarted,
)
from server.rules.hcf.settlement import Wager, settle
from server.rules.hcf.state import HOUSE, HandState
from server.rules.machine import need_phase


def _fold(state: HandState, cmd: Fold) -> list[Event]:
    _need_turn(state, cmd.seat)
    return after_decision(state, PlayerFolded(cmd.seat, "fold"))


def _raise(state: HandState, cmd: Raise) -> list[Event]:
    _need_turn(state, cmd.seat)
    amount = cmd.amount
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise Violation(phrase("a raise is a whole number of chips"), "request/malformed")
    ante = state.bets[cmd.seat].ante
    limit = evaluate(state.hands[cmd.seat]).raise_limit
    if amount < ante:
        raise Violation(phrase("the raise is at least the Ante ({ante}), got {asked}", ante=ante, asked=amount),
                        "raise/below_min")
    if amount > limit * ante:
        raise Violation(phrase("your flush allows a raise of up to {times}x the Ante ({high}), got {asked}",
                               times=limit, high=limit * ante, asked=amount), "raise/above_limit")
    room = state.player(cmd.seat).stack - state.committed(cmd.seat)
    if amount > room:
        raise Violation(phrase("your stack has only {room} chips left for the raise", room=room),
                        "raise/insufficient_stack")
    return after_decision(state, PlayerRaised(cmd.seat, amount))


def _need_turn(state: HandState, seat: int) -> None:
    need_phase(state.phase, "decisions", "act")
    state.player(seat)
    if state.turn != seat:
        raise Violation(phrase("it is seat {turn}'s turn, not seat {seat}'s", turn=state.turn, seat=seat),
                        "turn/not_yours")


def after_decision(state: HandState, decision: Event) -> list[Event]:
    """``decision`` (a raise or a fold), then the next turn, or the showdown when none is left."""
    after = evolve(state, decision)
    return [decision, *advance(after)]


def advance(state: HandState) -> list[Event]:
    """Start the next turn, folding players who left; settle when nobody is left."""
    events: list[Event] = []
    while (seat := state.turn) is not None:
        if seat not in state.leaving:
            return [*events, TurnStarted(seat)]
        folded = PlayerFolded(seat, "left")
        events.append(folded)
        state = evolve(state, folded)
    return [*events, *_showdown(state)]


def _showdown(state: HandState) -> list[Event]:
    dealer_seat = state.dealer if state.dealer is not None else HOUSE
    dealer_cards = state.hands[dealer_seat]
    wagers = [
        Wager(seat, state.hands.get(seat, ()), b.ante, b.straight_flush_bonus, b.flush_bonus,
              state.raises.get(seat, 0))
        for seat, b in sorted(state.bets.items())
    ]
    stack = state.player(state.dealer).stack if state.dealer is not None else None
    result = settle(state.settings, dealer_cards, wagers, button=state.dealer,
                    dealer_stack=stack,
                    dead_seats={seat: state.dead_reasons.get(seat, "floor") for seat in state.dead})
    shown = tuple((r.seat, state.hands[r.seat]) for r in result.seats
                  if not r.folded and (not r.dead or r.seat not in state.dead))
    return [DealerRevealed(dealer_seat, dealer_cards, result.dealer_qualifies), HandSettled(result, shown)]


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {Fold: _fold, Raise: _raise}
"""The decisions' commands, by type."""
