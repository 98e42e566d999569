"""A real table on a real SQLite file: the commands of one batch share one commit, and every
answer waits for it (server/table/lifecycle.py and server/storage/tables.py ``begin_batch``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from server.bindings import DatabaseBindings
from server.clock import ManualClock
from server.config import ServerConfig
from server.persistence import open_database, stack_place
from server.rules.game import AccountId
from server.table.commands import Sit, TableError
from server.table.ports import TableUpdates
from server.table.registry import Tables


class Updates:
    """The publisher: keeps what goes out."""

    def __init__(self) -> None:
        self.sent: list[TableUpdates] = []

    async def table_update(self, _table: str, updates: TableUpdates) -> None:
        self.sent.append(updates)


class FailingCommit(DatabaseBindings):
    """The real store, whose batch COMMIT fails (a full disk, say) once armed."""

    armed = False

    async def end_batch(self, table: str, *, commit: bool = True) -> None:
        if commit and self.armed:
            await super().end_batch(table, commit=False)
            raise OSError("database or disk is full")
        await super().end_batch(table, commit=commit)


Fixture = tuple[Tables, list[str], list[AccountId], FailingCommit]


@pytest.fixture
async def table(db_path: Path) -> AsyncIterator[Fixture]:
    db = await open_database(f"sqlite:///{db_path}", session_ttl=3600)
    statements: list[str] = []

    def traced(dbapi_connection: Any, _record: Any) -> None:
        # every statement SQLite runs on the store's connections, whichever layer sent it
        raw = getattr(dbapi_connection, "driver_connection", None) or dbapi_connection._connection
        raw._connection.set_trace_callback(statements.append)

    sa.event.listen(db.engine.sync_engine, "connect", traced)
    await db.engine.dispose()  # the connections opened so far (none checked out) were made without the trace
    accounts = []
    async with db.transaction() as tx:
        for name in ("ann", "bob", "cat", "dan"):
            account = await tx.create_account(name, "placeholder")
            await tx.issue(account.id, 1000)
            accounts.append(AccountId(account.id))
    store = FailingCommit(db, ServerConfig())  # the real store, disarmed unless a test arms it
    tables = Tables(store, Updates(), {}, clock=ManualClock())
    await tables.create("main", {}, None)
    try:
        yield tables, statements, accounts, store
    finally:
        await tables.stop_all(1.0)
        await db.close()


async def test_a_batch_of_commands_is_one_commit(table: Fixture) -> None:
    tables, statements, (ann, bob, cat, dan), store = table
    runner = tables.runners["main"]
    statements.clear()
    # Queued before the table's task runs again, they make one batch; bob's seat is taken meanwhile.
    answers = await asyncio.gather(
        runner.submit(Sit(ann, "ann", 1, 200)), runner.submit(Sit(bob, "bob", 1, 200)),
        runner.submit(Sit(cat, "cat", 2, 200)), runner.submit(Sit(dan, "dan", 3, 5_000)),
        return_exceptions=True)
    assert [type(a) for a in answers] == [dict, TableError, dict, TableError]
    assert [s for s in statements if s.startswith(("BEGIN", "COMMIT"))] == ["BEGIN IMMEDIATE", "COMMIT"]
    db = store.db
    async with db.transaction(write=False) as tx:
        stacks = {a: await tx.balance(stack_place("main", a)) for a in (ann, bob, cat, dan)}
        seated = sorted(s.account_id for s in await tx.seats("main"))
    assert stacks == {ann: 200, bob: 0, cat: 200, dan: 0}  # the refused ones changed nothing
    assert seated == sorted([ann, cat])
    assert (await db.ledger_check(tables_in_play=["main"])).ok


async def test_every_answer_waits_for_the_commit(table: Fixture) -> None:
    tables, statements, (ann, bob, _cat, _dan), _store = table
    runner = tables.runners["main"]
    statements.clear()
    committed_when_answered = []

    async def sit(account: AccountId, name: str, seat: int) -> None:
        await runner.submit(Sit(account, name, seat, 100))
        committed_when_answered.append("COMMIT" in statements)

    await asyncio.gather(sit(ann, "ann", 1), sit(bob, "bob", 2))
    assert committed_when_answered == [True, True]


async def test_a_failed_batch_commit_answers_nobody_ok_and_stops_the_table(
        table: Fixture) -> None:
    tables, _statements, (ann, bob, _cat, _dan), store = table
    runner = tables.runners["main"]
    db = store.db
    store.armed = True
    answers = await asyncio.gather(runner.submit(Sit(ann, "ann", 1, 200)), runner.submit(Sit(bob, "bob", 2, 200)),
                                   return_exceptions=True)
    assert [getattr(a, "code", None) for a in answers] == ["table/closed", "table/closed"]
    assert updates_of(tables) == []  # nothing was published
    with pytest.raises(TableError):
        await runner.submit(Sit(ann, "ann", 1, 200))  # the table stopped: its memory was ahead of the record
    async with db.transaction(write=False) as tx:
        assert await tx.seats("main") == []
        assert await tx.balance(stack_place("main", ann)) == 0


def updates_of(tables: Tables) -> list[TableUpdates]:
    publisher = tables.publisher
    assert isinstance(publisher, Updates)
    return publisher.sent
