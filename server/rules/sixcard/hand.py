"""One 6 Card Poker 1-2-5 hand as a state machine of pure transitions (docs/rules/sixcard.md sections 3-5, 7).

``decide(state, command)`` checks a command and returns the events it causes, or
raises :class:`Violation` (with a stable code) and changes nothing;
``evolve(state, event)`` applies one event. ``step`` does both. The deck stays in
the state (the stub feeds the draws and the dealer exchange) and is never part of
an event: replaying the events rebuilds it from the seeds.

This module is the hand's front: the state is :mod:`~server.rules.sixcard.state`'s,
and each part of the hand decides its own commands: :mod:`~server.rules.sixcard.betting`
(bets and the deal), :mod:`~server.rules.sixcard.decisions` (the boxes' turns and
draws), :mod:`~server.rules.sixcard.showdown` (the dealer's hand, the dealer exchange,
the settlement) and :mod:`~server.rules.sixcard.presence` (leaving and the floor);
:mod:`~server.rules.sixcard.evolve` applies the events.

>>> from server.rules.cards import parse_cards
>>> from server.rules.game import Player
>>> from server.rules.sixcard.settings import SixcardSettings
>>> deck = parse_cards("As Kd Ad Kh Ah 7c Ac 5s 2c 3d Qs Js")  # box 1 and the dealer in turn, then the stub
>>> s = new_hand(SixcardSettings(boxes=2), [Player(1, 1000)], bytes(32), arranged_deck=deck)
>>> s, _ = step(s, PlaceBoxBets(1, ((1, 10, 0),)))
>>> s, events = step(s, ConfirmBets(1))
>>> s.phase, s.turn, [e.type for e in events][-2:]
('decisions', 1, ['cards_dealt', 'turn_started'])
>>> s, events = step(s, RaiseBox(1, 1))
>>> s.phase, s.settlement.boxes[0].cls, s.settlement.boxes[0].net
('settled', 'quads', 410)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.rules import machine
from server.rules.sixcard import betting, decisions, presence, showdown
from server.rules.sixcard.betting import check_bets, cover_needed
from server.rules.sixcard.deal import deal_boxes, deck_for
from server.rules.sixcard.evolve import apply_events, evolve
from server.rules.sixcard.messages import (
    BuyCard,
    CancelExchange,
    ClearBets,
    ClockExpired,
    CloseBets,
    CloseExchange,
    Command,
    ConfirmBets,
    ContinueExchange,
    DeclareDead,
    Event,
    ExchangeCards,
    FoldBox,
    Leave,
    Misdeal,
    PassBets,
    PlaceBoxBets,
    RaiseBox,
    RepeatBets,
    RequestExchange,
    Stay,
)
from server.rules.sixcard.showdown import wagers
from server.rules.sixcard.state import (
    COVER_BLIND,
    COVER_OPEN,
    DEALER,
    MAX_SEED_LENGTH,
    TERMINAL,
    Box,
    HandState,
    PendingBets,
    Phase,
    new_hand,
    opening_events,
)

__all__ = [
    "COVER_BLIND", "COVER_OPEN", "DEALER", "MAX_SEED_LENGTH", "TERMINAL", "Box", "BuyCard", "CancelExchange",
    "ClearBets", "ClockExpired", "CloseBets", "CloseExchange", "Command", "ConfirmBets", "ContinueExchange",
    "DeclareDead", "Event", "ExchangeCards", "FoldBox", "HandState", "Leave", "Misdeal", "PassBets", "PendingBets",
    "Phase", "PlaceBoxBets", "RaiseBox", "RepeatBets", "RequestExchange", "Stay", "apply_events", "check_bets",
    "cover_needed", "deal_boxes", "decide", "deck_for", "evolve", "new_hand", "opening_events", "step", "wagers",
]


def step(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """Decide and apply: the new state and every event the command caused."""
    events = decide(state, command)
    return apply_events(state, events), events


_HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    **betting.HANDLERS, **decisions.HANDLERS, **showdown.HANDLERS, **presence.HANDLERS,
}

decide: Final[machine.Dispatch[HandState, Event]] = machine.Dispatch(_HANDLERS, TERMINAL)
"""``decide(state, command)``: the events ``command`` causes, or a :class:`Violation`; the state is not touched.
Each command goes to its handler by its type in this one call."""
