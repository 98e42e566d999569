"""Full hands at the real server (docs/rules/hcf.md section 3): 2, 3 and 7 players, the bank offer, the button."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from .conftest import Server
from .helpers import (
    Bot,
    Client,
    Policy,
    events_of,
    expected_stacks,
    hand_events,
    one,
    raise_min,
    run_hands,
    stacks_of,
)


def assert_settled(hands: list[dict[str, Any]]) -> None:
    for revealed in hands:
        assert revealed["status"] == "settled", revealed
        assert len(revealed["dealer_cards"]) == 7
        assert revealed["settlement"]["house"] + revealed["settlement"]["dealer"]["net"] + sum(
            r["net"] for r in revealed["settlement"]["seats"]) == 0, "a settlement does not sum to zero"


def no_refusals(server: Server) -> None:
    refused = {bot.client.name: bot.refusals for bot in server.bots if bot.refusals}
    assert not refused, f"bots were refused: {refused}"


async def test_two_players_play_full_hands_and_the_bank_alternates(server: Server) -> None:
    host, _players = await server.table(Policy(flush_bonus=2), Policy(straight_flush_bonus=1))
    before = stacks_of(await host.snapshot())
    hands = await run_hands(host, 4)
    assert_settled(hands)
    assert [h["dealer"] for h in hands] == [1, 2, 1, 2]
    for revealed in hands:
        (result,) = revealed["settlement"]["seats"]
        assert result["seat"] == 3 - revealed["dealer"]
        assert not result["folded"]
        assert result["raise"] in (0, 10, 20, 30, -10, -20, -30)
        assert revealed["settlement"]["house"] == 1  # one player's fee (fee_mode players)
        assert sorted(revealed["shown"]) == [str(result["seat"])]
    assert stacks_of(await host.snapshot()) == expected_stacks(before, hands)
    no_refusals(server)


async def test_three_players_the_button_moves_clockwise(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(decide=raise_min), Policy())
    before = stacks_of(await host.snapshot())
    hands = await run_hands(host, 4)
    assert_settled(hands)
    assert [h["dealer"] for h in hands] == [1, 2, 3, 1]
    previous = None
    for revealed in hands:
        events = hand_events(host, revealed["hand_id"])
        dealer = revealed["dealer"]
        assert one(events, "hand_started")["offer_from"] == (1 if previous is None else previous % 7 + 1)
        previous = dealer
        assert [e["seat"] for e in events_of(events, "bank_offered")] == [dealer]
        opened = one(events, "betting_opened")
        assert opened["dealer"] == dealer
        assert dealer not in opened["bettors"]
        assert len(opened["bettors"]) == 2
        dealt = one(events, "cards_dealt")
        assert dealt["order"][-1] == dealer, "the DP is dealt last in each round"
        assert dealt["order"][0] == dealer % 3 + 1, "the deal starts left of the button"
        assert [e["seat"] for e in events_of(events, "turn_started")] == dealt["order"][:-1]
        assert revealed["settlement"]["order"] == list(reversed(dealt["order"][:-1])), \
            "settlement runs counter-clockwise from the right of the button"
    assert stacks_of(await host.snapshot()) == expected_stacks(before, hands)
    no_refusals(server)


async def test_seven_players_deal_49_distinct_cards(server: Server) -> None:
    host, players = await server.table(*[Policy(flush_bonus=1) for _ in range(7)])
    before = stacks_of(await host.snapshot())
    hands = await run_hands(host, 2, timeout=40)
    assert_settled(hands)
    assert [h["dealer"] for h in hands] == [1, 2]
    for revealed in hands:
        dealt = one(hand_events(host, revealed["hand_id"]), "cards_dealt")
        assert dealt["counts"] == {str(s): 7 for s in range(1, 8)}
        assert "hands" not in dealt, "the public deal shows counts only"
        cards = [*revealed["dealer_cards"], *(c for shown in revealed["shown"].values() for c in shown)]
        assert len(revealed["shown"]) == 6
        assert len(set(cards)) == 49
        for player in players:
            mine = [e["event"] for e in player.private_events() if e["seq"] == _seq_of(host, dealt)]
            assert len(mine) == 1
            seat = player.seat
            expected = revealed["dealer_cards"] if seat == revealed["dealer"] else revealed["shown"][str(seat)]
            assert mine[0]["cards"] == expected
    assert stacks_of(await host.snapshot()) == expected_stacks(before, hands)
    no_refusals(server)


def _seq_of(client: Client, event: dict[str, Any]) -> int:
    seq: int = next(e["seq"] for e in client.log if e.get("kind") == "table" and e["event"] is event)
    return seq


async def test_a_declined_offer_moves_clockwise_and_no_answer_declines(server: Server) -> None:
    host, _ = await server.table(Policy(bank=False), Policy(bank=None), Policy(), Policy())
    hands = await run_hands(host, 2)
    assert_settled(hands)
    assert [h["dealer"] for h in hands] == [3, 4]
    first = hand_events(host, hands[0]["hand_id"])
    assert [e["seat"] for e in events_of(first, "bank_offered")] == [1, 2, 3]
    assert [(e["seat"], e["reason"]) for e in events_of(first, "bank_declined")] == [(1, "declined"), (2, "clock")]
    assert one(first, "betting_opened")["bettors"] == [4, 1, 2]
    second = hand_events(host, hands[1]["hand_id"])
    assert one(second, "hand_started")["offer_from"] == 4
    assert [e["seat"] for e in events_of(second, "bank_offered")] == [4]
    assert one(second, "betting_opened")["bettors"] == [1, 2, 3]


@pytest.mark.parametrize("table_overrides", [{"offer_seconds": 8}])
async def test_nobody_willing_no_hand_until_someone_turns_the_switch_on(server: Server) -> None:
    host, (alice, bob) = await server.table(Policy(), Policy())
    for player in (alice, bob):
        assert (await player.call("willing_to_bank", {"table": "main", "willing": False}))["willing_to_bank"] is False
    mark = host.mark()
    await host.host("resume")
    _, waiting = await host.event("table_waiting", since=mark)
    assert waiting["reason"] == "no_bank"
    await asyncio.sleep(0.5)
    assert not events_of(host.table_events(mark), "hand_started")
    snap = await host.snapshot()
    assert snap["waiting_reason"] == "no_bank"
    assert snap["hand"] is None
    assert snap["status"] == "waiting"
    switched = asyncio.get_running_loop().time()
    await bob.call("willing_to_bank", {"table": "main", "willing": True})
    _, started = await host.event("hand_started", since=mark)
    assert asyncio.get_running_loop().time() - switched < 4, "the switch retries at once, not after the clock"
    await host.host("pause")
    _, revealed = await host.event("hand_revealed", since=mark, where=lambda e: e["hand_id"] == started["hand_id"])
    assert revealed["status"] == "settled"
    assert revealed["dealer"] == 2


async def test_everyone_declines_no_hand_then_the_offer_comes_round_again(server: Server) -> None:
    accept = {"alice": False}

    def choose(bot: Bot, _event: dict[str, Any]) -> bool:
        return accept.get(bot.client.name or "", False)

    host, _ = await server.table(Policy(choose_bank=choose), Policy(bank=False))
    mark = host.mark()
    await host.host("resume")
    _, not_dealt = await host.event("hand_not_dealt", since=mark)
    assert not_dealt["reason"] == "no_bank"
    _, first = await host.event("hand_revealed", since=mark)
    assert first["status"] == "not_dealt"
    assert "settlement" not in first
    accept["alice"] = True
    hands = await run_hands(host, 1, resume=False)
    assert hands[0]["status"] == "settled"
    assert hands[0]["dealer"] == 1
    events = hand_events(host, hands[0]["hand_id"])
    assert one(events, "hand_started")["offer_from"] == 1, "with no DP the search starts where it did"
    assert stacks_of(await host.snapshot()) == expected_stacks({1: 1000, 2: 1000}, [first, *hands])
