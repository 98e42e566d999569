"""Taking back a leave in each game's rules core (issue 14 B.15; docs/rules/hcf.md section 4).

A leave asked during a hand can be taken back (``Stay``) until it acts on the hand:
then the seat plays its turn as if it had never asked. Once the leave folded,
passed or sent back the seat's bets, ``Stay`` is refused and changes nothing.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.caribbean import messages as stud
from server.rules.errors import Violation
from server.rules.hcf.hand import HandState, apply_events, decide, step
from server.rules.hcf.messages import (
    Command,
    Event,
    Fold,
    Leave,
    LeaveWithdrawn,
    PlaceBets,
    PlayerFolded,
    PlayerLeaving,
    PlayerRaised,
    Raise,
    Stay,
    TurnStarted,
    command_as_json,
    command_from_json,
    event_from_json,
)
from server.rules.sixcard import messages as six
from tests.rules.caribbean.live import Run as StudRun
from tests.rules.caribbean.live import run as stud_run
from tests.rules.sixcard.live import Run as SixRun
from tests.rules.sixcard.live import run as six_run
from tests.rules.test_hand import dealt_to_betting, four_seat_decisions, play


def refused(state: HandState, command: Command, code: str) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(Violation) as caught:
        decide(state, command)
    assert caught.value.code == code, caught.value.message
    assert state == before


# ---------------------------------------------------------------- High Card Flush


def test_hcf_a_leave_taken_back_before_the_turn_lets_the_seat_raise() -> None:
    state = four_seat_decisions()
    state, events = play(state, Leave(3), Stay(3))
    assert events == [PlayerLeaving(3), LeaveWithdrawn(3)]
    assert state.leaving == frozenset()
    state, events = step(state, Raise(2, 10))
    assert events == [PlayerRaised(2, 10), TurnStarted(3)], "seat 3 gets its turn, not a fold"
    state, events = step(state, Raise(3, 20))
    assert events[0] == PlayerRaised(3, 20)


def test_hcf_a_leave_that_folded_the_seat_cannot_be_taken_back() -> None:
    state = four_seat_decisions()
    state, _ = play(state, Leave(3), Raise(2, 10))
    assert state.raises[3] == 0
    refused(state, Stay(3), "seat/leave_acted")


def test_hcf_a_leave_in_turn_folds_at_once_and_stands() -> None:
    state = four_seat_decisions()
    state, events = step(state, Leave(2))
    assert events[1] == PlayerFolded(2, "left")
    refused(state, Stay(2), "seat/leave_acted")


def test_hcf_a_leave_that_passed_the_betting_stands() -> None:
    state = dealt_to_betting()
    state, _ = play(state, PlaceBets(2, 10), Leave(4))
    refused(state, Stay(4), "seat/leave_acted")


def test_hcf_a_leave_after_the_bets_is_taken_back_before_the_deal() -> None:
    state = dealt_to_betting()
    state, _ = play(state, PlaceBets(2, 10), Leave(2), Stay(2), PlaceBets(3, 10), PlaceBets(4, 10))
    assert state.turn == 2, "the seat that stayed decides first, as if it had never asked"


def test_hcf_stay_without_a_leave_is_refused() -> None:
    refused(four_seat_decisions(), Stay(3), "seat/not_leaving")


def test_hcf_stay_is_recorded_and_replayed() -> None:
    assert command_from_json(command_as_json(Stay(3))) == Stay(3)
    assert event_from_json(LeaveWithdrawn(3).as_json()) == LeaveWithdrawn(3)
    assert LeaveWithdrawn(3).as_json() == {"type": "leave_withdrawn", "seat": 3}


SEATS = (2, 3, 4)
# A command the property draws: leave/stay of a seat, or the seat in turn raising (True) or folding (False).
Move = tuple[str, int] | tuple[str, bool]
MOVES = st.one_of(st.tuples(st.sampled_from(["leave", "stay"]), st.sampled_from(SEATS)),
                  st.tuples(st.just("act"), st.booleans()))


def command_for(state: HandState, move: Move) -> Command | None:
    kind, arg = move
    if kind == "leave":
        return Leave(int(arg))
    if kind == "stay":
        return Stay(int(arg))
    turn = state.turn
    if turn is None:
        return None
    return Raise(turn, state.bets[turn].ante) if arg else Fold(turn)


@settings(max_examples=150, deadline=None)
@given(st.lists(MOVES, max_size=14))
def test_hcf_leave_and_stay_in_any_order_keep_the_hand_consistent(moves: list[Move]) -> None:
    start = four_seat_decisions()
    state, log = start, []
    for move in moves:
        command = command_for(state, move)
        if command is None:
            continue
        try:
            state, events = step(state, command)
        except Violation:
            continue
        log.extend(events)
        # A leave that acted is never taken back, and the seat in turn is never a leaving one.
        assert state.left_out <= state.leaving
        assert state.turn is None or state.turn not in state.leaving
        folded_left = {e.seat for e in log if isinstance(e, PlayerFolded) and e.reason == "left"}
        assert folded_left == state.left_out
    replayed: list[Event] = [event_from_json(e.as_json()) for e in log]
    assert apply_events(start, replayed) == state, "the recorded events rebuild the same hand"


# ---------------------------------------------------------------- Caribbean Stud


def stud_decisions() -> StudRun:
    r = stud_run([(1, 1000), (2, 1000), (3, 1000)])  # seat 3 keeps the hand going after seat 2
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.bet(3, (3, 10))
    r.do(stud.ConfirmBets(1))
    assert r.state.phase == "decisions"
    return r


def test_caribbean_a_leave_taken_back_before_the_turn_lets_the_spot_play() -> None:
    r = stud_decisions()
    assert r.do(stud.Leave(2), stud.Stay(2)) == [stud.LeaveWithdrawn(2)]
    events = r.do(stud.PlaySpot(1))
    assert events[:2] == [stud.SpotPlayed(1, 1, 20), stud.TurnStarted(2, 2)]
    assert r.do(stud.PlaySpot(2))[0] == stud.SpotPlayed(2, 2, 20)


def test_caribbean_a_leave_that_folded_a_spot_cannot_be_taken_back() -> None:
    r = stud_decisions()
    r.do(stud.Leave(2), stud.PlaySpot(1))
    with pytest.raises(Violation) as caught:
        r.do(stud.Stay(2))
    assert caught.value.code == "seat/leave_acted"


def test_caribbean_a_leave_that_sent_the_bets_back_stands() -> None:
    r = stud_run([(1, 1000), (2, 1000), (3, 1000)])
    r.bet(2, (2, 10), confirm=False)
    r.do(stud.Leave(2))
    assert stud.BetsCleared(2, "left") in r.events
    with pytest.raises(Violation) as caught:
        r.do(stud.Stay(2))
    assert caught.value.code == "seat/leave_acted"


def test_caribbean_a_leave_before_any_bet_is_taken_back_and_the_seat_may_bet() -> None:
    r = stud_run([(1, 1000), (2, 1000)])
    r.do(stud.Leave(2), stud.Stay(2))
    r.bet(2, (2, 10))
    assert 2 in r.state.confirmed


# ---------------------------------------------------------------- 6 Card Poker


def six_decisions() -> SixRun:
    r = six_run([(1, 1000), (2, 1000), (3, 1000)])  # seat 3 keeps the hand going after seat 2
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.bet(3, (3, 10))
    r.do(six.ConfirmBets(1))
    assert r.state.phase == "decisions"
    return r


def test_sixcard_a_leave_taken_back_before_the_turn_lets_the_box_raise() -> None:
    r = six_decisions()
    assert r.do(six.Leave(2), six.Stay(2)) == [six.LeaveWithdrawn(2)]
    events = r.do(six.RaiseBox(1))
    assert not [e for e in events if isinstance(e, six.BoxFolded)], "box 2 is not folded for the leave"
    assert r.state.turn == 2
    assert isinstance(r.do(six.RaiseBox(2))[0], six.BoxRaised)


def test_sixcard_a_leave_that_folded_a_box_cannot_be_taken_back() -> None:
    r = six_decisions()
    r.do(six.Leave(2), six.RaiseBox(1))
    with pytest.raises(Violation) as caught:
        r.do(six.Stay(2))
    assert caught.value.code == "seat/leave_acted"
