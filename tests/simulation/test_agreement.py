"""The vectorized engine settles every hand exactly as the hand state machine does.

Each scenario deals the same seeded decks to both engines and compares, hand by
hand and seat by seat, every bet's result, the fee, dead and folded, and the
dealer's qualifying, fee and net. The scenarios cover both profiles, every fee
mode, 1 to 7 seats, a low ``max_bonus_win`` and stacks small enough for the DP's
funds cap to kill seats (and, heads up, to leave a hand without action).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from server.rules.hcf.settlement import Settlement, pays_fee
from server.simulation.decks import DeckStream
from server.simulation.reference import play_hands
from server.simulation.scenario import Scenario
from server.simulation.vectorized import Outcome, play

HANDS = 750

SCENARIOS: dict[str, tuple[str, int, dict[str, Any]]] = {
    "california defaults, 7 seats": ("california", 7, {}),
    "california fee all, low bonus cap, small stacks": (
        "california", 5, {"fee_mode": "all", "max_bonus_win": 40, "default_buy_in": 100, "min_buy_in": 100,
                          "min_bank": 100}),
    "california fee designated, tiny stacks, ante 10": (
        "california", 3, {"fee_mode": "designated", "fee": 3, "min_ante": 10, "default_buy_in": 80,
                          "min_buy_in": 50, "min_bank": 50}),
    "california heads up, fee all, tiny stacks": (
        "california", 2, {"fee_mode": "all", "default_buy_in": 40, "min_buy_in": 40, "min_bank": 40}),
    "california fee none, a win often equal to the bank": (
        "california", 3, {"fee_mode": "none", "default_buy_in": 45, "min_buy_in": 40, "min_bank": 40}),
    "california fee none, cap above stack": (
        "california", 6, {"fee_mode": "none", "max_bonus_win": 300, "default_buy_in": 200, "min_buy_in": 100,
                          "min_bank": 200}),
    "standard defaults, 6 players": ("standard", 6, {}),
    "standard fee all, low bonus cap": ("standard", 3, {"fee_mode": "all", "max_bonus_win": 25}),
    "standard alone, fee players": ("standard", 1, {"fee_mode": "players", "fee": 2}),
}


def seed_of(profile: str, players: int, overrides: dict[str, Any]) -> str:
    return f"{len(profile)}{players}{len(overrides)}{overrides.get('default_buy_in', 0)}"


def seat_row(settlement: Settlement, seat: int) -> tuple[object, ...]:
    r = settlement.result(seat)
    return r.dead, r.folded, r.ante, r.raise_amount, r.straight_flush_bonus, r.flush_bonus, r.fee


def fast_row(outcome: Outcome, hand: int, position: int) -> tuple[object, ...]:
    columns = (outcome.dead, outcome.folded, outcome.ante, outcome.raise_result,
               outcome.straight_flush_bonus, outcome.flush_bonus, outcome.fee)
    return tuple(column[hand, position].item() for column in columns)


def dealer_row(settlement: Settlement) -> tuple[object, ...]:
    return settlement.dealer_qualifies, settlement.dealer_fee, settlement.dealer_net, settlement.house


def fast_dealer_row(outcome: Outcome, hand: int) -> tuple[object, ...]:
    columns = (outcome.dealer_qualifies, outcome.dealer_fee, outcome.dealer_net, outcome.house)
    return tuple(column[hand].item() for column in columns)


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def played(request: pytest.FixtureRequest) -> tuple[Scenario, list[Settlement], Outcome]:
    profile, players, overrides = SCENARIOS[request.param]
    scenario = Scenario.build(profile, players, overrides=overrides)
    decks = DeckStream(seed_of(profile, players, overrides)).take(HANDS)
    return scenario, play_hands(scenario, decks.tolist()), play(scenario, decks)


def test_every_seat_of_every_hand_agrees(played: tuple[Scenario, list[Settlement], Outcome]) -> None:
    scenario, reference, fast = played
    for hand, settlement in enumerate(reference):
        seats = [scenario.seat_at(hand, position) for position in range(scenario.player_positions)]
        assert sorted(settlement.order) == sorted(seats)
        for position, seat in enumerate(seats):
            assert fast_row(fast, hand, position) == seat_row(settlement, seat), (hand, seat)
        assert fast_dealer_row(fast, hand) == dealer_row(settlement), hand


def test_both_engines_conserve_chips(played: tuple[Scenario, list[Settlement], Outcome]) -> None:
    _, reference, fast = played
    for settlement in reference:
        assert sum(r.net for r in settlement.seats) + settlement.dealer_net + settlement.house == 0
    seat_nets = (fast.bets + fast.fee).sum(axis=1)
    assert not np.any(seat_nets + fast.dealer_net + fast.house)


def test_no_dp_pays_more_than_their_stack(played: tuple[Scenario, list[Settlement], Outcome]) -> None:
    scenario, _, fast = played
    if not scenario.house_banked:
        assert np.all(scenario.stack + fast.dealer_net >= 0)


def test_the_scenarios_reach_the_rare_paths() -> None:
    """Guard the coverage claims of this module's docstring."""
    seen: dict[str, bool] = dict.fromkeys(("dead seat", "DP fee back: no action", "capped bonus", "push",
                                           "DP fee kept", "dealer not qualified"), False)
    for profile, players, overrides in SCENARIOS.values():
        scenario = Scenario.build(profile, players, overrides=overrides)
        fast = play(scenario, DeckStream(seed_of(profile, players, overrides)).take(HANDS))
        cap = scenario.settings.max_bonus_win
        seen["dead seat"] |= bool(fast.dead.any())
        dp_pays = pays_fee(scenario.settings, dealer=True)
        no_action = fast.dead.all(axis=1)
        seen["DP fee back: no action"] |= dp_pays and bool((fast.dealer_fee[no_action] == 0).any())
        seen["capped bonus"] |= cap is not None and bool(
            ((fast.flush_bonus == cap) | (fast.straight_flush_bonus == cap)).any())
        seen["push"] |= bool(((fast.ante == 0) & ~fast.dead).any())
        seen["DP fee kept"] |= bool(fast.dealer_fee.any())
        seen["dealer not qualified"] |= bool((~fast.dealer_qualifies).any())
    assert all(seen.values()), seen
