"""The betting round both house-banked games run: Deal, Clear, leaving, and the clock closing it."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.caribbean import hand as ch
from server.rules.caribbean.messages import SpotBet
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import Violation
from server.rules.game import Player
from server.rules.house.messages import BetsCleared, BetsConfirmed, ClearBets, ConfirmBets
from server.rules.sixcard import hand as sh
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


def test_clearing_the_only_unconfirmed_bets_closes_the_betting(game: tuple[Any, Any, Any]) -> None:
    h, s, bet = game
    s, _ = h.step(s, bet(1, 1))
    s, _ = h.step(s, bet(2, 2))
    s, _ = h.step(s, ConfirmBets(1))
    s, events = h.step(s, ClearBets(2))
    assert events[0] == BetsCleared(2, "clear")
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
