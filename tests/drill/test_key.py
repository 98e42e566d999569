"""The answer keys, clause by clause (DRILLS sections 3 and 4, docs/rules/hcf.md section 3, docs/games/caribbean.md)."""

from __future__ import annotations

from typing import Any

from server.drill.play import dry_run, key_of
from server.drill.scenario import load, parse
from tests.drill.helpers import one_hand


def steps(data: dict[str, Any] | str) -> list[tuple[int, str, dict[str, Any]]]:
    scenario = load(data) if isinstance(data, str) else parse(data)
    return [(a.hand, a.step.step, a.step.answer) for a in key_of(dry_run(scenario))]


def of_kind(data: dict[str, Any] | str, kind: str) -> list[dict[str, Any]]:
    return [answer for _, step, answer in steps(data) if step == kind]


def test_rules_3_1_the_offer_goes_clockwise_to_eligible_seats_and_a_decline_passes_it_on() -> None:
    assert of_kind("decline-passes-on", "offer_bank") == [{"seat": 1}, {"seat": 2}, {"seat": 3}, {"seat": 4},
                                                          {"seat": 1}]
    # Seat 1's switch is off and seat 2 is below min_bank: neither is offered; then nobody is left.
    assert [a for h, s, a in steps("nobody-banks") if s == "offer_bank" and h == 1] == \
        [{"seat": 3}, {"seat": 4}, {"seat": None}]


def test_rules_3_3_the_fee_payers_follow_the_fee_mode() -> None:
    assert of_kind("fees-all", "fees") == [{"fees": {"1": 2, "3": 2, "7": 2}}]  # seat 5 has no Ante
    assert of_kind("fees-designated", "fees") == [{"fees": {"7": 2}}]
    assert of_kind("fees-none", "fees") == []
    assert of_kind("bank-runs-out", "fees") == [{"fees": {"2": 1, "3": 1, "4": 1, "5": 1}}]


def test_rules_3_4_the_first_card_goes_left_of_the_button_to_a_seat_with_an_ante() -> None:
    assert of_kind("fees-all", "first_card") == [{"seat": 1}]  # the DP at 7; seat 1 is next
    assert of_kind(one_hand(bets={"3": {"ante": 10}}, decide={"3": 10}), "first_card") == [{"seat": 3}]


def test_rules_3_5_a_player_who_walked_away_is_folded() -> None:
    assert steps("walk-away")[3] == (1, "walk_away", {"ruling": "fold"})
    assert [a["seat"] for a in of_kind("walk-away", "settle_seat")] == [4, 2]


def test_rules_3_6_qualify_is_asked_only_when_a_seat_raised() -> None:
    assert of_kind(one_hand(decide={"2": "fold", "3": "fold"}), "qualify") == []
    assert of_kind(one_hand(), "qualify") == [{"qualifies": True}]
    assert of_kind("dp-not-qualifying-bonus", "qualify") == [{"qualifies": False}]


def test_rules_3_7_settlement_order_and_the_dps_funds_running_out() -> None:
    assert of_kind("bank-runs-out", "settle_seat") == [
        {"seat": 4, "ante": 50, "raise": 50, "straight_flush_bonus": 0, "flush_bonus": 0},
        {"seat": 3, "dead": True}, {"seat": 2, "dead": True}]
    assert of_kind("bank-runs-out", "bank_after") == [{"stack": 60}]  # 150, seat 5's folded 10, seat 4 paid 100


def test_rules_3_7_a_dp_who_does_not_qualify_still_has_the_bonuses_judged_against_their_hand() -> None:
    results = {a["seat"]: a for a in of_kind("dp-not-qualifying-bonus", "settle_seat")}
    assert results[2] == {"seat": 2, "ante": 10, "raise": 0, "straight_flush_bonus": 0, "flush_bonus": 500}
    assert results[3]["straight_flush_bonus"] == 300
    assert (results[4]["straight_flush_bonus"], results[4]["flush_bonus"]) == (-5, -5)


def test_rules_5_the_rulings_of_each_irregularity() -> None:
    assert of_kind("miscount-seat", "irregularity") == [{"ruling": "dead_seat", "seat": 3}]
    assert 3 not in [a["seat"] for a in of_kind("miscount-seat", "settle_seat")]  # killed: no settlement step
    assert of_kind("miscount-dp", "irregularity") == [{"ruling": "dead_hand"}]
    assert of_kind("shuffler-fault", "irregularity") == [{"ruling": "dead_hand"}]
    assert of_kind("clean-deal", "irregularity") == [{"ruling": "play_on"}]
    # A dead hand is not settled, and the button stays: the same DP is offered the next hand first.
    assert {h for h, s, _ in steps("shuffler-fault") if s in ("settle_seat", "bank_after")} == {2}
    assert of_kind("shuffler-fault", "offer_bank") == [{"seat": 1}, {"seat": 1}]


def test_the_standard_profile_has_no_offer_and_no_dp_stack() -> None:
    kinds = {s for _, s, _ in steps("house-banked")}
    assert kinds == {"first_card", "qualify", "settle_seat"}


def test_only_the_scenarios_steps_are_asked() -> None:
    assert {s for _, s, _ in steps(one_hand() | {"steps": ["fees", "bank_after"]})} == {"fees", "bank_after"}


def test_caribbean_1_and_3_5_the_qualifier_then_each_spot_from_the_highest_down() -> None:
    hand_1 = [(s, a) for h, s, a in steps("caribbean-qualifier-jackpot") if h == 1]
    assert hand_1 == [("qualify", {"qualifies": True}),
                      ("settle_spot", {"spot": 3, "ante": 10, "bet": 40, "jackpot": -1}),
                      # Folded, but its jackpot wager is settled: the flush award less the wager.
                      ("settle_spot", {"spot": 2, "ante": -10, "bet": 0, "jackpot": 49}),
                      ("settle_spot", {"spot": 1, "ante": -10, "bet": -20, "jackpot": 0})]
    killed = [(s, a) for h, s, a in steps("caribbean-qualifier-jackpot") if h == 3]
    assert killed[0] == ("irregularity", {"ruling": "dead_seat", "seat": 2})
    assert [a["spot"] for s, a in killed if s == "settle_spot"] == [3, 1]


def test_sixcard_4_5_5_and_6_the_qualifier_the_dealer_exchange_and_each_played_box_in_box_order() -> None:
    key = steps("sixcard-qualifier-exchange")
    assert [(s, a) for h, s, a in key if h == 1] == [
        ("qualify", {"qualifies": True}),
        ("settle_box", {"box": 1, "ante": 10, "bet": 60, "bonus": 0}),  # the draw fee is not part of it
        ("settle_box", {"box": 3, "ante": 0, "bet": 0, "bonus": 125})]  # bonus-only; box 2 folded
    assert [(s, a) for h, s, a in key if h == 2][:3] == [
        ("qualify", {"qualifies": False}), ("dealer_exchange", {"card": "Kh"}), ("qualify_after", {"qualifies": True})]
