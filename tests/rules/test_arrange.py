"""A drill deck by seat (issue 14 B.13): the rules order it as they deal (docs/rules/hcf.md section 3, step 4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.arrange import DEALER, SeatDeck, deck_for_seats, seat_deck
from server.rules.cards import FULL_DECK, CardError, parse_cards
from server.rules.game import Player
from server.rules.hcf.hand import HAND_SIZE, deal_hands, new_hand, step
from server.rules.hcf.messages import AcceptBank, PlaceBets
from server.rules.hcf.settings import HcfSettings


@st.composite
def arrangements(draw: st.DrawFn) -> tuple[list[int], SeatDeck, list[int]]:
    """A dealing order (the dealer last), cards given to some of its places and others, a shuffled deck."""
    seats = draw(st.lists(st.integers(1, 7), min_size=2, max_size=7, unique=True))
    order = seats  # any order: the rules' is one of them
    shuffled = draw(st.permutations(list(FULL_DECK)))
    pool = iter(draw(st.permutations(list(FULL_DECK))))
    places = draw(st.lists(st.sampled_from([DEALER, *range(1, 8)]), unique=True, max_size=5))
    given = tuple(sorted((place, tuple(next(pool) for _ in range(draw(st.integers(1, HAND_SIZE)))))
                         for place in places))
    return order, SeatDeck(given), shuffled


@given(arrangements())
def test_every_place_is_dealt_what_it_was_given_and_the_deck_stays_whole(
        case: tuple[list[int], SeatDeck, list[int]]) -> None:
    order, given, shuffled = case
    deck = deck_for_seats(order, HAND_SIZE, given, shuffled, dealer=order[-1])
    assert sorted(deck) == sorted(FULL_DECK), "52 cards, each once"
    dealt = dict(deal_hands(deck, order))
    for place in order:
        wanted = given.cards_of(DEALER if place == order[-1] else place)
        assert dealt[place][:len(wanted)] == wanted
        assert len(dealt[place]) == HAND_SIZE


def test_the_dp_and_a_seat_get_their_cards_whoever_banks() -> None:
    bob, dp = parse_cards("Ah Kh Qh Jh Th 9h 8h"), parse_cards("2c 3c 4c 5c 6c 7c 8c")
    arranged = seat_deck({"2": "Ah Kh Qh Jh Th 9h 8h", "dp": "2c 3c 4c 5c 6c 7c 8c"}, HAND_SIZE, 7)
    players = [Player(1, 1000), Player(2, 1000), Player(3, 1000)]
    state = new_hand(HcfSettings(), players, bytes(32), offer_from=3, arranged_deck=arranged)
    state, _ = step(state, AcceptBank(3))  # seat 3 banks: the deal starts at seat 1, the DP last
    state, _ = step(state, PlaceBets(1, ante=10))
    state, _ = step(state, PlaceBets(2, ante=10))
    assert state.deal_sequence == (1, 2, 3)
    assert state.hands[2] == bob
    assert state.hands[3] == dp
    assert not set(state.hands[1]) & {*bob, *dp}
    assert state.arranged


def test_a_bad_arrangement_is_refused_in_a_sentence() -> None:
    with pytest.raises(CardError, match="there is no seat 9: the seats are 1 to 7"):
        seat_deck({"9": "Ah"}, 7, 7)
    with pytest.raises(CardError, match="seat 2 is given 8 cards; a hand has 7"):
        seat_deck({"2": "Ah Kh Qh Jh Th 9h 8h 7h"}, 7, 7)
    with pytest.raises(CardError, match="Ah is given twice"):
        seat_deck({"2": "Ah Kh", "dp": "Ah"}, 7, 7)
