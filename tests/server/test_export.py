"""``hcf-server export``: the DP has its row, times are ISO 8601, attempts never dealt are left out (issue 14 B.18)."""

from __future__ import annotations

import argparse
import csv
import io
import json
from datetime import datetime
from typing import Any

from server.commands.books import _export
from server.persistence.database import open_database

from .conftest import Server
from .helpers import Bot, Policy, run_hands


async def _exported(server: Server, fmt: str) -> str:
    database = await open_database(server.database_url)
    try:
        out = io.StringIO()
        assert await _export(database, argparse.Namespace(table="main", format=fmt), out) == 0
    finally:
        await database.close()
    return out.getvalue()


async def test_the_csv_has_the_dps_row_and_iso_times(server: Server) -> None:
    accept = {"alice": False}

    def choose(bot: Bot, _event: dict[str, Any]) -> bool:
        return accept.get(bot.client.name or "", True)

    host, _ = await server.table(Policy(choose_bank=choose), Policy(bank=False), Policy(bank=False))
    mark = host.mark()
    await host.host("resume")
    await host.event("hand_not_dealt", since=mark)  # nobody banked: not a hand, not a row
    accept["alice"] = True
    hands = await run_hands(host, 2, resume=False)
    rows = list(csv.DictReader(io.StringIO(await _exported(server, "csv"))))
    recorded = {h["hand_id"]: h for h in map(json.loads, (await _exported(server, "jsonl")).splitlines())}
    assert {r["hand_id"] for r in rows} == {str(h["hand_id"]) for h in hands if h.get("settlement")}
    for hand in hands:
        mine = [r for r in rows if r["hand_id"] == str(hand["hand_id"])]
        if not hand.get("settlement"):
            continue
        (dp,) = [r for r in mine if r["role"] == "dp"]
        assert int(dp["seat"]) == hand["dealer"]
        assert dp["name"] == hand["names"][str(hand["dealer"])]
        assert int(dp["net"]) == hand["settlement"]["dealer"]["net"]
        assert int(dp["fee"]) == hand["settlement"]["dealer"]["fee"]
        assert {r["number"] for r in mine} == {str(hand["number"])}
        # The rows are the whole hand: the nets and the house's take add up to nothing.
        assert sum(int(r["net"]) for r in mine) + hand["settlement"]["house"] == 0
        for column in ("started_at", "ended_at"):
            moment = datetime.fromisoformat(mine[0][column].replace("Z", "+00:00"))
            assert mine[0][column].endswith("Z"), "UTC, said so"
            assert abs(moment.timestamp() - recorded[hand["hand_id"]][column]) < 0.001
    assert [r["number"] for r in rows if r["role"] == "dp"] == ["1", "2"]
    assert [h["number"] for h in recorded.values()] == [1, 2], "the JSON lines leave the attempt nobody banked out"
