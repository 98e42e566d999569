"""The bots act on the choices of their table model (protocol v2), never beyond them, and ask no snapshot.

Each test puts a model with ``choices`` on a fake connection and asks the bot for
its next step, as its actor does after every update.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from client_cli.bots import Bot, BotOptions, Team
from client_cli.offers import check, read_offers
from client_cli.store import TokenStore
from server.rules.caribbean.choices import choices
from server.rules.caribbean.hand import new_hand
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.game import Player
from tests.client_cli.fakes import FakeConnection
from tests.client_cli.test_offers import BET, FOLD, LEAVE, PASS, RAISE, TABLE, hcf_model

STRATEGIES = ("basic", "random")


def _bot(model: dict[str, Any], strategy: str = "basic", seed: int = 1) -> Bot:
    bot = Bot("b-1", BotOptions("http://x", table=TABLE, strategy=strategy, fast=True),  # type: ignore[arg-type]
              Team(["b-1"], 3), TokenStore(), random.Random(seed))
    bot.conn = FakeConnection(TABLE, model)  # type: ignore[assignment]
    bot.balance = 5000
    bot._take_model()
    return bot


def _sent_ok(bot: Bot) -> tuple[str, dict[str, Any]] | None:
    step = bot._next_step()
    if step is not None:
        assert check(read_offers(bot.model), *step) is None, step
    return step


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_hcf_bank_offer_is_answered_as_a_move(strategy: str) -> None:
    bot = _bot(hcf_model("offer", [{"request": "move", "action": "bank", "accept": [True, False]}, LEAVE],
                         offered=2), strategy)
    step = _sent_ok(bot)
    assert step is not None
    assert step[0] == "move"
    assert step[1]["action"] == "bank"


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_hcf_bets_stay_within_the_offered_ranges(strategy: str, seed: int) -> None:
    narrow = {**BET, "ante": {"min": 5, "max": 7}, "straight_flush_bonus": {"min": 0, "max": 2}}
    bot = _bot(hcf_model("betting", [narrow, PASS, LEAVE]), strategy, seed)
    step = _sent_ok(bot)
    assert step is not None
    assert step[1]["action"] in ("bet", "pass")
    if step[1]["action"] == "bet":
        assert 5 <= step[1]["ante"] <= 7
        assert step[1]["seed"]


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_hcf_turn_raises_within_the_range_or_folds(strategy: str, seed: int) -> None:
    bot = _bot(hcf_model("decisions", [RAISE, FOLD, LEAVE], turn=2, your_cards={
        "cards": ["Ah", "Kh", "Qh", "Jh", "2c", "3d", "4s"], "raise_limit": 3}), strategy, seed)
    step = _sent_ok(bot)
    assert step is not None
    assert step[1]["action"] == "fold" or 10 <= step[1]["amount"] <= 20
    assert not bot.report.errors


def test_nothing_offered_means_nothing_sent() -> None:
    bot = _bot(hcf_model("decisions", [LEAVE], turn=1))
    assert bot._next_step() is None


def test_stubborn_bots_never_answer_a_hand_move() -> None:
    bot = _bot(hcf_model("betting", [BET, PASS, LEAVE]), "stubborn")
    assert bot._next_step() is None


def test_a_bot_sat_out_by_the_clock_comes_back_and_tops_up_when_offered() -> None:
    bot = _bot(hcf_model("settled", [{"request": "sit_out", "sitting_out": False}, LEAVE]))
    assert bot._next_step() == ("sit_out", {"sitting_out": False})
    model = hcf_model("settled", [{"request": "top_up", "amount": {"min": 1, "max": 9900}}, {"request": "stand"}])
    model["seats"][1]["stack"] = 100
    bot = _bot(model)
    assert bot._next_step() == ("top_up", {"amount": 5000})  # its balance, within the range


def test_a_move_refused_again_and_again_is_left_to_the_clock() -> None:
    bot = _bot(hcf_model("betting", [BET, PASS, LEAVE]))
    steps = [bot._next_step() for _ in range(5)]
    assert all(s is not None for s in steps[:3])
    assert steps[3:] == [None, None]


CARIBBEAN = {"spots": 7, "max_hands": 3, "min_ante": 5, "max_ante": 500, "jackpot": True, "jackpot_wager": 1,
             "min_buy_in": 100, "max_buy_in": 10000}


def caribbean_model(moves: list[dict[str, Any]], **hand: Any) -> dict[str, Any]:
    """A Caribbean Stud table model: seat 2 is this player."""
    base = {"hand_id": 5, "phase": "betting", "bets": [], "spots": [], "turn": None}
    return {"table": TABLE, "game": "caribbean", "seq": 3, "settings": CARIBBEAN, "you": {"seat": 2},
            "seats": [{"seat": 2, "name": "bob", "stack": 1000}], "hand": {**base, **hand},
            "choices": {"seat": 2, "deadline": None, "moves": moves}}


def _real_bet_choices() -> list[dict[str, Any]]:
    """What the rules offer seat 2 with 1000 chips when bets open at a Caribbean Stud table."""
    state = new_hand(CaribbeanSettings(), [Player(2, 1000)], bytes(32))
    return [c for c in choices(state, 2) if c["action"] == "bet"]


SPOT_BETS = _real_bet_choices()


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_caribbean_bets_on_offered_spots_then_deals(strategy: str, seed: int) -> None:
    bot = _bot(caribbean_model([*SPOT_BETS, PASS, LEAVE]), strategy, seed)
    step = _sent_ok(bot)
    assert step is not None
    assert step[1]["action"] == "bet"
    placed = [{"seat": 2, "spot": b["spot"], "ante": b["ante"], "jackpot": b["jackpot"]} for b in step[1]["bets"]]
    deal = {"request": "move", "action": "deal"}
    clear = {"request": "move", "action": "clear"}
    bot = _bot(caribbean_model([deal, clear, PASS, LEAVE], bets=placed), strategy, seed)
    step = _sent_ok(bot)
    assert step is not None
    assert step[1]["action"] in ("deal", "clear")


def test_caribbean_plays_the_offered_spot_in_turn() -> None:
    spot = {"seat": 2, "spot": 4, "ante": 10, "cards": ["Ac", "Kd", "4h", "3s", "2c"], "class": "high_card"}
    moves = [{"request": "move", "action": "play", "spot": 4}, {"request": "move", "action": "fold", "spot": 4}]
    bot = _bot(caribbean_model([*moves, LEAVE], phase="decisions", spots=[spot], turn={"seat": 2, "spot": 4}))
    assert _sent_ok(bot) == ("move", {"action": "play", "spot": 4})


def test_caribbean_turn_not_offered_sends_nothing() -> None:
    spot = {"seat": 2, "spot": 4, "ante": 10, "cards": ["Ac", "Kd", "4h", "3s", "2c"], "class": "high_card"}
    bot = _bot(caribbean_model([LEAVE], phase="decisions", spots=[spot], turn={"seat": 2, "spot": 4}))
    assert bot._next_step() is None
