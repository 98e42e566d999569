"""Stopping the server (docs/rules/hcf.md section 5, interrupted hands): no chip is ever lost."""

from __future__ import annotations

import asyncio
import io
import time
from typing import Any

import pytest

from client_cli.api import ServerRefused
from client_cli.connection import Connection, http_json
from client_cli.play import PlayOptions, play
from client_cli.terminal import PlainFace
from server.app import GATEWAY
from server.persistence.database import open_database

from .conftest import Server
from .helpers import Policy, events_of, expected_stacks, silent, stacks_of


async def _hand_waiting_on_bob(server: Server) -> tuple[int, dict[int, int]]:
    """Alice banks, bob and carol bet; it is bob's decision and he never answers. (hand id, stacks before)"""
    host, _ = await server.table(Policy(), Policy(bank=False, flush_bonus=3, decide=silent),
                                 Policy(bank=False, straight_flush_bonus=2))
    before = stacks_of(await host.snapshot())
    mark = host.mark()
    await host.host("resume")
    _, turn = await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 2)
    return turn["hand_id"], before


@pytest.mark.parametrize("table_overrides", [{"action_seconds": 30, "fee_mode": "all"}])
async def test_stopping_in_the_middle_of_a_hand_voids_it_and_every_chip_goes_back(server: Server) -> None:
    hand_id, before = await _hand_waiting_on_bob(server)
    host = await server.host()
    watchers = [host, *server.clients]
    started = time.monotonic()
    await server.stop()
    took = time.monotonic() - started
    assert took < server.config.shutdown_grace + 4, f"the shutdown took {took:.1f}s"
    voided = [e for e in host.table_events() if e.get("type") == "hand_voided"]
    assert voided == [{"type": "hand_voided", "reason": "shutdown", "hand_id": hand_id, "number": 1}]
    revealed = next(e for e in host.table_events() if e.get("type") == "hand_revealed")
    assert revealed["status"] == "void"
    assert revealed["server_seed"], "a voided hand still reveals its seed"
    assert any(e.get("kind") == "notice" for e in host.log), "clients are told the server is stopping"
    for _ in range(50):
        if not any(c.connected for c in watchers):
            break
        await asyncio.sleep(0.05)
    assert not any(c.connected for c in watchers), "the server disconnects its clients"
    assert stacks_of_table(server) == before, "every bet and fee went back to its stack"
    database = await open_database(server.database_url)
    try:
        hand = await database.get_hand(hand_id)
        assert hand.status == "void"
    finally:
        await database.close()


def stacks_of_table(server: Server) -> dict[int, int]:
    runner = server.tables.runners["main"]
    return {seat: runner.stacks[s.account] for seat, s in runner.roster.by_seat.items()}


# The stop waits for the hand to end, not for the whole grace: a long grace costs no time, and a loaded machine
# never runs out of it.
@pytest.mark.parametrize(("config_overrides", "table_overrides"), [({"shutdown_grace": 30.0}, {"action_seconds": 1})])
async def test_a_hand_that_can_end_within_the_grace_time_ends_before_the_server_stops(server: Server) -> None:
    hand_id, before = await _hand_waiting_on_bob(server)
    host = await server.host()
    late = await server.player("dave", sit=False)
    stopping = asyncio.create_task(server.stop())
    await host.wait_for(lambda e: e.get("kind") == "notice", what="the shutdown notice")
    assert await late.refused("sit", {"table": "main"}) == "server/shutting_down"
    await stopping
    events = [e for e in host.table_events() if e.get("hand_id") == hand_id]
    # bob's clock runs out; carol still plays her move while the server waits for the hand
    assert [(e["seat"], e["reason"]) for e in events_of(events, "player_folded")] == [(2, "clock")]
    assert [e["seat"] for e in events_of(events, "player_raised")] == [3]
    revealed = events_of(events, "hand_revealed")[0]
    assert revealed["status"] == "settled"
    assert not events_of(host.table_events(), "hand_voided")
    assert len(events_of(host.table_events(), "hand_started")) == 1, "no new hand starts while stopping"
    assert stacks_of_table(server) == expected_stacks(before, [revealed])


@pytest.mark.parametrize("pause", [0.0, 0.002, 0.005])
async def test_stopping_right_after_a_crowd_leaves_never_cuts_a_transaction_in_half(
        server: Server, pause: float) -> None:
    # Seven disconnections queue seven presence changes; the stop lands while they are being
    # recorded. The finalizer then opens the same SQLite file: a transaction cut in half would
    # have left the write lock held ("database is locked").
    _, players = await server.table(*[None] * 7)
    await asyncio.gather(*(p.close() for p in players))
    await asyncio.sleep(pause)
    await server.stop()


@pytest.mark.parametrize("table_overrides", [{"action_seconds": 30}])
async def test_a_hand_interrupted_by_a_crash_is_voided_at_restart(server: Server) -> None:
    hand_id, before = await _hand_waiting_on_bob(server)
    await server.crash()
    database = await open_database(server.database_url)
    try:
        assert [h.id for h in await database.hands_in_progress()] == [hand_id]
        assert (await database.ledger_check()).open_felt_places, "the crash left bets on the felt"
    finally:
        await database.close()

    again = await server.restart()
    host = await again.host()
    snapshot = await host.snapshot()
    assert snapshot["hand"] is None
    assert {s["seat"]: s["stack"] for s in snapshot["seats"]} == before, "seats and stacks came back, bets refunded"
    hand = await again.app_database().get_hand(hand_id)
    assert hand.status == "void"
    assert hand.summary is not None
    assert hand.summary["reason"] == "interrupted"
    last = snapshot["last_hand"]
    assert last is None or (last["hand_id"], last["status"], last["reason"]) == (hand_id, "void", "interrupted")


async def test_a_client_sent_away_by_a_stopping_server_tries_again_and_quits_at_once_when_told(
        server: Server) -> None:
    # python-socketio's own reconnection gives up on a disconnection the server sent; ours does not.
    conn = Connection(server.url, reconnect=True)
    await conn.connect()
    await conn.join("main")
    await server.stop()
    for _ in range(100):
        if conn._comeback is not None:
            break
        await asyncio.sleep(0.05)
    assert conn._comeback is not None, "the client gave up when the server sent it away"
    comeback = conn._comeback
    started = time.monotonic()
    await conn.close()
    assert time.monotonic() - started < 1.0, "quitting waited for the reconnection"
    assert comeback.done()
    assert not conn.connected


async def test_an_error_exit_of_hcf_play_does_not_say_the_connection_was_lost(server: Server) -> None:
    account = await server.account("alice")
    out = io.StringIO()
    code = await play(PlayOptions(url=server.url, table="nosuch"), account["token"], PlainFace(out))
    assert code == 1
    assert "connection lost" not in out.getvalue(), out.getvalue()


async def test_a_client_replaced_by_a_newer_connection_of_its_account_does_not_come_back(server: Server) -> None:
    account = await server.account("alice")
    old = Connection(server.url, token=account["token"], reconnect=True)
    await old.connect()
    new = Connection(server.url, token=account["token"], reconnect=True)
    await new.connect()
    try:
        await asyncio.wait_for(old.replaced.wait(), 5)
        await asyncio.sleep(1.5)  # longer than the first attempts of a comeback
        assert not old.connected, "the replaced connection came back and would throw the new one off"
        assert new.connected
        assert not new.replaced.is_set()
    finally:
        await old.close()
        await new.close()


async def test_a_client_the_server_will_not_take_back_stops_trying_and_says_why(server: Server) -> None:
    account = await server.account("alice")
    conn = Connection(server.url, token=account["token"], reconnect=True)
    await conn.connect()
    try:
        await _sid_of(server, account["account_id"])
        await http_json("POST", f"{server.url}/api/logout", {}, token=account["token"])  # closes its socket
        while True:
            item = await asyncio.wait_for(conn.events.get(), 10)
            if item.get("kind") in ("gone", "revoked"):
                break
        await asyncio.sleep(1.0)  # longer than the first attempts of a comeback
        assert conn._comeback is None, "it keeps trying with a token the server refuses"
        assert not conn.connected
    finally:
        await conn.close()



async def _sid_of(server: Server, account: int) -> str:
    """The account's socket, once the server has finished taking it in (the connect answer comes first)."""
    gateway = server.app[GATEWAY]
    for _ in range(200):
        if account in gateway.sid_of_account:
            return str(gateway.sid_of_account[account])
        await asyncio.sleep(0.01)
    raise AssertionError("the server never registered the connection")


async def test_a_client_refused_as_too_quick_when_it_comes_back_waits_and_comes_back(server: Server) -> None:
    # A restart brings every client back at once; a rate/limited answer is a "not yet", never "gone".
    account = await server.account("alice")
    conn = Connection(server.url, token=account["token"], reconnect=True)
    await conn.connect()
    real_connect, tries = conn.connect, []

    async def first_refused() -> None:
        tries.append(1)
        if len(tries) == 1:
            raise ServerRefused("rate/limited", "too many connections of this account: try again in 1 s")
        await real_connect()

    try:
        await conn.sio.disconnect()  # as if the server had sent it away: the comeback below takes over
        conn.connect = first_refused  # type: ignore[method-assign]
        await asyncio.wait_for(conn._come_back(), 15)
        gone = [item for item in _drain(conn.events) if item.get("kind") == "gone"]
        assert not gone, f"a rate/limited refusal ended the comeback: {gone}"
        assert len(tries) >= 2, "no second try after the refusal"
        assert conn.connected, "the client did not come back after the refusal"
    finally:
        await conn.close()


def _drain(queue: asyncio.Queue[dict[str, Any]]) -> list[dict[str, Any]]:
    items = []
    while not queue.empty():
        items.append(queue.get_nowait())
    return items
