"""Concurrent writers never lose an update and never see "database is locked" (PITFALLS 13, 14)."""

from __future__ import annotations

import asyncio
import collections

import pytest

from server.persistence import (
    ISSUANCE,
    Database,
    InsufficientFunds,
    StoreError,
    Transfer,
    Tx,
    account_place,
    open_database,
)

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


async def test_two_engines_on_one_database_wait_for_each_other(db_url: str) -> None:
    """Two engines (as two processes would) share only the database's locks.

    SQLite: BEGIN IMMEDIATE waits for the file's write lock. PostgreSQL: the places are
    locked in key order, so A->B beside B->A waits instead of deadlocking.
    """
    first = await open_database(db_url)
    second = await open_database(db_url)
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


# PostgreSQL runs writers concurrently (SQLite has one writer): what that takes.


async def test_a_deadlock_is_a_conflict_and_run_tries_again(pg_db: Database) -> None:
    """Two transactions that lock two places in opposite orders: PostgreSQL aborts one of them."""
    db = pg_db
    async with db.transaction() as tx:
        await tx.transfers([Transfer(ISSUANCE, ANN, 100, "issue"), Transfer(ISSUANCE, BOB, 100, "issue")])
    attempts: collections.Counter[str] = collections.Counter()
    barrier = asyncio.Barrier(2)

    async def crosswise(tx: Tx, name: str, first: str, second: str) -> None:
        attempts[name] += 1
        to = account_place(8 if first == ANN else 9)
        await tx.transfer(first, to, 1, "settle")  # separate calls: separate locks
        if attempts[name] == 1:
            await asyncio.wait_for(barrier.wait(), 10)  # both hold their first place now
        await tx.transfer(second, to, 1, "settle")

    await asyncio.gather(
        db.run(lambda tx: crosswise(tx, "ann first", ANN, BOB)),
        db.run(lambda tx: crosswise(tx, "bob first", BOB, ANN)),
    )
    assert sorted(attempts.values()) == [1, 2]  # the deadlock's victim ran again
    assert await db.balance(account_place(8)) == await db.balance(account_place(9)) == 2
    assert (await db.ledger_check()).ok

    barrier = asyncio.Barrier(2)
    attempts.clear()

    async def once(name: str, first: str, second: str) -> None:
        async with db.transaction() as tx:
            await crosswise(tx, name, first, second)

    outcomes = await asyncio.gather(once("a", ANN, BOB), once("b", BOB, ANN), return_exceptions=True)
    failures = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(failures) == 1
    assert isinstance(failures[0], StoreError)
    assert failures[0].code == "db/conflict"
    assert await db.balance(account_place(8)) + await db.balance(account_place(9)) == 6
    assert (await db.ledger_check()).ok


async def test_a_batch_locks_its_places_in_order(pg_db: Database) -> None:
    """One ``transfers`` batch each, crosswise, many times over: no deadlock, nothing lost."""
    db = pg_db
    async with db.transaction() as tx:
        await tx.transfers([Transfer(ISSUANCE, ANN, 500, "issue"), Transfer(ISSUANCE, BOB, 500, "issue")])

    async def batch(first: str, second: str) -> None:
        async with db.transaction() as tx:
            await tx.transfers([Transfer(first, second, 2, "settle"), Transfer(second, first, 1, "settle")])

    await asyncio.gather(*(batch(ANN, BOB) if n % 2 else batch(BOB, ANN) for n in range(60)))
    assert await db.balance(ANN) == await db.balance(BOB) == 500
    assert (await db.ledger_check()).transfers == 122


async def test_of_two_concurrent_finishes_of_a_hand_one_counts(pg_db: Database) -> None:
    db = pg_db
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        hand_id = await tx.start_hand("main", "0f" * 32, "ab" * 32, False)

    async def finish(status: str) -> None:
        async with db.transaction() as tx:
            await tx.finish_hand(hand_id, status, None)

    async with db.transaction() as first:
        await first.finish_hand(hand_id, "void", None)
        second = asyncio.create_task(finish("settled"))  # reads "in progress", then waits for our row lock
        await asyncio.sleep(0.3)
        assert not second.done()
    with pytest.raises(StoreError) as caught:
        await second
    assert caught.value.code == "hand/not_in_progress"
    assert (await db.get_hand(hand_id)).status == "void"
