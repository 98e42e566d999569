"""A batch of transfers (``Tx.transfers``, one statement per place) behaves as the transfers one by one."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.persistence import HOUSE_BANK, ISSUANCE, Database, InsufficientFunds, account_place, open_database
from server.persistence.places import allows_overdraft
from server.persistence.records import Transfer

SHARED = (ISSUANCE, HOUSE_BANK)
LOCAL = 4

Move = tuple[int, int, int]
batches = st.lists(
    st.lists(
        st.tuples(
            st.integers(0, len(SHARED) + LOCAL - 1),
            st.integers(0, len(SHARED) + LOCAL - 1),
            st.integers(1, 120),
        ).filter(lambda m: m[0] != m[1]),
        min_size=1,
        max_size=8,
    ),
    max_size=8,
)


def _one_by_one(balances: dict[str, int], moves: list[tuple[str, str, int]]) -> tuple[dict[str, int], tuple | None]:
    """The balances after the moves, or the unchanged balances and (place, available, amount) of the first refusal."""
    after = dict(balances)
    for src, dst, amount in moves:
        if not allows_overdraft(src) and after.get(src, 0) < amount:
            return balances, (src, after.get(src, 0), amount)
        after[src] = after.get(src, 0) - amount
        after[dst] = after.get(dst, 0) + amount
    return after, None


async def _run(db: Database, example: int, txs: list[list[Move]]) -> None:
    places = [*SHARED, *(account_place(example * LOCAL + i + 1) for i in range(LOCAL))]
    async with db.transaction(write=False) as tx:
        model = {p: await tx.balance(p) for p in places}
    for moves in txs:
        named = [(places[s], places[d], amount) for s, d, amount in moves]
        model, expected = _one_by_one(model, named)
        refusal = None
        try:
            async with db.transaction() as tx:
                assert await tx.transfers(Transfer(s, d, a, "settle") for s, d, a in named) == len(named)
        except InsufficientFunds as exc:
            refusal = (exc.place, exc.available, exc.amount)
        assert refusal == expected
    async with db.transaction(write=False) as tx:
        assert {p: await tx.balance(p) for p in places} == model
    report = await db.ledger_check()
    assert report.ok, report.discrepancies


def test_a_batch_is_its_transfers_one_by_one(db_url: str) -> None:
    with asyncio.Runner() as runner:
        db = runner.run(open_database(db_url))
        examples = itertools.count()
        try:

            @settings(max_examples=40, deadline=None, database=None)
            @given(txs=batches)
            def check(txs: list[list[Move]]) -> None:
                runner.run(_run(db, next(examples), txs))

            check()
        finally:
            runner.run(db.close())


async def _credited_then_spent(url: str) -> None:
    db = await open_database(url)
    try:
        alice, bob = account_place(901), account_place(902)
        async with db.transaction() as tx:
            # bob holds nothing: he can pass on what he received earlier in the same batch, not more
            await tx.transfers([Transfer(ISSUANCE, bob, 30, "issue"), Transfer(bob, alice, 30, "settle")])
        with pytest.raises(InsufficientFunds) as refused:
            async with db.transaction() as tx:
                await tx.transfers([Transfer(bob, alice, 5, "settle"), Transfer(ISSUANCE, bob, 50, "issue")])
        assert (refused.value.place, refused.value.available, refused.value.amount) == (bob, 0, 5)
        assert await db.balance(alice) == 30
        assert await db.balance(bob) == 0
    finally:
        await db.close()


def test_a_place_spends_within_a_batch_only_what_it_received_before(db_url: str) -> None:
    asyncio.run(_credited_then_spent(db_url))
