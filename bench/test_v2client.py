"""Checks of the benchmark's two protocols without a server (run by hand, not part of the suite).

    .venv/bin/python -m pytest -q -p no:randomly bench/test_v2client.py

The load generator's player is fed the frames a server would send (``RawClient._packet``)
and the frames it writes are read back from a fake websocket: a v2 hand (updates,
choices, answers carrying the player's update, a gap and its snapshot) and a v1 hand.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from typing import Any

import pytest

from bench.loadgen import Generator, Player
from bench.v2client import APPLIED, GAP, OLD, Model, is_v2_snapshot, pick_move

BET = {"request": "move", "action": "bet", "ante": {"min": 10, "max": 500},
       "straight_flush_bonus": {"min": 0, "max": 100}, "flush_bonus": {"min": 0, "max": 100}}
RAISE = {"request": "move", "action": "raise", "amount": {"min": 10, "max": 40}}
FOLD = {"request": "move", "action": "fold"}
STRAIGHT_FLUSH = ["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"]
NOTHING = ["9h", "8h", "7h", "6c", "5c", "4d", "2s"]


def fixed_raise(amount: int) -> Any:
    def choose(_strategy: str, _cards: list[str], _ante: int, top: int, _rng: random.Random) -> int:
        return min(amount, top)
    return choose


def update(first: int, last: int, moves: list[dict[str, Any]], events: list[dict[str, Any]] | None = None,
           seat: int | None = 3) -> dict[str, Any]:
    return {"table": "t", "from_seq": first, "seq": last, "server_time": 1.0, "events": events or [],
            "view": {"phase": f"p{last}"}, "choices": {"seat": seat, "deadline": None, "moves": moves}}


# ------------------------------------------------------------------ the model


def test_an_update_that_follows_is_applied_and_sets_the_choices() -> None:
    model = Model(seq=40)
    assert model.apply(update(41, 47, [BET])) == APPLIED
    assert (model.seq, model.choices["moves"], model.view["phase"], model.seat) == (47, [BET], "p47", 3)


def test_an_update_already_seen_is_dropped() -> None:
    model = Model(seq=47)
    assert model.apply(update(45, 47, [FOLD])) == OLD
    assert model.seq == 47
    assert model.choices == {}


def test_an_update_after_a_gap_asks_for_a_snapshot_and_changes_nothing() -> None:
    model = Model(seq=40)
    assert model.apply(update(43, 44, [BET])) == GAP
    assert model.seq == 40
    assert model.choices == {}


def test_a_model_that_saw_nothing_starts_from_its_first_update() -> None:
    model = Model()
    assert model.apply(update(9, 12, [])) == APPLIED
    assert model.seq == 12


def test_a_snapshot_replaces_the_model_with_its_choices_inside_or_beside_it() -> None:
    model = Model(seq=3)
    model.load_snapshot({"ok": True, "snapshot": {"seq": 50, "choices": {"seat": 1, "moves": [FOLD]}}})
    assert (model.seq, model.seat, model.choices["moves"]) == (50, 1, [FOLD])
    model.load_snapshot({"ok": True, "snapshot": {"seq": 51}, "choices": {"seat": 2, "moves": []}})
    assert (model.seq, model.seat) == (51, 2)
    assert is_v2_snapshot({"snapshot": {"seq": 1, "choices": {}}})
    assert not is_v2_snapshot({"snapshot": {"seq": 1}})


# ------------------------------------------------------------------ what the player picks


def pick(moves: list[dict[str, Any]], cards: list[str], ante: int = 5, chooser: Any = None) -> Any:
    return pick_move({"seat": 3, "moves": moves}, cards, ante, random.Random(1), chooser or fixed_raise(0))


def test_the_bank_is_accepted_when_offered() -> None:
    p = pick([{"request": "move", "action": "bank", "accept": [True, False]}, {"request": "stand"}], [])
    assert (p.request, p.payload, p.label) == ("move", {"action": "bank", "accept": True}, "bank")


def test_the_ante_is_the_smallest_the_table_allows_and_no_bonus_is_bet() -> None:
    assert pick([BET, {"request": "move", "action": "pass"}], []).payload == {"action": "bet", "ante": 10}
    assert pick([BET], [], ante=20).payload == {"action": "bet", "ante": 20}


def test_a_raise_stays_inside_the_range_given() -> None:
    p = pick([RAISE, FOLD], STRAIGHT_FLUSH, chooser=fixed_raise(500))
    assert p.payload == {"action": "raise", "amount": 40}
    assert pick([RAISE, FOLD], STRAIGHT_FLUSH, chooser=fixed_raise(3)).payload == {"action": "raise", "amount": 10}


def test_the_basic_strategy_folds_nothing_and_raises_a_straight_flush() -> None:
    from client_cli.bots import choose_raise

    assert pick([RAISE, FOLD], NOTHING, ante=10, chooser=choose_raise).payload == {"action": "fold"}
    raised = pick([RAISE, FOLD], STRAIGHT_FLUSH, ante=10, chooser=choose_raise).payload
    assert raised["action"] == "raise"
    assert 10 <= raised["amount"] <= 40


def test_unknown_cards_fold() -> None:
    assert pick([RAISE, FOLD], [], chooser=fixed_raise(20)).payload == {"action": "fold"}


def test_a_sat_out_player_comes_back_and_other_table_items_are_left() -> None:
    assert pick([{"request": "sit_out", "sitting_out": False}], []).payload == {"sitting_out": False}
    assert pick([{"request": "sit_out", "sitting_out": True}, {"request": "stand"},
                 {"request": "top_up", "amount": {"min": 1, "max": 9}}], []) is None
    assert pick([], []) is None


# ------------------------------------------------------------------ the load generator's player, frame by frame


class FakeWs:
    """What the player's connection writes, and whether it is open."""

    closed = False

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_str(self, text: str) -> None:
        self.sent.append(text)


def make_player() -> tuple[Generator, Player, FakeWs]:
    args = argparse.Namespace(port=1, min_delay=0.0, max_delay=0.0, ante=10, buy_in=1000, seed=1)
    gen = Generator(args)
    gen.session = None  # type: ignore[assignment]  # the fake websocket below stands in for the connection
    player = Player(gen, "p3", "token", "t", counter=True)
    ws = FakeWs()
    player.client.ws = ws  # type: ignore[assignment]
    gen.players.append(player)
    return gen, player, ws


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def requests(ws: FakeWs) -> list[tuple[int, str, dict[str, Any]]]:
    """Every ``42<id>[event, data]`` the player wrote: (ack id, event, data)."""
    out = []
    for text in ws.sent:
        if text.startswith("42"):
            body = text.index("[")
            event, data = json.loads(text[body:])
            out.append((int(text[2:body]), event, data))
    return out


def push(player: Player, name: str, data: dict[str, Any]) -> None:
    player.client._packet("42" + json.dumps([name, data]))


def answer(player: Player, ack: int, reply: dict[str, Any]) -> None:
    player.client._packet(f"43{ack}" + json.dumps([reply]))


async def test_a_v2_hand_moves_on_choices_and_takes_its_updates_from_the_answers() -> None:
    gen, player, ws = make_player()
    player._update(update(1, 5, [], [{"seq": 5, "event": {"type": "player_sat", "seat": 3, "name": "p3"}}]))
    assert player.seat == 3
    assert requests(ws) == []

    push(player, "table_update", update(6, 8, [BET], [{"seq": 8, "event": {"type": "betting_opened"}}]))
    await settle()
    [(ack, event, data)] = requests(ws)
    assert (event, data) == ("move", {"table": "t", "action": "bet", "ante": 10})

    # the same choices pushed again while the bet is on its way: no second bet
    push(player, "table_update", update(9, 9, [BET]))
    await settle()
    assert len(requests(ws)) == 1

    dealt = [{"seq": 10, "event": {"type": "cards_dealt"}},
             {"seq": 10, "private": True, "event": {"type": "your_cards", "cards": STRAIGHT_FLUSH}},
             {"seq": 11, "event": {"type": "turn_started", "seat": 3}}]
    answer(player, ack, {"ok": True, "update": update(10, 11, [RAISE, FOLD], dealt)})
    await settle()
    assert player.cards == STRAIGHT_FLUSH
    (ack2, event2, data2) = requests(ws)[1]
    assert event2 == "move"
    assert data2["action"] == "raise"
    assert 10 <= data2["amount"] <= 40

    revealed = [{"seq": 12, "event": {"type": "hand_revealed", "status": "settled"}}]
    answer(player, ack2, {"ok": True, "update": update(12, 12, [], revealed)})
    await settle()
    assert len(requests(ws)) == 2
    report = gen.report()
    assert (report["hands"], report["settled"], report["snapshots"], report["protocol"]) == (1, 1, 0, 2)
    assert sorted(report["by_action_ms"]) == ["bet", "raise"]
    assert report["pushes"] == {"table_update": 2}


async def test_a_v2_gap_is_held_until_the_answer_that_fills_it() -> None:
    gen, player, ws = make_player()
    player._update(update(1, 5, [FOLD]))
    await settle()
    [(ack, _, _)] = requests(ws)
    # the next batch's push comes before the answer carrying this player's update (6-7)
    push(player, "table_update", update(8, 9, [BET]))
    await settle()
    assert player.model.seq == 5
    answer(player, ack, {"ok": True, "update": update(6, 7, [])})
    await settle()
    assert player.model.seq == 9
    assert [r[2]["action"] for r in requests(ws)] == ["fold", "bet"]
    assert gen.report()["snapshots"] == 0


async def test_a_v2_gap_that_stays_asks_one_snapshot_and_applies_what_came_meanwhile() -> None:
    gen, player, ws = make_player()
    gen.gap_hold = 0.0
    player._update(update(1, 5, []))
    push(player, "table_update", update(8, 9, [BET]))  # 6 and 7 never come
    push(player, "table_update", update(10, 10, [BET]))
    await settle()
    [(ack, event, data)] = requests(ws)
    assert (event, data) == ("snapshot", {"table": "t"})
    answer(player, ack, {"ok": True, "snapshot": {"seq": 9, "choices": {"seat": 3, "moves": [BET]}}})
    await settle()
    assert player.model.seq == 10
    assert [r[1] for r in requests(ws)] == ["snapshot", "move"]
    assert gen.report()["snapshots"] == 1


async def test_a_refused_move_waits_for_newer_choices_and_rate_limits_are_retried() -> None:
    gen, player, ws = make_player()
    player._update(update(1, 5, [FOLD]))
    await settle()
    [(ack, _, _)] = requests(ws)
    answer(player, ack, {"ok": False, "error": {"code": "rate/limited", "retry_after": 0.0}})
    await settle()
    [_, (ack2, event2, _)] = requests(ws)
    assert event2 == "move"
    answer(player, ack2, {"ok": False, "error": {"code": "turn/not_yours"}})
    await settle()
    assert len(requests(ws)) == 2  # the same choices are not tried again
    push(player, "table_update", update(6, 6, [FOLD]))
    await settle()
    assert len(requests(ws)) == 3
    report = gen.report()
    assert report["refused"] == {"turn/not_yours": 1}
    assert report["retries"] == 1


async def test_a_v1_hand_answers_the_events_with_the_old_requests() -> None:
    gen, player, ws = make_player()
    player.seat = 3
    push(player, "table_event", {"table": "t", "seq": 7, "event": {"type": "bank_offered", "seat": 3}})
    push(player, "table_event", {"table": "t", "seq": 8, "event": {"type": "betting_opened", "bettors": [3, 4]}})
    push(player, "private_event", {"table": "t", "seq": 9, "event": {"type": "your_cards", "cards": NOTHING}})
    push(player, "table_event", {"table": "t", "seq": 10, "event": {"type": "turn_started", "seat": 3}})
    push(player, "table_event", {"table": "t", "seq": 11, "event": {"type": "hand_revealed", "status": "settled"}})
    await settle()
    assert [(e, d) for _, e, d in requests(ws)] == [
        ("bank", {"table": "t", "accept": True}), ("bet", {"table": "t", "ante": 10}), ("fold", {"table": "t"})]
    report = gen.report()
    assert (report["hands"], report["protocol"]) == (1, 1)


@pytest.mark.parametrize("moves", [[BET], [RAISE, FOLD]])
def test_every_pick_is_a_request_of_the_choices(moves: list[dict[str, Any]]) -> None:
    p = pick(moves, STRAIGHT_FLUSH, chooser=fixed_raise(15))
    assert any(m["request"] == p.request and m.get("action") == p.payload.get("action") for m in moves)
