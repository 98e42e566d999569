"""Each table counts its own hands, dealt ones only; an offer nobody answers counts as a missed clock.

Issue 14 B.6 and B.7: the first hand at a new table was ``#23`` (the server-wide id),
and a table where nobody banks recorded a ``not_dealt`` "hand" every ``offer_seconds``,
forever, without ever sitting out the player who let the offer run out.
"""

from __future__ import annotations

from typing import Any

import pytest

from client_cli.connection import http_json

from .conftest import Server
from .helpers import Bot, Policy, events_of, hand_events, one, run_hands


async def _history(server: Server, table: str) -> list[dict[str, Any]]:
    reply = await http_json("GET", f"{server.url}/api/tables/{table}/hands?limit=50")
    hands: list[dict[str, Any]] = reply["hands"]
    return hands


async def test_each_table_numbers_its_dealt_hands_from_one(server: Server) -> None:
    accept = {"alice": False}

    def choose(bot: Bot, _event: dict[str, Any]) -> bool:
        return accept.get(bot.client.name or "", False)

    host, _ = await server.table(Policy(choose_bank=choose), Policy(bank=False))
    mark = host.mark()
    await host.host("resume")
    _, not_dealt = await host.event("hand_revealed", since=mark)
    assert not_dealt["status"] == "not_dealt"
    assert not_dealt["number"] is None, "an attempt nobody banked is not a hand"
    accept["alice"] = True
    (first,) = await run_hands(host, 1, resume=False)
    assert first["status"] == "settled"
    assert first["number"] == 1
    assert one(hand_events(host, first["hand_id"]), "hand_started")["number"] == 1
    assert {e["number"] for e in hand_events(host, first["hand_id"])} == {1}, "every line of the hand says #1"
    (second,) = await run_hands(host, 1)
    assert second["number"] == 2

    history = await _history(server, "main")
    assert [(h["number"], h["status"]) for h in history] == [(2, "settled"), (1, "settled")]
    assert all(h["status"] != "not_dealt" for h in history)
    by_number = await http_json("GET", f"{server.url}/api/tables/main/hands/1")
    assert by_number["hand_id"] == first["hand_id"]

    # A new table starts at 1 whatever the server-wide ids.
    await host.host("create_table", table="high", settings={"pause_seconds": 0})
    for name in ("erin", "frank"):
        await server.player(name, table="high", policy=Policy())
    await host.join("high")
    (other,) = await run_hands(host, 1, table="high")
    assert other["hand_id"] > second["hand_id"]
    assert other["number"] == 1


async def test_the_numbers_go_on_after_a_restart(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy())
    hands = await run_hands(host, 2)
    assert [h["number"] for h in hands] == [1, 2]
    again = await server.restart()
    host = await again.host()
    mark = host.mark()  # the players count as absent until they connect: no hand before this
    for seat, name in ((1, "alice"), (2, "bob")):
        account = await http_json("POST", f"{again.url}/api/login", {"name": name, "password": "password123"})
        client = await again.client(name=name, token=account["token"], account_id=account["account_id"])
        await client.join()
        client.seat = seat  # still seated from before the restart
        again.bot(client, Policy())
    await host.host("resume")
    _, third = await host.event("hand_revealed", since=mark, where=lambda e: e["status"] == "settled")
    assert third["number"] == 3


@pytest.mark.parametrize("table_overrides", [{"offer_seconds": 1}])
async def test_a_bank_offer_left_to_run_out_is_a_refusal_and_sits_nobody_out(server: Server) -> None:
    """Issue 23 item 3 (docs/rules/hcf.md section 4): an offer run out refuses the bank, nothing more."""
    host, _ = await server.table(Policy(bank=None), Policy(bank=None))
    mark = host.mark()
    await host.host("resume")
    for _ in range(3):
        mark_now, _ = await host.event("hand_not_dealt", since=mark)
        mark = mark_now + 1
    await host.host("pause")
    seen = host.table_events()
    assert events_of(seen, "player_sat_out") == [], "nobody is sat out for letting bank offers run out"
    assert {e["reason"] for e in events_of(seen, "hand_not_dealt")} == {"no_bank"}
    assert await _history(server, "main") == [], "no hand was dealt: the history is empty"
