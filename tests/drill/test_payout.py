"""Payout steps (issue 27, item 1): each winning bet paid its exact amount, in the fewest chips in play."""

from __future__ import annotations

import json
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.drill.play import dry_run, key_of
from server.drill.scenario import ScenarioError, parse
from server.drill.views import moments
from server.drill_runner import run
from server.rules.drill.chips import chip_count, chips_setting, fewest_chips, make_up_given
from server.rules.drill.judge import judge
from server.rules.drill.payout import BETS, PLACE_KEY
from server.rules.drill.settings import drill_settings
from server.rules.errors import SettingsError
from tests.drill.helpers import one_hand

CHIPS = [1, 5, 25, 100, 500]
SHIPPED = "server/drill/scenarios/{}.json"
NOT_QUALIFYING = "9c 5h 2h Kc Qd Js 3s"  # a 2-card flush: the DP does not qualify
FIVE_CLUBS = "Ac Tc 8c 6c 4c 3d 2s"  # a 5-card flush: the Flush bonus pays 10 to 1


def _brute_fewest(amount: int, chips: tuple[int, ...]) -> int | None:
    """The fewest chips by trying every count of each chip (small amounts only)."""
    best = None
    for counts in product(*(range(amount // c + 1) for c in chips)):
        if sum(c * n for c, n in zip(chips, counts, strict=True)) == amount:
            best = sum(counts) if best is None else min(best, sum(counts))
    return best


@given(st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True), st.integers(0, 40))
@settings(deadline=None)
def test_the_fewest_chips_make_the_amount_and_no_make_up_has_fewer(chips: list[int], amount: int) -> None:
    denominations = tuple(sorted(chips))
    make_up = fewest_chips(amount, denominations)
    brute = _brute_fewest(amount, denominations)
    if brute is None:
        assert make_up is None
        return
    assert make_up is not None
    assert sum(c * n for c, n in make_up.items()) == amount
    assert set(make_up) <= set(denominations)
    assert chip_count(make_up) == brute


@given(st.lists(st.integers(1, 600), min_size=1, max_size=5, unique=True), st.integers(0, 10**7))
@settings(max_examples=60, deadline=None)
def test_a_large_payout_takes_the_largest_chips_without_losing_the_fewest(chips: list[int], amount: int) -> None:
    denominations = tuple(sorted(chips))
    make_up = fewest_chips(amount, denominations)
    if make_up is None:
        return
    assert sum(c * n for c, n in make_up.items()) == amount
    small = fewest_chips(amount % denominations[-1] + 3 * denominations[-1], denominations)
    if small is not None and amount >= 3 * denominations[-1]:  # more largest chips never cost more chips
        assert chip_count(make_up) <= chip_count(small) + (amount // denominations[-1] - 3)


def test_the_usual_chips_pay_a_flush_bonus_of_150_in_a_hundred_and_two_quarters() -> None:
    assert fewest_chips(150, tuple(CHIPS)) == {100: 1, 25: 2}
    assert fewest_chips(6, (1, 3, 4)) == {3: 2}  # the largest chip first would take three


@pytest.mark.parametrize("value", [[0, 5], [1, 1], "1 5 25", [1, 2.5], [True], list(range(1, 12)), [200_000]])
def test_a_chips_setting_out_of_its_limits_is_refused_with_the_limits(value: Any) -> None:
    with pytest.raises(SettingsError) as refused:
        chips_setting(value)
    assert "chips: a list of 1 to 10 different whole numbers of chips from 1 to 100,000" in refused.value.message


def test_a_scenario_with_bad_chips_is_refused_naming_the_table() -> None:
    data = one_hand()
    data["table"]["chips"] = [5, 5]
    with pytest.raises(ScenarioError, match=r"scenario small: table: chips: a list of 1 to 10"):
        parse(data)


def _pay_scenario(**table: Any) -> dict[str, Any]:
    data = one_hand(deck={"dp": NOT_QUALIFYING, "2": FIVE_CLUBS}, bets={"2": {"ante": 50, "flush_bonus": 15}},
                    decide={"2": "max"})
    data["seats"] = data["seats"][:2]
    data["table"] |= table
    return data


def test_a_flush_bonus_of_15_at_10_to_1_pays_150_in_the_fewest_chips() -> None:
    key = [a.step for a in key_of(dry_run(parse(_pay_scenario(chips=CHIPS))))]
    payouts = [s.answer for s in key if s.step == "payout"]
    assert payouts == [{"seat": 2, "bet": "ante", "amount": 50, "chips": {"25": 2}},
                       {"seat": 2, "bet": "flush_bonus", "amount": 150, "chips": {"100": 1, "25": 2}}]
    assert [s.step for s in key][-4:] == ["settle_seat", "payout", "payout", "bank_after"]  # after its seat
    assert "15 x 10 = 150" in key[-2].why


def test_without_chips_in_play_the_payouts_are_asked_only_when_named_and_then_as_amounts() -> None:
    assert "payout" not in parse(_pay_scenario()).steps  # the default steps stay as they were
    data = _pay_scenario()
    data["steps"] = ["payout"]
    key = [a.step.answer for a in key_of(dry_run(parse(data)))]
    assert key == [{"seat": 2, "bet": "ante", "amount": 50}, {"seat": 2, "bet": "flush_bonus", "amount": 150}]


def _shipped(name: str, **table: Any) -> dict[str, Any]:
    with open(SHIPPED.format(name), encoding="utf-8") as file:
        data: dict[str, Any] = json.load(file)
    data["table"] = data.get("table", {}) | table
    return data


@pytest.mark.parametrize("name", ["caribbean-qualifier-jackpot", "sixcard-qualifier-exchange", "house-banked",
                                  "dp-not-qualifying-bonus", "bank-runs-out"])
def test_every_payout_is_the_settlements_own_amount(name: str) -> None:
    scenario = parse(_shipped(name, chips=[1, 5, 25, 100]))
    for hand in dry_run(scenario):
        settled = [e for e in hand.events if getattr(e, "type", "") == "hand_settled"]
        payouts = [s.answer for s in hand.key if s.step == "payout"]
        expected = []
        for event in settled:
            results = event.settlement.seats if scenario.game == "hcf" else (
                event.settlement.spots if scenario.game == "caribbean" else
                sorted(event.settlement.boxes, key=lambda r: r.box))
            for r in results:
                expected += [(getattr(r, PLACE_KEY[scenario.game]), bet, getattr(r, field))
                             for bet, field in BETS[scenario.game] if not r.dead and getattr(r, field) > 0]
        assert [(p[PLACE_KEY[scenario.game]], p["bet"], p["amount"]) for p in payouts] == expected
        for p in payouts:
            make_up = make_up_given(p["chips"])
            assert make_up is not None
            assert sum(c * n for c, n in make_up.items()) == p["amount"]


def test_a_capped_win_pays_the_cap() -> None:
    """Caribbean Stud's ceiling on the Ante and Bet together: spot 3's two pair would win 10 + 40."""
    scenario = parse(_shipped("caribbean-qualifier-jackpot", chips=CHIPS, max_payout=25))
    first = dry_run(scenario)[0].key
    spot3 = [s for s in first if s.step == "payout" and s.answer["spot"] == 3 and s.answer["bet"] != "jackpot"]
    assert sum(s.answer["amount"] for s in spot3) == 25
    assert any("the table's ceiling of 25 chips on what the Ante and Bet win together" in s.why for s in spot3)


def test_the_offline_views_pair_every_payout_with_the_dealers_view() -> None:
    scenario = parse(_shipped("sixcard-qualifier-exchange", chips=CHIPS))
    views = moments(scenario, dry_run(scenario))
    assert any(m.asked.step.step == "payout" for m in views)


@pytest.mark.parametrize("name", ["walk-away", "caribbean-qualifier-jackpot", "sixcard-qualifier-exchange"])
def test_drill_run_judges_a_mutated_amount_amount_and_a_non_minimal_make_up_chips(name: str) -> None:
    scenario = parse(_shipped(name, chips=[1, 5, 25, 100]))
    key = [a.step for a in key_of(dry_run(scenario))]
    answers: list[Any] = [s.answer for s in key]
    paid = [n for n, s in enumerate(key) if s.step == "payout"]
    assert len(paid) >= 2, "the scenario pays at least two bets"
    first, second = paid[0], paid[1]
    answers[first] = dict(answers[first], amount=answers[first]["amount"] + 1)
    answers[first].pop("chips")
    answers[second] = dict(answers[second], chips={"1": answers[second]["amount"]})
    report = run(scenario, answers)
    mistakes = {s["n"] - 1: s["mistake"] for s in report["steps"] if not s["right"]}
    assert mistakes == {first: "amount", second: "chips"} if answers[second]["amount"] > 1 else {first: "amount"}
    assert report["ledger"] == "ok"
    assert report["by_step"]["payout"]["total"] == len(paid)


@given(st.integers(1, 800), st.sampled_from([(1, 5, 25, 100, 500), (1, 3, 4), (1, 2, 5, 10, 20)]),
       st.lists(st.integers(0, 40), min_size=5, max_size=5))
def test_a_make_up_of_the_right_amount_is_right_only_in_the_fewest_chips(amount: int, chips: tuple[int, ...],
                                                                        extra: list[int]) -> None:
    fewest = fewest_chips(amount, chips)
    assert fewest is not None
    right = {"box": 1, "bet": "bonus", "amount": amount, "chips": {str(c): n for c, n in fewest.items()}}
    # another make-up of the same amount: break chips of the largest kind down into ones
    given_chips = dict(fewest)
    broken = min(extra[0], given_chips.get(max(given_chips), 0))
    if broken and max(given_chips) > 1:
        top = max(given_chips)
        given_chips[top] -= broken
        given_chips[1] = given_chips.get(1, 0) + broken * top
    verdict = judge("payout", {"box": 1, "bet": "bonus", "amount": amount,
                               "chips": {str(c): n for c, n in given_chips.items()}}, right)
    assert verdict.right == (chip_count(given_chips) == chip_count(fewest))
    assert verdict.right or verdict.mistake == "chips"
    assert judge("payout", {"box": 1, "bet": "bonus", "amount": amount + extra[1] + 1}, right).mistake == "amount"


def test_a_live_drills_default_steps_ask_the_payouts_only_with_chips_in_play() -> None:
    assert "payout" not in drill_settings({"trainee": "tina"}, "hcf", house_banked=False).steps
    assert drill_settings({"trainee": "tina"}, "sixcard", house_banked=True, chips=True).steps[-1] == "payout"
    named = drill_settings({"trainee": "tina", "steps": ["payout"]}, "caribbean", house_banked=True)
    assert named.steps == ("payout",)
