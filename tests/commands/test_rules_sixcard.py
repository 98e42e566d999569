"""``hcf-server rules rank|settle`` for 6 Card Poker: the exact JSON contracts and their refusals."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.commands import rules

Cli = Callable[..., tuple[int, Any, str]]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Cli:
    """Run ``main([...])``; (status, parsed stdout or None, stderr)."""

    def call(*argv: str) -> tuple[int, Any, str]:
        out, err = io.StringIO(), io.StringIO()
        # run() binds its streams as defaults when it is imported; point them at this call's buffers.
        monkeypatch.setattr(rules.run, "__defaults__", (out, err))
        status = rules.main(list(argv))
        text = out.getvalue()
        return status, json.loads(text) if text else None, err.getvalue()

    return call


@pytest.fixture
def settle(cli: Cli, tmp_path: Path) -> Callable[[Any], tuple[int, Any, str]]:
    def call(scenario: Any) -> tuple[int, Any, str]:
        path = tmp_path / "scenario.json"
        path.write_text(json.dumps(scenario), encoding="utf-8")
        return cli("settle", str(path))

    return call


def test_rank_five_cards(cli: Cli) -> None:
    status, out, _ = cli("rank", "--game", "sixcard", "2c", "2d", "9h", "7s", "4c")
    assert status == 0
    assert out == {"cards": ["2c", "2d", "9h", "7s", "4c"], "best": ["2c", "2d", "9h", "7s", "4c"],
                   "class": "pair", "qualifies": True}


def test_rank_six_cards_qualifies_on_the_best_five(cli: Cli) -> None:
    status, out, _ = cli("rank", "--game", "sixcard", "Ac Kd Qh Js 9c 8d")
    assert status == 0
    assert out == {"cards": ["Ac", "Kd", "Qh", "Js", "9c", "8d"], "best": ["Ac", "Kd", "Qh", "Js", "9c"],
                   "class": "high_card", "qualifies": False}
    _, royal, _ = cli("rank", "--game", "sixcard", "2c", "Ah", "Kh", "Qh", "Jh", "Th")
    assert (royal["best"], royal["class"], royal["qualifies"]) == (["Ah", "Kh", "Qh", "Jh", "Th"], "royal", True)


@pytest.mark.parametrize("hand", ["Ah Kh Qh Jh", "Ah Kh Qh Jh Th 9h 8h", "Ah Ah Qh Jh Th", "Xh Kh Qh Jh Th"])
def test_rank_refuses_bad_hands_with_status_2(cli: Cli, hand: str) -> None:
    status, out, err = cli("rank", "--game", "sixcard", *hand.split())
    assert (status, out) == (2, None)
    assert err.startswith("error: ")


SCENARIO: dict[str, Any] = {
    "game": "sixcard",
    "table": {"max_payout": 10000},
    "dealer": "Ad 9c 7h 4s 2d",
    "dealer_replacement": "9d",
    "boxes": [
        {"box": 1, "player": "p1", "cards": "Qs Qh Qd 8c 3h", "ante": 10, "bonus": 1, "draw": None, "raise": True,
         "exchange_request": True},
        {"box": 2, "player": "p1", "cards": "Jc Td 8d 6c 3d", "ante": 10,
         "draw": {"exchange": {"discard": "Jc Td 8d 6c 3d", "replace": "5c 5d 5h Ks 2s"}}, "raise": True},
        {"box": 3, "player": "p1", "cards": "Kh Jh 8h 6s 3s", "ante": 5, "raise": False},
        {"box": 4, "player": "p2", "cards": "Ac Qc Tc 8s 4c", "bonus": 3},
    ],
}


def test_settle_prints_the_exact_contract(settle: Callable[[Any], tuple[int, Any, str]]) -> None:
    status, out, err = settle(SCENARIO)
    assert (status, err) == (0, "")
    assert out == {
        "dealer": {"qualifies": False, "exchanged": True, "qualifies_after": True},
        "boxes": [
            {"box": 1, "blind": False, "draw_fee": 0, "ante": 0, "bet": 60, "bonus": 25, "net": 85},
            {"box": 2, "blind": False, "draw_fee": -10, "ante": 10, "bet": 0, "bonus": 0, "net": 0},
            {"box": 3, "blind": True, "draw_fee": 0, "ante": 5, "bet": 0, "bonus": 0, "net": 5},
            {"box": 4, "blind": False, "draw_fee": 0, "ante": 0, "bet": 0, "bonus": -3, "net": -3},
        ],
    }


def test_settle_minimal_keys_and_no_exchange(settle: Callable[[Any], tuple[int, Any, str]]) -> None:
    status, out, _ = settle({"game": "sixcard", "dealer": ["Kc", "Kd", "7h", "4s", "2c"],
                             "boxes": [{"box": 2, "player": 7, "cards": "Qs Qh Qd 8c 3h", "ante": 5},
                                       {"box": 1, "player": "a", "cards": "5c 5d 8h 6s 3s", "ante": 5,
                                        "raise": True, "draw": {"buy": "As"}}]})
    assert status == 0
    assert out["dealer"] == {"qualifies": True, "exchanged": False}
    assert out["boxes"] == [
        {"box": 1, "blind": False, "draw_fee": -5, "ante": -5, "bet": -10, "bonus": 0, "net": -20},
        {"box": 2, "blind": False, "draw_fee": 0, "ante": -5, "bet": 0, "bonus": 0, "net": -5},
    ]


def test_settle_an_array_of_scenarios(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "many.json"
    path.write_text(json.dumps([SCENARIO, {**SCENARIO, "dealer_replacement": "3c"}]), encoding="utf-8")
    status, out, _ = cli("settle", str(path))
    assert status == 0
    assert [s["dealer"]["qualifies_after"] for s in out] == [True, False]


def _box(**changes: Any) -> dict[str, Any]:
    return {**SCENARIO, "boxes": [{**SCENARIO["boxes"][0], **changes}]}


@pytest.mark.parametrize(
    ("scenario", "message"),
    [
        ({**SCENARIO, "dealers": "x"}, "scenario: unknown key 'dealers'"),
        ({k: v for k, v in SCENARIO.items() if k != "dealer"}, "dealer: the dealer's 5 cards are missing"),
        ({**SCENARIO, "dealer": "Ad 9c 7h 4s"}, "dealer: a hand is 5 cards"),
        ({**SCENARIO, "table": {"boxes": 9}}, "table: boxes:"),
        ({**SCENARIO, "dealer_replacement": "9d 8d"}, "dealer_replacement: one card"),
        ({**SCENARIO, "dealer_replacement": None}, "dealer_replacement: the dealer exchange needs"),
        ({**SCENARIO, "boxes": "all"}, "boxes: must be a list"),
        (_box(raise_=True), "box 1: unknown key 'raise_'"),
        (_box(ante=None, bonus=0), "box 1: ante is missing"),
        (_box(ante=-1), "box 1: ante must be a whole number"),
        (_box(exchange_request="yes"), "box 1: exchange_request must be true or false"),
        (_box(player=None), "box 1: player must name"),
        (_box(cards="Qs Qh Qd 8c"), "box 1: a box is dealt 5 cards"),
        (_box(cards="Qs Qh Qd 8c 9c"), "9c is dealt twice"),
        (_box(draw={"buy": "Kd", "exchange": {}}), "box 1: draw is null"),
        (_box(draw={"exchange": {"discard": "Qs Qh Qd", "replace": "As Ah Ac"}}), "1, 2 or 5 cards"),
        (_box(draw={"exchange": {"discard": "Qs"}}), "draw.exchange needs discard and replace"),
        ({**SCENARIO, "boxes": [{**b, "raise": True} for b in SCENARIO["boxes"][:2]]
          + [{**SCENARIO["boxes"][2], "draw": {"buy": "2h"}}]}, "box 3: a blind box cannot buy or exchange"),
        ({**SCENARIO, "boxes": [{**SCENARIO["boxes"][3], "draw": {"buy": "2h"}}]}, "box 4: a bonus-only box"),
    ],
)
def test_settle_refusals_exit_2_with_one_sentence(settle: Callable[[Any], tuple[int, Any, str]],
                                                  scenario: dict[str, Any], message: str) -> None:
    status, out, err = settle(scenario)
    assert (status, out) == (2, None)
    assert err.startswith("error: ")
    assert message in err
    assert err.count("\n") == 1


def test_settle_refuses_a_raise_that_is_not_a_flag(settle: Callable[[Any], tuple[int, Any, str]]) -> None:
    status, _, err = settle(_box(**{"raise": "yes"}))
    assert status == 2
    assert "box 1: raise must be true or false" in err
