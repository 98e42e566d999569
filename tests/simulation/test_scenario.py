"""The simulated table: defaults, seats, button rotation, and what cannot be played."""

from __future__ import annotations

import pytest

from server.simulation.scenario import Scenario, ScenarioError


def test_california_defaults_a_full_table_with_the_profile_settings() -> None:
    s = Scenario.build("california")
    assert (s.players, s.player_positions, s.hands_dealt) == (7, 6, 7)
    assert (s.settings.fee_mode, s.settings.fee, s.unit, s.stack) == ("players", 1, 5, 1000)


def test_standard_defaults_six_players_and_the_house() -> None:
    s = Scenario.build("standard")
    assert (s.players, s.player_positions, s.hands_dealt) == (6, 6, 7)
    assert s.settings.fee_mode == "none"
    assert [s.seat_at(0, p) for p in range(6)] == [1, 2, 3, 4, 5, 6]


def test_the_button_moves_one_seat_per_hand_from_seat_1() -> None:
    s = Scenario.build("california", players=3)
    assert [s.button(i) for i in range(4)] == [1, 2, 3, 1]
    # Deal order starts left of the button; the DP is never a player position.
    assert [s.seat_at(2, p) for p in range(2)] == [1, 2]


@pytest.mark.parametrize(
    ("profile", "players", "overrides", "message"),
    [
        ("casino", None, {}, "profile must be one of"),
        ("california", 8, {}, "2 to 7"),
        ("standard", 0, {}, "1 to 6"),
        ("california", 7, {"min_ante": 200}, "a bonus bet of one unit (200) is outside 1..100"),
        ("california", 7, {"default_buy_in": 100, "min_buy_in": 100}, "below min_bank 500"),
        ("standard", 2, {"default_buy_in": 29, "min_buy_in": 29}, "does not cover"),
        ("california", 7, {"fee_mode": "sometimes"}, "fee_mode"),
    ],
)
def test_unplayable_scenarios_are_refused(
    profile: str, players: int | None, overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(ScenarioError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Scenario.build(profile, players, overrides=overrides)


def test_unknown_strategy_is_refused() -> None:
    with pytest.raises(ScenarioError, match="unknown strategy"):
        Scenario.build("california", strategy="perfect")
