"""One Caribbean Stud hand as a state machine of pure transitions (docs/rules/caribbean.md sections 3 and 5).

``decide(state, command)`` checks a command and returns the events it causes, or
raises :class:`Violation` (with a stable code) and changes nothing;
``evolve(state, event)`` applies one event; ``step`` does both. The house banks
every hand, so a hand opens straight into betting.

This module is the hand's front: the state is :mod:`~server.rules.caribbean.state`'s,
and each part of the hand decides its own commands: :mod:`~server.rules.caribbean.betting`
(bets, then the deal of :mod:`~server.rules.caribbean.deal`),
:mod:`~server.rules.caribbean.decisions` (play or fold, and the showdown) and
:mod:`~server.rules.caribbean.presence` (leaving and the floor);
:mod:`~server.rules.caribbean.evolve` applies the events.

>>> from server.rules.caribbean.settings import CaribbeanSettings
>>> from server.rules.game import Player
>>> s = new_hand(CaribbeanSettings(), [Player(1, 1000)], bytes(32))
>>> s, _ = step(s, PlaceSpotBets(1, (SpotBet(2, 10, True), SpotBet(5, 10))))
>>> s, events = step(s, ConfirmBets(1))
>>> s.phase, s.turn
('decisions', ClosedBet(spot=2, seat=1, ante=10, jackpot=True))
>>> s, _ = step(s, PlaySpot(1))
>>> s, events = step(s, FoldSpot(1, 5))
>>> s.phase, [e.type for e in events][-2:]
('settled', ['dealer_revealed', 'hand_settled'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.rules import machine
from server.rules.caribbean import betting, decisions, presence
from server.rules.caribbean.betting import checked_bets
from server.rules.caribbean.deal import deal_hands
from server.rules.caribbean.evolve import apply_events, evolve
from server.rules.caribbean.messages import (
    ClearBets,
    ClockExpired,
    CloseBets,
    Command,
    ConfirmBets,
    DeclareDead,
    Event,
    FoldSpot,
    Leave,
    Misdeal,
    PassBets,
    PlaceSpotBets,
    PlaySpot,
    RepeatBets,
    SpotBet,
    Stay,
)
from server.rules.caribbean.state import (
    HAND_SIZE,
    MAX_SEED_LENGTH,
    PLAY_MULTIPLE,
    TERMINAL,
    UP_CARD,
    HandState,
    Phase,
    new_hand,
    opening_events,
)

__all__ = [
    "HAND_SIZE", "MAX_SEED_LENGTH", "PLAY_MULTIPLE", "TERMINAL", "UP_CARD", "ClearBets", "ClockExpired", "CloseBets",
    "Command", "ConfirmBets", "DeclareDead", "Event", "FoldSpot", "HandState", "Leave", "Misdeal", "PassBets",
    "Phase", "PlaceSpotBets", "PlaySpot", "RepeatBets", "SpotBet", "Stay", "apply_events", "checked_bets",
    "deal_hands", "decide", "evolve", "new_hand", "opening_events", "step",
]


def step(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """Decide and apply: the new state and every event the command caused."""
    events = decide(state, command)
    return apply_events(state, events), events


_HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    **betting.HANDLERS, **decisions.HANDLERS, **presence.HANDLERS,
}

decide: Final[machine.Dispatch[HandState, Event]] = machine.Dispatch(_HANDLERS, TERMINAL)
"""``decide(state, command)``: the events ``command`` causes, or a :class:`Violation`; the state is not touched.
Each command goes to its handler by its type in this one call."""
