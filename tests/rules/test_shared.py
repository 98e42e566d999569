"""The pieces the three games share: event and command JSON, settings checks, the hand machine's refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules import commands, events, machine
from server.rules.caribbean import messages as cm
from server.rules.errors import SettingsError, Violation
from server.rules.game import Player
from server.rules.hcf import messages as hm
from server.rules.sixcard import messages as sm
from server.rules.validate import known, not_above, optional_whole, pay_pairs, seconds, whole

GAME_MESSAGES = (hm, cm, sm)


@pytest.mark.parametrize("m", GAME_MESSAGES, ids=["hcf", "caribbean", "sixcard"])
def test_every_game_logs_the_common_events_alike(m: Any) -> None:
    for event, logged in (
        (m.PlayerLeaving(3), {"type": "player_leaving", "seat": 3}),
        (m.HandNotDealt("no_players"), {"type": "hand_not_dealt", "reason": "no_players"}),
        (m.DeckPrepared(True, ((1, "a"), (4, "b"))),
         {"type": "deck_prepared", "arranged": True, "player_seeds": [[1, "a"], [4, "b"]]}),
        (m.HandVoided("shutdown"), {"type": "hand_voided", "reason": "shutdown"}),
    ):
        assert json.dumps(event.as_json()) == json.dumps(logged)  # key order is part of the log
        assert m.event_from_json(json.loads(json.dumps(logged))) == event
        assert m.EVENT_TYPES[logged["type"]] is type(event)


@pytest.mark.parametrize("m", GAME_MESSAGES, ids=["hcf", "caribbean", "sixcard"])
def test_every_game_records_the_common_commands_under_the_same_names(m: Any) -> None:
    for command, recorded in (
        (m.CloseBets(), {"command": "close_bets"}),
        (m.ClockExpired(2), {"command": "clock_expired", "seat": 2, "reason": "clock"}),
        (m.ClockExpired(2, "away"), {"command": "clock_expired", "seat": 2, "reason": "away"}),
        (m.Leave(5), {"command": "leave", "seat": 5}),
        (m.Stay(5), {"command": "stay", "seat": 5}),
        (m.DeclareDead(1), {"command": "declare_dead", "seat": 1}),
        (m.Misdeal("interrupted"), {"command": "misdeal", "reason": "interrupted"}),
    ):
        assert m.command_as_json(command) == recorded
        assert m.command_from_json(recorded) == command
    assert m.command_from_json({"command": "clock_expired", "seat": 2}) == m.ClockExpired(2)  # logged before away


def test_codecs_write_cards_in_notation_and_read_them_back() -> None:
    exchanged = sm.DealerExchanged((1, 3), 51, 0, (0, 4, 8, 12, 16), False)
    logged = exchanged.as_json()
    assert logged == {"type": "dealer_exchanged", "boxes": [1, 3], "discarded": "As", "replacement": "2c",
                      "after": ["2c", "3c", "4c", "5c", "6c"], "qualifies": False}
    assert sm.event_from_json(logged) == exchanged
    dealt = cm.CardsDealt((2, 0), ((2, (0, 1, 2, 3, 4)),), (5, 6, 7, 8, 9))
    assert cm.event_from_json(json.loads(json.dumps(dealt.as_json()))) == dealt


def test_caribbean_bets_are_logged_as_objects_but_recorded_as_lists() -> None:
    placed = cm.SpotBetsPlaced(1, (cm.SpotBet(2, 10, True),), None)
    assert placed.as_json()["bets"] == [{"spot": 2, "ante": 10, "jackpot": True}]
    back = cm.event_from_json(json.loads(json.dumps(placed.as_json())))
    assert back == placed
    assert isinstance(back.bets[0], cm.SpotBet)
    command = cm.PlaceSpotBets(1, (cm.SpotBet(2, 10, True),))
    assert cm.command_as_json(command)["bets"] == [[2, 10, True]]
    rebuilt = cm.command_from_json(json.loads(json.dumps(cm.command_as_json(command))))
    assert rebuilt == command
    assert isinstance(rebuilt.bets[0], cm.SpotBet)


def test_listed_and_tupled_are_inverse() -> None:
    value = (1, ((2, "x"), ()), None)
    assert events.tupled(json.loads(json.dumps(events.listed(value)))) == value


def test_an_unrecorded_command_name_is_refused() -> None:
    with pytest.raises(KeyError):
        commands.command_from_json({"leave": commands.Leave}, {"command": "fold", "seat": 1})


@pytest.mark.parametrize(("check", "sentence"), [
    (lambda: whole("seats", True, 1), "seats: must be a whole number of at least 1, got True"),
    (lambda: whole("rate", 101, 0, 100), "rate: must be at most 100, got 101"),
    (lambda: optional_whole("cap", 0, 1), "cap: must be a whole number of at least 1, got 0"),
    (lambda: seconds("bet_seconds", 3601, 1), "bet_seconds: must be at most 3600 seconds, got 3601"),
    (lambda: seconds("bet_seconds", "5", 1), "bet_seconds: must be a number of seconds of at least 1, got '5'"),
    (lambda: not_above("min_ante", 6, "max_ante", 5), "min_ante: must not exceed max_ante (6 > 5)"),
    (lambda: known({"b": 1, "a": 2}, ("x",), ), "a: unknown setting (known: x)"),
    (lambda: pay_pairs("p", "7: x", int, "'7: 1'", "card counts"), "p: write it as '7: 1', got '7: x'"),
    (lambda: pay_pairs("p", 5, str, "'a: 1'", "hand classes"), "p: must map hand classes to payouts, got 5"),
])
def test_settings_checks_name_the_setting(check: Any, sentence: str) -> None:
    with pytest.raises(SettingsError) as refused:
        check()
    assert str(refused.value) == sentence


def test_settings_checks_pass_good_values() -> None:
    assert optional_whole("cap", "", 1) is None
    assert seconds("s", 2, 1) == 2.0
    assert isinstance(seconds("s", 2, 1), float)
    assert pay_pairs("p", {"7": 3, 6: 2}, int, "", "") == {7: 3, 6: 2}
    assert pay_pairs("p", " royal : 5 ,", str, "", "") == {"royal": 5}
    not_above("min_bonus", 9, "max_bonus", None)


class _Hand:
    def __init__(self, phase: str) -> None:
        self.phase = phase


def test_a_finished_hand_refuses_even_a_misdeal_and_a_live_one_is_voided_by_it() -> None:
    with pytest.raises(Violation) as over:
        machine.decide({}, frozenset({"settled"}), _Hand("settled"), commands.Misdeal())
    assert over.value.code == "hand/over"
    assert machine.decide({}, frozenset({"settled"}), _Hand("betting"), commands.Misdeal("shutdown")) == [
        events.HandVoided("shutdown")]
    with pytest.raises(Violation) as unknown:
        machine.decide({}, frozenset(), _Hand("betting"), commands.Leave(1))
    assert (unknown.value.code, unknown.value.message) == ("request/unknown", "unknown command Leave")


_DISPATCH: machine.Dispatch[_Hand, object] = machine.Dispatch(
    {commands.Leave: lambda _s, c: [("left", c.seat)], commands.ClockExpired: lambda _s, c: [("late", c.seat)]},
    frozenset({"settled", "void"}))


def _outcome(run: Callable[[], list[object]]) -> object:
    try:
        return run()
    except Violation as refusal:
        return refusal.code, refusal.message


@given(st.sampled_from(["betting", "decisions", "settled", "void"]),
       st.sampled_from([commands.Misdeal("shutdown"), commands.Leave(1), commands.Stay(2), commands.ClockExpired(3)]))
def test_the_handler_the_desk_looks_up_decides_and_refuses_as_the_dispatch_does(phase: str, command: object) -> None:
    hand = _Hand(phase)
    assert _outcome(lambda: _DISPATCH.handler(hand, type(command))(hand, command)) == \
        _outcome(lambda: _DISPATCH(hand, command))


def test_need_phase_and_player_at_refuse_with_stable_codes() -> None:
    with pytest.raises(Violation) as wrong:
        machine.need_phase("decisions", "betting", "bet")
    assert (wrong.value.code, wrong.value.message) == ("phase/wrong", "cannot bet now: the hand is in its decisions "
                                                                      "phase")
    assert machine.player_at([Player(2, 10)], 2) == Player(2, 10)
    with pytest.raises(Violation) as absent:
        machine.player_at([Player(2, 10)], 3)
    assert absent.value.code == "seat/not_in_hand"
