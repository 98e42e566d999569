"""A table's batch of commands in one transaction (server/storage/tables.py ``begin_batch``).

On SQLite the commands of a batch share one commit: nothing of the batch is visible (or
durable) before ``end_batch``, a command refused mid-batch is undone alone, and the rest
commit together. On PostgreSQL each command stays its own transaction.
"""

from __future__ import annotations

import asyncio
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.config import ServerConfig
from server.persistence import Database, account_place, open_database, stack_place
from server.rules.errors import Refusal
from server.rules.game import AccountId, Transfer
from server.storage.tables import TableStore
from server.table.ports import Batch, RecordedEvent

from .conftest import MakeAccount


async def _table(db: Database, make_account: MakeAccount, chips: int) -> tuple[TableStore, AccountId]:
    ann = await make_account("ann")
    async with db.transaction() as tx:
        await tx.issue(ann.id, chips)
        await tx.create_table("main", {})
    return TableStore(db, ServerConfig()), AccountId(ann.id)


def _buy_in(account: AccountId, amount: int, seq: int) -> Batch:
    return Batch(transfers=[Transfer(account_place(account), stack_place("main", account), amount, "buy_in")],
                 events=[RecordedEvent(seq, {"type": "bought_in", "amount": amount}, in_hand=False)])


async def _stack(db: Database, account: AccountId) -> int:
    async with db.transaction(write=False) as tx:
        return await tx.balance(stack_place("main", account))


async def test_a_batch_commits_once_and_a_refused_command_changes_nothing(
        db: Database, make_account: MakeAccount) -> None:
    store, ann = await _table(db, make_account, 100)
    store.begin_batch("main")
    await store.commit("main", None, _buy_in(ann, 30, 1))
    with pytest.raises(Refusal) as refused:
        await store.commit("main", None, _buy_in(ann, 500, 2))
    assert refused.value.code == "ledger/insufficient_funds"  # more than the account holds: undone alone
    await store.commit("main", None, _buy_in(ann, 20, 2))  # the seq the refused command would have used
    if db.is_sqlite:
        assert await _stack(db, ann) == 0  # one transaction: nothing is visible before the batch commits
    await store.end_batch("main")
    assert await _stack(db, ann) == 50
    async with db.transaction(write=False) as tx:
        assert [e.payload["amount"] for e in await tx.table_events("main")] == [30, 20]
    assert (await db.ledger_check()).ok


async def test_an_abandoned_batch_leaves_nothing(db: Database, make_account: MakeAccount) -> None:
    store, ann = await _table(db, make_account, 100)
    store.begin_batch("main")
    await store.commit("main", None, _buy_in(ann, 30, 1))
    await store.end_batch("main", commit=False)
    assert await _stack(db, ann) == (0 if db.is_sqlite else 30)  # PostgreSQL: each command was its own commit
    await store.commit("main", None, _buy_in(ann, 10, 2 if not db.is_sqlite else 1))  # outside a batch again
    assert await _stack(db, ann) == (10 if db.is_sqlite else 40)


async def test_a_batch_without_a_write_takes_no_lock(db: Database, make_account: MakeAccount) -> None:
    store, ann = await _table(db, make_account, 100)
    store.begin_batch("main")
    async with db.transaction() as tx:  # another writer is not kept waiting by a batch that wrote nothing
        await tx.issue(ann, 5)
    await store.end_batch("main")
    async with db.transaction(write=False) as tx:
        assert await tx.balance(account_place(ann)) == 105


async def _one_batch(db: Database, example: int, amounts: list[int]) -> None:
    """Each buy-in either fits what is left (and is written) or is refused (and changes nothing)."""
    table = f"t{example}"
    async with db.transaction() as tx:
        ann = AccountId((await tx.create_account(f"ann{example}", "placeholder")).id)
        await tx.issue(ann, 150)
        await tx.create_table(table, {})
    store = TableStore(db, ServerConfig())
    store.begin_batch(table)
    left, seq, written = 150, 1, []
    for amount in amounts:
        batch = Batch(transfers=[Transfer(account_place(ann), stack_place(table, ann), amount, "buy_in")],
                      events=[RecordedEvent(seq, {"type": "bought_in", "amount": amount}, in_hand=False)])
        if amount > left:
            with pytest.raises(Refusal):
                await store.commit(table, None, batch)
            continue
        await store.commit(table, None, batch)
        left, seq = left - amount, seq + 1
        written.append(amount)
    await store.end_batch(table)
    async with db.transaction(write=False) as tx:
        assert await tx.balance(stack_place(table, ann)) == 150 - left
        assert [e.payload["amount"] for e in await tx.table_events(table)] == written
    assert (await db.ledger_check()).ok


def test_a_batch_ends_where_its_commands_one_by_one_end(db_url: str) -> None:
    with asyncio.Runner() as runner:
        db = runner.run(open_database(db_url, session_ttl=3600))
        examples = itertools.count()
        try:

            @settings(max_examples=25, deadline=None, database=None)
            @given(amounts=st.lists(st.integers(1, 80), min_size=1, max_size=8))
            def check(amounts: list[int]) -> None:
                runner.run(_one_batch(db, next(examples), amounts))

            check()
        finally:
            runner.run(db.close())


async def test_a_command_undone_after_its_events_frees_their_seqs(db: Database, make_account: MakeAccount) -> None:
    store, ann = await _table(db, make_account, 100)
    async with db.transaction() as tx:
        await tx.take_seat("main", 1, ann)  # a seated player keeps the table open
    store.begin_batch("main")
    await store.commit("main", None, _buy_in(ann, 30, 1))
    closing = Batch(events=[RecordedEvent(2, {"type": "table_closed"}, in_hand=False)], close_table=True)
    with pytest.raises(Refusal):
        await store.commit("main", None, closing)  # its event is appended, then the close is refused
    await store.commit("main", None, _buy_in(ann, 20, 2))  # seq 2 again: the refused command's is gone
    with pytest.raises(Refusal):
        await store.commit("main", None, _buy_in(ann, 5, 2))  # but a seq written is still taken
    await store.end_batch("main")
    async with db.transaction(write=False) as tx:
        assert [(e.seq, e.type) for e in await tx.table_events("main")] == [(1, "bought_in"), (2, "bought_in")]
    assert await _stack(db, ann) == 50
