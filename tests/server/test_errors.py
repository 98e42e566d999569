"""Every kind of bad input gets its error code, and nothing changes (snapshots and the ledger compared)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import socketio

from client_cli.connection import http_json
from server.app import DATABASE, GATEWAY
from tests.support.clock import ManualClock

from .conftest import Server
from .helpers import Client, arranged

SLOW = {"offer_seconds": 60, "bet_seconds": 60, "action_seconds": 60, "max_buy_in": 20_000}
T = {"table": "main"}


async def state(server: Server, viewer: Client) -> tuple[dict[str, Any], int, dict[str, int]]:
    """What must not change: the viewer's snapshot (but the time) and the ledger."""
    snapshot = await viewer.snapshot()
    snapshot.pop("server_time")
    report = await server.app[DATABASE].ledger_check(tables_in_play=["main"])
    assert report.ok, report.discrepancies
    return snapshot, report.transfers, report.totals


async def refusals(cases: list[tuple[Client, str, Any, str]]) -> None:
    for client, event, payload, code in cases:
        got = await client.refused(event, payload)
        assert got == code, f"{client.name} {event} {payload!r}: expected {code}, got {got}"


@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_bad_requests_between_hands_are_refused_and_change_nothing(server: Server) -> None:
    host, (alice, _bob) = await server.table(None, None)
    eve = await server.player("eve", buy_in=10_000)  # every chip she has
    frank = await server.player("frank", sit=False)
    spectator = await server.client(name="spectator")
    await spectator.join()
    before = [await state(server, viewer) for viewer in (host, alice, eve)]
    await refusals([
        # not an object, wrong types, extra or missing keys
        (alice, "sit", ["main"], "request/malformed"),
        (alice, "sit", "main", "request/malformed"),
        (alice, "sit", None, "request/malformed"),
        (alice, "sit", {"table": "main", "seat": "1"}, "request/malformed"),
        (alice, "sit", {"table": "main", "buy_in": 100.0}, "request/malformed"),
        (alice, "move", {"table": "main", "action": "bet", "ante": True}, "request/malformed"),
        (alice, "move", {"table": "main", "action": "bet", "ante": -5}, "request/malformed"),
        (alice, "willing_to_bank", {"table": "main", "willing": "yes"}, "request/malformed"),
        (alice, "top_up", {"table": "main", "amount": 0}, "request/malformed"),
        (alice, "snapshot", {"table": "main", "extra": 1}, "request/malformed"),
        (alice, "join", {}, "request/malformed"),
        (alice, "join", {"table": "no spaces!"}, "request/malformed"),
        (alice, "host", {"action": "explode", "table": "main"}, "request/malformed"),
        (alice, "frobnicate", T, "request/unknown"),
        (alice, "bet", {"table": "main", "ante": 10}, "request/unknown"),  # protocol v1's requests are gone
        (alice, "fold", T, "request/unknown"),
        (alice, "snapshot", {"table": "main", "pad": "x" * 5000}, "request/too_large"),
        # unknown tables
        (alice, "join", {"table": "nope"}, "table/unknown"),
        (alice, "snapshot", {"table": "nope"}, "table/unknown"),
        (frank, "sit", {"table": "nope"}, "table/unknown"),
        # seats
        (frank, "sit", {"table": "main", "seat": 1}, "seat/taken"),
        (frank, "sit", {"table": "main", "seat": 8}, "seat/invalid"),
        (frank, "sit", {"table": "main", "buy_in": 99}, "buy_in/out_of_range"),
        (frank, "stand", T, "seat/not_seated"),
        (frank, "top_up", {"table": "main", "amount": 5}, "seat/not_seated"),
        (alice, "sit", T, "seat/already_seated"),
        (alice, "top_up", {"table": "main", "amount": 19_500}, "buy_in/out_of_range"),
        (eve, "top_up", {"table": "main", "amount": 1}, "ledger/insufficient_funds"),
        # who may do what
        (spectator, "sit", T, "auth/required"),
        (spectator, "move", {"table": "main", "action": "bet", "ante": 10}, "auth/required"),
        (spectator, "host", {"action": "pause", "table": "main"}, "auth/not_host"),
        (alice, "host", {"action": "resume", "table": "main"}, "auth/not_host"),
        (alice, "host", {"action": "grant_chips", "account": "alice", "amount": 5}, "auth/not_host"),
        # moves with no hand
        (alice, "move", {"table": "main", "action": "bet", "ante": 10}, "hand/none"),
        (alice, "move", {**T, "action": "fold"}, "hand/none"),
        (host, "host", {"action": "change_settings", "table": "main", "settings": {"min_ante": 0}},
         "settings/invalid"),
        (host, "host", {"action": "change_settings", "table": "main", "settings": {"nonsense": 1}},
         "settings/invalid"),
        (host, "host", {"action": "create_table", "table": "main"}, "table/exists"),
    ])
    after = [await state(server, viewer) for viewer in (host, alice, eve)]
    assert after == before


@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_bad_moves_during_a_hand_are_refused_and_change_nothing(server: Server) -> None:
    host, (alice, bob, carol) = await server.table(None, None, None)
    await carol.call("stand", T)
    await carol.sit(seat=3, buy_in=100)
    outsider = await server.player("eve", sit=False)
    deck = arranged({1: "2c 4d 6s 8c Td Qs 3c", 2: "5d 7s 9d Jc 2h 3s 4s", 3: "Ah Kh Qh Jh 9h 8h 5c"},
                    order=[2, 3, 1])
    await host.host("arrange_deck", cards=deck)
    mark = host.mark()
    await host.host("resume")
    await host.event("bank_offered", since=mark, where=lambda e: e["seat"] == 1)
    await host.host("pause")

    async def unchanged(cases: list[tuple[Client, str, Any, str]]) -> None:
        before = await state(server, host), await state(server, bob)
        await refusals(cases)
        assert (await state(server, host), await state(server, bob)) == before

    await unchanged([
        (bob, "move", {"table": "main", "action": "bank", "accept": True}, "turn/not_yours"),
        (carol, "move", {"table": "main", "action": "bank", "accept": False}, "turn/not_yours"),
        (bob, "move", {"table": "main", "action": "bet", "ante": 10}, "phase/wrong"),
        (bob, "move", {"table": "main", "action": "raise", "amount": 10}, "phase/wrong"),
        (outsider, "move", {"table": "main", "action": "bank", "accept": True}, "seat/not_seated"),
    ])
    await alice.call("move", {"table": "main", "action": "bank", "accept": True})
    await host.event("betting_opened", since=mark)
    await unchanged([
        (alice, "move", {"table": "main", "action": "bet", "ante": 10}, "bet/not_a_player"),
        (alice, "move", {"table": "main", "action": "bank", "accept": True}, "phase/wrong"),
        (bob, "move", {"table": "main", "action": "bet", "ante": 4}, "bet/below_min"),
        (bob, "move", {"table": "main", "action": "bet", "ante": 501}, "bet/above_max"),
        (bob, "move", {"table": "main", "action": "bet", "ante": 10, "flush_bonus": 101}, "bet/above_max"),
        (bob, "move", {"table": "main", "action": "bet", "ante": 0, "flush_bonus": 5}, "bet/bonus_without_ante"),
        (bob, "move", {"table": "main", "action": "bet", "ante": 10, "seed": "s" * 129}, "request/malformed"),
        # 50 + 50 + fee 1 > 100
        (carol, "move", {"table": "main", "action": "bet", "ante": 50}, "bet/insufficient_stack"),
        (bob, "move", {**T, "action": "fold"}, "phase/wrong"),
    ])
    await bob.call("move", {"table": "main", "action": "bet", "ante": 10})
    await unchanged([(bob, "move", {"table": "main", "action": "bet", "ante": 10}, "bet/already_answered")])
    await carol.call("move", {"table": "main", "action": "bet", "ante": 40})
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 2)
    hand = (await bob.snapshot())["hand"]
    assert hand["your_cards"]["raise_limit"] == 1
    await unchanged([
        (carol, "move", {"table": "main", "action": "raise", "amount": 40}, "turn/not_yours"),
        (carol, "move", {**T, "action": "fold"}, "turn/not_yours"),
        (alice, "move", {**T, "action": "fold"}, "turn/not_yours"),
        (bob, "move", {"table": "main", "action": "raise", "amount": 9}, "raise/below_min"),
        (bob, "move", {"table": "main", "action": "raise", "amount": 11}, "raise/above_limit"),
        (bob, "move", {"table": "main", "action": "raise", "amount": "10"}, "request/malformed"),
        (bob, "move", {"table": "main", "action": "bet", "ante": 10}, "phase/wrong"),
        (outsider, "move", {**T, "action": "fold"}, "seat/not_seated"),
        (bob, "top_up", {"table": "main", "amount": 10}, "table/hand_in_progress"),
    ])
    await bob.call("move", {"table": "main", "action": "raise", "amount": 10})
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 3)
    # a 6-card flush allows 3x the Ante (120), but 100 - 40 - 1 leaves only 59
    await unchanged([(carol, "move", {"table": "main", "action": "raise", "amount": 100}, "raise/insufficient_stack"),
                     (carol, "move", {"table": "main", "action": "raise", "amount": 121}, "raise/above_limit")])
    await carol.call("move", {"table": "main", "action": "raise", "amount": 59})
    _, revealed = await host.event("hand_revealed", since=mark)
    assert revealed["status"] == "settled"
    assert revealed["bets"]["3"]["raise"] == 59
    await refusals([(bob, "move", {"table": "main", "action": "raise", "amount": 10}, "hand/none")])


async def test_bad_tokens_are_refused_at_connect(server: Server) -> None:
    revoked = await server.account("mallory")
    await http_json("POST", f"{server.url}/api/logout", token=revoked["token"])
    cases = [({"token": "not-a-token"}, "auth/token_invalid"), ({"token": revoked["token"]}, "auth/token_invalid"),
             ({"host_token": "not-the-host-token"}, "auth/not_host")]
    for auth, code in cases:
        client = Client(server.url, **auth)
        reasons: list[Any] = []

        async def refused_because(data: Any, reasons: list[Any] = reasons) -> None:
            reasons.append(data)

        client.conn.sio.on("connect_error", refused_because)
        with pytest.raises(socketio.exceptions.ConnectionError):
            await client.connect()
        await client.close()
        assert reasons, "no connect_error reason"
        assert reasons[0]["data"]["code"] == code, reasons
    assert not server.app[GATEWAY].identities, "a refused connection left an identity behind"


@pytest.mark.parametrize("config_overrides", [{"rate_per_second": 20.0, "rate_burst": 40}])  # production values
@pytest.mark.parametrize("table_overrides", [SLOW])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_flood_of_requests_is_rate_limited_and_changes_nothing(server: Server) -> None:
    host, (alice, _bob) = await server.table(None, None)
    before = await state(server, host)
    replies = await asyncio.gather(*(alice.conn.raw_call("willing_to_bank", {"table": "main", "willing": True})
                                     for _ in range(120)))
    codes = [r["error"]["code"] if not r["ok"] else "ok" for r in replies]
    # a burst of 40, then 20 a second: most of 120 requests sent at once are refused
    assert codes.count("rate/limited") >= 20, codes
    assert 30 <= codes.count("ok") <= 100, codes
    assert set(codes) == {"ok", "rate/limited"}
    assert await state(server, host) == before
    # the server's time stands still: no token came back meanwhile, one second brings back 20
    again = await alice.conn.raw_call("willing_to_bank", {"table": "main", "willing": True})
    assert again["error"]["code"] == "rate/limited", again
    assert isinstance(server.clock, ManualClock)
    server.clock.advance(1.0)
    assert (await alice.call("willing_to_bank", {"table": "main", "willing": True}))["ok"], "the bucket refills"
