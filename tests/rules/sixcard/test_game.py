"""The 6 Card Poker :class:`~server.rules.game.Game`: what the table drives, logs, replays and shows."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.errors import SettingsError, Violation
from server.rules.game import ClockSpec, Game, Player
from server.rules.sixcard import messages as m
from server.rules.sixcard.game import SIXCARD
from server.rules.sixcard.hand import apply_events
from server.rules.sixcard.settings import SixcardSettings
from tests.rules.sixcard.live import SEED, arranged, planned_hand, run

TRIPS = "Qs Qh Qd 9c 3h"
SEVENS = "7c 7d 4h 3d 2s"
NO_PAIR = "Ad Jc 8h 5s 3c"


def test_it_is_a_game_the_table_can_drive() -> None:
    game: Game = SIXCARD
    assert game.name == "sixcard"
    assert game.terminal == frozenset({"settled", "not_dealt", "void"})
    assert isinstance(game.settings_from_mapping({"game": "sixcard", "boxes": 2}), SixcardSettings)
    with pytest.raises(SettingsError):
        game.settings_from_mapping({"game": "hcf"})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_events_and_commands_round_trip_and_replaying_the_commands_gives_the_same_events(data: st.DataObject) -> None:
    r = planned_hand(data)
    for _, event in r.trace:
        logged = json.loads(json.dumps(SIXCARD.codec.event_as_json(event)))
        assert SIXCARD.codec.event_from_json(logged) == event
        json.dumps(SIXCARD.public_event(event))
    first = r.trace[0][0]
    state, replayed = first, []
    for command in r.commands:
        recorded = json.loads(json.dumps(SIXCARD.codec.command_as_json(command)))
        rebuilt = SIXCARD.codec.command_from_json(recorded)
        assert rebuilt == command
        try:
            events = SIXCARD.decide(state, rebuilt)
        except Violation:
            continue
        replayed += events
        state = apply_events(state, events)
    assert replayed == [e for _, e in r.trace[1:]]  # the opening event is the table's, not a command's
    assert state == r.state


@pytest.mark.parametrize(("action", "args", "command"), [
    ("bet", {"bets": [{"box": 1, "ante": 10, "bonus": 1}, {"box": 3, "bonus": 2}], "seed": "abc"},
     m.PlaceBoxBets(4, ((1, 10, 1), (3, 0, 2)), "abc")),
    ("bet", {"bets": []}, m.PlaceBoxBets(4, ())),
    ("deal", {}, m.ConfirmBets(4)),
    ("rebet", {}, m.RepeatBets(4)),
    ("clear", {}, m.ClearBets(4)),
    ("raise", {}, m.RaiseBox(4)),
    ("raise", {"box": 2}, m.RaiseBox(4, 2)),
    ("fold", {"box": 2}, m.FoldBox(4, 2)),
    ("buy", {}, m.BuyCard(4)),
    ("exchange", {"discard": [5, 1]}, m.ExchangeCards(4, None, (5, 1))),
    ("exchange", {"box": 3, "discard": [2]}, m.ExchangeCards(4, 3, (2,))),
    ("request_exchange", {"box": 2}, m.RequestExchange(4, 2)),
    ("cancel_exchange", {"box": 2}, m.CancelExchange(4, 2)),
    ("continue", {}, m.ContinueExchange(4)),
])
def test_wire_moves_become_commands(action: str, args: dict[str, Any], command: Any) -> None:
    assert SIXCARD.move(4, action, args) == command


@pytest.mark.parametrize(("action", "args"), [
    ("bet", {}),
    ("bet", {"bets": {"box": 1}}),
    ("bet", {"bets": [{"ante": 10}]}),
    ("bet", {"bets": [{"box": 1, "ante": "10"}]}),
    ("bet", {"bets": [{"box": 1, "ante": 10, "jackpot": True}]}),
    ("bet", {"bets": [{"box": 1, "ante": -5}]}),
    ("bet", {"bets": [{"box": True, "ante": 5}]}),
    ("bet", {"bets": [{"box": 1, "ante": 5}], "seed": 7}),
    ("raise", {"box": "2"}),
    ("exchange", {}),
    ("exchange", {"discard": "1 2"}),
    ("exchange", {"discard": [1.0]}),
    ("request_exchange", {}),
    ("cancel_exchange", {"box": None}),
])
def test_malformed_moves_are_refused(action: str, args: dict[str, Any]) -> None:
    with pytest.raises(Violation) as info:
        SIXCARD.move(1, action, args)
    assert info.value.code == "request/malformed"


def test_unknown_moves_are_refused() -> None:
    with pytest.raises(Violation) as info:
        SIXCARD.move(1, "play", {})
    assert info.value.code == "request/unknown"


def test_clocks_for_bets_each_decision_and_the_exchange() -> None:
    s = SixcardSettings(bet_seconds=30, action_seconds=25, exchange_seconds=20)
    r = run([(1, 1000), (2, 1000)], settings=s, deck=arranged({1: TRIPS, 2: SEVENS}, NO_PAIR, "Jd"))
    clock = SIXCARD.clock(r.state)
    assert clock == ClockSpec("bets", None, 30, expire=m.CloseBets(), late=(1, 2))
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10), confirm=False)
    r.do(m.ConfirmBets(1))
    clock = SIXCARD.clock(r.state)
    assert clock is not None
    assert (clock.late_seats, clock.expire) == ((2,), m.CloseBets())
    r.do(m.ConfirmBets(2))
    clock = SIXCARD.clock(r.state)
    assert clock == ClockSpec("decision", 1, 25, turn=1)
    assert (clock.late_seats, clock.expire) == ((1,), None)  # None: the table's ClockExpired(1)
    r.do(m.BuyCard(1))
    after_draw = SIXCARD.clock(r.state)
    assert after_draw == ClockSpec("decision", 1, 25, turn=1, step=1)  # the same box, a fresh clock
    assert after_draw is not None
    assert after_draw.key != clock.key
    r.do(m.RaiseBox(1))
    assert SIXCARD.clock(r.state) == ClockSpec("decision", 2, 25, turn=2)
    r.do(m.RaiseBox(2), m.ContinueExchange(2))
    clock = SIXCARD.clock(r.state)
    assert clock == ClockSpec("exchange", None, 20, expire=m.CloseExchange(), late=(1,))
    r.do(m.CloseExchange())
    assert r.state.phase == "settled"
    assert SIXCARD.clock(r.state) is None


def test_carry_keeps_last_bets_for_rebet() -> None:
    carry = {"last_bets": {"2": [[4, 5, 0]], "3": [[3, 25, 1]]}}
    state = SIXCARD.new_hand(SixcardSettings(), [Player(1, 1000), Player(3, 1000)], SEED, offer_from=1,
                             arranged_deck=None, carry=carry)
    state = apply_events(state, SIXCARD.opening_events(state))
    state = apply_events(state, SIXCARD.decide(state, m.RepeatBets(3)))
    assert state.pending[3].bets == ((3, 25, 1),)
    state = apply_events(state, SIXCARD.decide(state, m.PlaceBoxBets(1, ((1, 10, 0), (2, 0, 1)))))
    state = apply_events(state, SIXCARD.decide(state, m.ConfirmBets(1)))
    state = apply_events(state, SIXCARD.decide(state, m.CloseBets()))  # seat 3 never confirmed
    assert SIXCARD.after_hand(state, carry).carry == {"last_bets": {"1": [[1, 10, 0], [2, 0, 1]], "2": [[4, 5, 0]],
                                                             "3": [[3, 25, 1]]}}
    assert SIXCARD.table_view(SixcardSettings(), carry) == {}


def test_summary_and_seeds_of_a_finished_hand() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS}, NO_PAIR, "Kh"))
    r.bet(1, (1, 10), seed="s1", confirm=False)
    r.bet(2, (2, 10))
    r.do(m.ConfirmBets(1), m.BuyCard(1), m.RaiseBox(1), m.FoldBox(2))
    r.do(m.RequestExchange(1, 1), m.ContinueExchange(1))
    summary = SIXCARD.summary(r.state)
    json.dumps(summary)
    assert summary["game"] == "sixcard"
    assert summary["deal_order"] == [1, 2, 0]
    assert summary["draws"] == [{"box": 1, "kind": "buy", "fee": 10}]
    assert summary["dealer_cards"] == ["Ad", "Jc", "8h", "5s", "3c"]
    # Box 1 bought the Kh, so the exchange took the next stub card: still no pair, the fee is lost.
    assert summary["dealer_after"] == ["2c", "Jc", "8h", "5s", "3c"]
    assert list(summary["shown"]) == ["1"]  # the folded box 2 stays hidden
    assert [b["net"] for b in summary["settlement"]["boxes"]] == [-10 - 10, -10]
    assert summary["player_seeds"] == [[1, "s1"]]
    assert SIXCARD.after_hand(r.state, {}).offer_from == 1
    assert SIXCARD.dealer_seat(r.state) is None

