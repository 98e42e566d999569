"""How each event of a High Card Flush hand changes its state: facts, applied without refusing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from server.rules import machine
from server.rules.hcf.messages import (
    BankAccepted,
    BankDeclined,
    BankOffered,
    BetsClosed,
    BetsPassed,
    BetsPlaced,
    BettingOpened,
    CardsDealt,
    DealerRevealed,
    DeckPrepared,
    Event,
    FeesCollected,
    HandNotDealt,
    HandSettled,
    HandVoided,
    LeaveWithdrawn,
    PlayerFolded,
    PlayerLeaving,
    PlayerRaised,
    SeatDead,
    TurnStarted,
)
from server.rules.hcf.state import Bets, HandState


def evolve(state: HandState, event: Event) -> HandState:
    """Apply one event. Events are facts: this never refuses."""
    match event:
        case BankOffered():
            return replace(state, offer_index=state.offers.index(event.seat))
        case BankDeclined():
            return state
        case BankAccepted(seat=seat):
            return replace(state, dealer=seat)
        case BettingOpened(bettors=bettors):
            return replace(state, phase="betting", bettors=bettors)
        case BetsPlaced():
            bets = Bets(event.ante, event.straight_flush_bonus, event.flush_bonus, event.seed)
            return replace(state, bets={**state.bets, event.seat: bets})
        case BetsPassed(seat=seat, reason=reason):
            return replace(state, passed=state.passed | {seat}, left_out=_left_out(state, seat, reason))
        case PlayerLeaving(seat=seat):
            return replace(state, leaving=state.leaving | {seat})
        case LeaveWithdrawn(seat=seat):
            return replace(state, leaving=state.leaving - {seat})
        case BetsClosed():
            return replace(state, phase="decisions" if state.bets else state.phase)
        case HandNotDealt(reason=reason):
            return replace(state, phase="not_dealt", reason=reason)
        case FeesCollected(fees=fees):
            return replace(state, fees=dict(fees))
        case DeckPrepared(arranged=arranged):
            return replace(state, arranged=arranged)
        case CardsDealt(order=order, hands=hands):
            turn_order = tuple(seat for seat in order if seat in state.bets)
            return replace(state, hands=dict(hands), deal_sequence=order, turn_order=turn_order)
        case SeatDead(seat=seat, reason=reason):
            return replace(state, dead=state.dead | {seat}, dead_reasons={**state.dead_reasons, seat: reason})
        case TurnStarted():
            return state
        case PlayerFolded(seat=seat, reason=reason):
            timed = state.timed_out | {seat} if reason == "clock" else state.timed_out
            return replace(state, raises={**state.raises, seat: 0}, timed_out=timed,
                           left_out=_left_out(state, seat, reason))
        case PlayerRaised(seat=seat, amount=amount):
            return replace(state, raises={**state.raises, seat: amount})
        case DealerRevealed():
            return state
        case HandSettled(settlement=settlement):
            return replace(state, phase="settled", settlement=settlement)
        case HandVoided(reason=reason):
            return replace(state, phase="void", reason=reason)
    raise TypeError(f"not an event of this game: {event!r}")


def _left_out(state: HandState, seat: int, reason: str) -> frozenset[int]:
    return state.left_out | {seat} if reason == "left" else state.left_out


def apply_events(state: HandState, events: Iterable[Event]) -> HandState:
    """Fold recorded events into a state (for replay and recovery)."""
    return machine.apply_events(evolve, state, events)
