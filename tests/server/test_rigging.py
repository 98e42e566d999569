"""Whoever can rig a table may not profit from it (issue 23 item 17; docs/server.md, "What a floor link may do").

The issue's exploit: a floor link at a house-banked table paused it, set its pay tables sky high, arranged the
deck and let its own guest play; one hand paid 100,000,000 chips and the ledger check passed.
"""

from __future__ import annotations

from typing import Any

import aiohttp

from server.persistence import open_database

from .conftest import Server
from .helpers import Client
from .test_caribbean_table import STUD, StudBot, revealed_hands, stud_table

ROYAL = "As Ks Qs Js Ts"
DEALER_AK = "Ah Kd 9c 4c 2h"  # qualifies with Ace-King: the royal is paid in full


async def _http(server: Server, method: str, path: str, body: Any, token: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http, http.request(
            method, f"{server.url}{path}", json=body, headers={"Authorization": f"Bearer {token}"}) as response:
        answer: dict[str, Any] = await response.json()
        assert response.status == 200, answer
        return answer


async def _floor_link(server: Server, table: str, name: str) -> Client:
    """A floor link for ``table`` redeemed by ``name``: its guest's connection, with the floor token."""
    invite = await _http(server, "POST", "/api/invites", {"table": table, "role": "floor"}, server.host_token)
    token = invite["url"].partition("#")[2]
    async with aiohttp.ClientSession() as http, http.post(
            f"{server.url}/api/invites/redeem", json={"token": token, "name": name}) as response:
        got: dict[str, Any] = await response.json()
    client = await server.client(name=name, token=got["token"], host_token=got["host_token"])
    await client.join(table)
    return client


async def _refusal(client: Client, payload: dict[str, Any]) -> tuple[str, str]:
    reply = await client.conn.raw_call("host", payload)
    assert reply["ok"] is False, reply
    return reply["error"]["code"], reply["error"]["message"]


async def test_a_floor_link_may_not_arrange_a_deck_or_change_what_its_table_pays(server: Server) -> None:
    host, _ = await stud_table(server)
    floor = await _floor_link(server, STUD, "flo")
    before = (await host.host("show_settings", table=STUD))["settings"]
    assert (await floor.host("pause", table=STUD))["paused"], "the floor link still runs its table"
    for changed in ({"max_payout": 100_000_000}, {"bet_pays": {**before["bet_pays"], "royal": 100_000}},
                    {"jackpot_seed": 100_000}):
        code, message = await _refusal(floor, {"action": "change_settings", "table": STUD, "settings": changed})
        assert code == "auth/not_host"
        assert message.startswith("a floor link may not change what the table pays"), message
    code, message = await _refusal(floor, {"action": "arrange_deck", "table": STUD,
                                           "hands": {"1": ROYAL, "dp": DEALER_AK}})
    assert (code, message) == ("auth/not_host", "a floor link may not arrange its deck: that takes the host token")
    after = await host.host("show_settings", table=STUD)
    assert (after["settings"], after["pending"]) == (before, {}), "a refusal changed nothing"
    assert not (await host.snapshot(STUD))["arranged_next"]
    assert (await floor.host("change_settings", table=STUD, settings={"bet_seconds": 9}))["applied"] == "now", \
        "what does not change a payout, a floor link still sets"


async def test_the_hosts_own_seated_account_may_not_rig_and_an_arranger_may_not_sit(server: Server) -> None:
    host, _ = await stud_table(server)
    account = await server.account("hal")
    boss = await server.client(name="hal", token=account["token"], host_token=server.host_token,
                               account_id=account["account_id"])
    await boss.join(STUD)
    await boss.sit(STUD)
    deck = {"action": "arrange_deck", "table": STUD, "hands": {"1": ROYAL, "dp": DEALER_AK}}
    code, message = await _refusal(boss, deck)
    assert code == "auth/not_host"
    assert message == (f"you sit at table {STUD}, and whoever plays at a table may not arrange its deck: "
                       "stand up first")
    code, _ = await _refusal(boss, {"action": "change_settings", "table": STUD, "settings": {"max_payout": 10**8}})
    assert code == "auth/not_host"
    await boss.call("stand", {"table": STUD})
    await boss.host("arrange_deck", table=STUD, hands=deck["hands"])
    reply = await boss.conn.raw_call("sit", {"table": STUD})
    assert reply["ok"] is False
    assert reply["error"] == {"code": "auth/not_host", "message": (
        f"you arranged the next deck at table {STUD}, and whoever arranges a deck may not play it: "
        "sit once that hand is dealt")}
    assert await host.host("show_settings", table=STUD)
    assert [s["name"] for s in (await host.snapshot(STUD))["seats"]] == []


async def test_the_ledger_check_flags_an_arranged_hand_that_paid_a_floor_links_account(server: Server) -> None:
    """Were the host in league with a floor link (or an older server let it rig), the books say so."""
    host, _ = await stud_table(server)
    floor = await _floor_link(server, STUD, "flo")
    await floor.sit(STUD)
    bot = StudBot(floor, [1], ante=10).start()
    await host.host("arrange_deck", table=STUD, hands={"1": ROYAL, "dp": DEALER_AK})
    since = host.mark()
    await host.host("resume", table=STUD)
    (hand,) = await revealed_hands(host, 1, since)
    await host.host("pause", table=STUD)
    await bot.stop()
    assert hand["status"] == "settled"
    database = await open_database(server.database_url)
    try:
        report = await database.ledger_check(tables_in_play=[STUD])
    finally:
        await database.close()
    assert report.ok, "the accounting itself balances"
    (flag,) = report.rigged
    assert flag.startswith(f"hand #1 at {STUD} (server id "), flag
    assert "was dealt from an arranged deck and paid " in flag
    assert flag.endswith("chips to flo, who could rig that table"), flag
