"""``hcf-server simulate``: its options, its JSON, its tables, its errors."""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from server.simulation.command import add_arguments, run

REQUIRED_KEYS = {
    "hands", "profile", "strategy", "ante_raise", "flush_bonus", "straight_flush_bonus",
    "flush_size_freq", "straight_flush_length_freq", "dealer_qualified", "fees", "seconds",
}


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hcf-server simulate")
    add_arguments(parser)
    return parser.parse_args(argv)


def simulate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert run(parse("--json", *argv)) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_defaults() -> None:
    args = parse("--hands", "10")
    assert (args.hands, args.players, args.profile, args.strategy, args.seed, args.json) == (
        10, None, "california", "basic", None, False)


def test_json_has_the_agreed_keys_and_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    out = simulate_json(capsys, "--hands", "3000", "--seed", "ABC")
    assert out.keys() >= REQUIRED_KEYS
    assert (out["hands"], out["profile"], out["strategy"], out["players"], out["seed"]) == (
        3000, "california", "basic", 7, "abc")
    assert out["ante_raise"].keys() >= {"antes", "net", "per_ante"}
    for bet in ("flush_bonus", "straight_flush_bonus"):
        assert out[bet].keys() >= {"wagered", "net", "per_unit"}
    assert list(out["flush_size_freq"]) == ["2", "3", "4", "5", "6", "7"]
    assert list(out["straight_flush_length_freq"]) == ["0", "3", "4", "5", "6", "7"]
    assert sum(out["flush_size_freq"].values()) == pytest.approx(1)
    assert sum(out["straight_flush_length_freq"].values()) == pytest.approx(1)
    live = 3000 * 6 - out["dead_seats"]["count"]
    assert out["ante_raise"]["antes"] == live
    assert out["fees"] == pytest.approx(live / 5)  # fee 1 chip per player, unit 5 chips
    ante = out["ante_raise"]
    assert ante["per_ante"] == pytest.approx(ante["net"] / ante["antes"])


def test_chips_balance_in_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    out = simulate_json(capsys, "--hands", "2000", "--seed", "7", "--players", "4")
    players = out["ante_raise"]["net"] + out["flush_bonus"]["net"] + out["straight_flush_bonus"]["net"]
    assert players == pytest.approx(out["all_bets"]["net"])
    # fee_mode "players": the DP pays no fee, so the DP wins exactly what the players lose on bets.
    assert players + out["dealer"]["net"] == pytest.approx(0, abs=1e-9)


def test_same_seed_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    first = simulate_json(capsys, "--hands", "1500", "--seed", "1234", "--profile", "standard")
    second = simulate_json(capsys, "--hands", "1500", "--seed", "1234", "--profile", "standard")
    other = simulate_json(capsys, "--hands", "1500", "--seed", "1235", "--profile", "standard")
    for out in (first, second, other):
        del out["seconds"], out["hands_per_second"]
    assert first == second
    assert first != other


def test_without_a_seed_a_random_one_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    out = simulate_json(capsys, "--hands", "10")
    assert len(out["seed"]) == 32
    int(out["seed"], 16)


def test_standard_defaults_to_six_players_against_the_house(capsys: pytest.CaptureFixture[str]) -> None:
    out = simulate_json(capsys, "--hands", "100", "--profile", "standard", "--seed", "1")
    assert out["players"] == 6
    assert out["dealer"]["who"] == "house"
    assert out["fees"] == 0
    assert out["dead_seats"]["count"] == 0


def test_human_tables_without_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(parse("--hands", "500", "--seed", "beef", "--players", "3")) == 0
    out = capsys.readouterr().out
    for text in ("High Card Flush", "Ante + Raise", "Flush bonus", "Straight Flush bonus", "flush size",
                 "seed beef", "500 hands"):
        assert text in out
    assert "dealing" not in out  # no progress bar when stdout is not a terminal


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--profile", "standard", "--players", "7"), "a standard table plays 1 to 6 players, got 7"),
        (("--players", "1"), "a california table plays 2 to 7 seated players, the DP included, got 1"),
    ],
)
def test_player_counts_outside_the_table_fail_clearly(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert run(parse("--hands", "10", *argv)) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [(), ("--hands", "0"), ("--hands", "x"), ("--hands", "5", "--seed", "xyz"),
     ("--hands", "5", "--seed", ""), ("--hands", "5", "--profile", "casino"),
     ("--hands", "5", "--game", "poker")],
)
def test_bad_options_are_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(*argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_a_strategy_the_game_lacks_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(parse("--hands", "5", "--strategy", "perfect")) == 2
    err = capsys.readouterr().err
    assert "--strategy" in err
    assert "'perfect'" in err
    assert "basic" in err
