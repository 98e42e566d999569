"""``analyze`` and the banking figures under the house rules for the bank (issue 26 item 8): the fee schedule's
tiers, and the hands a player can bank per hour under each rotation, checked against the rules played out."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.analysis import hcf_bank
from server.analysis.hcf_rotation import PACE, most_hands_per_hour, rotation_report
from server.rules.game import SEAT_NAMES, Player
from server.rules.games import game_named
from server.rules.hcf import messages as m
from server.rules.hcf.settings import HcfSettings

HCF = game_named("hcf")
SCHEDULE = [{"ante_to": 20, "player": 1, "dp": 2}, {"ante_to": 500, "player": 3, "dp": 6}]


@given(st.integers(1, 10), st.one_of(st.none(), st.integers(5, 240)), st.integers(1, 6), st.floats(1, 120))
def test_the_most_a_player_banks_is_within_the_pace_and_shrinks_as_the_rules_tighten(
        keep: int, minutes: int | None, dealers: int, pace: float) -> None:
    s = HcfSettings.from_mapping({"bank_keep": keep, "rotation_window_minutes": minutes,
                                  "rotation_window_dealers": dealers})
    most = most_hands_per_hour(s, pace)
    assert 0 <= most <= pace
    if minutes is not None and dealers > 1:
        fewer = HcfSettings.from_mapping({"bank_keep": keep, "rotation_window_minutes": minutes,
                                          "rotation_window_dealers": dealers - 1})
        assert most_hands_per_hour(fewer, pace) >= most


def _greedy_share(keep: int, hands: int) -> float:
    """Seat 1 takes the bank whenever it is offered; the others take it only when seat 1 may not."""
    s = HcfSettings.from_mapping({"bank_keep": keep})
    players = [Player(seat, 10_000) for seat in (1, 2, 3)]
    carry: dict[str, object] = {SEAT_NAMES: {"1": "ann", "2": "ben", "3": "cat"}}
    offer_from, banked = 1, 0
    for _ in range(hands):
        state = HCF.new_hand(s, players, bytes(32), offer_from=offer_from, arranged_deck=None, carry=carry)
        takes = state.offered if 1 not in state.offers else 1
        while state.phase == "offer":
            move = m.AcceptBank(state.offered) if state.offered == takes else m.DeclineBank(state.offered)
            for event in HCF.decide(state, move):
                state = HCF.evolve(state, event)
        for seat in state.bettors:
            for event in HCF.decide(state, m.PlaceBets(seat, 5)):
                state = HCF.evolve(state, event)
        while state.phase == "decisions":
            for event in HCF.decide(state, m.Fold(state.turn or 0)):
                state = HCF.evolve(state, event)
        banked += state.dealer == 1
        after = HCF.after_hand(state, carry)
        carry, offer_from = {**after.carry, SEAT_NAMES: carry[SEAT_NAMES]}, after.offer_from
    return banked / hands


def test_the_most_a_player_banks_is_what_the_rules_let_them_bank() -> None:
    for keep in (2, 3, 4):
        share = _greedy_share(keep, 10 * (keep + 1))
        rules = HcfSettings.from_mapping({"bank_keep": keep})
        assert share == most_hands_per_hour(rules, PACE) / PACE == keep / (keep + 1)


def test_the_rotation_report_covers_this_table_and_the_public_rotations() -> None:
    s = HcfSettings.from_mapping({"seats": 4, "bank_keep": 3})
    rows = [{"players": n, "simulated_expected_with_cap": 2.0 * n} for n in range(1, 7)]
    report = rotation_report(s, rows)
    names = [r["rotation"] for r in report["rotations"]]
    assert names[0] == "this table's rules"
    assert len(names) == 4
    own = report["rotations"][0]["by_seated"]
    assert [r["seated"] for r in own] == [2, 3, 4]
    assert own[1]["even_hands_per_hour"] == PACE / 3
    assert own[1]["even_worth_per_hour"] == PACE / 3 * 4.0
    assert own[1]["most_hands_per_hour"] == PACE * 3 / 4


def test_a_window_that_too_few_players_can_meet_ends_the_game() -> None:
    s = HcfSettings.from_mapping({"seats": 4, "rotation_window_minutes": 40, "rotation_window_dealers": 2})
    rows = [{"players": n, "simulated_expected_with_cap": 1.0} for n in range(1, 7)]
    own = rotation_report(s, rows)["rotations"][0]["by_seated"]
    assert own[0] == {"seated": 2, "even_hands_per_hour": None, "even_worth_per_hour": None,
                      "most_hands_per_hour": None, "most_worth_per_hour": None}
    assert own[1]["most_hands_per_hour"] == 27.0


def test_the_banking_figures_charge_the_dp_the_schedules_tier() -> None:
    s = HcfSettings.from_mapping({"fee_mode": "all", "fee_schedule": SCHEDULE, "min_ante": 25})
    report = hcf_bank.banking(s, -0.5, hands=400)
    assert (report["dp_fee"], report["player_fee"], report["fee_schedule"]) == (6, 3, True)
    assert report["by_players"][0]["expected"] == 0.5 - 6
    assert report["rotation"]["rotations"][0]["rotation"] == "this table's rules"
