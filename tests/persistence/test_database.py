"""Opening the database, its SQLite settings, and how transactions end."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy

from server.persistence import Database, InsufficientFunds, StoreError, account_place, open_database
from server.persistence.engines import PAGE_SIZE

from .conftest import raw_sql


async def _pragma(db: Database, name: str) -> object:
    async with db.engine.connect() as conn:
        return (await conn.exec_driver_sql(f"PRAGMA {name}")).scalar_one()


async def test_opening_creates_the_folder_and_sets_wal_normal_and_foreign_keys(
    sqlite_db: Database, db_path: Path
) -> None:
    assert db_path.is_file()
    assert await _pragma(sqlite_db, "journal_mode") == "wal"
    assert await _pragma(sqlite_db, "synchronous") == 1  # NORMAL
    assert await _pragma(sqlite_db, "foreign_keys") == 1
    assert await _pragma(sqlite_db, "busy_timeout") == 5000


async def test_a_new_file_has_small_pages_and_a_file_already_written_keeps_its_own(tmp_path: Path) -> None:
    # Small pages: a commit writes every page it changed whole to the WAL (docs/benchmarks.md, twelfth round).
    db = await open_database(f"sqlite:///{tmp_path}/new.db")
    try:
        assert await _pragma(db, "page_size") == PAGE_SIZE == 1024
    finally:
        await db.close()
    older = tmp_path / "older.db"
    with contextlib.closing(sqlite3.connect(older)) as raw:
        raw.execute("PRAGMA page_size = 4096")
        raw.execute("CREATE TABLE kept (x INTEGER)")
        raw.execute("INSERT INTO kept VALUES (7)")
        raw.commit()
    db = await open_database(f"sqlite:///{older}")
    try:
        assert await _pragma(db, "page_size") == 4096
        async with db.engine.connect() as conn:
            assert (await conn.exec_driver_sql("SELECT x FROM kept")).scalar_one() == 7
    finally:
        await db.close()


async def test_full_synchronous_is_an_option(tmp_path: Path) -> None:
    db = await open_database(f"sqlite:///{tmp_path}/full.db", synchronous="FULL")
    try:
        assert await _pragma(db, "synchronous") == 2  # FULL
    finally:
        await db.close()


async def test_reopening_keeps_the_data(db_url: str) -> None:
    first = await open_database(db_url)
    async with first.transaction() as tx:
        await tx.issue(1, 500)
    await first.close()
    second = await open_database(db_url)
    try:
        assert await second.balance(account_place(1)) == 500
        assert (await second.ledger_check()).ok
    finally:
        await second.close()


async def test_an_exception_rolls_back_everything_in_the_transaction(db: Database) -> None:
    async def issue_then_fail() -> None:
        async with db.transaction() as tx:
            await tx.issue(1, 100)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await issue_then_fail()
    assert await db.balance(account_place(1)) == 0


async def test_a_caught_failure_still_dooms_the_transaction(db: Database) -> None:
    async def ignore_a_failure() -> None:
        async with db.transaction() as tx:
            await tx.issue(1, 100)
            with contextlib.suppress(InsufficientFunds):
                await tx.transfer(account_place(1), account_place(2), 500, "settle")

    with pytest.raises(StoreError) as caught:
        await ignore_a_failure()
    assert caught.value.code == "db/rolled_back"
    assert await db.balance(account_place(1)) == 0
    assert (await db.ledger_check()).transfers == 0


@pytest.mark.parametrize("fail", [False, True])
async def test_statements_through_sqlalchemy_join_a_transaction_begun_on_sqlite3(
    sqlite_db: Database, fail: bool
) -> None:
    # The write transaction is begun on the sqlite3 connection itself (Database._begin); a Core
    # statement inside it (an issue, a seat) must be part of it: committed with it or rolled back.
    async def issue_both_ways() -> None:
        async with sqlite_db.transaction() as tx:
            await tx.issue(1, 100)  # the raw statements of a transfer
            await tx.create_table("joined", {})  # through SQLAlchemy Core
            assert tx._conn.in_transaction()
            if fail:
                raise RuntimeError("boom")

    if fail:
        with pytest.raises(RuntimeError):
            await issue_both_ways()
    else:
        await issue_both_ways()
    assert await sqlite_db.balance(account_place(1)) == (0 if fail else 100)
    assert (await sqlite_db.get_table("joined") is None) is fail
    async with sqlite_db.transaction() as tx:  # the kept connection goes on with a transaction of its own
        await tx.issue(2, 5)
    assert await sqlite_db.balance(account_place(2)) == 5


async def test_a_write_waits_for_another_connection_holding_the_lock(sqlite_db: Database, db_path: Path) -> None:
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        async def write() -> None:
            async with sqlite_db.transaction() as tx:
                await tx.issue(1, 7)

        task = asyncio.create_task(write())
        await asyncio.sleep(0.2)
        assert not task.done(), "the lock is held elsewhere: the write waits (off the event loop)"
    finally:
        other.execute("ROLLBACK")
        other.close()
    await asyncio.wait_for(task, 5)
    assert await sqlite_db.balance(account_place(1)) == 7


async def test_read_transactions_refuse_writes(db: Database) -> None:
    with pytest.raises(StoreError) as caught:
        async with db.transaction(write=False) as tx:
            await tx.issue(1, 100)
    assert caught.value.code == "db/read_only"


async def test_read_transactions_are_read_only_in_the_database_too(db: Database) -> None:
    async with db.transaction(write=False) as tx:
        with pytest.raises(sqlalchemy.exc.DBAPIError, match=r"readonly|read-only"):
            await tx._conn.exec_driver_sql("INSERT INTO place VALUES ('account:1', 5, FALSE)")
    async with db.transaction() as tx:  # the pooled connection is writable again
        await tx.issue(1, 5)
    assert await db.balance(account_place(1)) == 5


async def test_write_transactions_do_not_nest(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 100)
        with pytest.raises(StoreError, match="db/nested"):
            async with db.transaction():
                pass
        # A read inside sees committed data only, and the outer transaction goes on.
        assert await db.balance(account_place(1)) == 0
        await tx.issue(1, 1)
        with pytest.raises(StoreError, match="db/nested"):
            async with db.transaction():
                pass
    assert await db.balance(account_place(1)) == 101


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE transfer SET amount = 1",
        "DELETE FROM transfer",
        "DELETE FROM hand_event",
        "UPDATE hand_event SET type = 'x'",
        "UPDATE settings_change SET new_settings = '{}'",
        "DELETE FROM settings_change",
    ],
)
async def test_the_ledger_and_event_log_are_append_only(db: Database, statement: str) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 100)
        await tx.create_table("main", {})
        await tx.update_settings("main", {"seats": 6})
        await tx.append_events("main", None, 1, [{"type": "table_opened"}])
    with pytest.raises(sqlalchemy.exc.IntegrityError, match="append-only"):
        await raw_sql(db, statement)
    assert (await db.ledger_check()).transfers == 1


@pytest.mark.parametrize("table", ["transfer", "hand_event", "settings_change"])
async def test_postgresql_refuses_truncate_too(pg_db: Database, table: str) -> None:
    # SQLite has no TRUNCATE; DELETE is refused on both (above).
    with pytest.raises(sqlalchemy.exc.IntegrityError, match=f"{table} is append-only"):
        await raw_sql(pg_db, f"TRUNCATE {table} CASCADE")


async def test_a_bad_synchronous_value_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="NORMAL or FULL"):
        await open_database(f"sqlite:///{tmp_path}/x.db", synchronous="OFF")  # type: ignore[arg-type]


async def test_postgresql_reads_on_a_snapshot_and_writes_at_read_committed(pg_db: Database) -> None:
    assert pg_db.engine.dialect.driver == "asyncpg"

    async def setting(write: bool, name: str) -> object:
        async with pg_db.transaction(write=write) as tx:
            return (await tx._conn.exec_driver_sql(f"SHOW {name}")).scalar_one()

    assert await setting(False, "transaction_isolation") == "repeatable read"
    assert await setting(False, "transaction_read_only") == "on"
    assert await setting(True, "transaction_isolation") == "read committed"
    assert await setting(True, "transaction_read_only") == "off"
