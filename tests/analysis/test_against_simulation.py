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

from server.analysis import hcf
from server.cli import main
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
CASINO = ()
RICHER = ("flush_pays={\"7\": 500, \"6\": 150, \"5\": 20, \"4\": 2}",
          "straight_flush_pays={\"7\": 2000, \"6\": 700, \"5\": 150, \"4\": 40, \"3\": 9}")


def sets(pairs: Iterable[str]) -> list[str]:
    return [arg for pair in pairs for arg in ("--set", pair)]


@pytest.mark.usefixtures("totals")  # the counts in the cache, so the command reads them
@pytest.mark.parametrize("pairs", [CASINO, RICHER], ids=["casino pay tables", "other pay tables"])
def test_hcf_standard_cli_against_cli(capsys: pytest.CaptureFixture[str], odds_cache: Path,
                                      pairs: tuple[str, ...]) -> None:
    exact = run_cli(capsys, "analyze", "--game", "hcf", "--set", "profile=standard", *sets(pairs), "--json",
                    "--cache-dir", str(odds_cache))
    sim = run_cli(capsys, "simulate", "--hands", str(HANDS), "--profile", "standard", "--players", "1",
                  "--seed", "a11", *sets(pairs), "--json")
    assert sim["settings"]["flush_pays"] == exact["settings"]["flush_pays"]
    main_bet = exact["ante_raise"]["basic"]
    assert_inside(main_bet["return_per_ante"], sim["ante_raise"]["per_ante"],
                  spread((o["net"], o["probability"]) for o in main_bet["outcomes"]), HANDS, "ante+raise")
    for name in ("flush_bonus", "straight_flush_bonus"):
        assert_inside(exact[name]["return"], sim[name]["per_unit"], spread(bonus_outcomes(exact[name])), HANDS, name)
    q = exact["dealer_qualifies"]
    assert_inside(q, sim["dealer_qualified"], sqrt(q * (1 - q)), HANDS, "dealer qualifies")


def test_hcf_california_against_the_engine(totals: hcf.Totals) -> None:
    # Through the library, to keep the banking simulation short. Stacks of 10,000 keep the DP's
    # funds cap out of a one-player run (the exact bonus figures have no cap).
    overrides = {"flush_pays": {"7": 400, "6": 80, "5": 15, "4": 3},
                 "straight_flush_pays": {"7": 1500, "6": 300, "5": 120, "4": 50, "3": 10}, "default_buy_in": 10000}
    scenario = Scenario.build("california", 2, overrides=overrides)  # the DP and one player
    exact = hcf.analyze(scenario.settings, totals_cache=totals, bank_hands=1000)
    sim = report(scenario, simulate(scenario, HANDS, "b22"), seed="b22", seconds=1.0)
    main_bet = exact["ante_raise"]["basic"]
    assert_inside(main_bet["return_per_ante"], sim["ante_raise"]["per_ante"],
                  spread((o["net"], o["probability"]) for o in main_bet["outcomes"]), HANDS, "ante+raise")
    for name in ("flush_bonus", "straight_flush_bonus"):
        assert_inside(exact[name]["return"], sim[name]["per_unit"], spread(bonus_outcomes(exact[name])), HANDS, name)
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


@pytest.mark.usefixtures("stud_counts")
@pytest.mark.parametrize("pairs", [
    ("jackpot_rate=0",),
    ("jackpot_rate=0", 'jackpot_pays={"royal": 100, "straight_flush": 20, "quads": 800, "full_house": 150, '
                       '"flush": 60}', "jackpot_seed=20000",
     'bet_pays={"royal": 250, "straight_flush": 60, "quads": 25, "full_house": 8, "flush": 6, "straight": 5, '
     '"trips": 3, "two_pair": 2, "pair": 1}', "max_payout=500"),
], ids=["default awards", "other awards and pays, capped"])
def test_caribbean_cli_against_cli(capsys: pytest.CaptureFixture[str], odds_cache: Path,
                                   pairs: tuple[str, ...]) -> None:
    # No contribution, so the meter stays at its seed (but for a straight flush's share) and the
    # exact return at the seed is what the simulation should see.
    exact = run_cli(capsys, "analyze", "--game", "caribbean", *sets(pairs), "--json", "--cache-dir", str(odds_cache))
    sim = run_cli(capsys, "simulate", "--game", "caribbean", "--hands", str(HANDS), "--seed", "c33", *sets(pairs),
                  "--json")
    jackpot = exact["jackpot"]
    sd = spread(jackpot_outcomes(jackpot, jackpot["meter"], exact["settings"]["jackpot_wager"]))
    assert_inside(jackpot["return_at_meter"], sim["jackpot"]["per_unit"], sd, HANDS, "jackpot")
    main_bet = exact["ante_bet"]
    assert main_bet["simulated"] is False
    assert_inside(main_bet["return_per_ante"], sim["ante_bet"]["per_ante"],
                  spread((o["net"], o["probability"]) for o in main_bet["outcomes"]), HANDS, "ante+back bet")
    q = exact["dealer_qualifies"]
    assert_inside(q, sim["dealer_qualified"], sqrt(q * (1 - q)), HANDS, "dealer qualifies")
    for name, p in exact["hand_class_shares"].items():
        assert_inside(p, sim["hand_class_freq"][name], sqrt(p * (1 - p)), 2 * HANDS, name)


@pytest.mark.usefixtures("stud_counts")
def test_caribbean_break_even_meter_at_the_seed_table(capsys: pytest.CaptureFixture[str], odds_cache: Path) -> None:
    exact = run_cli(capsys, "analyze", "--game", "caribbean", "--json", "--cache-dir", str(odds_cache))
    assert exact["jackpot"]["break_even_meter_chips"] == 218_047
    assert f"{exact['dealer_qualifies']:.6f}" == "0.563187"


@pytest.mark.parametrize("pairs", [
    (),
    ('bonus_pays={"royal": 800, "straight_flush": 400, "quads": 150, "full_house": 60, "flush": 45, '
     '"straight": 30, "trips": 20}', "max_payout=2000"),
], ids=["default bonus", "other bonus, capped"])
def test_sixcard_cli_against_cli(capsys: pytest.CaptureFixture[str], odds_cache: Path, pairs: tuple[str, ...]) -> None:
    exact = run_cli(capsys, "analyze", "--game", "sixcard", *sets(pairs), "--json", "--cache-dir", str(odds_cache))
    sim = run_cli(capsys, "simulate", "--game", "sixcard", "--hands", str(HANDS), "--seed", "e55", *sets(pairs),
                  "--json")
    bonus = exact["bonus"]
    # A cap below a win pays the cap: at a stake of 5 chips, 2,000 chips is 400 units.
    cap = exact["settings"]["max_payout"] / bonus["stake"]
    outcomes = [(min(v, cap), p) for v, p in bonus_outcomes(bonus)]
    assert_inside(bonus["return"], sim["bonus"]["per_unit"], spread(outcomes), HANDS, "bonus")
    q = exact["dealer_qualifies"]
    assert_inside(q, sim["dealer_qualified"], sqrt(q * (1 - q)), HANDS, "dealer qualifies")
