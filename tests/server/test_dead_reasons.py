"""Every dead seat says why, at an ordinary table (issue 16 item 6; docs/rules/hcf.md sections 3.7, 3.8 and 5).

A seat the DP's funds cannot cover is dead with the DP's running bank and what
it was owed, and its cards are shown like any seat that reached settlement; a
floor kill says so. The reasons reach the live update, the finished hand
(``GET /api/hands/ID``), ``hcf history`` (its JSON and its lines) and the export.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
from typing import Any

import pytest

from client_cli.history import hand_lines, hand_row, show_history
from server.commands.books import _export
from server.persistence.database import open_database

from .conftest import Server
from .helpers import Client, Policy, arranged, raise_min, run_hands, seat_result, silent
from .test_http import call

DP_NOT_QUALIFYING = "2c 4d 6s 8c Td Qs 3c"
STRAIGHT_FLUSH_7 = "Ah Kh Qh Jh Th 9h 8h"
ORDINARY = "5d 7s 9d Jc 2h 3s 4s"


async def _a_dp_short_of_funds(server: Server) -> tuple[Client, dict[str, Any]]:
    """alice banks 100 chips; carol's Ante wins 5 first, then bob's straight flush bonuses need far more."""
    host, (alice, _bob, _carol) = await server.table(
        Policy(), Policy(bank=False, ante=5, straight_flush_bonus=10, flush_bonus=10),
        Policy(bank=False, ante=5, decide=raise_min))
    await host.host("change_settings", settings={"min_bank": 100})
    await alice.call("stand", {"table": "main"})
    await alice.sit(seat=1, buy_in=100)
    await host.host("arrange_deck", cards=arranged({1: DP_NOT_QUALIFYING, 2: STRAIGHT_FLUSH_7, 3: ORDINARY},
                                                   order=[2, 3, 1]))
    (revealed,) = await run_hands(host, 1)
    return host, revealed


async def _history_json(server: Server, capsys: pytest.CaptureFixture[str], **which: Any) -> Any:
    """What ``hcf history --json`` prints (``which``: ``hand_id=N``, or nothing for the list)."""
    capsys.readouterr()
    assert await show_history(server.url, "main", None, 10, True, **which) == 0
    return json.loads(capsys.readouterr().out)


async def _csv_rows(server: Server) -> list[dict[str, str]]:
    database = await open_database(server.database_url)
    try:
        out = io.StringIO()
        assert await _export(database, argparse.Namespace(table="main", format="csv"), out) == 0
    finally:
        await database.close()
    return list(csv.DictReader(io.StringIO(out.getvalue())))


async def test_a_seat_the_dps_funds_cannot_cover_says_so_with_the_bank_and_the_sum_owed(
        server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    _host, revealed = await _a_dp_short_of_funds(server)
    bob = seat_result(revealed, 2)
    # carol settled first: her Ante won 5, so alice's 100 chips were 95 when bob's turn came
    assert (bob["dead"], bob["dead_reason"], bob["bank"]) == (True, "funds", 95)
    settings = (await call(server, "GET", "/api/tables"))[1]["tables"][0]["settings"]
    sf_pays = settings["straight_flush_pays"]
    flush_pays = settings["flush_pays"]
    # Ante wins 1:1 against a DP who does not qualify; the Raise pushes; both bonuses win by the pay tables.
    assert bob["owed"] == 5 + 10 * int(sf_pays["7"]) + 10 * int(flush_pays["7"])
    assert bob["net"] == 0
    assert revealed["shown"]["2"] == STRAIGHT_FLUSH_7.split(), "it reached settlement: its cards are shown"
    assert "dead_reason" not in seat_result(revealed, 3), "a live seat's result is as it always was"

    status, hand = await call(server, "GET", f"/api/hands/{revealed['hand_id']}")
    assert status == 200
    assert seat_result(hand, 2) == bob
    assert hand["shown"]["2"] == STRAIGHT_FLUSH_7.split()
    assert seat_result(await _history_json(server, capsys, hand_id=revealed["hand_id"]), 2) == bob
    listed = await _history_json(server, capsys)
    assert seat_result(listed["hands"][0], 2) == bob

    text = "\n".join(line.plain for line in hand_lines(hand))
    assert f"dead (the DP's 95 chips could not cover the {bob['owed']} owed): bets and fee returned" in text
    assert f"bob dead (DP had 95, owed {bob['owed']})" in hand_row(hand)
    (row,) = [r for r in await _csv_rows(server) if r["seat"] == "2"]
    assert (row["dead"], row["dead_reason"], row["bank"], row["owed"]) == ("True", "funds", "95", str(bob["owed"]))


async def _floor_kill(host: Client, seat: int) -> dict[str, Any]:
    mark = host.mark()
    hand = asyncio.create_task(run_hands(host, 1))
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == seat)
    await host.host("declare_dead", seat=seat)
    update = (await host.snapshot())["hand"]["seats"][str(seat)]
    assert (update["dead"], update["dead_reason"]) == (True, "floor"), "the live update says why at once"
    (revealed,) = await hand
    return revealed


async def test_a_floor_kill_says_the_floor_declared_it_everywhere(
        server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    host, _ = await server.table(Policy(), Policy(bank=False), Policy(bank=False, decide=silent))
    revealed = await _floor_kill(host, 3)
    dead = seat_result(revealed, 3)
    assert (dead["dead"], dead["dead_reason"]) == (True, "floor")
    assert not {"bank", "owed"} & set(dead), "only the funds cap has amounts"
    assert "3" not in revealed["shown"], "a hand the floor killed is not shown"
    _, hand = await call(server, "GET", f"/api/hands/{revealed['hand_id']}")
    assert seat_result(hand, 3) == dead
    assert seat_result(await _history_json(server, capsys, hand_id=revealed["hand_id"]), 3) == dead
    text = "\n".join(line.plain for line in hand_lines(hand))
    assert "dead (declared by the floor): bets and fee returned" in text
    (row,) = [r for r in await _csv_rows(server) if r["seat"] == "3"]
    assert (row["dead_reason"], row["bank"], row["owed"]) == ("floor", "", "")


async def test_a_shuffler_fault_voids_the_hand_and_says_so_in_history_and_the_export(
        server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    host, _ = await server.table(Policy(), Policy(decide=silent), Policy())
    mark = host.mark()
    hand = asyncio.create_task(run_hands(host, 1))
    await host.event("turn_started", since=mark)
    await host.host("shuffler_fault")
    (revealed,) = await hand
    assert (revealed["status"], revealed["reason"]) == ("void", "shuffler_fault")
    listed = await _history_json(server, capsys)
    assert (listed["hands"][0]["status"], listed["hands"][0]["reason"]) == ("void", "shuffler_fault")
    _, recorded = await call(server, "GET", f"/api/hands/{revealed['hand_id']}")
    assert "the host reported a fault of the shuffler" in hand_row(recorded)
    (row,) = [r for r in await _csv_rows(server) if r["hand_id"] == str(revealed["hand_id"])]
    assert (row["role"], row["status"], row["dead_reason"]) == ("void", "void", "shuffler_fault")
