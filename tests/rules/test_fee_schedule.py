"""A posted fee schedule in the hand (docs/rules/hcf.md section 9.5): the stack a bet needs covers its own tier's
fee, and the bet choice offers exactly the Antes a stack can cover."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.errors import Violation
from server.rules.game import Player
from server.rules.hcf import hand as h
from server.rules.hcf.choices import bet_choice
from server.rules.hcf.settings import HcfSettings

SCHEDULE = [{"ante_to": 20, "player": 1, "dp": 2}, {"ante_to": 100, "player": 5, "dp": 8},
            {"ante_to": 500, "player": 40, "dp": 60}]
SETTINGS = HcfSettings.from_mapping({"fee_mode": "all", "fee_schedule": SCHEDULE})


def _betting(stack: int) -> h.HandState:
    state = h.new_hand(SETTINGS, [Player(1, 10_000), Player(2, stack)], bytes(32), offer_from=1)
    state, _ = h.step(state, h.AcceptBank(1))
    return state


def _takes(state: h.HandState, ante: int) -> bool:
    try:
        h.decide(state, h.PlaceBets(2, ante))
    except Violation:
        return False
    return True


@given(st.integers(1, 1_200))
def test_section9_5_the_bet_choice_offers_exactly_the_antes_the_stack_covers_with_their_tier(stack: int) -> None:
    state = _betting(stack)
    choice = bet_choice(state, 2)
    if choice is None:  # fees never fall as the Ante grows: if the smallest is not covered, none is
        assert not _takes(state, SETTINGS.min_ante)
        return
    top = choice["ante"]["max"]
    assert _takes(state, top), "the largest Ante offered is covered with its own fee"
    assert top == SETTINGS.max_ante or not _takes(state, top + 1), "and it is the largest covered"

def test_section9_5_a_player_pays_their_own_antes_tier_and_the_dp_the_largest() -> None:
    state = h.new_hand(SETTINGS, [Player(1, 10_000), Player(2, 10_000), Player(3, 10_000)], bytes(32),
                       offer_from=1)
    for command in (h.AcceptBank(1), h.PlaceBets(2, 20), h.PlaceBets(3, 21)):
        state, events = h.step(state, command)
    fees = next(e for e in events if e.type == "fees_collected")
    assert dict(fees.fees) == {1: 8, 2: 1, 3: 5}


def test_section9_5_the_stack_must_cover_the_fee_of_its_own_tier() -> None:
    state = _betting(241)  # 2 x 101 + 40 = 242: the Ante of 101 is in the 40-chip tier
    assert _takes(state, 100)
    with pytest.raises(Violation, match=r"the fee \(242\)"):
        h.decide(state, h.PlaceBets(2, 101))
