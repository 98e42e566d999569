"""How each event of a Caribbean Stud hand changes its state: facts, applied without refusing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from server.rules import machine
from server.rules.caribbean.messages import (
    BetsCleared,
    BetsClosed,
    BetsConfirmed,
    BetsPassed,
    BettingOpened,
    CardsDealt,
    DealerRevealed,
    DeckPrepared,
    Event,
    HandNotDealt,
    HandSettled,
    HandVoided,
    LeaveWithdrawn,
    PlayerLeaving,
    SpotBetsPlaced,
    SpotDead,
    SpotFolded,
    SpotPlayed,
    TurnStarted,
)
from server.rules.caribbean.state import HandState


def _without(mapping: Mapping[int, Any], key: int) -> dict[int, Any]:
    return {k: v for k, v in mapping.items() if k != key}


def evolve(state: HandState, event: Event) -> HandState:
    """Apply one event. Events are facts: this never refuses."""
    match event:
        case BettingOpened(seats=seats, meter=meter):
            return replace(state, phase="betting", seats=seats, meter=meter)
        case SpotBetsPlaced(seat=seat, bets=bets, seed=seed):
            placed = {**state.placed, seat: bets} if bets else _without(state.placed, seat)
            seeds = {**state.seeds, seat: seed} if seed is not None else state.seeds
            passed = state.passed - {seat} if bets else state.passed
            return replace(state, placed=placed, seeds=seeds, passed=passed)
        case BetsConfirmed(seat=seat):
            return replace(state, confirmed=state.confirmed | {seat})
        case BetsCleared(seat=seat, reason=reason):
            left_out = state.left_out | {seat} if reason == "left" else state.left_out
            return replace(state, placed=_without(state.placed, seat), confirmed=state.confirmed - {seat},
                           seeds=_without(state.seeds, seat), left_out=left_out)
        case BetsPassed(seat=seat):
            return replace(state, placed=_without(state.placed, seat), seeds=_without(state.seeds, seat),
                           passed=state.passed | {seat})
        case PlayerLeaving(seat=seat):
            return replace(state, leaving=state.leaving | {seat})
        case LeaveWithdrawn(seat=seat):
            return replace(state, leaving=state.leaving - {seat})
        case BetsClosed(bets=bets):
            confirmed = frozenset(b.seat for b in bets)
            return replace(state, phase="decisions" if bets else state.phase, bets=bets, confirmed=confirmed,
                           placed={}, seeds={s: seed for s, seed in state.seeds.items() if s in confirmed})
        case HandNotDealt(reason=reason):
            return replace(state, phase="not_dealt", reason=reason)
        case DeckPrepared(arranged=arranged):
            return replace(state, arranged=arranged)
        case CardsDealt(order=order, hands=hands, dealer=dealer):
            return replace(state, deal_order=order, hands=dict(hands), dealer=dealer)
        case TurnStarted():
            return state
        case SpotPlayed(spot=spot, bet=bet):
            return replace(state, played={**state.played, spot: bet})
        case SpotFolded(seat=seat, spot=spot, reason=reason):
            left_out = state.left_out | {seat} if reason == "left" else state.left_out
            return replace(state, folded={**state.folded, spot: reason}, left_out=left_out)
        case SpotDead(spot=spot):
            return replace(state, dead=state.dead | {spot})
        case DealerRevealed(qualifies=qualifies):
            return replace(state, dealer_qualifies=qualifies)
        case HandSettled(settlement=settlement, shown=shown):
            return replace(state, phase="settled", settlement=settlement, shown=shown)
        case HandVoided(reason=reason):
            return replace(state, phase="void", reason=reason)
    raise TypeError(f"not an event of this game: {event!r}")


def apply_events(state: HandState, events: Iterable[Event]) -> HandState:
    """Fold recorded events into a state (for replay and recovery)."""
    return machine.apply_events(evolve, state, events)
