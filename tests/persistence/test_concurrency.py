"""Concurrent writers never lose an update and never see "database is locked" (PITFALLS 13, 14)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server.persistence import Database, InsufficientFunds, account_place, open_database

ANN, BOB = account_place(1), account_place(2)


async def _read_then_pay(db: Database, src: str, dst: str) -> bool:
    """A read-modify-write shaped transaction, yielding to other tasks in the middle."""
    try:
        async with db.transaction() as tx:
            seen = await tx.balance(src)
            await asyncio.sleep(0)
            if seen < 1:
                return False
            await tx.transfer(src, dst, 1, "settle")
    except InsufficientFunds:
        return False
    return True


async def test_many_concurrent_transactions_lose_no_update(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 1_000)
    results = await asyncio.gather(
        *(_read_then_pay(db, ANN, BOB) for _ in range(150)),
        *(_read_then_pay(db, BOB, ANN) for _ in range(50)),
    )
    paid_to_bob, paid_to_ann = sum(results[:150]), sum(results[150:])
    assert await db.balance(BOB) == paid_to_bob - paid_to_ann
    assert await db.balance(ANN) == 1_000 - paid_to_bob + paid_to_ann
    assert paid_to_bob == 150
    assert (await db.ledger_check()).ok


async def test_concurrent_spenders_cannot_overdraw(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 40)
    results = await asyncio.gather(*(_read_then_pay(db, ANN, account_place(n)) for n in range(2, 102)))
    assert sum(results) == 40
    assert await db.balance(ANN) == 0
    assert (await db.ledger_check()).ok


async def test_two_databases_on_one_file_wait_for_each_other(db_path: Path) -> None:
    """Two engines (as two processes would) share only SQLite's lock: BEGIN IMMEDIATE waits for it."""
    first = await open_database(f"sqlite:///{db_path}")
    second = await open_database(f"sqlite:///{db_path}")
    try:
        async with first.transaction() as tx:
            await tx.issue(1, 500)
            await tx.issue(2, 500)
        results = await asyncio.gather(
            *(_read_then_pay(first, ANN, BOB) for _ in range(60)),
            *(_read_then_pay(second, BOB, ANN) for _ in range(60)),
        )
        assert all(results)
        assert await first.balance(ANN) == 500
        assert await second.balance(BOB) == 500
        report = await second.ledger_check()
        assert report.ok
        assert report.transfers == 122
    finally:
        await first.close()
        await second.close()


async def test_reads_run_beside_a_writer(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 100)
    async with db.transaction() as writer:
        await writer.transfer(ANN, BOB, 30, "settle")
        # A reader in another task sees the last committed state and does not wait.
        assert await asyncio.wait_for(db.balance(ANN), timeout=2) == 100
    assert await db.balance(ANN) == 70
