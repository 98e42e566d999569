"""The house rules for the bank at a real table (issue 26; docs/rules/hcf.md section 9): a real server on
loopback, real Socket.IO bots, a real SQLite file; the rotation window on the server's injected clock.

Each test posts its rules with the host's ``change_settings`` while the table is paused, then lets the bots play.
"""

from __future__ import annotations

from typing import Any

import pytest

from client_cli.connection import http_json
from tests.support.clock import ManualClock

from .conftest import Server
from .helpers import Client, Policy, run_hands

ENDED_ROUND = "the game ends: the bank went round the table and nobody took it"


def notes(snapshot: dict[str, Any]) -> dict[str, list[str]]:
    """The snapshot's notes, each title's lines."""
    return {note["title"]: note["lines"] for note in snapshot.get("notes", [])}


async def ended(host: Client, since: int) -> dict[str, Any]:
    """The table_waiting event that says the game ended."""
    _, event = await host.event("table_waiting", since=since, where=lambda e: e.get("reason") == "game_ended")
    return event


async def test_nobody_banks_wait_asks_again_and_never_ends_the_game(server: Server) -> None:
    host, (alice, _bob) = await server.table(Policy(bank=False), Policy(bank=False))
    await host.host("change_settings", settings={"nobody_banks": "wait"})
    mark = host.mark()
    await host.host("resume")
    first, _ = await host.event("hand_not_dealt", since=mark)
    await host.event("bank_offered", since=first)  # the bank is offered again: the same hand, tried once more
    assert not [e for e in host.table_events(mark) if e.get("reason") == "game_ended"]
    snapshot = await alice.snapshot()
    assert snapshot["status"] != "paused"
    assert "notes" not in snapshot, "a table without house rules shows none"


async def test_nobody_banks_end_ends_the_game_until_the_host_reopens_it(server: Server) -> None:
    host, (alice, bob) = await server.table(Policy(bank=False), Policy(bank=False))
    await host.host("change_settings", settings={"nobody_banks": "end"})
    before = {s["seat"]: s["stack"] for s in (await alice.snapshot())["seats"]}
    mark = host.mark()
    await host.host("resume")
    _, revealed = await host.event("hand_revealed", since=mark)
    assert revealed["bank"]["game_ends"] == "the bank went round the table and nobody took it: the game ends"
    event = await ended(host, mark)
    assert event["message"] == ENDED_ROUND
    _, seen = await bob.event("table_waiting", since=0, where=lambda e: e.get("reason") == "game_ended")
    assert seen["message"] == ENDED_ROUND  # every seat is told, in a sentence
    snapshot = await alice.snapshot()
    assert (snapshot["status"], snapshot["waiting_reason"]) == ("paused", "game_ended")
    assert {s["seat"]: s["stack"] for s in snapshot["seats"]} == before  # stacks stay, seats stay
    assert notes(snapshot)["House rules for the bank"] == [
        "when the bank goes round the table and nobody takes it, the game ends"]
    (entry,) = (await http_json("GET", f"{server.url}/api/tables"))["tables"]
    assert entry["phase"] == "game_ended"  # the lobby says so, not that the host paused it
    kinds = [e["type"] for e in host.table_events(mark)]
    assert kinds.count("hand_started") == 1
    assert "table_paused" not in kinds  # the table paused itself: never said as the host's doing
    # The host reopens it; this time alice takes the bank and a hand is dealt.
    server.bots[0].policy.bank = True
    again = host.mark()
    await host.host("resume")
    _, dealt = await host.event("hand_revealed", since=again, timeout=30)
    assert dealt["dealer"] == alice.seat
    assert dealt["status"] == "settled"
    await host.host("pause")


async def test_nobody_banks_third_party_the_third_party_banker_banks_when_every_player_refused(
        server: Server) -> None:
    host, (_alice, _bob, banker) = await server.table(Policy(bank=False), Policy(bank=False), Policy(bank=True),
                                                      names=("alice", "bob", "tpb"))
    await host.host("change_settings", settings={"nobody_banks": "third_party", "third_party_banker": "tpb"})
    snapshot = await host.snapshot()
    assert any("tpb banks as the third-party banker" in line
               for line in notes(snapshot)["House rules for the bank"])
    mark = host.mark()
    (revealed,) = await run_hands(host, 1)
    offered = [e["seat"] for e in host.table_events(mark) if e.get("type") == "bank_offered"]
    assert offered == [1, 2, banker.seat]  # asked only after every player refused
    assert revealed["dealer"] == banker.seat
    assert revealed["status"] == "settled"
    assert revealed["bank"]["third_party"] is True
    assert revealed["bank"]["refused"] == [1, 2]
    assert str(banker.seat) not in revealed["bets"]  # it never plays while it banks


async def test_bank_keep_two_the_dp_keeps_the_bank_two_hands_then_it_moves_on(server: Server) -> None:
    host, (alice, bob, _carol) = await server.table(Policy(), Policy(), Policy())
    await host.host("change_settings", settings={"bank_keep": 2})
    first, second = await run_hands(host, 2)
    assert (first["dealer"], second["dealer"]) == (alice.seat, alice.seat)
    assert second["bank"]["kept"] is True
    rotation = notes(await bob.snapshot())["The bank's rotation"]
    assert rotation == ["alice has banked 2 of 2 hands: the bank moves on"]
    mark = host.mark()
    (third,) = await run_hands(host, 1)
    assert third["dealer"] == bob.seat  # alice may not take it back before another player banked
    assert alice.seat not in [e["seat"] for e in host.table_events(mark) if e.get("type") == "bank_offered"]
    # The host takes the house rules off: every viewer's model drops the notes with the next update.
    mark = bob.mark()
    await host.host("change_settings", settings={"bank_keep": 1})
    await bob.event("settings_changed", since=mark)
    assert not bob.model().get("notes")
    assert "notes" not in await bob.snapshot()


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_forty_minute_window_warns_with_a_quarter_left_then_ends_the_game(server: Server) -> None:
    clock = server.clock
    assert isinstance(clock, ManualClock)
    # Only alice takes the bank: in 40 minutes nobody besides her banks, and the window asks for two.
    host, (_alice, bob, _carol) = await server.table(Policy(), Policy(bank=False), Policy(bank=False))
    await host.host("change_settings", settings={"rotation_window_minutes": 40, "rotation_window_dealers": 2})
    mark = host.mark()
    await host.host("resume")
    hands = 0
    while True:  # a hand every 5 minutes on the table's clock; the bots answer without a clock running out
        clock.advance(0.1)  # the resume's start of the next hand
        index, revealed = await host.wait_for(
            lambda e: e.get("kind") == "table" and (e["event"].get("type") == "hand_revealed"
                                                   or e["event"].get("reason") == "game_ended"),
            since=mark, what="a hand's end or the game's")
        mark = index + 1
        if revealed["event"].get("reason") == "game_ended":
            break
        hands += 1
        assert hands < 12, "the window never ended the game"
        clock.advance(300)
    events = host.table_events()
    warnings = [e["message"] for e in events if e.get("type") == "table_notice"]
    assert warnings == ["the window needs 2 more dealers in 10 min: bob or carol could bank"]
    # The window starts as the first hand ends: hands at 0, 5, ..., 35 minutes; at 40 the next is not dealt.
    assert hands == 8
    assert revealed["event"]["message"] == ("the game ends: in the last 40 minutes no player besides the one who "
                                             "banked most took the bank, and the house rules ask for 2")
    kinds = [e["type"] for e in events]
    assert kinds.index("table_notice") < len(kinds) - 1 - kinds[::-1].index("hand_started")  # warned before
    snapshot = await bob.snapshot()
    assert (snapshot["status"], snapshot["waiting_reason"]) == ("paused", "game_ended")
    (_, *told) = [e for e in bob.table_events() if e.get("type") == "table_notice"] or [None]
    assert not told  # once, not at every hand
