"""The players' turns in 6 Card Poker: each open box raises, folds, or first draws (docs/rules/sixcard.md section 4.4).

A box in turn may buy a sixth card or exchange 1, 2 or 5 of its cards once, for
its draw fee, before it raises or folds. When every open box is decided, the
dealer's hand is shown (:mod:`server.rules.sixcard.showdown`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.i18n import phrase
from server.rules.errors import Violation
from server.rules.machine import need_phase
from server.rules.sixcard.deal import stub_cards
from server.rules.sixcard.evolve import apply_events, evolve
from server.rules.sixcard.messages import (
    BlindBoxesShown,
    BoxFolded,
    BoxRaised,
    BuyCard,
    CardsDrawn,
    ClockExpired,
    Event,
    ExchangeCards,
    FoldBox,
    HandVoided,
    RaiseBox,
    TurnStarted,
)
from server.rules.sixcard.settlement import BLIND, EXCHANGE_SIZES, HAND_SIZE, OPEN
from server.rules.sixcard.showdown import reveal
from server.rules.sixcard.state import Box, HandState


def _need_turn(state: HandState, seat: int, box: int | None) -> Box:
    """The box in turn, if it is ``seat``'s and ``box`` names it (None: whichever it is)."""
    need_phase(state.phase, "decisions", "act")
    state.player(seat)
    turn = state.turn
    if turn is None or state.box(turn).seat != seat:
        raise Violation(phrase("it is not your turn (box in turn: {turn})", turn=turn), "turn/not_yours")
    if box is not None and box != turn:
        raise Violation(phrase("box {turn} is in turn, not box {box}", turn=turn, box=box), "turn/not_yours")
    return state.box(turn)


def _raise(state: HandState, cmd: RaiseBox) -> list[Event]:
    b = _need_turn(state, cmd.seat, cmd.box)
    return after_decision(state, BoxRaised(cmd.seat, b.box, 2 * b.ante))


def _fold(state: HandState, cmd: FoldBox) -> list[Event]:
    b = _need_turn(state, cmd.seat, cmd.box)
    return after_decision(state, BoxFolded(cmd.seat, b.box, "fold"))


def _buy(state: HandState, cmd: BuyCard) -> list[Event]:
    b = _need_draw(state, cmd.seat, cmd.box)
    new = stub_cards(state, 1)
    if new is None:
        return [HandVoided("card_count")]
    return [CardsDrawn(cmd.seat, b.box, "buy", (), (), new, b.ante)]


def _exchange(state: HandState, cmd: ExchangeCards) -> list[Event]:
    b = _need_draw(state, cmd.seat, cmd.box)
    positions = cmd.positions
    if not isinstance(positions, tuple | list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in positions):
        raise Violation("an exchange names card positions 1 to 5", "request/malformed")
    if len(positions) not in EXCHANGE_SIZES:
        raise Violation(phrase("an exchange replaces 1, 2 or 5 cards, not {count}", count=len(positions)), "draw/count")
    if len(set(positions)) != len(positions) or not all(1 <= p <= HAND_SIZE for p in positions):
        raise Violation(f"positions are distinct numbers 1 to {HAND_SIZE}, got {list(positions)}",
                        "draw/positions")
    ordered = tuple(sorted(positions))
    new = stub_cards(state, len(ordered))
    if new is None:
        return [HandVoided("card_count")]
    discarded = tuple(state.cards[b.box][p - 1] for p in ordered)
    return [CardsDrawn(cmd.seat, b.box, "exchange", ordered, discarded, new, b.ante)]


def _need_draw(state: HandState, seat: int, box: int | None) -> Box:
    b = _need_turn(state, seat, box)
    if b.box in state.draws:
        raise Violation(phrase("box {box} has had its draw: Raise or Fold", box=b.box), "draw/done")
    return b


def after_decision(state: HandState, decision: Event) -> list[Event]:
    """``decision`` (a raise or a fold), then whatever it leads to: the next turn, or the dealer's hand."""
    return [decision, *advance(evolve(state, decision))]


def advance(state: HandState) -> list[Event]:
    """Show blind boxes to players who are done, start the next turn (folding for players who left), or go on."""
    events: list[Event] = []
    while True:
        shown = _blind_reveals(state)
        events += shown
        state = apply_events(state, shown)
        box = state.turn
        if box is None:
            return [*events, *reveal(state)]
        seat = state.box(box).seat
        if seat not in state.leaving:
            return [*events, TurnStarted(seat, box)]
        folded = BoxFolded(seat, box, "left")
        events.append(folded)
        state = evolve(state, folded)


def _blind_reveals(state: HandState) -> list[Event]:
    """A player's blind boxes are shown to them once every open box of theirs is decided (section 3)."""
    events: list[Event] = []
    for seat in sorted({b.seat for b in state.boxes}):
        if seat in state.blind_shown:
            continue
        own = state.boxes_of(seat)
        blind = tuple(b.box for b in own if b.role == BLIND and b.box not in state.dead)
        done = all(b.box in state.decisions or b.box in state.dead for b in own if b.role == OPEN)
        if blind and done:
            events.append(BlindBoxesShown(seat, blind))
    return events


def _clock(state: HandState, cmd: ClockExpired) -> list[Event]:
    turn = state.turn
    if turn is not None and state.box(turn).seat == cmd.seat:
        return after_decision(state, BoxFolded(cmd.seat, turn, cmd.reason))
    raise Violation(f"no clock of seat {cmd.seat} is running", "clock/stale")


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    RaiseBox: _raise, FoldBox: _fold, BuyCard: _buy, ExchangeCards: _exchange, ClockExpired: _clock,
}
"""The decisions' commands, by type."""
