"""``hcf-server simulate --game sixcard``: the fast engine agrees with settle(), and the shares with exact values."""

from __future__ import annotations

import argparse
import json
import random
from math import comb, sqrt
from typing import Any

import numpy as np
import pytest

from server.rules.cards import parse_cards
from server.rules.poker import CLASSES, class_name, rank5
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.settlement import BoxWager, settle
from server.rules.sixcard.strategy import STRATEGIES
from server.simulation.command import add_arguments, run
from server.simulation.decks import DeckStream
from server.simulation.sixcard import deal, play, values5

HANDS = comb(52, 5)
CLASS_COUNTS = {"royal": 4, "straight_flush": 36, "quads": 624, "full_house": 3744, "flush": 5108,
                "straight": 10200, "trips": 54912, "two_pair": 123552, "pair": 1098240, "high_card": 1302540}
QUALIFYING = 1_296_420


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hcf-server simulate")
    add_arguments(parser)
    return parser.parse_args(["--game", "sixcard", *argv])


def simulate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert run(parse("--json", *argv)) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_values5_is_rank5() -> None:
    rng = random.Random(5)
    hands = [rng.sample(range(52), 5) for _ in range(20000)]
    hands += [list(parse_cards(h)) for h in ("Ah 2c 3d 4s 5h", "5h 4h 3h 2h Ah", "Ah Kh Qh Jh Th", "Ac Ad Ah As 2c",
                                             "2c 2d 3h 3s 3c", "Tc Jd Qh Ks Ac", "Kc Ac 2d 3d 4h", "9c 9d 4h 4s 4c")]
    values = values5(np.array(hands, dtype=np.uint8))
    assert values.tolist() == [rank5(hand) for hand in hands]


@pytest.mark.parametrize(("players", "max_payout"), [(1, 10000), (4, 10000), (3, 12)])
def test_engine_settles_every_hand_as_settle_does(players: int, max_payout: int) -> None:
    settings = SixcardSettings.from_mapping({"max_payout": max_payout})
    strategy = STRATEGIES["basic"]
    decks = DeckStream("5eed").take(1500)
    outcome = play(settings, strategy, decks, players)
    boxes, dealer, stub = deal(decks, players)
    unit = settings.min_ante
    exchanges = 0
    for i in range(decks.shape[0]):
        wagers = []
        for b in range(players):
            cards = tuple(boxes[i, b].tolist())
            value = rank5(cards)
            raised = strategy.raises(value)
            wagers.append(BoxWager(b + 1, str(b), cards, ante=unit, bonus=unit, raised=raised,
                                   exchange_request=raised and strategy.exchanges(value)))
        settled = settle(settings, tuple(dealer[i].tolist()), int(stub[i]), wagers)
        exchanges += settled.exchanged
        assert [r.ante + r.bet for r in settled.boxes] == outcome.ante_bet[i].tolist()
        assert [r.bonus for r in settled.boxes] == outcome.bonus[i].tolist()
        assert settled.exchanged == bool(outcome.exchanged[i])
        assert settled.dealer_qualifies == bool(outcome.dealer_qualified[i])
    assert exchanges > 0  # the exchange path was exercised


def test_deal_goes_round_the_boxes_then_the_dealer() -> None:
    decks = np.arange(52, dtype=np.uint8)[None, :]
    boxes, dealer, stub = deal(decks, 2)
    assert boxes[0, 0].tolist() == [0, 3, 6, 9, 12]
    assert boxes[0, 1].tolist() == [1, 4, 7, 10, 13]
    assert dealer[0].tolist() == [2, 5, 8, 11, 14]
    assert int(stub[0]) == 15


def test_json_has_the_agreed_keys(capsys: pytest.CaptureFixture[str]) -> None:
    out = simulate_json(capsys, "--hands", "2000", "--seed", "ABC", "--players", "3")
    assert out.keys() >= {"game", "hands", "seed", "strategy", "seconds", "hands_per_second", "ante_bet", "bonus",
                          "hand_class_freq", "dealer_qualified", "dealer_exchanges"}
    assert (out["game"], out["hands"], out["seed"], out["strategy"], out["players"]) == (
        "sixcard", 2000, "abc", "basic", 3)
    assert out["ante_bet"].keys() >= {"antes", "net", "per_ante"}
    assert out["bonus"].keys() >= {"wagered", "net", "per_unit"}
    assert out["ante_bet"]["antes"] == out["bonus"]["wagered"] == 6000
    assert list(out["hand_class_freq"]) == list(CLASSES)
    assert sum(out["hand_class_freq"].values()) == pytest.approx(1)


def test_same_seed_same_run(capsys: pytest.CaptureFixture[str]) -> None:
    first = simulate_json(capsys, "--hands", "3000", "--seed", "77")
    second = simulate_json(capsys, "--hands", "3000", "--seed", "77")
    for key in ("ante_bet", "bonus", "hand_class_freq", "dealer_qualified", "dealer_exchanges"):
        assert first[key] == second[key]


def _within(observed: float, p: float, n: int, sd: float | None = None) -> bool:
    error = (sd if sd is not None else sqrt(p * (1 - p))) / sqrt(n)
    return abs(observed - p) <= 5 * error + 1e-12


def test_shares_agree_with_exact_values(capsys: pytest.CaptureFixture[str]) -> None:
    hands, players = 60000, 4
    out = simulate_json(capsys, "--hands", str(hands), "--seed", "c0ffee", "--players", str(players))
    dealt = hands * (players + 1)
    for name, count in CLASS_COUNTS.items():
        assert _within(out["hand_class_freq"][name], count / HANDS, dealt), name
    assert _within(out["dealer_qualified"], QUALIFYING / HANDS, hands)
    pays = SixcardSettings()
    outcomes = [(count / HANDS, pays.bonus_pay(name) or -1) for name, count in CLASS_COUNTS.items()]
    mean = sum(p * x for p, x in outcomes)
    sd = sqrt(sum(p * (x - mean) ** 2 for p, x in outcomes))
    assert _within(out["bonus"]["per_unit"], mean, hands * players, sd)
    assert 0 < out["dealer_exchanges"] < 0.5 * (1 - QUALIFYING / HANDS) * players


def test_human_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(parse("--hands", "500", "--seed", "1")) == 0
    text = capsys.readouterr().out
    assert "6 Card Poker 1-2-5" in text
    assert "Bonus" in text
    assert class_name(rank5(parse_cards("Ah Kh Qh Jh Th"))) in text


@pytest.mark.parametrize(("argv", "message"), [(("--players", "5"), "1 to 4 players"),
                                               (("--strategy", "wild"), "--strategy: one of basic")])
def test_refusals_exit_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    assert run(parse("--hands", "10", *argv)) == 2
    assert message in capsys.readouterr().err
