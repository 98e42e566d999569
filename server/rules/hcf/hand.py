"""One High Card Flush hand as a state machine of pure transitions (docs/rules/hcf.md section 3).

``decide(state, command)`` checks a command and returns the events it causes, or
raises :class:`Violation` (with a stable code) and changes nothing;
``evolve(state, event)`` applies one event. ``step`` does both. The table shell
feeds commands, records events, and never reaches inside.

This module is the hand's front: the state is :mod:`~server.rules.hcf.state`'s, and
each part of the hand decides its own commands: :mod:`~server.rules.hcf.bank` (the
offer of the bank), :mod:`~server.rules.hcf.betting` (bets, then the deal of
:mod:`~server.rules.hcf.deal`), :mod:`~server.rules.hcf.decisions` (raise or fold,
and the showdown) and :mod:`~server.rules.hcf.presence` (the clock, leaving, the
floor); :mod:`~server.rules.hcf.evolve` applies the events.

>>> from server.rules.hcf.settings import HcfSettings
>>> s = new_hand(HcfSettings(), [Player(1, 1000), Player(2, 1000)], bytes(32), offer_from=1)
>>> s.phase, s.offered
('offer', 1)
>>> s, _ = step(s, AcceptBank(1))
>>> s, _ = step(s, PlaceBets(2, ante=10))
>>> s.phase
'decisions'
>>> s, events = step(s, Raise(2, 10))
>>> s.phase, [e.type for e in events][-2:]
('settled', ['dealer_revealed', 'hand_settled'])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.rules import machine
from server.rules.game import Player
from server.rules.hcf import bank, betting, decisions, presence
from server.rules.hcf.deal import deal_hands
from server.rules.hcf.evaluate import HAND_SIZE
from server.rules.hcf.evolve import apply_events, evolve
from server.rules.hcf.messages import (
    AcceptBank,
    ClockExpired,
    CloseBets,
    Command,
    DeclareDead,
    DeclineBank,
    Event,
    Fold,
    Leave,
    Misdeal,
    PassBets,
    PlaceBets,
    Raise,
    Stay,
)
from server.rules.hcf.state import (
    HOUSE,
    MAX_SEED_LENGTH,
    TERMINAL,
    Bets,
    HandState,
    Phase,
    clockwise_from,
    eligible_to_bank,
    new_hand,
    next_offer_from,
    opening_events,
)

__all__ = [
    "HAND_SIZE", "HOUSE", "MAX_SEED_LENGTH", "TERMINAL", "AcceptBank", "Bets", "ClockExpired", "CloseBets",
    "Command", "DeclareDead", "DeclineBank", "Event", "Fold", "HandState", "Leave", "Misdeal", "PassBets", "Phase",
    "PlaceBets", "Player", "Raise", "Stay", "apply_events", "clockwise_from", "deal_hands", "decide",
    "eligible_to_bank", "evolve", "new_hand", "next_offer_from", "opening_events", "step",
]


def step(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """Decide and apply: the new state and every event the command caused."""
    events = decide(state, command)
    return apply_events(state, events), events


_HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    **bank.HANDLERS, **betting.HANDLERS, **decisions.HANDLERS, **presence.HANDLERS,
}

decide: Final[machine.Dispatch[HandState, Event]] = machine.Dispatch(_HANDLERS, TERMINAL)
"""``decide(state, command)``: the events ``command`` causes, or a :class:`Violation`; the state is not touched.
Each command goes to its handler by its type in this one call."""
