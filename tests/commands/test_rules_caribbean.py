"""``hcf-server rules rank|settle`` for Caribbean Stud: the exact JSON contracts and their refusals."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.commands import rules
from server.commands.rules_caribbean import rank_json, settle_scenario
from server.rules.caribbean.settlement import SettleError

Result = tuple[int, Any, str]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """``main([...])`` as the command line runs it: (status, parsed stdout or None, stderr)."""

    def call(*argv: str) -> Result:
        out, err = io.StringIO(), io.StringIO()
        # run() took sys.stdout/sys.stderr as defaults when imported: aim them at this call's buffers.
        monkeypatch.setattr(rules.run, "__defaults__", (out, err))
        status = rules.main(list(argv))
        text = out.getvalue()
        return status, json.loads(text) if text else None, err.getvalue()

    return call


@pytest.fixture
def settle(cli: Callable[..., Result], tmp_path: Path) -> Callable[[Any], Result]:
    def call(scenario: Any) -> Result:
        path = tmp_path / "scenario.json"
        path.write_text(json.dumps(scenario), encoding="utf-8")
        return cli("settle", str(path))

    return call


def refused(result: Result, sentence: str) -> None:
    status, out, err = result
    assert status == 2
    assert out is None
    assert err == f"error: {sentence}\n"


# ---------------------------------------------------------------- rank


@pytest.mark.parametrize(
    ("cards", "cls", "qualifies"),
    [
        ("Ah Kh Qh Jh Th", "royal", True),
        ("5d 4d 3d 2d Ad", "straight_flush", True),
        ("9c 9d 9h 9s 2c", "quads", True),
        ("Tc Td Th 4s 4c", "full_house", True),
        ("Kh 9h 7h 5h 2h", "flush", True),
        ("Ad 2c 3h 4s 5d", "straight", True),
        ("7c 7d 7h 9s 5c", "trips", True),
        ("9h 9s 4c 4d Jh", "two_pair", True),
        ("2d 2h 6c 8d Tc", "pair", True),
        ("Ac Kd 4h 3s 2c", "high_card", True),
        ("Ac Qd Jh Ts 9c", "high_card", False),
        ("Qd Jc Ah 2s 3d", "high_card", False),
    ],
)
def test_rank_prints_cards_class_and_qualifier(cli: Callable[..., Result], cards: str, cls: str,
                                               qualifies: bool) -> None:
    status, out, err = cli("rank", "--game", "caribbean", *cards.split())
    assert (status, err) == (0, "")
    assert out == {"cards": cards.split(), "class": cls, "qualifies": qualifies}


def test_rank_takes_one_quoted_argument_in_any_case(cli: Callable[..., Result]) -> None:
    _, out, _ = cli("rank", "--game", "caribbean", "ah 10h qh jh kh")
    assert out == {"cards": ["Ah", "Th", "Qh", "Jh", "Kh"], "class": "royal", "qualifies": True}
    assert rank_json("ah 10h qh jh kh") == out


@pytest.mark.parametrize(
    ("cards", "sentence"),
    [
        ("Ah Kh Qh Jh", "expected 5 cards, got 4"),
        ("Ah Kh Qh Jh Th 9h", "expected 5 cards, got 6"),
        ("Ah Ah Qh Jh Th", "duplicate card Ah (given as 'Ah')"),
        ("Xh Kh Qh Jh Th", "bad card 'Xh': unknown rank 'X' (use 2-9, T, J, Q, K, A)"),
    ],
)
def test_rank_refuses_bad_hands(cli: Callable[..., Result], cards: str, sentence: str) -> None:
    refused(cli("rank", "--game", "caribbean", *cards.split()), sentence)


# ---------------------------------------------------------------- settle

SCENARIO = {
    "game": "caribbean",
    "table": {},
    "meter": 1_000_000,
    "dealer": "Ac Kd 7h 5s 2c",
    "spots": [
        {"spot": 1, "cards": "9h 9c 4c 4d Jh", "ante": 10, "play": True, "jackpot": True},
        {"spot": 3, "cards": "Qs Js Ts 9s 8s", "ante": 10, "play": False, "jackpot": True},
        {"spot": 2, "cards": "2d 3d 6d 9d Td", "ante": 5, "play": True},
    ],
}


def test_settle_prints_the_exact_contract(settle: Callable[[Any], Result]) -> None:
    status, out, err = settle(SCENARIO)
    assert (status, err) == (0, "")
    assert out == {
        "dealer": {"qualifies": True},
        "order": [3, 2, 1],
        "spots": [
            # Folded straight flush: the Ante is lost, the jackpot pays 10% of 10,001.00 chips.
            {"spot": 3, "ante": -10, "bet": 0, "jackpot": 999, "jackpot_award": 1000, "net": 989},
            {"spot": 2, "ante": 5, "bet": 50, "jackpot": 0, "jackpot_award": 0, "net": 55},
            {"spot": 1, "ante": 10, "bet": 40, "jackpot": -1, "jackpot_award": 0, "net": 49},
        ],
        "meter": 1_000_100 - 100_000,
    }


def test_settle_without_a_meter_starts_from_the_seed(settle: Callable[[Any], Result]) -> None:
    scenario = {"game": "caribbean", "table": {"jackpot_seed": 500}, "dealer": "Ac Qd Jh Ts 9c",
                "spots": [{"spot": 4, "cards": "Kh 9h 7h 5h 2h", "ante": 20, "play": True, "jackpot": True}]}
    _, out, _ = settle(scenario)
    assert out == {"dealer": {"qualifies": False}, "order": [4],
                   "spots": [{"spot": 4, "ante": 20, "bet": 0, "jackpot": 49, "jackpot_award": 50, "net": 69}],
                   "meter": 50_050}


def test_settle_absent_keys_are_false_and_limits_are_not_checked(settle: Callable[[Any], Result]) -> None:
    scenario = {"game": "caribbean", "table": {"max_payout": 3}, "dealer": "Ac Kd 7h 5s 2c",
                "spots": [{"spot": 1, "cards": "9h 9c 4c 4d Jh", "ante": 1000},
                          {"spot": 2, "cards": "2d 2h 6c 8d Tc", "ante": 10, "play": True}]}
    _, out, _ = settle(scenario)
    assert out["spots"] == [
        {"spot": 2, "ante": 3, "bet": 0, "jackpot": 0, "jackpot_award": 0, "net": 3},  # the cap below the Ante's win
        {"spot": 1, "ante": -1000, "bet": 0, "jackpot": 0, "jackpot_award": 0, "net": -1000},  # folded
    ]
    assert out["meter"] == 1_000_000


def test_settle_dead_spot_gets_everything_back(settle: Callable[[Any], Result]) -> None:
    scenario = {**SCENARIO, "spots": [{"spot": 1, "cards": "9h 9c 4c 4d Jh", "ante": 10, "play": True,
                                       "jackpot": True, "dead": True}]}
    _, out, _ = settle(scenario)
    assert out["spots"] == [{"spot": 1, "ante": 0, "bet": 0, "jackpot": 0, "jackpot_award": 0, "net": 0}]
    assert out["meter"] == 1_000_000


def test_settle_a_royal_resets_the_meter(settle: Callable[[Any], Result]) -> None:
    scenario = {"game": "caribbean", "meter": 2_500_075, "dealer": "2c 2d 3h 3s 4c",
                "spots": [{"spot": 2, "cards": "Ah Kh Qh Jh Th", "ante": 5, "play": True, "jackpot": True}]}
    _, out, _ = settle(scenario)
    assert out["spots"] == [{"spot": 2, "ante": 5, "bet": 1000, "jackpot": 25_000, "jackpot_award": 25_001,
                             "net": 26_005}]
    assert out["meter"] == 1_000_025


def test_settle_an_array_answers_in_order(settle: Callable[[Any], Result]) -> None:
    other = {"game": "caribbean", "dealer": ["Ac", "Qd", "Jh", "Ts", "9c"], "spots": []}
    status, out, _ = settle([SCENARIO, other])
    assert status == 0
    assert [o["order"] for o in out] == [[3, 2, 1], []]
    assert out[1] == {"dealer": {"qualifies": False}, "order": [], "spots": [], "meter": 1_000_000}


def test_settle_scenario_function_matches_the_command(settle: Callable[[Any], Result]) -> None:
    _, out, _ = settle(SCENARIO)
    assert settle_scenario(json.loads(json.dumps(SCENARIO))) == out


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        ({"table": {"spots": 12}}, "table: spots: must be 1 to 9 (nine hands and the dealer use 50 cards), got 12"),
        ({"table": []}, "table: must be an object of settings"),
        ({"meter": -5}, "meter: must be a whole number of hundredths of a chip, at least 0, got -5"),
        ({"meter": 1.5}, "meter: must be a whole number of hundredths of a chip, at least 0, got 1.5"),
        ({"dealer": None}, "dealer: cards are a string like 'Ah Kd 9c 4s 2h' or a list of such cards"),
        ({"dealer": "Ac Kd 7h 5s Zc"}, "dealer: bad card 'Zc': unknown rank 'Z' (use 2-9, T, J, Q, K, A)"),
        ({"spots": {}}, "spots: must be a list of objects"),
        ({"spots": [3]}, "spots: each spot is a JSON object"),
        ({"spots": [{"cards": "9h 9c 4c 4d Jh", "ante": 10}]}, "a spot: spot is missing"),
        ({"spots": [{"spot": 1, "ante": 10}]}, "spot 1: cards are missing"),
        ({"spots": [{"spot": 1, "cards": "9h 9c 4c 4d Jh"}]}, "spot 1: ante is missing"),
        ({"spots": [{"spot": 1, "cards": "9h 9c 4c 4d Jh", "ante": "10"}]},
         "spot 1: ante must be a whole number, got '10'"),
        ({"spots": [{"spot": 1, "cards": "9h 9c 4c 4d Jh", "ante": 10, "play": 1}]},
         "spot 1: play must be true or false, got 1"),
        ({"spots": [{"spot": 1, "cards": "9h 9c 4c 4d Jh", "ante": 10, "raise": 20}]},
         "spot 1: unknown key 'raise' (known: spot, cards, ante, play, jackpot, dead)"),
        ({"spots": [{"spot": 1, "cards": "Ac 9c 4c 4d Jh", "ante": 10}]},
         "spot 1: duplicate card Ac (also in the dealer's hand)"),
        ({"spots": [{"spot": 9, "cards": "9h 9c 4c 4d Jh", "ante": 10}]}, "spot 9: no such spot at a 7-spot table"),
        ({"button": 1}, "scenario: unknown key 'button' (known: game, table, meter, dealer, spots)"),
    ],
)
def test_settle_refuses_bad_scenarios_naming_the_key(settle: Callable[[Any], Result], change: dict[str, Any],
                                                     sentence: str) -> None:
    refused(settle({**SCENARIO, **change}), sentence)


def test_settle_missing_dealer_and_indexed_array_errors(settle: Callable[[Any], Result]) -> None:
    no_dealer = {k: v for k, v in SCENARIO.items() if k != "dealer"}
    refused(settle(no_dealer), "dealer: the dealer's 5 cards are missing")
    refused(settle([SCENARIO, no_dealer]), "scenario 1: dealer: the dealer's 5 cards are missing")


def test_settle_scenario_raises_a_rule_error() -> None:
    with pytest.raises(SettleError, match=r"^spot 1: ante is missing$"):
        settle_scenario({"game": "caribbean", "dealer": "Ac Kd 7h 5s 2c",
                         "spots": [{"spot": 1, "cards": "9h 9c 4c 4d Jh"}]})
