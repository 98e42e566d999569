"""After the decisions: the dealer's hand shown, the dealer exchange if it does not qualify, the settlement.

Sections 4.5 to 6 of docs/rules/sixcard.md. The owners of the boxes in play choose
the exchange together: each box asks for it or not, then its owner presses
*Continue*; when all have, or the clock closes it, the dealer's highest card is
replaced once if any box asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.i18n import phrase
from server.rules.errors import Violation
from server.rules.machine import need_phase
from server.rules.poker import qualifies_pair, rank5
from server.rules.sixcard.deal import stub_cards
from server.rules.sixcard.evolve import apply_events, evolve
from server.rules.sixcard.messages import (
    CancelExchange,
    CloseExchange,
    ContinueExchange,
    DealerExchanged,
    DealerRevealed,
    Event,
    ExchangeCancelled,
    ExchangeClosed,
    ExchangeContinued,
    ExchangeOpened,
    ExchangeRequested,
    HandSettled,
    HandVoided,
    RequestExchange,
)
from server.rules.sixcard.settlement import BLIND, BoxWager, dealer_exchange, settle
from server.rules.sixcard.state import HandState


def reveal(state: HandState) -> list[Event]:
    """The dealer's hand is shown; the exchange choice if it does not qualify and a box is in play."""
    qualifies = qualifies_pair(rank5(state.dealer_cards))
    revealed = DealerRevealed(state.dealer_cards, qualifies)
    state = evolve(state, revealed)
    playing = tuple((b.box, b.seat) for b in state.boxes if state.in_play(b))
    if qualifies or not playing:
        return [revealed, *_settle(state)]
    opened = ExchangeOpened(playing)
    events: list[Event] = [opened]
    state = evolve(state, opened)
    events += [ExchangeContinued(seat, (), "left") for seat in state.exchange_owners if seat in state.leaving]
    return [revealed, *close_exchange_if_ready(state, events)]


def _need_exchange_box(state: HandState, seat: int, box: int) -> None:
    _need_exchange_seat(state, seat)
    if (box, seat) not in state.exchange_boxes or box in state.dead:
        raise Violation(f"box {box} is not yours or not in play", "turn/not_yours")


def _need_exchange_seat(state: HandState, seat: int) -> None:
    need_phase(state.phase, "exchange", "choose the dealer exchange")
    state.player(seat)
    if seat not in state.exchange_owners:
        raise Violation(f"seat {seat} has no box in play", "seat/not_in_hand")
    if seat in state.continued:
        raise Violation(phrase("you pressed Continue: your choice is final"), "exchange/continued")


def _request(state: HandState, cmd: RequestExchange) -> list[Event]:
    _need_exchange_box(state, cmd.seat, cmd.box)
    if cmd.box in state.requests:
        raise Violation(phrase("box {box} already asks for the exchange", box=cmd.box), "exchange/requested")
    return [ExchangeRequested(cmd.seat, cmd.box)]


def _cancel(state: HandState, cmd: CancelExchange) -> list[Event]:
    _need_exchange_box(state, cmd.seat, cmd.box)
    if cmd.box not in state.requests:
        raise Violation(phrase("box {box} does not ask for the exchange", box=cmd.box), "exchange/not_requested")
    return [ExchangeCancelled(cmd.seat, cmd.box)]


def _continue(state: HandState, cmd: ContinueExchange) -> list[Event]:
    _need_exchange_seat(state, cmd.seat)
    mine = tuple(sorted(box for box, seat in state.exchange_boxes if seat == cmd.seat and box in state.requests))
    return close_exchange_if_ready(state, [ExchangeContinued(cmd.seat, mine, "continue")])


def close_exchange_if_ready(state: HandState, events: list[Event]) -> list[Event]:
    """``events``, then the close of the exchange once every owner of a box in it has pressed Continue."""
    after = apply_events(state, events)
    if any(seat not in after.continued for seat in after.exchange_owners):
        return events
    return [*events, *_close_exchange(after, "continued")]


def _close_exchange_cmd(state: HandState, _cmd: CloseExchange) -> list[Event]:
    need_phase(state.phase, "exchange", "close the dealer exchange")
    return _close_exchange(state, "clock")


def _close_exchange(state: HandState, reason: str) -> list[Event]:
    """Unconfirmed requests lapse; the dealer's highest card is replaced once if any box asked."""
    closed = ExchangeClosed(reason, tuple(sorted(state.requests)))
    state = evolve(state, closed)
    askers = tuple(sorted(box for box in state.confirmed_requests if box not in state.dead))
    if not askers:
        return [closed, *_settle(state)]
    stub = stub_cards(state, 1)
    if stub is None:
        return [closed, HandVoided("card_count")]
    after = dealer_exchange(state.dealer_cards, stub[0])
    (discarded,) = set(state.dealer_cards) - set(after)
    exchanged = DealerExchanged(askers, discarded, stub[0], after, qualifies_pair(rank5(after)))
    return [closed, exchanged, *_settle(evolve(state, exchanged))]


def wagers(state: HandState) -> list[BoxWager]:
    """Every box as settlement takes it."""
    return [
        BoxWager(b.box, str(b.seat), state.cards[b.box], b.ante, b.bonus, state.draws.get(b.box),
                 raised=b.role == BLIND or state.decisions.get(b.box) == "raise",
                 exchange_request=b.box in state.confirmed_requests and b.box not in state.dead,
                 dead=b.box in state.dead)
        for b in state.boxes
    ]


def _settle(state: HandState) -> list[Event]:
    result = settle(state.settings, state.dealer_cards, state.replacement, wagers(state))
    shown = tuple((r.box, state.current_cards(r.box)) for r in result.boxes if not r.folded and not r.dead)
    return [HandSettled(result, shown)]


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    RequestExchange: _request, CancelExchange: _cancel, ContinueExchange: _continue,
    CloseExchange: _close_exchange_cmd,
}
"""The dealer exchange's commands, by type."""
