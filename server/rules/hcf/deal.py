"""The fees, the deck and the deal of a High Card Flush hand, once the bets are closed (sections 3.3, 3.4 and 6)."""

from __future__ import annotations

from collections.abc import Sequence

from server.rules.arrange import deck_for_seats
from server.rules.cards import Card
from server.rules.fairness import seeded_deck
from server.rules.hcf.evaluate import HAND_SIZE
from server.rules.hcf.fees import dealer_fee, pays_fee, player_fee
from server.rules.hcf.messages import CardsDealt, DeckPrepared, Event, FeesCollected, HandVoided, SeatDead
from server.rules.hcf.settlement import deal_order
from server.rules.hcf.state import HOUSE, HandState


def deal_events(state: HandState) -> list[Event]:
    """Fees, deck and deal, once the bets are closed."""
    s = state.settings
    fees = [(seat, player_fee(s, state.bets[seat].ante)) for seat in state.in_hand if pays_fee(s, dealer=False)]
    if state.dealer is not None and pays_fee(s, dealer=True):
        fees.append((state.dealer, dealer_fee(s, (b.ante for b in state.bets.values()))))
    seeds = tuple((seat, b.seed) for seat, b in sorted(state.bets.items()) if b.seed is not None)
    arranged = state.arranged_deck
    deck = arranged if arranged is not None else seeded_deck(state.server_seed, seeds)
    order = (*(seat for seat in deal_order(s.seats, state.dealer) if seat in state.bets),
             state.dealer if state.dealer is not None else HOUSE)
    if state.seat_deck is not None:
        deck = deck_for_seats(order, HAND_SIZE, state.seat_deck, deck, dealer=order[-1])
    hands = deal_hands(deck, order)
    drill = arranged is not None or state.seat_deck is not None
    events: list[Event] = [FeesCollected(tuple(sorted(fees))), DeckPrepared(drill, seeds),
                           CardsDealt(order, hands)]
    if len(dict(hands)[order[-1]]) != HAND_SIZE:
        return [*events, HandVoided("card_count")]
    events += [SeatDead(seat, "card_count") for seat, cards in hands if len(cards) != HAND_SIZE]
    return events


def deal_hands(deck: Sequence[Card], order: Sequence[int]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Deal one card at a time to each seat of ``order``, seven rounds, while the deck lasts.

    >>> dict(deal_hands(tuple(range(52)), [3, 1]))[1]
    (1, 3, 5, 7, 9, 11, 13)
    """
    hands: dict[int, list[Card]] = {seat: [] for seat in order}
    position = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            if position < len(deck):
                hands[seat].append(deck[position])
                position += 1
    return tuple((seat, tuple(cards)) for seat, cards in hands.items())
