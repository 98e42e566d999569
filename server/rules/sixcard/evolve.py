"""How each event of a 6 Card Poker hand changes its state: facts, applied without refusing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from server.rules import machine
from server.rules.sixcard.deal import deck_for
from server.rules.sixcard.messages import (
    BetsCleared,
    BetsClosed,
    BetsConfirmed,
    BetsPassed,
    BettingOpened,
    BlindBetsPlaced,
    BlindBoxesShown,
    BoxBetsPlaced,
    BoxFolded,
    BoxRaised,
    CardsDealt,
    CardsDrawn,
    DealerExchanged,
    DealerRevealed,
    DeckPrepared,
    Event,
    ExchangeCancelled,
    ExchangeClosed,
    ExchangeContinued,
    ExchangeOpened,
    ExchangeRequested,
    HandNotDealt,
    HandSettled,
    HandVoided,
    LeaveWithdrawn,
    PlayerLeaving,
    SeatDead,
    TurnStarted,
)
from server.rules.sixcard.settlement import BONUS_ONLY, HAND_SIZE, BoxWager, Draw, box_roles, play_order
from server.rules.sixcard.state import Box, HandState, PendingBets, Phase


def evolve(state: HandState, event: Event) -> HandState:
    """Apply one event. Events are facts: this never refuses."""
    match event:
        case BettingOpened():
            return replace(state, phase="betting")
        case BoxBetsPlaced(seat=seat, bets=bets, seed=seed):
            pending = {k: v for k, v in state.pending.items() if k != seat}
            if bets:
                pending[seat] = PendingBets(bets, seed)
            return replace(state, pending=pending, passed=state.passed - {seat} if bets else state.passed)
        case BetsConfirmed(seat=seat):
            return replace(state, pending={**state.pending, seat: replace(state.pending[seat], confirmed=True)})
        case BetsCleared(seat=seat, reason=reason):
            return replace(state, pending={k: v for k, v in state.pending.items() if k != seat},
                           left_out=_left_out(state, seat, reason))
        case BetsPassed(seat=seat):
            return replace(state, pending={k: v for k, v in state.pending.items() if k != seat},
                           passed=state.passed | {seat})
        case PlayerLeaving(seat=seat):
            return replace(state, leaving=state.leaving | {seat})
        case LeaveWithdrawn(seat=seat):
            return replace(state, leaving=state.leaving - {seat})
        case BetsClosed(bets=bets):
            return _closed(state, bets)
        case BlindBetsPlaced():
            return state
        case HandNotDealt(reason=reason):
            return replace(state, phase="not_dealt", reason=reason)
        case DeckPrepared(arranged=arranged, player_seeds=seeds):
            return replace(state, arranged=arranged, player_seeds=seeds, deck=deck_for(state, seeds))
        case CardsDealt(order=order, hands=boxes, dealer=dealer):
            bonus_only = {b.box for b in state.boxes if b.role == BONUS_ONLY}
            return replace(state, deal_order=order, cards=dict(boxes), dealer_cards=dealer,
                           next_card=HAND_SIZE * len(order), seen=state.seen | bonus_only)
        case TurnStarted(box=box):
            return replace(state, seen=state.seen | {box})
        case BoxRaised(box=box):
            return replace(state, decisions={**state.decisions, box: "raise"})
        case BoxFolded(seat=seat, box=box, reason=reason):
            timed = state.timed_out | {seat} if reason == "clock" else state.timed_out
            return replace(state, decisions={**state.decisions, box: "fold"}, timed_out=timed,
                           left_out=_left_out(state, seat, reason))
        case CardsDrawn(box=box, kind=kind, discarded=discarded, new=new):
            draw = Draw("buy" if kind == "buy" else "exchange", discarded, new)
            return replace(state, draws={**state.draws, box: draw}, next_card=state.next_card + len(new))
        case BlindBoxesShown(seat=seat, boxes=boxes):
            return replace(state, blind_shown=state.blind_shown | {seat}, seen=state.seen | set(boxes))
        case SeatDead(boxes=boxes):
            return replace(state, dead=state.dead | set(boxes))
        case DealerRevealed(qualifies=qualifies):
            return replace(state, revealed=True, dealer_qualifies=qualifies)
        case ExchangeOpened(boxes=boxes):
            return replace(state, phase="exchange", exchange_boxes=boxes)
        case ExchangeRequested(box=box):
            return replace(state, requests=state.requests | {box})
        case ExchangeCancelled(box=box):
            return replace(state, requests=state.requests - {box})
        case ExchangeContinued(seat=seat, boxes=boxes, reason=reason):
            mine = {box for box, owner in state.exchange_boxes if owner == seat}
            return replace(state, continued=state.continued | {seat}, requests=state.requests - mine,
                           confirmed_requests=state.confirmed_requests | set(boxes),
                           left_out=_left_out(state, seat, reason))
        case ExchangeClosed():
            return replace(state, exchange_closed=True, requests=frozenset())
        case DealerExchanged(boxes=boxes, replacement=card, after=after):
            return replace(state, replacement=card, dealer_after=after, exchanged_boxes=frozenset(boxes),
                           next_card=state.next_card + 1)
        case HandSettled(settlement=settlement):
            return replace(state, phase="settled", settlement=settlement)
        case HandVoided(reason=reason):
            return replace(state, phase="void", reason=reason)
    raise TypeError(f"not an event of this game: {event!r}")


def _closed(state: HandState, bets: Iterable[tuple[int, int, int, int]]) -> HandState:
    """Boxes with their roles and the turn order, once the bets are closed."""
    placed = [BoxWager(box, str(seat), (), ante, bonus) for box, seat, ante, bonus in bets]
    roles = box_roles(placed)
    boxes = tuple(Box(w.box, int(w.player), w.ante, w.bonus, roles[w.box]) for w in placed)
    phase: Phase = "decisions" if boxes else state.phase
    return replace(state, boxes=boxes, order=tuple(play_order(placed)), phase=phase)


def _left_out(state: HandState, seat: int, reason: str) -> frozenset[int]:
    return state.left_out | {seat} if reason == "left" else state.left_out


def apply_events(state: HandState, events: Iterable[Event]) -> HandState:
    """Fold recorded events into a state (for replay and recovery)."""
    return machine.apply_events(evolve, state, events)
