"""Caribbean Stud behind the table's Game interface: wire moves, clocks, carry, logs that replay exactly."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from server.rules.caribbean import messages as m
from server.rules.caribbean.game import CARIBBEAN
from server.rules.caribbean.hand import HandState
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import SettingsError, Violation
from server.rules.game import ClockSpec, Game, Player
from tests.rules.caribbean.live import SEED, Run, arranged, planted_hand, random_hand, run, table_settings

TWO_PAIR = "9h 9s 4c 4d Jh"
BUSTED = "Qs Jc 8d 6h 3d"
DEALER_KINGS = "Kh Kd 7h 4s 2c"


def test_it_offers_every_method_of_the_game_protocol() -> None:
    game: Game = CARIBBEAN
    wanted = {name for name, _ in inspect.getmembers(Game) if not name.startswith("_")}
    assert wanted <= set(dir(game))
    assert (game.name, game.terminal) == ("caribbean", frozenset({"settled", "not_dealt", "void"}))


def test_settings_come_from_a_mapping_naming_the_game() -> None:
    settings = CARIBBEAN.settings_from_mapping({"game": "caribbean", "spots": 5}, CaribbeanSettings(max_hands=2))
    assert (settings.spots, settings.max_hands, settings.house_banked) == (5, 2, True)
    with pytest.raises(SettingsError):
        CARIBBEAN.settings_from_mapping({"game": "hcf"})


def test_a_new_hand_takes_the_meter_from_the_carry_and_opens_the_betting() -> None:
    state = CARIBBEAN.new_hand(CaribbeanSettings(), [Player(1, 500)], SEED, offer_from=1, arranged_deck=None,
                               carry={"meter": 1_234_567, "funded": True})
    assert CARIBBEAN.opening_events(state) == [m.BettingOpened(state.commitment, (1,), 1_234_567)]
    assert (state.phase, state.reason, state.server_seed, state.arranged_deck) == ("betting", None, SEED, None)


# ---------------------------------------------------------------- wire moves


@pytest.mark.parametrize(("action", "args", "command"), [
    ("bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}, {"spot": 4, "ante": 5}], "seed": "s"},
     m.PlaceSpotBets(3, (m.SpotBet(1, 10, True), m.SpotBet(4, 5, False)), "s")),
    ("bet", {"bets": []}, m.PlaceSpotBets(3, (), None)),
    ("deal", {}, m.ConfirmBets(3)),
    ("rebet", {}, m.RepeatBets(3)),
    ("clear", {}, m.ClearBets(3)),
    ("play", {}, m.PlaySpot(3, None)),
    ("play", {"spot": 2}, m.PlaySpot(3, 2)),
    ("fold", {"spot": 6}, m.FoldSpot(3, 6)),
])
def test_wire_moves_become_commands(action: str, args: dict[str, Any], command: m.Command) -> None:
    assert CARIBBEAN.move(3, action, args) == command


@pytest.mark.parametrize(("action", "args"), [
    ("bet", {}),
    ("bet", {"bets": {"spot": 1, "ante": 10}}),
    ("bet", {"bets": [{"spot": 1}]}),
    ("bet", {"bets": [{"spot": "1", "ante": 10}]}),
    ("bet", {"bets": [{"spot": 1, "ante": 10.0}]}),
    ("bet", {"bets": [{"spot": True, "ante": 10}]}),
    ("bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": 1}]}),
    ("bet", {"bets": [{"spot": 1, "ante": 10, "side": 5}]}),
    ("bet", {"bets": [[1, 10, True]]}),
    ("bet", {"bets": [], "seed": 42}),
    ("play", {"spot": "2"}),
    ("fold", {"spot": 1.5}),
])
def test_malformed_moves_are_refused(action: str, args: dict[str, Any]) -> None:
    with pytest.raises(Violation) as info:
        CARIBBEAN.move(3, action, args)
    assert info.value.code == "request/malformed"


def test_an_unknown_move_is_refused() -> None:
    with pytest.raises(Violation) as info:
        CARIBBEAN.move(3, "raise", {"amount": 10})
    assert info.value.code == "request/unknown"


def test_play_and_fold_default_to_the_spot_in_turn() -> None:
    r = run()
    r.do(CARIBBEAN.move(1, "bet", {"bets": [{"spot": 2, "ante": 10}, {"spot": 5, "ante": 10}]}),
         CARIBBEAN.move(1, "deal", {}))
    assert r.do(CARIBBEAN.move(1, "fold", {}))[0] == m.SpotFolded(1, 2, "fold")
    assert r.do(CARIBBEAN.move(1, "play", {}))[0] == m.SpotPlayed(1, 5, 20)


# ---------------------------------------------------------------- clocks and who acted


def test_clocks_time_the_betting_then_each_spot_in_turn() -> None:
    s = CaribbeanSettings(bet_seconds=20, action_seconds=12)
    r = run([(1, 1000), (2, 1000), (3, 1000)], settings=s)
    bets = CARIBBEAN.clock(r.state)
    assert bets == ClockSpec("bets", None, 20, expire=m.CloseBets(), late=(1, 2, 3))
    r.bet(1, (4, 10), (1, 10), confirm=False)
    r.bet(2, (2, 10))
    # Seat 1 has not confirmed and seat 3 neither bet nor passed: both are late when the clock runs out.
    assert late_seats(r.state) == (1, 3)
    r.do(m.PassBets(3))
    assert late_seats(r.state) == (1,)
    r.do(m.ConfirmBets(1))
    decision = CARIBBEAN.clock(r.state)
    assert decision == ClockSpec("decision", 1, 12, turn=1)
    assert decision.late_seats == (1,)  # and no ``expire``: the table runs its ClockExpired(1)
    r.do(m.ClockExpired(1))
    assert CARIBBEAN.clock(r.state) == ClockSpec("decision", 2, 12, turn=2)
    r.do(m.PlaySpot(2), m.PlaySpot(1))
    assert CARIBBEAN.clock(r.state) is None


def late_seats(state: HandState) -> tuple[int, ...]:
    clock = CARIBBEAN.clock(state)
    assert clock is not None
    return clock.late_seats


def test_the_house_deals_every_hand() -> None:
    state = run().state
    assert (CARIBBEAN.dealer_seat(state), CARIBBEAN.after_hand(state, {}).offer_from) == (None, 1)


# ---------------------------------------------------------------- carry and the meter on every screen


def test_the_meter_and_last_bets_carry_to_the_next_hand_and_rebet_uses_them() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged([TWO_PAIR, BUSTED], DEALER_KINGS))
    r.bet(2, (5, 25), confirm=False)
    r.bet(1, (1, 10, True), (3, 10, True))
    r.do(m.CloseBets())  # seat 2's unconfirmed bet goes back: it is not their last bet
    r.do(m.PlaySpot(1), m.FoldSpot(1))
    carry = CARIBBEAN.carry_out(r.state, {"last_bets": {"2": [[6, 5, False]]}})
    assert carry == {"meter": 1_000_100, "funded": True,
                     "last_bets": {"1": [[1, 10, True], [3, 10, True]], "2": [[6, 5, False]]}}
    carry = json.loads(json.dumps(carry))  # as the table records it, and reads it back after a restart
    assert CARIBBEAN.table_view(CaribbeanSettings(), carry) == {"jackpot_meter": 1_000_100, "jackpot_chips": 10_001}
    again = run([(1, 1000)], carry=carry)
    assert again.state.meter == 1_000_100
    assert again.do(m.RepeatBets(1)) == [m.SpotBetsPlaced(1, (m.SpotBet(1, 10, True), m.SpotBet(3, 10, True)),
                                                           None)]


def test_a_hand_that_does_not_settle_leaves_the_meter_and_its_funding_alone() -> None:
    r = run()
    r.bet(1, (1, 10, True))
    r.do(m.Misdeal())
    voided = CARIBBEAN.carry_out(r.state, {})
    assert voided == {"meter": 1_000_000, "funded": False, "last_bets": {"1": [[1, 10, True]]}}
    carry = {"meter": 5, "funded": True}
    none = run(carry=carry)
    none.do(m.CloseBets())
    assert CARIBBEAN.carry_out(none.state, carry) == {"meter": 5, "funded": True, "last_bets": {}}


def test_the_summary_records_bets_results_and_the_meter() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged([TWO_PAIR, BUSTED], DEALER_KINGS))
    r.bet(1, (1, 10, True), seed="a", confirm=False)
    r.bet(2, (2, 10), seed="b")
    r.do(m.ConfirmBets(1), m.PlaySpot(1), m.FoldSpot(2))
    summary = CARIBBEAN.summary(r.state)
    assert summary["bets"] == [
        {"spot": 1, "seat": 1, "ante": 10, "jackpot": True, "bet": 20, "folded": None, "dead": False},
        {"spot": 2, "seat": 2, "ante": 10, "jackpot": False, "bet": 0, "folded": "fold", "dead": False}]
    assert (summary["dealer_cards"], summary["dealer_qualifies"]) == (DEALER_KINGS.split(), True)
    assert summary["shown"] == {"1": TWO_PAIR.split()}
    assert (summary["meter_before"], summary["meter_after"], summary["deal_order"]) == (1_000_000, 1_000_050,
                                                                                       [1, 2, 0])
    assert [s["net"] for s in summary["settlement"]["spots"]] == [-10, 49]
    assert summary["player_seeds"] == [[1, "a"], [2, "b"]]
    json.dumps(summary)


# ---------------------------------------------------------------- logs round-trip and replay


def check_round_trips(r: Run) -> None:
    for before, event in r.trace:
        logged = json.loads(json.dumps(CARIBBEAN.codec.event_as_json(event)))
        assert CARIBBEAN.codec.event_from_json(logged) == event
        assert CARIBBEAN.codec.event_as_json(CARIBBEAN.codec.event_from_json(logged)) == logged
        json.dumps(CARIBBEAN.public_event(event))
        json.dumps(CARIBBEAN.private_events(before, event))
    for command, _ in r.inputs:
        recorded = json.loads(json.dumps(CARIBBEAN.codec.command_as_json(command)))
        assert CARIBBEAN.codec.command_from_json(recorded) == command


def replay(r: Run) -> HandState:
    """Feed the recorded commands (through JSON) to a fresh hand and check every event comes out the same."""
    first = r.trace[0][0]
    state = CARIBBEAN.new_hand(first.settings, first.players, first.server_seed, offer_from=first.offer_from,
                               arranged_deck=first.arranged_deck,
                               carry={"meter": first.meter, "funded": first.funded,
                                      "last_bets": {str(k): [list(b) for b in v] for k, v in first.last_bets.items()}})
    for event in CARIBBEAN.opening_events(state):
        state = CARIBBEAN.evolve(state, event)
    for command, recorded in r.inputs:
        again = CARIBBEAN.codec.command_from_json(json.loads(json.dumps(CARIBBEAN.codec.command_as_json(command))))
        events = CARIBBEAN.decide(state, again)
        logged = CARIBBEAN.codec.event_as_json
        assert [logged(e) for e in events] == [logged(e) for e in recorded]
        for event in events:
            state = CARIBBEAN.evolve(state, event)
    return state


@hypothesis_settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), table_settings())
def test_every_event_and_command_round_trips_and_a_hand_replays_exactly(data: st.DataObject,
                                                                       table: CaribbeanSettings) -> None:
    if data.draw(st.booleans()):
        r = planted_hand(data, table, {"meter": data.draw(st.integers(0, 10**8)), "funded": True})
    else:
        seats = data.draw(st.lists(st.integers(1, table.spots), min_size=1, max_size=3, unique=True))
        r = random_hand(data, run([(s, 1000) for s in sorted(seats)], settings=table,
                                  seed=data.draw(st.binary(min_size=32, max_size=32))))
    check_round_trips(r)
    assert replay(r) == r.state
    json.dumps(CARIBBEAN.hand_view(r.state, None))
    json.dumps(CARIBBEAN.summary(r.state))


def test_an_interrupted_hand_is_voided_on_recovery_and_every_bet_goes_back() -> None:
    r = run(deck=arranged([TWO_PAIR, BUSTED], DEALER_KINGS))
    r.bet(1, (1, 10, True), (2, 10))
    r.do(m.PlaySpot(1))  # the server stops here; on restart the table records the void
    void = m.HandVoided("interrupted")
    refunds = CARIBBEAN.postings(r.state, void, "t", {1: 7})
    assert sum(t.amount for t in refunds if t.dst == "stack:t:7") == 10 + 20 + 1 + 10
    assert CARIBBEAN.evolve(r.state, void).phase == "void"


def test_confirmed_bets_of_a_hand_voided_while_betting_are_still_the_last_bets() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (3, 10), confirm=False)
    r.bet(1, (1, 10, True))
    r.do(m.Misdeal())
    assert CARIBBEAN.carry_out(r.state, {})["last_bets"] == {"1": [[1, 10, True]]}
