"""Every exact figure of ``analyze`` lies inside ``hcf-server simulate``'s 99.9% interval, same settings.

The interval is the simulated mean +- 3.29 standard errors; the standard deviation of
one hand's result comes from the exact outcome distribution (one player, so hands are
independent). Non-default pay tables too, so a figure cannot match by being copied.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from math import sqrt
from pathlib import Path
from typing import Any

import pytest

from server.analysis import caribbean as exact_caribbean
from server.analysis import hcf
from server.analysis import sixcard as exact_sixcard
from server.cli import main
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.strategy import STRATEGIES
from server.simulation import caribbean as sim_caribbean
from server.simulation import sixcard as sim_sixcard
from server.simulation.scenario import Scenario
from server.simulation.simulate import simulate
from server.simulation.tally import report

Z999 = 3.2905


def spread(outcomes: Iterable[tuple[float, float]]) -> float:
    """Standard deviation of a bet's result from its (net, probability) outcomes."""
    rows = list(outcomes)
    mean = sum(v * p for v, p in rows)
    return sqrt(max(sum(v * v * p for v, p in rows) - mean * mean, 0.0))


def assert_inside(exact: float, simulated: float, sd: float, hands: int, what: str) -> None:
    half = Z999 * sd / sqrt(hands)
    assert abs(simulated - exact) <= half, f"{what}: exact {exact} outside {simulated} +- {half}"


def bonus_outcomes(bonus: Mapping[str, Any]) -> list[tuple[float, float]]:
    return [(float(o["pays"]), o["probability"]) for o in bonus["outcomes"]]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


HANDS = 150_000


@pytest.mark.usefixtures("totals")  # the counts in the cache, so the command reads them
def test_hcf_standard_cli_against_cli(capsys: pytest.CaptureFixture[str], odds_cache: Path) -> None:
    exact = run_cli(capsys, "analyze", "--game", "hcf", "--set", "profile=standard", "--json",
                    "--cache-dir", str(odds_cache))
    sim = run_cli(capsys, "simulate", "--hands", str(HANDS), "--profile", "standard", "--players", "1",
                  "--seed", "a11", "--json")
    main_bet = exact["ante_raise"]["basic"]
    assert_inside(main_bet["return_per_ante"], sim["ante_raise"]["per_ante"],
                  spread((o["net"], o["probability"]) for o in main_bet["outcomes"]), HANDS, "ante+raise")
    for name in ("flush_bonus", "straight_flush_bonus"):
        assert_inside(exact[name]["return"], sim[name]["per_unit"], spread(bonus_outcomes(exact[name])), HANDS, name)
    q = exact["dealer_qualifies"]
    assert_inside(q, sim["dealer_qualified"], sqrt(q * (1 - q)), HANDS, "dealer qualifies")


@pytest.mark.parametrize(("profile", "overrides"), [
    ("standard", {"flush_pays": {"7": 500, "6": 150, "5": 20, "4": 2},
                  "straight_flush_pays": {"7": 2000, "6": 700, "5": 150, "4": 40, "3": 9}}),
    # Stacks of 10,000 keep the DP's funds cap out of a 1-player California run (the exact bonus has none).
    ("california", {"flush_pays": {"7": 400, "6": 80, "5": 15, "4": 3},
                    "straight_flush_pays": {"7": 1500, "6": 300, "5": 120, "4": 50, "3": 10},
                    "default_buy_in": 10000}),
])
def test_hcf_pay_tables_against_the_engine(totals: hcf.Totals, profile: str, overrides: dict[str, Any]) -> None:
    players = 1 if profile == "standard" else 2  # California: the DP and one player
    scenario = Scenario.build(profile, players, overrides=overrides)
    exact = hcf.analyze(scenario.settings, totals_cache=totals, bank_hands=1000)
    sim = report(scenario, simulate(scenario, HANDS, "b22"), seed="b22", seconds=1.0)
    main_bet = exact["ante_raise"]["basic"]
    assert_inside(main_bet["return_per_ante"], sim["ante_raise"]["per_ante"],
                  spread((o["net"], o["probability"]) for o in main_bet["outcomes"]), HANDS, "ante+raise")
    for name in ("flush_bonus", "straight_flush_bonus"):
        assert_inside(exact[name]["return"], sim[name]["per_unit"], spread(bonus_outcomes(exact[name])), HANDS, name)
    if profile == "california":
        dp = exact["banking"]["by_players"][0]["expected"] / scenario.unit
        # The spread of a sum is at most the sum of the spreads (the three bets share the cards).
        sd = spread((o["net"], o["probability"]) for o in main_bet["outcomes"]) + sum(
            spread(bonus_outcomes(exact[name])) for name in ("flush_bonus", "straight_flush_bonus"))
        assert_inside(dp, sim["dealer"]["per_hand"], sd, HANDS, "the DP against one player (no cap)")


def jackpot_outcomes(jackpot: Mapping[str, Any], meter: float, wager: int) -> list[tuple[float, float]]:
    rows = []
    for o in jackpot["outcomes"]:
        award = o["award"]
        chips = meter * int(award.split("%")[0]) / 100 if isinstance(award, str) else award
        rows.append((chips / wager - 1, o["probability"]))
    return rows


def test_caribbean_jackpot_against_the_engine() -> None:
    # No contribution, so the meter stays at its seed (but for a straight flush's share) and the
    # exact return at the seed is what the simulation should see.
    settings = CaribbeanSettings.from_mapping({"jackpot_rate": 0, "jackpot_pays": {
        "royal": 100, "straight_flush": 20, "quads": 800, "full_house": 150, "flush": 60}})
    exact = exact_caribbean.analyze(settings, hands=2000)
    sim = sim_caribbean.report(sim_caribbean.simulate(HANDS, "c33", "ak", settings=settings), settings,
                               strategy="ak", seed="c33", seconds=1.0)
    jackpot = exact["jackpot"]
    sd = spread(jackpot_outcomes(jackpot, jackpot["meter"], settings.jackpot_wager))
    assert_inside(jackpot["return_at_meter"], sim["jackpot"]["per_unit"], sd, HANDS, "jackpot")
    q = exact["dealer_qualifies"]
    assert_inside(q, sim["dealer_qualified"], sqrt(q * (1 - q)), HANDS, "dealer qualifies")
    for name, p in exact["hand_class_shares"].items():
        assert_inside(p, sim["hand_class_freq"][name], sqrt(p * (1 - p)), 2 * HANDS, name)


def test_caribbean_cli_against_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    exact = run_cli(capsys, "analyze", "--game", "caribbean", "--json", "--cache-dir", str(tmp_path))
    sim = run_cli(capsys, "simulate", "--game", "caribbean", "--hands", "60000", "--seed", "d44", "--json")
    q = exact["dealer_qualifies"]
    assert_inside(q, sim["dealer_qualified"], sqrt(q * (1 - q)), 60000, "dealer qualifies")
    assert exact["jackpot"]["break_even_meter_chips"] == 218_047


def test_sixcard_bonus_against_the_engine() -> None:
    settings = SixcardSettings.from_mapping({"bonus_pays": {
        "royal": 800, "straight_flush": 400, "quads": 150, "full_house": 60, "flush": 45, "straight": 30,
        "trips": 20}, "max_payout": 2000})
    exact = exact_sixcard.analyze(settings, hands=2000)
    tally = sim_sixcard.simulate(settings, STRATEGIES["basic"], HANDS, "e55", 1)
    sim = sim_sixcard.report(settings, STRATEGIES["basic"], tally, seed="e55", seconds=1.0)
    bonus = exact["bonus"]
    # The cap (2,000 chips at a stake of 5) cuts the royal and straight flush to 400 units.
    outcomes = [(min(v, 400.0), p) for v, p in bonus_outcomes(bonus)]
    assert_inside(bonus["return"], sim["bonus"]["per_unit"], spread(outcomes), HANDS, "bonus")
    q = exact["dealer_qualifies"]
    assert_inside(q, sim["dealer_qualified"], sqrt(q * (1 - q)), HANDS, "dealer qualifies")


def test_sixcard_cli_against_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    exact = run_cli(capsys, "analyze", "--game", "sixcard", "--json", "--cache-dir", str(tmp_path))
    sim = run_cli(capsys, "simulate", "--game", "sixcard", "--hands", "60000", "--seed", "f66", "--json")
    bonus = exact["bonus"]
    assert_inside(bonus["return"], sim["bonus"]["per_unit"], spread(bonus_outcomes(bonus)), 60000, "bonus")
