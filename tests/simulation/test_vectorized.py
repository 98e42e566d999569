"""The vectorized evaluation and decision tables against the rules' own functions."""

from __future__ import annotations

import numpy as np

from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.hand import Player, new_hand, step
from server.rules.hcf.messages import AcceptBank, PlaceBets
from server.rules.hcf.settlement import deal_order
from server.simulation.decks import DeckStream
from server.simulation.scenario import Scenario
from server.simulation.strategies import strategy_named
from server.simulation.vectorized import HAND_FLUSH_KEYS, evaluate_deal, raise_by_flush_key


def test_each_dealt_hand_values_as_the_evaluator_says() -> None:
    decks = DeckStream("e1").take(400)
    flush, run = evaluate_deal(decks, 7)
    for i, deck in enumerate(decks.tolist()):
        for j in range(7):
            hand = evaluate(deck[j::7][:7])
            assert (flush[i, j], run[i, j]) == (hand.flush_key, hand.run_key)


def test_hands_are_dealt_like_the_state_machine_deals_them() -> None:
    # Position j of the fast engine is the j-th seat of the deal order, the dealer last.
    scenario = Scenario.build("california", players=5)
    deck = DeckStream("d").take(1)[0].tolist()
    button = 4
    state = new_hand(scenario.settings, [Player(seat, 1000) for seat in range(1, 6)], bytes(32),
                     offer_from=button, arranged_deck=deck)
    state, _ = step(state, AcceptBank(button))
    for seat in state.bettors:
        state, _ = step(state, PlaceBets(seat, ante=5))
    order = (*deal_order(5, button), button)
    flush, run = evaluate_deal(np.array([deck], dtype=np.uint8), 5)
    for position, seat in enumerate(order):
        hand = evaluate(state.hands[seat])
        assert (flush[0, position], run[0, position]) == (hand.flush_key, hand.run_key)


def test_raise_table_is_the_strategy_on_every_flush() -> None:
    basic = strategy_named("basic")
    table = raise_by_flush_key(basic, 5)
    decks = DeckStream("f").take(300)
    flush, _ = evaluate_deal(decks, 7)
    for i, deck in enumerate(decks.tolist()):
        for j in range(7):
            assert table[flush[i, j]] == basic.decide(evaluate(deck[j::7][:7]), 5)
    assert set(np.unique(table[HAND_FLUSH_KEYS]).tolist()) == {0, 5, 10, 15}
