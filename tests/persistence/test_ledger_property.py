"""Property: whatever transfers are attempted, the ledger stays balanced and matches a model."""

from __future__ import annotations

import asyncio
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from server.persistence import HOUSE_BANK, ISSUANCE, Database, InsufficientFunds, account_place, open_database
from server.persistence.places import allows_overdraft

SHARED = (ISSUANCE, HOUSE_BANK)
LOCAL = 4  # account places of each example, fresh per example

Move = tuple[int, int, int]  # (src index, dst index, amount); indexes into SHARED + this example's places
transactions = st.lists(
    st.lists(
        st.tuples(
            st.integers(0, len(SHARED) + LOCAL - 1),
            st.integers(0, len(SHARED) + LOCAL - 1),
            st.integers(1, 120),
        ).filter(lambda m: m[0] != m[1]),
        min_size=1,
        max_size=4,
    ),
    max_size=12,
)


def _model_apply(balances: dict[str, int], moves: list[tuple[str, str, int]]) -> dict[str, int]:
    """All or nothing: the moves of one transaction as the model expects them."""
    after = dict(balances)
    for src, dst, amount in moves:
        if not allows_overdraft(src) and after.get(src, 0) < amount:
            return balances
        after[src] = after.get(src, 0) - amount
        after[dst] = after.get(dst, 0) + amount
    return after


async def _run(db: Database, example: int, txs: list[list[Move]]) -> None:
    places = [*SHARED, *(account_place(example * LOCAL + i + 1) for i in range(LOCAL))]
    async with db.transaction(write=False) as tx:
        model = {p: await tx.balance(p) for p in places}
    for moves in txs:
        named = [(places[s], places[d], amount) for s, d, amount in moves]
        model = _model_apply(model, named)
        try:
            async with db.transaction() as tx:
                for src, dst, amount in named:
                    await tx.transfer(src, dst, amount, "settle")
        except InsufficientFunds:
            pass
    async with db.transaction(write=False) as tx:
        assert {p: await tx.balance(p) for p in places} == model
    report = await db.ledger_check()
    assert report.ok, report.discrepancies
    assert report.totals["sum"] == 0


def test_random_transfers_keep_the_ledger_balanced(db_url: str) -> None:
    with asyncio.Runner() as runner:
        db = runner.run(open_database(db_url))
        examples = itertools.count()
        try:

            @settings(max_examples=60, deadline=None, database=None)
            @given(txs=transactions)
            def check(txs: list[list[Move]]) -> None:
                runner.run(_run(db, next(examples), txs))

            check()
        finally:
            runner.run(db.close())
