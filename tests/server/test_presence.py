"""Presence at the real server (docs/rules/hcf.md section 4): clocks, leaving, reconnecting, a second connection."""

from __future__ import annotations

import asyncio

import pytest

from client_cli.api import UnreachableError
from client_cli.connection import ServerRefused, http_json

from .conftest import Server
from .helpers import (
    Policy,
    expected_stacks,
    hand_events,
    one,
    raise_min,
    run_hands,
    seat_result,
    silent,
    stacks_of,
)


@pytest.mark.parametrize("table_overrides", [{"action_seconds": 1, "bet_seconds": 1}])
async def test_a_player_who_never_answers_folds_by_clock_and_is_sat_out_after_two_absent_hands(server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(
        Policy(), Policy(bank=False, decide=raise_min), Policy(bank=False, flush_bonus=3, decide=silent))
    await carol.call("willing_to_bank", {"table": "main", "willing": False})
    before = stacks_of(await host.snapshot())
    (first,) = await run_hands(host, 1)
    events = hand_events(host, first["hand_id"])
    assert one(events, "player_folded") == {"type": "player_folded", "seat": 3, "reason": "clock",
                                            "hand_id": first["hand_id"], "number": 1}
    turn = next(e for e in events if e["type"] == "turn_started" and e["seat"] == 3)
    assert turn["deadline"] > 0
    folded = seat_result(first, 3)
    assert folded["folded"]
    assert folded["ante"] == -10
    assert folded["flush_bonus"] == -3
    assert folded["raise"] == 0
    assert str(3) not in first["shown"], "a folded hand is never shown"
    assert not (await host.snapshot())["seats"][2]["sitting_out"], "one miss does not sit a player out"

    # She bet in the first hand, so she was there (issue 23 item 3): absent means a clock ran out and no move.
    # Second and third hands: carol does not even answer the bets; the clock closes them without her.
    server.bots[-1].policy.ante = None
    (second,) = await run_hands(host, 1)
    events = hand_events(host, second["hand_id"])
    passed = [e for e in events if e["type"] == "bets_passed"]
    assert [(e["seat"], e["reason"]) for e in passed] == [(3, "clock")]
    assert "3" not in second["bets"]
    assert not (await host.snapshot())["seats"][2]["sitting_out"], "one absent hand does not sit a player out"
    mark = host.mark()
    (third,) = await run_hands(host, 1)
    _, sat_out = await host.event("player_sat_out", since=mark)
    assert (sat_out["seat"], sat_out["reason"]) == (3, "clock")
    snapshot = await host.snapshot()
    assert snapshot["seats"][2]["sitting_out"] is True
    assert stacks_of(snapshot) == expected_stacks(before, [first, second, third])
    (fourth,) = await run_hands(host, 1)
    assert one(hand_events(host, fourth["hand_id"]), "hand_started")["seats"] == [1, 2]


async def test_leaving_during_a_hand_folds_at_the_turn_and_stands_after_settlement(server: Server) -> None:
    host, (_alice, _bob, carol) = await server.table(Policy(), Policy(bank=False), None)
    mark = host.mark()
    await host.host("resume")
    _, opened = await host.event("betting_opened", since=mark)
    assert opened["bettors"] == [2, 3]
    await carol.call("move", {"table": "main", "action": "bet", "ante": 20, "straight_flush_bonus": 4})
    reply = await carol.call("leave", {"table": "main"})
    assert reply["standing"] == "after_hand"
    await host.host("pause")
    _, revealed = await host.event("hand_revealed", since=mark)
    events = hand_events(host, revealed["hand_id"])
    assert one(events, "player_leaving")["seat"] == 3
    assert one(events, "player_folded")["seat"] == 3
    assert one(events, "player_folded")["reason"] == "left"
    assert seat_result(revealed, 3)["net"] == -20 - 4 - 1
    _, stood = await host.event("player_stood", since=mark)
    assert stood["seat"] == 3
    assert stood["cashed_out"] == 1000 - 25
    snapshot = await host.snapshot()
    assert [s["seat"] for s in snapshot["seats"]] == [1, 2]
    account = await http_json("GET", f"{server.url}/api/account", token=carol.token)
    assert account["balance"] == 10_000 - 25
    assert account["stacks"] == {}
    assert [m["kind"] for m in account["movements"][:2]] == ["cash_out", "buy_in"]


@pytest.mark.parametrize("table_overrides", [{"action_seconds": 8}])
async def test_reconnecting_in_the_middle_of_a_decision_shows_the_hand_and_play_carries_on(server: Server) -> None:
    host, (_alice, bob) = await server.table(Policy(), Policy(bank=False, decide=silent))
    mark = host.mark()
    await host.host("resume")
    _, turn = await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 2)
    await host.host("pause")
    _, cards = await bob.wait_for(lambda e: e.get("kind") == "private", since=0, what="bob's cards")
    dealt = cards["event"]["cards"]
    await server.bots[-1].stop()
    await bob.close()
    _, gone = await host.event("presence", since=mark, where=lambda e: e["seat"] == 2)
    assert gone["present"] is False

    again = await server.client(name="bob", token=bob.token, account_id=bob.account_id)
    again.seat = 2
    snapshot = await again.join()
    hand = snapshot["hand"]
    assert snapshot["you"]["seat"] == 2
    assert hand["phase"] == "decisions"
    assert hand["turn"] == 2
    assert hand["dealer"] == 1
    assert hand["your_cards"]["cards"] == dealt
    assert hand["clock"] == {"kind": "decision", "seat": 2, "deadline": turn["deadline"]}
    assert snapshot["server_time"] < turn["deadline"]
    _, back = await host.event("presence", since=mark, where=lambda e: e["seat"] == 2 and e["present"])
    assert back["present"] is True
    await again.call("move", {"table": "main", "action": "raise", "amount": hand["your_cards"]["raise_limit"] * 10})
    _, revealed = await host.event("hand_revealed", since=mark)
    assert revealed["status"] == "settled"
    assert revealed["shown"]["2"] == dealt
    _, settled = await again.event("hand_settled", since=0)
    assert settled["hand_id"] == revealed["hand_id"], "the new connection is back in the table's room"


async def test_a_second_connection_of_an_account_replaces_the_first(server: Server) -> None:
    host, (alice, _bob) = await server.table(None, None)
    await alice.call("join", {"table": "main", "lang": "de"})  # the page's language switch: German from now on
    second = await server.client(name="alice", token=alice.token, account_id=alice.account_id)
    _, replaced = await alice.wait_for(lambda e: e.get("kind") == "replaced", what="session_replaced")
    assert replaced["message"] == "dieses Konto hat sich von anderswo verbunden", "said in the connection's language"
    for _ in range(100):
        if not alice.connected:
            break
        await asyncio.sleep(0.02)
    assert not alice.connected, "the replaced connection was not disconnected"
    with pytest.raises(UnreachableError, match="not connected to the server"):
        await alice.conn.call("snapshot", {"table": "main"}, timeout=1)
    snapshot = await second.snapshot()
    assert snapshot["you"]["seat"] == 1
    assert snapshot["seats"][0]["present"] is True, "a replaced connection is not a departure"
    assert (await second.call("willing_to_bank", {"table": "main", "willing": False}))["willing_to_bank"] is False
    with pytest.raises(ServerRefused) as refused:
        await second.call("sit", {"table": "main"})
    assert refused.value.code == "seat/already_seated"
    assert not [e for e in host.table_events() if e.get("type") == "presence" and not e["present"]]
