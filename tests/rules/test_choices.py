"""High Card Flush's choices (protocol v2 section 3, docs/choices.md): exactly the moves ``decide`` accepts."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.choices import admits, cost, fits
from server.rules.game import Player
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.game import HCF
from server.rules.hcf.hand import TERMINAL, HandState, decide, evolve, new_hand, opening_events
from server.rules.hcf.messages import AcceptBank, Command, PlaceBets
from tests.rules.choosing import Args, check_choices, play_checking
from tests.rules.test_hand import CALIFORNIA, SEED, any_command, sensible_command, tables


def _bank(_state: HandState, _seat: int) -> list[Args]:
    return [{"accept": True}, {"accept": False}]


def _bet(state: HandState, _seat: int) -> list[Args]:
    s = state.settings
    return [{"ante": s.min_ante, "straight_flush_bonus": 0, "flush_bonus": 0},
            {"ante": s.max_ante, "straight_flush_bonus": s.max_bonus, "flush_bonus": s.max_bonus}]


def _raise(state: HandState, seat: int) -> list[Args]:
    bets = state.bets.get(seat)
    ante = bets.ante if bets is not None else state.settings.min_ante
    return [{"amount": ante}, {"amount": 2 * ante}]


def _none(_state: HandState, _seat: int) -> list[Args]:
    return [{}]


TYPICAL = {"bank": _bank, "bet": _bet, "pass": _none, "raise": _raise, "fold": _none}


def pending(state: HandState, seat: int) -> bool:
    """Whether ``seat`` has a decision to make now (docs/rules/hcf.md section 3)."""
    if state.phase == "offer":
        return state.offered == seat
    if state.phase == "betting":
        return seat in state.bettors and seat not in state.bets and seat not in state.passed
    return state.phase == "decisions" and state.turn == seat


def check_every_seat(state: HandState, data: st.DataObject) -> None:
    seated = [p.seat for p in state.players]
    for seat in [*seated, 0, state.settings.seats + 1]:
        offered = check_choices(HCF, state, seat, data, TYPICAL)
        assert bool(offered) == pending(state, seat), (seat, offered)


def next_command(data: st.DataObject, state: HandState) -> Command:
    """Mostly a command the rules would accept, one in four anything at all."""
    return sensible_command(data, state) if data.draw(st.integers(0, 3)) else any_command(data)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(tables(), st.data())
def test_every_choice_is_accepted_at_its_bounds_and_nothing_else_is(start: HandState, data: st.DataObject) -> None:
    play_checking(start, data, opening_events=opening_events, decide=decide, evolve=evolve, terminal=TERMINAL,
                  next_command=next_command, check=check_every_seat)


# ---------------------------------------------------------------- examples (docs/choices.md)


def betting(stack: int = 1000, **values: Any) -> HandState:
    table = CALIFORNIA if not values else CALIFORNIA.from_mapping(values, base=CALIFORNIA)
    state = new_hand(table, [Player(1, 1000), Player(2, stack)], SEED, offer_from=1)
    for event in decide(state, AcceptBank(1)):
        state = evolve(state, event)
    return state


def test_the_offered_seat_answers_the_bank_and_no_one_else_has_a_choice() -> None:
    state = new_hand(CALIFORNIA, [Player(1, 1000), Player(2, 1000)], SEED, offer_from=2)
    assert HCF.choices(state, 2) == [{"request": "move", "action": "bank", "accept": [True, False]}]
    assert HCF.choices(state, 1) == []


def test_a_bettor_bets_within_the_table_limits_and_the_stack_or_passes() -> None:
    assert HCF.choices(betting(), 2) == [
        {"request": "move", "action": "bet", "ante": {"min": 5, "max": 499},
         "straight_flush_bonus": {"min": 0, "max": 100}, "flush_bonus": {"min": 0, "max": 100},
         "seed": {"max_length": 128}, "limits": {"cover": {"max": 999, "ante": 2, "straight_flush_bonus": 1,
                                                          "flush_bonus": 1}}},
        {"request": "move", "action": "pass"},
    ]
    assert HCF.choices(betting(), 1) == []  # the DP banks


def test_the_ante_is_at_most_half_the_stack_after_the_fee() -> None:
    bet = HCF.choices(betting(stack=61), 2)[0]
    assert bet["ante"] == {"min": 5, "max": 30}
    assert bet["straight_flush_bonus"] == {"min": 0, "max": 50}
    assert admits(bet, {"ante": 20, "straight_flush_bonus": 10, "flush_bonus": 10})
    assert cost(bet, {"ante": 20, "straight_flush_bonus": 10, "flush_bonus": 10}) == 60
    assert not admits(bet, {"ante": 20, "straight_flush_bonus": 10, "flush_bonus": 11})


def test_a_bonus_with_a_minimum_above_one_is_zero_or_from_that_minimum() -> None:
    bet = HCF.choices(betting(min_bonus=5), 2)[0]
    assert bet["flush_bonus"] == [0, {"min": 5, "max": 100}]
    assert [fits(bet["flush_bonus"], n) for n in (0, 4, 5)] == [True, False, True]


def test_a_stack_short_of_the_smallest_ante_and_raise_may_only_pass() -> None:
    assert HCF.choices(betting(stack=10), 2) == [{"request": "move", "action": "pass"}]


def test_the_seat_in_turn_raises_up_to_its_flush_limit_or_folds() -> None:
    state = betting()
    for event in decide(state, PlaceBets(2, 10)):
        state = evolve(state, event)
    assert state.turn == 2
    top = 10 * evaluate(state.hands[2]).raise_limit
    assert HCF.choices(state, 2) == [{"request": "move", "action": "raise", "amount": {"min": 10, "max": top}},
                                     {"request": "move", "action": "fold"}]
    assert HCF.choices(state, 1) == []
