"""Settle-up at the real server (issue 28, item 3): bots play, and the host's figures are the ledger's sums."""

from __future__ import annotations

from typing import Any

import aiohttp

from server.persistence.database import open_database
from server.rules.settle import HOUSE, Figures

from .conftest import Server
from .helpers import Policy, run_hands

STARTING_CHIPS = 10_000  # ServerConfig's starting_chips: what each account held before it sat


async def settle_up(server: Server, query: str = "", token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token or server.host_token}"}
    async with aiohttp.ClientSession() as http, \
            http.get(f"{server.url}/api/tables/main/settle-up{query}", headers=headers) as response:
        return response.status, await response.json()


async def ledger_sums(server: Server, names: dict[int, str]) -> dict[str, dict[str, int]]:
    """Each account's buy-ins, cash-outs and chips at the table, summed straight from the ledger."""
    database = await open_database(server.database_url)
    try:
        async with database.transaction(write=False) as tx:
            sums: dict[str, dict[str, int]] = {}
            for account, name in names.items():
                places = [f"{kind}:main:{account}" for kind in ("stack", "felt", "fee_held")]
                moves = [t for t in await _table_transfers(tx) if t.src in places or t.dst in places]
                sums[name] = {
                    "bought": sum(t.amount for t in moves if t.kind in ("buy_in", "top_up")),
                    "cashed": sum(t.amount for t in moves if t.kind == "cash_out"),
                    "on_table": sum([await tx.balance(p) for p in places]),
                    "account": await tx.balance(f"account:{account}"),
                }
        return sums
    finally:
        await database.close()


async def _table_transfers(tx: Any) -> list[Any]:
    import sqlalchemy as sa

    from server.persistence.models import TRANSFER

    return list((await tx._run(sa.select(TRANSFER).where(TRANSFER.c.table_name == "main"))).all())


async def test_the_hosts_settle_up_after_bots_play_is_the_ledgers_sums(server: Server) -> None:
    host, (alice, bob, carol) = await server.table(Policy(), Policy(bank=False), Policy(bank=False))
    assert (await bob.call("top_up", {"table": "main", "amount": 500}))["stack"] == 1500
    await run_hands(host, 3)
    await host.host("pause")
    await carol.call("leave", {"table": "main"})  # carol cashes out; alice and bob still have chips on the table
    await host.event("player_stood", where=lambda e: e["seat"] == 3)
    status, answer = await settle_up(server)
    assert status == 200, answer
    names = {alice.account_id: "alice", bob.account_id: "bob", carol.account_id: "carol"}
    ledger = await ledger_sums(server, {int(k): v for k, v in names.items() if k is not None})
    people = {p["name"]: p for p in answer["people"]}
    assert set(people) == {"alice", "bob", "carol"}
    for name, sums in ledger.items():
        figures = people[name]
        assert (figures["bought"], figures["cashed"], figures["on_table"]) == \
            (sums["bought"], sums["cashed"], sums["on_table"])
        assert figures["brought"] == 0
        # The net is what the account holds now, at the table and away from it, less what it started with.
        assert figures["net"] == sums["account"] + sums["on_table"] - STARTING_CHIPS
        assert figures["line"].startswith(f"{name} bought in for {sums['bought']}")
    assert people["carol"]["on_table"] == 0
    assert people["carol"]["cashed"] > 0
    assert sum(p["net"] for p in answer["people"]) + answer["house"] == 0
    owed = {name: p["net"] for name, p in people.items()} | ({HOUSE: answer["house"]} if answer["house"] else {})
    for payment in answer["payments"]:
        owed[payment["payer"]] += payment["amount"]
        owed[payment["payee"]] -= payment["amount"]
        assert payment["line"] == f"{payment['payer']} pays {payment['payee']} {payment['amount']}."
    assert not any(owed.values())
    nets = [p["net"] for p in answer["people"]] + [answer["house"]]
    assert len(answer["payments"]) <= max(0, sum(1 for net in nets if net) - 1)
    assert all(line.endswith(".") for line in answer["lines"])


async def test_a_day_without_play_settles_nothing_and_a_bad_day_is_refused_in_words(server: Server) -> None:
    await server.table(Policy())
    status, answer = await settle_up(server, "?day=2001-01-01")
    assert status == 200
    assert answer["lines"][-1] == "Nobody owes anybody anything."
    assert all(p["net"] == 0 for p in answer["people"])
    status, answer = await settle_up(server, "?day=yesterday")
    assert (status, answer["error"]["code"]) == (400, "request/malformed")
    assert answer["error"]["message"] == "a day is written YYYY-MM-DD, like 2026-12-05, not 'yesterday'"


async def test_only_the_host_sees_the_settle_up(server: Server) -> None:
    await server.table(Policy())
    account = await server.account("mallory")
    status, answer = await settle_up(server, token=account["token"])
    assert (status, answer["error"]["code"]) == (403, "auth/not_host")


def test_a_days_session_counts_the_chips_carried_in_from_before_it() -> None:
    from types import SimpleNamespace

    from server.storage.settle import tally

    def row(at: int, src: str, dst: str, amount: int, kind: str) -> SimpleNamespace:
        return SimpleNamespace(created_at=at, src=src, dst=dst, amount=amount, kind=kind)

    rows = [row(1, "account:1", "stack:main:1", 1000, "buy_in"),  # the evening before
            row(2, "stack:main:1", "felt:main:1", 100, "bet"), row(3, "house:bank", "felt:main:1", 100, "win"),
            row(4, "felt:main:1", "stack:main:1", 200, "win"),
            row(10, "stack:main:1", "felt:main:1", 50, "bet"), row(11, "felt:main:1", "house:bank", 50, "loss"),
            row(12, "account:1", "stack:main:1", 500, "top_up"), row(13, "stack:main:1", "account:1", 1450, "cash_out"),
            row(14, "account:2", "stack:other:2", 70, "buy_in"),
            row(20, "account:1", "stack:main:1", 300, "buy_in")]  # the day after
    (person,) = tally(rows, "main", start=10, until=20).values()  # the other table's buy-in is not main's
    assert (person.brought, person.bought, person.cashed, person.on_table) == (1100, 500, 1450, 100)
    figures = Figures(name="a", bought=person.bought, cashed=person.cashed, on_table=person.on_table,
                      brought=person.brought)
    assert figures.net == -50, "down the 50 lost that day; the evening before's win is not counted again"
