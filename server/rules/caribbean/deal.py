"""The deck and the deal of a Caribbean Stud hand, once the bets are closed (docs/rules/caribbean.md section 3.2)."""

from __future__ import annotations

from collections.abc import Sequence

from server.rules.arrange import deck_for_seats
from server.rules.cards import Card
from server.rules.caribbean.messages import HOUSE, CardsDealt, DeckPrepared, Event, HandVoided
from server.rules.caribbean.state import HAND_SIZE, HandState
from server.rules.fairness import seeded_deck


def deal_events(state: HandState) -> list[Event]:
    """The deck (derived from the seeds, or arranged) and the deal; a short deck voids the hand."""
    seeds = state.player_seeds()
    deck = state.arranged_deck
    if deck is None:
        deck = seeded_deck(state.server_seed, seeds)
    order = (*(b.spot for b in state.bets), HOUSE)
    if state.seat_deck is not None:
        deck = deck_for_seats(order, HAND_SIZE, state.seat_deck, deck, dealer=HOUSE)
    hands = deal_hands(deck, order)
    dealer = hands.pop()[1]
    drill = state.arranged_deck is not None or state.seat_deck is not None
    events: list[Event] = [DeckPrepared(drill, seeds),
                           CardsDealt(order, tuple(hands), dealer)]
    # The dealer takes the last card of every round, so any short deck leaves the dealer short.
    if len(dealer) != HAND_SIZE:
        events.append(HandVoided("card_count"))
    return events


def deal_hands(deck: Sequence[Card], order: Sequence[int]) -> list[tuple[int, tuple[Card, ...]]]:
    """Deal one card at a time to each place of ``order``, five rounds, while the deck lasts.

    >>> deal_hands(tuple(range(52)), [2, 5, 0])[2]
    (0, (2, 5, 8, 11, 14))
    """
    hands: dict[int, list[Card]] = {place: [] for place in order}
    position = 0
    for _ in range(HAND_SIZE):
        for place in order:
            if position < len(deck):
                hands[place].append(deck[position])
                position += 1
    return [(place, tuple(cards)) for place, cards in hands.items()]
