"""A drill deck by seat (issue 14 B.13): the rules order it as they deal (docs/rules/hcf.md section 3.4)."""

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


def test_a_caribbean_deck_by_spot_deals_each_spot_and_the_dealer_as_given() -> None:
    from server.rules.caribbean import hand as ch
    from server.rules.caribbean.messages import ConfirmBets, PlaceSpotBets, SpotBet
    from server.rules.caribbean.settings import CaribbeanSettings

    spot5, dealer = parse_cards("Ah Kh Qh Jh Th"), parse_cards("2s 3s 4s 5s 7d")
    arranged = seat_deck({"5": "Ah Kh Qh Jh Th", "dp": "2s 3s 4s 5s 7d"}, 5, 7, "spot")
    state = ch.new_hand(CaribbeanSettings(), [Player(1, 1000)], bytes(32), arranged_deck=arranged)
    state, _ = ch.step(state, PlaceSpotBets(1, (SpotBet(2, 10), SpotBet(5, 10))))
    state, _ = ch.step(state, ConfirmBets(1))
    assert state.hands[5] == spot5
    assert state.dealer == dealer
    assert not set(state.hands[2]) & {*spot5, *dealer}
    assert state.arranged


def test_a_sixcard_deck_by_box_deals_each_box_and_the_dealer_as_given() -> None:
    from server.rules.sixcard import hand as sh
    from server.rules.sixcard.messages import ConfirmBets, PlaceBoxBets
    from server.rules.sixcard.settings import SixcardSettings

    box3, dealer = parse_cards("Ah Ad Ac As Kh"), parse_cards("2s 3s 4s 5s 7d")
    arranged = seat_deck({"3": "Ah Ad Ac As Kh", "dealer": "2s 3s 4s 5s 7d"}, 5, 4, "box")
    state = sh.new_hand(SixcardSettings(), [Player(1, 1000)], bytes(32), arranged_deck=arranged)
    state, _ = sh.step(state, PlaceBoxBets(1, ((1, 10, 0), (3, 10, 0))))
    state, _ = sh.step(state, ConfirmBets(1))
    assert state.cards[3] == box3
    assert state.dealer_cards == dealer
    assert not set(state.cards[1]) & {*box3, *dealer}
    assert sorted(state.deck) == sorted(FULL_DECK), "the stub that feeds the draws is the rest of the deck"
    with pytest.raises(CardError, match="there is no box 5: the boxes are 1 to 4"):
        seat_deck({"5": "Ah"}, 5, 4, "box")
