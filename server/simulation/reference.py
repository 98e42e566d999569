"""The reference engine: each hand played through the real hand state machine.

Slow (the state machine checks every command and rebuilds its immutable state),
but it is the game itself: the vectorized engine must agree with it hand by hand.

>>> from server.rules.cards import FULL_DECK
>>> from server.simulation.scenario import Scenario
>>> settled = play_hand(Scenario.build("california", players=3), 0, FULL_DECK)
>>> settled.order, sum(r.net for r in settled.seats) + settled.dealer_net + settled.house
((3, 2), 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from server.rules.cards import Card
from server.rules.game import Player
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.hand import HandState, new_hand, step
from server.rules.hcf.messages import AcceptBank, Command, Event, Fold, HandSettled, PlaceBets, Raise
from server.rules.hcf.settlement import Settlement
from server.simulation.scenario import Scenario

SERVER_SEED: Final = bytes(32)
"""Unused for the cards (every deck is arranged) but a hand needs one."""


class ReferencePlayError(RuntimeError):
    """The state machine did not play the hand as the simulation expects."""


def play_hand(scenario: Scenario, hand_index: int, deck: Sequence[Card]) -> Settlement:
    """Play hand ``hand_index`` of a run with ``deck`` arranged: its ``HandSettled`` settlement."""
    settings, unit = scenario.settings, scenario.unit
    players = [Player(seat, scenario.stack) for seat in range(1, scenario.players + 1)]
    button = scenario.button(hand_index)
    state = new_hand(settings, players, SERVER_SEED, offer_from=button or 1,
                     arranged_deck=tuple(int(card) for card in deck))
    events: list[Event] = []
    if button is not None:
        state = _apply(state, AcceptBank(button), events)
    for seat in state.bettors:
        state = _apply(state, PlaceBets(seat, ante=unit, straight_flush_bonus=unit, flush_bonus=unit), events)
    while (turn := state.turn) is not None:
        amount = scenario.strategy.decide(evaluate(state.hands[turn]), unit)
        state = _apply(state, Raise(turn, amount) if amount else Fold(turn), events)
    return _settlement(events)


def play_hands(scenario: Scenario, decks: Iterable[Sequence[Card]], first_index: int = 0) -> list[Settlement]:
    """:func:`play_hand` for consecutive hands of a run."""
    return [play_hand(scenario, first_index + k, deck) for k, deck in enumerate(decks)]


def _apply(state: HandState, command: Command, events: list[Event]) -> HandState:
    state, caused = step(state, command)
    events.extend(caused)
    return state


def _settlement(events: Sequence[Event]) -> Settlement:
    settled = [event for event in events if isinstance(event, HandSettled)]
    if len(settled) != 1:
        kinds = ", ".join(event.type for event in events[-3:])
        raise ReferencePlayError(f"the hand did not settle once (last events: {kinds})")
    return settled[0].settlement
