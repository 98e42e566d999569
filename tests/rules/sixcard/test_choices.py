"""6 Card Poker's choices (protocol v2 section 3, docs/choices.md): exactly the moves ``decide`` accepts."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.choices import admits, cost
from server.rules.game import Player
from server.rules.sixcard.game import SIXCARD
from server.rules.sixcard.hand import TERMINAL, HandState, decide, evolve, new_hand, opening_events
from server.rules.sixcard.messages import ConfirmBets, PlaceBoxBets
from server.rules.sixcard.settings import SixcardSettings
from tests.rules.choosing import Args, check_choices, play_checking
from tests.rules.sixcard.live import SEED, arranged, next_command


def _bet(state: HandState, _seat: int) -> list[Args]:
    s = state.settings
    mine = [{"box": box, "ante": s.min_ante, "bonus": 0} for box in range(1, s.boxes + 1)]
    return [{"bets": [bet]} for bet in mine] + [{"bets": []}, {"bets": [{"box": 1, "ante": 0, "bonus": s.min_bonus}]}]


def _box(state: HandState, _seat: int) -> list[Args]:
    return [{}] + [{"box": box} for box in range(1, state.settings.boxes + 1)]


def _exchange(state: HandState, _seat: int) -> list[Args]:
    return [{"discard": [1]}, {"discard": [1, 2]}] + [{"box": box, "discard": [5]}
                                                      for box in range(1, state.settings.boxes + 1)]


def _required_box(state: HandState, _seat: int) -> list[Args]:
    return [{"box": box} for box in range(1, state.settings.boxes + 1)]


def _none(_state: HandState, _seat: int) -> list[Args]:
    return [{}]


TYPICAL = {"bet": _bet, "deal": _none, "rebet": _none, "clear": _none, "pass": _none, "raise": _box,
           "fold": _box, "buy": _box, "exchange": _exchange, "request_exchange": _required_box,
           "cancel_exchange": _required_box, "continue": _none}


def check_every_seat(state: HandState, data: st.DataObject) -> None:
    seated = [p.seat for p in state.players]
    turn = state.turn
    for seat in [*seated, 0, max(seated) + 1]:
        offered = check_choices(SIXCARD, state, seat, data, TYPICAL, samples=2)
        if state.phase in TERMINAL or seat not in seated:
            assert offered == []
        elif state.phase == "decisions":
            assert bool(offered) == (turn is not None and state.box(turn).seat == seat)
        elif state.phase == "exchange":
            assert bool(offered) == (seat in state.exchange_owners and seat not in state.continued)


@st.composite
def hands(draw: st.DrawFn) -> HandState:
    """A new hand: any box count, limits, ratio and hold limit, small stacks now and then, last bets (some stale)."""
    boxes = draw(st.integers(1, 4))
    table = SixcardSettings.from_mapping({
        "boxes": boxes, "max_hands_while_waiting": draw(st.integers(1, boxes)),
        "min_ante": draw(st.sampled_from([1, 5, 5, 10])), "max_ante": draw(st.sampled_from(["", "", 50])),
        "min_bonus": draw(st.sampled_from([1, 1, 5])), "max_bonus": draw(st.sampled_from(["", 25])),
        "ante_ratio": draw(st.sampled_from([1, 2, 5])),
    })
    seats = draw(st.lists(st.integers(1, 7), min_size=1, max_size=3, unique=True))
    stacks = st.sampled_from([0, 4, 19, 20, 21, 39, 40, 41, 1000]) | st.integers(0, 3000)
    last = {seat: tuple((box, draw(st.sampled_from([0, 5, 10, 60])), draw(st.sampled_from([0, 1, 5])))
                        for box in draw(st.lists(st.integers(1, boxes), min_size=1, max_size=2, unique=True)))
            for seat in seats if draw(st.booleans())}
    return new_hand(table, [Player(seat, draw(stacks)) for seat in seats], draw(st.binary(min_size=32, max_size=32)),
                    last_bets=last)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(hands(), st.data())
def test_every_choice_is_accepted_at_its_bounds_and_nothing_else_is(start: HandState, data: st.DataObject) -> None:
    play_checking(start, data, opening_events=opening_events, decide=decide, evolve=evolve, terminal=TERMINAL,
                  next_command=next_command, check=check_every_seat)


# ---------------------------------------------------------------- examples (docs/choices.md)


def betting(*stacks: int, deck: Any = None, **values: Any) -> HandState:
    table = SixcardSettings.from_mapping({"boxes": 4, "max_hands_while_waiting": 4, **values})
    state = new_hand(table, [Player(seat, stack) for seat, stack in enumerate(stacks, 1)], SEED,
                     arranged_deck=deck)
    for event in opening_events(state):
        state = evolve(state, event)
    return state


def do(state: HandState, *commands: Any) -> HandState:
    for command in commands:
        for event in decide(state, command):
            state = evolve(state, event)
    return state


def test_a_player_bets_on_free_boxes_an_ante_a_bonus_or_both() -> None:
    assert SIXCARD.choices(betting(1000), 1) == [
        {"request": "move", "action": "bet",
         "bets": {"count": {"min": 1, "max": 4},
                  "each": {"box": [1, 2, 3, 4], "ante": [0, {"min": 5, "max": 250}], "bonus": {"min": 0, "max": 1000}},
                  "distinct": "box"},
         "seed": {"max_length": 128},
         "limits": {"cover": {"max": 1000, "ante": [4, 4, 3, 3], "bonus": 1}, "ante_ratio": 5,
                    "box_needs": ["ante", "bonus"]}},
        {"request": "move", "action": "pass"},
    ]


def test_open_boxes_take_four_antes_and_blind_ones_three() -> None:
    bet = SIXCARD.choices(betting(140), 1)[0]
    four = {"bets": [{"box": b, "ante": 10, "bonus": 0} for b in (1, 2, 3, 4)]}
    assert cost(bet, four) == 140
    assert admits(bet, four)
    assert not admits(bet, {"bets": [*four["bets"][:3], {"box": 4, "ante": 11, "bonus": 0}]})
    assert not admits(bet, {"bets": [{"box": 1, "ante": 5, "bonus": 0}, {"box": 2, "ante": 26, "bonus": 0}]})  # 5x
    assert not admits(bet, {"bets": [{"box": 1, "ante": 0, "bonus": 0}]})


def test_the_box_in_turn_raises_folds_or_draws_once() -> None:
    deck = arranged({1: "As Kd Ad Kh Ah"}, "7c Ac 5s 2c 3d", "Qs Js Ts")
    state = do(betting(1000, deck=deck), PlaceBoxBets(1, ((2, 10, 0),)), ConfirmBets(1))
    assert SIXCARD.choices(state, 1) == [
        {"request": "move", "action": "raise", "box": 2}, {"request": "move", "action": "fold", "box": 2},
        {"request": "move", "action": "buy", "box": 2},
        {"request": "move", "action": "exchange", "box": 2,
         "discard": {"count": [1, 2, 5], "each": {"min": 1, "max": 5}, "distinct": True}},
    ]
