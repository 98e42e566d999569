"""The deck of a 6 Card Poker hand and how it is dealt: by the seeds, or arranged for a drill (section 4.2).

The deck stays in the state (the stub feeds the draws and the dealer exchange) and
is never part of an event: replaying the events rebuilds it from the seeds.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.rules.arrange import deck_for_seats
from server.rules.cards import Card
from server.rules.fairness import seeded_deck
from server.rules.sixcard.settlement import HAND_SIZE
from server.rules.sixcard.state import DEALER, HandState


def deal_boxes(deck: Sequence[Card], order: Sequence[int]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Deal one card at a time to each place of ``order``, five rounds.

    >>> deal_boxes(tuple(range(52)), [2, 0])
    ((2, (0, 2, 4, 6, 8)), (0, (1, 3, 5, 7, 9)))
    """
    return tuple((place, tuple(deck[i * len(order) + k] for i in range(HAND_SIZE)))
                 for k, place in enumerate(order))


def deck_for(state: HandState, seeds: Sequence[tuple[int, str]]) -> tuple[Card, ...]:
    """The hand's deck: the arranged one, or the shuffle of the server seed and the player seeds in seat order.

    A deck given by box takes the boxes' dealing order (known once the bets are closed); the rest is the shuffle.
    """
    if state.arranged_deck is not None:
        return state.arranged_deck
    shuffled = seeded_deck(state.server_seed, seeds)
    if state.seat_deck is not None:
        order = (*(b.box for b in state.boxes), DEALER)
        return deck_for_seats(order, HAND_SIZE, state.seat_deck, shuffled, dealer=DEALER)
    return shuffled


def stub_cards(state: HandState, count: int) -> tuple[Card, ...] | None:
    """The stub's next ``count`` cards, or None when an arranged deck has run out."""
    cards = state.deck[state.next_card:state.next_card + count]
    return cards if len(cards) == count else None
