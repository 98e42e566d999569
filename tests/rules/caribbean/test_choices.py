"""Caribbean Stud's choices (protocol v2 section 3, docs/choices.md): exactly the moves ``decide`` accepts."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.caribbean.game import CARIBBEAN
from server.rules.caribbean.hand import TERMINAL, HandState, decide, evolve, new_hand, opening_events
from server.rules.caribbean.messages import ConfirmBets, PlaceSpotBets, SpotBet
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.choices import admits
from server.rules.game import Player
from tests.rules.caribbean.live import SEED, next_command, table_settings
from tests.rules.choosing import Args, check_choices, play_checking


def _bet(state: HandState, _seat: int) -> list[Args]:
    s = state.settings
    mine = [{"spot": spot, "ante": s.min_ante, "jackpot": False} for spot in range(1, s.spots + 1)]
    return [{"bets": [bet]} for bet in mine] + [{"bets": []}, {"bets": mine[:2]}]


def _spot(state: HandState, _seat: int) -> list[Args]:
    return [{}] + [{"spot": spot} for spot in range(1, state.settings.spots + 1)]


def _none(_state: HandState, _seat: int) -> list[Args]:
    return [{}]


TYPICAL = {"bet": _bet, "rebet": _none, "deal": _none, "clear": _none, "pass": _none, "play": _spot,
           "fold": _spot}


def check_every_seat(state: HandState, data: st.DataObject) -> None:
    seated = [p.seat for p in state.players]
    turn = state.turn
    for seat in [*seated, 0, max(seated) + 1]:
        offered = check_choices(CARIBBEAN, state, seat, data, TYPICAL, samples=2)
        if state.phase in TERMINAL or seat not in seated:
            assert offered == []
        elif state.phase == "decisions":
            assert bool(offered) == (turn is not None and turn.seat == seat)
        elif seat in state.leaving:
            assert offered == ([{"request": "move", "action": "clear"}] if seat in state.placed else [])


@st.composite
def hands(draw: st.DrawFn) -> HandState:
    """A new hand: any settings, a hold limit, small stacks now and then, last bets to repeat (some stale)."""
    table = draw(table_settings())
    table = dataclasses.replace(table, max_hands_while_waiting=draw(st.integers(1, table.max_hands)),
                                min_ante=draw(st.sampled_from([1, 5, 5, 10])))
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=4, unique=True))
    stacks = st.sampled_from([0, 14, 15, 16, 47, 1000]) | st.integers(0, 3000)
    last = {str(seat): [[spot, draw(st.sampled_from([5, 10, 500, 600])), draw(st.booleans())]
                        for spot in draw(st.lists(st.integers(1, table.spots), max_size=2, unique=True))]
            for seat in seats if draw(st.booleans())}
    return new_hand(table, [Player(seat, draw(stacks)) for seat in seats], draw(st.binary(min_size=32, max_size=32)),
                    carry={"last_bets": last})


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(hands(), st.data())
def test_every_choice_is_accepted_at_its_bounds_and_nothing_else_is(start: HandState, data: st.DataObject) -> None:
    play_checking(start, data, opening_events=opening_events, decide=decide, evolve=evolve, terminal=TERMINAL,
                  next_command=next_command, check=check_every_seat)


# ---------------------------------------------------------------- examples (docs/choices.md)


def betting(*stacks: int, **values: Any) -> HandState:
    table = CaribbeanSettings.from_mapping({"spots": 5, **values})
    state = new_hand(table, [Player(seat, stack) for seat, stack in enumerate(stacks, 1)], SEED)
    for event in opening_events(state):
        state = evolve(state, event)
    return state


def do(state: HandState, *commands: Any) -> HandState:
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def test_a_player_bets_on_free_spots_within_the_limits_or_passes() -> None:
    assert CARIBBEAN.choices(betting(1000), 1) == [
        {"request": "move", "action": "bet",
         "bets": {"count": {"min": 1, "max": 3}, "each": {"spot": [1, 2, 3, 4, 5], "ante": {"min": 5, "max": 333},
                                                          "jackpot": [False, True]}, "distinct": "spot"},
         "seed": {"max_length": 128}, "limits": {"cover": {"max": 1000, "ante": 3, "jackpot": 1}}},
        {"request": "move", "action": "pass"},
    ]


def test_while_another_player_waits_one_spot_and_not_the_spots_of_others() -> None:
    state = do(betting(1000, 1000), PlaceSpotBets(2, (SpotBet(3, 10),)))
    bet = CARIBBEAN.choices(state, 1)[0]
    assert bet["bets"]["count"] == {"min": 1, "max": 3}  # nobody else waits for a spot
    assert bet["bets"]["each"]["spot"] == [1, 2, 4, 5]
    assert [c["action"] for c in CARIBBEAN.choices(state, 2)] == ["bet", "deal", "clear", "pass"]
    assert CARIBBEAN.choices(state, 2)[0]["bets"]["count"] == {"min": 0, "max": 1}  # seat 1 waits


def test_the_stack_covers_three_antes_a_spot_and_the_jackpot_wagers() -> None:
    bet = CARIBBEAN.choices(betting(31), 1)[0]
    assert bet["bets"]["count"] == {"min": 1, "max": 2}
    assert admits(bet, {"bets": [{"spot": 1, "ante": 5, "jackpot": True}, {"spot": 2, "ante": 5, "jackpot": False}]})
    assert not admits(bet, {"bets": [{"spot": 1, "ante": 5, "jackpot": True},
                                     {"spot": 2, "ante": 5, "jackpot": True}]})


def test_confirmed_bets_may_only_be_cleared() -> None:
    state = do(betting(1000, 1000), PlaceSpotBets(1, (SpotBet(1, 10),)), ConfirmBets(1))
    assert CARIBBEAN.choices(state, 1) == [{"request": "move", "action": "clear"}]


def test_the_owner_of_the_spot_in_turn_plays_or_folds_it() -> None:
    state = do(betting(1000), PlaceSpotBets(1, (SpotBet(4, 10),)), ConfirmBets(1))
    assert CARIBBEAN.choices(state, 1) == [{"request": "move", "action": "play", "spot": 4},
                                           {"request": "move", "action": "fold", "spot": 4}]


def test_re_bet_is_offered_when_the_last_bets_may_stand() -> None:
    table = CaribbeanSettings.from_mapping({"spots": 5})
    carry = {"last_bets": {"1": [[2, 10, True]], "2": [[3, 400, False]]}}
    state = new_hand(table, [Player(1, 1000), Player(2, 1000)], SEED, carry=carry)
    assert "rebet" in [c["action"] for c in CARIBBEAN.choices(state, 1)]
    assert "rebet" not in [c["action"] for c in CARIBBEAN.choices(state, 2)]  # 3 x 400 is more than the stack
