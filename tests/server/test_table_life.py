"""A table's life at the real server: seats, top-ups, sitting out, the host's tables, a DP who leaves."""

from __future__ import annotations

import asyncio

import pytest

from client_cli.connection import http_json

from .conftest import Server
from .helpers import (
    Policy,
    arranged,
    events_of,
    expected_stacks,
    hand_events,
    one,
    raise_min,
    run_hands,
    seat_result,
    silent,
    stacks_of,
)


async def test_two_accounts_racing_for_one_seat_one_gets_it(server: Server) -> None:
    host, _ = await server.table()
    alice = await server.player("alice", sit=False)
    bob = await server.player("bob", sit=False)
    replies = await asyncio.gather(*(c.conn.raw_call("sit", {"table": "main", "seat": 4}) for c in (alice, bob)))
    assert sorted(str(r.get("ok")) for r in replies) == ["False", "True"]
    (loser,) = [r for r in replies if not r["ok"]]
    assert loser["error"]["code"] == "seat/taken"
    seats = (await host.snapshot())["seats"]
    assert [(s["seat"], s["stack"]) for s in seats] == [(4, 1000)]


async def test_top_up_and_sitting_out_between_hands(server: Server) -> None:
    host, (_alice, bob, carol) = await server.table(Policy(), Policy(bank=False), Policy(bank=False))
    assert (await bob.call("top_up", {"table": "main", "amount": 500}))["stack"] == 1500
    assert (await carol.call("sit_out", {"table": "main", "sitting_out": True}))["sitting_out"] is True
    (first,) = await run_hands(host, 1)
    assert one(hand_events(host, first["hand_id"]), "hand_started")["seats"] == [1, 2]
    assert (await carol.call("sit_out", {"table": "main", "sitting_out": False}))["sitting_out"] is False
    (second,) = await run_hands(host, 1)
    assert one(hand_events(host, second["hand_id"]), "hand_started")["seats"] == [1, 2, 3]
    assert stacks_of(await host.snapshot()) == expected_stacks({1: 1000, 2: 1500, 3: 1000}, [first, second])
    account = await http_json("GET", f"{server.url}/api/account", token=bob.token)
    assert account["balance"] == 10_000 - 1500


@pytest.mark.parametrize("table_overrides", [{"action_seconds": 8}])
async def test_a_dp_who_leaves_mid_hand_banks_it_to_the_end_then_stands(server: Server) -> None:
    host, (alice, _bob, _carol) = await server.table(Policy(), Policy(bank=False, decide=silent),
                                                     Policy(bank=False))
    mark = host.mark()
    await host.host("resume")
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 2)
    await host.host("pause")
    assert (await alice.call("leave", {"table": "main"}))["standing"] == "after_hand"
    assert (await host.host("remove_player", seat=2))["removed"] == "after_hand"
    _, revealed = await host.event("hand_revealed", since=mark)
    events = hand_events(host, revealed["hand_id"])
    assert revealed["status"] == "settled"
    assert revealed["dealer"] == 1, "the DP who leaves stays the DP of that hand"
    assert [(e["seat"], e["reason"]) for e in events_of(events, "player_folded")] == [(2, "left")]
    assert seat_result(revealed, 2)["folded"]
    stood = [(await host.event("player_stood", since=mark, where=lambda e, s=seat: e["seat"] == s))[1]
             for seat in (1, 2)]
    after = {s["seat"]: s["stack"] for s in (await host.snapshot())["seats"]}
    expected = expected_stacks({1: 1000, 2: 1000, 3: 1000}, [revealed])
    assert after == {3: expected[3]}
    for e in stood:
        assert e["cashed_out"] == expected[e["seat"]]
    account = await http_json("GET", f"{server.url}/api/account", token=alice.token)
    assert account["balance"] == 9000 + expected[1]


async def test_an_arranged_deck_waits_for_a_hand_that_is_dealt(server: Server) -> None:
    host, (alice, _bob) = await server.table(Policy(), Policy())
    await alice.call("willing_to_bank", {"table": "main", "willing": False})
    await _bob.call("willing_to_bank", {"table": "main", "willing": False})
    deck = arranged({1: "2c 4d 6s 8c Td Qs 3c", 2: "Ah Kh Qh Jh Th 9h 8h"}, order=[2, 1])
    await host.host("arrange_deck", cards=deck)
    mark = host.mark()
    await host.host("resume")
    await host.event("table_waiting", since=mark, where=lambda e: e["reason"] == "no_bank")
    await host.host("pause")
    assert (await host.snapshot())["arranged_next"] is True, "no hand was dealt: the arranged deck still waits"
    await alice.call("willing_to_bank", {"table": "main", "willing": True})
    (revealed,) = await run_hands(host, 1)
    assert revealed["arranged"] is True
    assert revealed["dealer_cards"] == ["2c", "4d", "6s", "8c", "Td", "Qs", "3c"]


async def test_the_host_creates_a_house_banked_table_and_closes_it(server: Server) -> None:
    host = await server.host()
    settings = {"profile": "standard", "pause_seconds": 0, "bet_seconds": 2, "action_seconds": 2}
    created = await host.host("create_table", table="casino", settings=settings)
    assert created["table"]["name"] == "casino"
    assert created["table"]["settings"]["profile"] == "standard"
    await host.join("casino")
    await host.host("pause", "casino")
    players = [await server.player(name, table="casino", policy=Policy(flush_bonus=1, straight_flush_bonus=1))
               for name in ("alice", "bob")]
    hands = await run_hands(host, 2, table="casino")
    for revealed in hands:
        assert revealed["status"] == "settled"
        assert revealed["dealer"] is None
        assert revealed["profile"] == "standard"
        assert len(revealed["dealer_cards"]) == 7, "the house is dealt a hand"
        settlement = revealed["settlement"]
        assert settlement["dealer"]["fee"] == 0, "no fee by default"
        assert settlement["house"] == 0
    snapshot = await host.snapshot("casino")
    nets = {seat: sum(r["net"] for h in hands for r in h["settlement"]["seats"] if r["seat"] == seat)
            for seat in (1, 2)}
    assert {s["seat"]: s["stack"] for s in snapshot["seats"]} == {seat: 1000 + net for seat, net in nets.items()}
    lobby = await http_json("GET", f"{server.url}/api/tables")
    assert sorted(t["name"] for t in lobby["tables"]) == ["casino", "main"]

    closed = await host.host("close_table", "casino")
    assert closed["closed"] in ("now", "after_hand")
    await host.event("table_closed", since=0)
    lobby = await http_json("GET", f"{server.url}/api/tables")
    assert [t["name"] for t in lobby["tables"]] == ["main"]
    for player, seat in zip(players, (1, 2), strict=True):
        stack = {s["seat"]: s["stack"] for s in snapshot["seats"]}[seat]
        account = await http_json("GET", f"{server.url}/api/account", token=player.token)
        assert account["stacks"] == {}
        assert account["balance"] == 9000 + stack, "closing the table sent every stack home"
    assert await players[0].refused("sit", {"table": "casino"}) in ("table/closed", "table/unknown")


@pytest.mark.parametrize("table_overrides", [{"action_seconds": 8}])
async def test_a_spectator_who_leaves_the_table_hears_no_more_and_a_late_sitter_waits_for_the_next_hand(
        server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(bank=False, decide=silent))
    spectator = await server.client(name="spectator")
    await spectator.join()
    mark = host.mark()
    await host.host("resume")
    _, turn = await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 2)
    await host.host("pause")
    late = await server.player("carol", seat=5)
    assert await late.refused("move", {"table": "main", "action": "bet", "ante": 10}) == "seat/not_in_hand"
    assert await late.refused("move", {"table": "main", "action": "fold"}) == "seat/not_in_hand"
    assert "your_cards" not in (await late.snapshot())["hand"]
    await spectator.call("leave_table", {"table": "main"})
    heard = spectator.mark()
    await server.bots[-1].client.call("move", {"table": "main", "action": "fold"})
    _, revealed = await host.event("hand_revealed", since=mark)
    assert revealed["hand_id"] == turn["hand_id"]
    assert one(hand_events(host, revealed["hand_id"]), "hand_started")["seats"] == [1, 2]
    await asyncio.sleep(0.2)
    assert spectator.table_events(heard) == [], "a spectator who left the table still hears it"
    server.bots[-1].policy.decide = raise_min
    server.bot(late, Policy(bank=False))
    (next_hand,) = await run_hands(host, 1)
    assert 5 in one(hand_events(host, next_hand["hand_id"]), "hand_started")["seats"]
