"""The betting round both house-banked games run: Deal, Clear, leaving, and the clock closing it."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from server.rules.caribbean import hand as ch
from server.rules.caribbean.game import CARIBBEAN
from server.rules.caribbean.messages import SpotBet
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import Violation
from server.rules.game import Player
from server.rules.house.betting import undecided, waiting
from server.rules.house.messages import BetsCleared, BetsConfirmed, BetsPassed, ClearBets, ConfirmBets, PassBets
from server.rules.sixcard import hand as sh
from server.rules.sixcard.game import SIXCARD
from server.rules.sixcard.settings import SixcardSettings

PLAYERS = [Player(1, 5000), Player(2, 5000)]


def caribbean() -> tuple[Any, Any, Any]:
    state = ch.new_hand(CaribbeanSettings(), PLAYERS, bytes(32))
    return ch, state, lambda seat, spot: ch.PlaceSpotBets(seat, (SpotBet(spot, 10),))


def sixcard() -> tuple[Any, Any, Any]:
    state = sh.new_hand(SixcardSettings(), PLAYERS, bytes(32))
    return sh, state, lambda seat, box: sh.PlaceBoxBets(seat, ((box, 10, 0),))


@pytest.fixture(params=[caribbean, sixcard], ids=["caribbean", "sixcard"])
def game(request: pytest.FixtureRequest) -> tuple[Any, Any, Any]:
    made: tuple[Any, Any, Any] = request.param()
    return made


def test_betting_closes_when_the_last_bettor_confirms(game: tuple[Any, Any, Any]) -> None:
    h, s, bet = game
    s, _ = h.step(s, bet(1, 1))
    s, _ = h.step(s, bet(2, 2))
    s, events = h.step(s, ConfirmBets(1))
    assert events == [BetsConfirmed(1)]
    assert s.unconfirmed == [2]
    s, events = h.step(s, ConfirmBets(2))
    assert events[0] == BetsConfirmed(2)
    assert s.phase == "decisions"


def test_clearing_waits_for_the_player_and_passing_then_closes_the_betting(game: tuple[Any, Any, Any]) -> None:
    h, s, bet = game
    s, _ = h.step(s, bet(1, 1))
    s, _ = h.step(s, bet(2, 2))
    s, _ = h.step(s, ConfirmBets(1))
    s, events = h.step(s, ClearBets(2))
    assert events == [BetsCleared(2, "clear")]
    assert s.phase == "betting"  # seat 2 may bet again: the betting waits for its answer
    s, events = h.step(s, PassBets(2))
    assert events[0] == BetsPassed(2)
    assert s.phase == "decisions"
    with pytest.raises(Violation) as refused:
        h.decide(s, ClearBets(2))
    assert refused.value.code == "phase/wrong"


def test_nothing_to_clear_is_refused(game: tuple[Any, Any, Any]) -> None:
    h, s, _ = game
    with pytest.raises(Violation) as refused:
        h.decide(s, ClearBets(1))
    assert (refused.value.code, refused.value.message) == ("bet/none", "you have no bets to clear")


def test_the_clock_sends_unconfirmed_bets_back_in_seat_order(game: tuple[Any, Any, Any]) -> None:
    h, s, bet = game
    s, _ = h.step(s, bet(2, 2))
    s, _ = h.step(s, bet(1, 1))
    s, events = h.step(s, h.CloseBets())
    assert events[:2] == [BetsCleared(1, "clock"), BetsCleared(2, "clock")]
    assert s.phase == "not_dealt"


def test_leaving_takes_the_bets_back_and_may_close_the_betting(game: tuple[Any, Any, Any]) -> None:
    h, s, bet = game
    s, _ = h.step(s, bet(1, 1))
    s, _ = h.step(s, bet(2, 2))
    s, _ = h.step(s, ConfirmBets(1))
    s, events = h.step(s, h.Leave(2))
    assert [e.type for e in events[:2]] == ["player_leaving", "bets_cleared"]
    assert s.phase == "decisions"


def test_fast_players_cannot_close_the_betting_on_one_who_has_not_answered(game: tuple[Any, Any, Any]) -> None:
    """Issue 14 A.4: two bots bet and deal at once; the third player still gets the whole clock."""
    h, _, bet = game
    s = h.new_hand(game[1].settings, [Player(1, 5000), Player(2, 5000), Player(3, 5000)], bytes(32))
    s, _ = h.step(s, bet(1, 1))
    s, _ = h.step(s, ConfirmBets(1))
    s, _ = h.step(s, bet(2, 2))
    s, events = h.step(s, ConfirmBets(2))
    assert events == [BetsConfirmed(2)]
    assert s.phase == "betting"
    assert waiting(s) == undecided(s) == [3]
    s, _ = h.step(s, bet(3, 3))
    assert waiting(s) == []
    assert undecided(s) == [3]
    s, _ = h.step(s, ConfirmBets(3))
    assert s.phase == "decisions"


def test_a_pass_takes_unconfirmed_bets_back_and_a_later_bet_undoes_it(game: tuple[Any, Any, Any]) -> None:
    h, s, bet = game
    s, _ = h.step(s, bet(1, 1))
    s, events = h.step(s, PassBets(1))
    assert events == [BetsPassed(1)]
    assert 1 not in s.bettors
    assert s.passed == {1}
    with pytest.raises(Violation) as refused:
        h.decide(s, PassBets(1))
    assert refused.value.code == "bet/already_answered"
    s, _ = h.step(s, bet(1, 1))  # changes their mind while seat 2 still thinks
    assert s.passed == frozenset()
    assert undecided(s) == [1, 2]
    s, _ = h.step(s, ConfirmBets(1))
    with pytest.raises(Violation) as refused:
        h.decide(s, PassBets(1))
    assert refused.value.code == "bet/confirmed"


def test_when_everyone_passes_there_is_no_hand_at_once(game: tuple[Any, Any, Any]) -> None:
    h, s, _ = game
    s, _ = h.step(s, PassBets(2))
    assert s.phase == "betting"
    s, events = h.step(s, PassBets(1))
    assert events[-1].type == "hand_not_dealt"
    assert s.phase == "not_dealt"


def test_the_clock_finds_late_those_who_neither_confirmed_nor_passed(game: tuple[Any, Any, Any]) -> None:
    h, _, bet = game
    adapter = {ch: CARIBBEAN, sh: SIXCARD}[h]
    s = h.new_hand(game[1].settings, [Player(1, 5000), Player(2, 5000), Player(3, 5000)], bytes(32))
    s, _ = h.step(s, bet(1, 1))
    s, _ = h.step(s, PassBets(2))
    clock = adapter.clock(s)
    assert clock is not None
    assert clock.late_seats == (1, 3)


def test_one_player_holds_at_most_the_limit_while_another_waits(game: tuple[Any, Any, Any]) -> None:
    """Issue 14 A.4: a random bot took every box; now a place is left for each player still to answer."""
    h, s, _ = game
    word = "spot" if h is ch else "box"
    two = (ch.PlaceSpotBets(1, (SpotBet(1, 10), SpotBet(2, 10))) if h is ch
           else sh.PlaceBoxBets(1, ((1, 10, 0), (2, 10, 0))))
    with pytest.raises(Violation) as refused:
        h.decide(s, two)
    assert refused.value.code == "bet/others_waiting"
    assert refused.value.message == f"you may hold at most 1 {word} while seat 2 has not bet or passed yet, got 2"
    after, _ = h.step(s, PassBets(2))  # nobody waits any more: the player may take more
    after, _ = h.step(after, two)
    assert sorted(after.bettors) == [1]
    roomy = dataclasses.replace(s.settings, max_hands_while_waiting=2)
    h.step(h.new_hand(roomy, PLAYERS, bytes(32)), two)  # a table that allows two while others wait


def test_the_hold_limit_and_pass_round_trip_through_the_wire() -> None:
    assert CARIBBEAN.move(1, "pass", {}) == ch.PassBets(1)
    assert SIXCARD.move(1, "pass", {}) == sh.PassBets(1)
    for adapter in (CARIBBEAN, SIXCARD):
        assert adapter.codec.event_from_json(BetsPassed(4).as_json()) == BetsPassed(4)
        assert adapter.codec.command_from_json(adapter.codec.command_as_json(PassBets(4))) == PassBets(4)
