"""The double-entry chip ledger (docs/rules/hcf.md section 8).

Every movement is one row in the append-only ``transfer`` table plus two balance
updates in ``place``, all in the caller's transaction. The debit is a conditional
``UPDATE ... WHERE overdraft OR balance >= amount``, so two concurrent spenders
can never both take the last chips (PITFALLS 14), whatever the database.

On PostgreSQL, where writers run concurrently, a transfer (or a batch of them)
first creates and locks every place it touches in key order, in one statement:
two transactions that touch the same places lock them in the same order, so
they wait for each other instead of deadlocking (A->B beside B->A).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncConnection

from server.persistence.errors import InsufficientFunds, StoreError
from server.persistence.models import PLACE, TRANSFER
from server.persistence.naming import check_table_name
from server.persistence.places import (
    FELT_KINDS,
    ISSUANCE,
    TRANSFER_KINDS,
    account_place,
    allows_overdraft,
    check_place,
    place_kind,
    place_table,
)
from server.persistence.records import LedgerReport, Transfer
from server.persistence.rigging import rigged_hands
from server.persistence.txbase import TxBase

KEY_MAX = 200


def _validate(t: Transfer) -> None:
    if not isinstance(t.amount, int) or isinstance(t.amount, bool) or t.amount <= 0:
        raise StoreError("ledger/bad_amount", f"a transfer moves a whole number of chips > 0, not {t.amount!r}")
    check_place(t.src)
    check_place(t.dst)
    if t.src == t.dst:
        raise StoreError("ledger/same_place", f"a transfer from {t.src} to itself")
    if t.kind not in TRANSFER_KINDS:
        raise StoreError("ledger/bad_kind", f"unknown transfer kind {t.kind!r}")
    if t.table is not None:
        check_table_name(t.table)
    if t.key is not None and (not isinstance(t.key, str) or not 1 <= len(t.key) <= KEY_MAX):
        raise StoreError("ledger/bad_key", f"an idempotency key has 1 to {KEY_MAX} characters")


class LedgerOps(TxBase):
    """Chip movements and balances inside one transaction."""

    async def transfer(
        self,
        src: str,
        dst: str,
        amount: int,
        kind: str,
        *,
        table: str | None = None,
        hand_id: int | None = None,
        key: str | None = None,
        memo: str = "",
    ) -> bool:
        """Move ``amount`` chips from ``src`` to ``dst`` and record it.

        Returns False, changing nothing, when a transfer with the same idempotency
        ``key`` was already recorded with the same places, amount and kind; the same
        key with different contents is ``ledger/key_reused``. Raises
        :class:`InsufficientFunds` (dooming the transaction) when ``src`` may not
        overdraw and holds less than ``amount``.
        """
        return await self._apply(Transfer(src, dst, amount, kind, table, hand_id, key, memo))

    async def transfers(self, items: Iterable[Transfer]) -> int:
        """Apply several transfers in order; returns how many were new (not duplicates).

        Prefer one batch to several ``transfer`` calls in a transaction: the places
        of a batch are all locked at once, in order (PostgreSQL).
        """
        batch = list(items)
        self._check_writable()
        try:
            for item in batch:
                _validate(item)
        except StoreError as exc:
            raise self._doom(exc) from None
        await self._lock_places(place for t in batch for place in (t.src, t.dst))
        if any(t.key is not None for t in batch):
            applied = 0
            for item in batch:
                applied += await self._apply(item, locked=True)
            return applied
        await self._apply_all(batch)
        return len(batch)

    async def issue(self, account_id: int, amount: int, memo: str = "", *, key: str | None = None) -> bool:
        """The host creates chips: issuance -> ``account:{account_id}``."""
        return await self.transfer(ISSUANCE, account_place(account_id), amount, "issue", key=key, memo=memo)

    async def balance(self, place: str) -> int:
        """The chips at ``place`` (0 for a place never used)."""
        rows = await self._rows(_BALANCE, {"place": place})
        return int(rows[0][0]) if rows else 0

    async def balances(self, prefix: str) -> dict[str, int]:
        """Every place whose key starts with ``prefix``, with its balance."""
        query = sa.select(PLACE.c.key, PLACE.c.balance).where(PLACE.c.key.startswith(prefix, autoescape=True))
        result = await self._run(query.order_by(PLACE.c.key))
        return {str(row.key): int(row.balance) for row in result.all()}

    async def hand_transfers(self, hand_id: int) -> list[Transfer]:
        """Every transfer recorded for a hand, in order (to void or audit it)."""
        result = await self._run(sa.select(TRANSFER).where(TRANSFER.c.hand_id == hand_id).order_by(TRANSFER.c.id))
        return [
            Transfer(r.src, r.dst, r.amount, r.kind, r.table_name, r.hand_id, r.idempotency_key, r.memo)
            for r in result.all()
        ]

    async def _apply(self, t: Transfer, *, locked: bool = False) -> bool:
        self._check_writable()
        try:
            _validate(t)
            if not locked:
                await self._lock_places((t.src, t.dst))
            if t.key is not None and await self._already_recorded(t):
                return False
            await self._debit(t.src, t.amount)
        except StoreError as exc:
            raise self._doom(exc) from None
        await self._change(self._credit_statement(), self._credit_params(t.dst, t.amount))
        try:
            await self._record(t)
        except sa.exc.IntegrityError as exc:
            message = f"unknown table {t.table!r} or hand {t.hand_id!r}, or key {t.key!r} taken meanwhile"
            raise self._doom(StoreError("ledger/refused", message)) from exc
        return True

    async def _apply_all(self, batch: list[Transfer]) -> None:
        """Several transfers without idempotency keys, in one statement per place plus one for the rows.

        The same outcome as applying them one by one: a place that may not overdraw
        is debited, conditionally, by its net change in one ``UPDATE`` that needs the
        deepest point its balance would reach along the way (so a place credited and
        then debited within the batch is judged as it would be step by step), and
        the first transfer that would fail alone is the one reported.
        """
        if not batch:
            return
        net: dict[str, int] = {}
        low: dict[str, int] = {}  # the lowest running change of each place (0 or less)
        for t in batch:
            net[t.src] = net.get(t.src, 0) - t.amount
            low[t.src] = min(low.get(t.src, 0), net[t.src])
            net[t.dst] = net.get(t.dst, 0) + t.amount
        debited: list[str] = []
        for place, change in net.items():
            need = -low.get(place, 0)
            if need > 0 and not allows_overdraft(place):
                if await self._change(_SETTLE, {"place": place, "delta": change, "need": need}) != 1:
                    raise self._doom(await self._shortfall(batch, {p: net[p] for p in debited}))
                debited.append(place)
        credits = [self._credit_params(place, change) for place, change in net.items() if place not in debited]
        if credits:
            await self._change(self._credit_statement(), credits)
        try:
            await self._change(_INSERT_TRANSFER, [self._transfer_row(t) for t in batch])
        except sa.exc.IntegrityError as exc:
            first = batch[0]
            message = f"unknown table {first.table!r} or hand {first.hand_id!r}, or key {first.key!r} taken meanwhile"
            raise self._doom(StoreError("ledger/refused", message)) from exc

    async def _shortfall(self, batch: list[Transfer], applied: dict[str, int]) -> InsufficientFunds:
        """The error the first failing transfer of ``batch`` raises when applied one by one.

        ``applied``: the net changes already made (to undo in the arithmetic, not in the database).
        """
        balances = {}
        for place in {t.src for t in batch if not allows_overdraft(t.src)}:
            balances[place] = await self.balance(place) - applied.get(place, 0)
        for t in batch:
            if not allows_overdraft(t.src) and balances[t.src] < t.amount:
                return InsufficientFunds(t.src, balances[t.src], t.amount)
            balances[t.src] = balances.get(t.src, 0) - t.amount
            balances[t.dst] = balances.get(t.dst, 0) + t.amount
        raise AssertionError("a batch refused by the database passes step by step")  # pragma: no cover

    async def _lock_places(self, keys: Iterable[str]) -> None:
        """PostgreSQL: create the missing places and lock them all, in key order, in one statement.

        ``INSERT ... ON CONFLICT DO UPDATE`` handles its rows in the order given,
        inserting (and so locking) a new place or locking an existing one. SQLite
        needs nothing: its writer holds the whole database.
        """
        ordered = sorted(set(keys))
        if not self._is_postgresql or not ordered:
            return
        rows = [{"key": key, "balance": 0, "overdraft": allows_overdraft(key)} for key in ordered]
        insert = postgresql.insert(PLACE).values(rows)
        await self._run(insert.on_conflict_do_update(index_elements=[PLACE.c.key], set_={"balance": PLACE.c.balance}))

    async def _record(self, t: Transfer) -> None:
        await self._change(_INSERT_TRANSFER, self._transfer_row(t))

    def _transfer_row(self, t: Transfer) -> dict[str, object]:
        return {
            "created_at": self.now(),
            "src": t.src,
            "dst": t.dst,
            "amount": t.amount,
            "kind": t.kind,
            "table_name": t.table,
            "hand_id": t.hand_id,
            "idempotency_key": t.key,
            "memo": t.memo,
        }

    async def _already_recorded(self, t: Transfer) -> bool:
        query = sa.select(TRANSFER).where(TRANSFER.c.idempotency_key == t.key)
        row = (await self._run(query)).one_or_none()
        if row is None:
            return False
        stored = (row.src, row.dst, row.amount, row.kind, row.table_name, row.hand_id)
        if stored != (t.src, t.dst, t.amount, t.kind, t.table, t.hand_id):
            raise StoreError("ledger/key_reused", f"idempotency key {t.key!r} was used for another transfer")
        return True

    async def _debit(self, src: str, amount: int) -> None:
        if allows_overdraft(src):
            await self._change(self._credit_statement(), self._credit_params(src, -amount))
            return
        if await self._change(_DEBIT, {"place": src, "amount": amount}) != 1:
            raise InsufficientFunds(src, await self.balance(src), amount)

    def _credit_statement(self) -> sa.Executable:
        # Built once per dialect and reused: a statement built per call costs more to
        # build and cache-key than to run (see docs/benchmarks.md, "Server").
        dialect = self._conn.dialect.name
        statement = _CREDIT.get(dialect)
        if statement is None:
            insert = self._upsert(PLACE).values(
                key=sa.bindparam("place"), balance=sa.bindparam("delta"), overdraft=sa.bindparam("overdraft")
            )
            statement = _CREDIT[dialect] = insert.on_conflict_do_update(
                index_elements=[PLACE.c.key], set_={"balance": PLACE.c.balance + insert.excluded.balance}
            )
        return statement

    @staticmethod
    def _credit_params(key: str, delta: int) -> dict[str, object]:
        return {"place": key, "delta": delta, "overdraft": allows_overdraft(key)}


# The hot statements, built once (parameters bound at execution).
_INSERT_TRANSFER = sa.insert(TRANSFER)
_BALANCE = sa.select(PLACE.c.balance).where(PLACE.c.key == sa.bindparam("place"))
_DEBIT = (
    sa.update(PLACE)
    .where(PLACE.c.key == sa.bindparam("place"), sa.or_(PLACE.c.overdraft, PLACE.c.balance >= sa.bindparam("amount")))
    .values(balance=PLACE.c.balance - sa.bindparam("amount"))
)
# A place that may not overdraw, changed by a batch's net amount if it holds what the batch needs of it.
_SETTLE = (
    sa.update(PLACE)
    .where(PLACE.c.key == sa.bindparam("place"), sa.or_(PLACE.c.overdraft, PLACE.c.balance >= sa.bindparam("need")))
    .values(balance=PLACE.c.balance + sa.bindparam("delta"))
)
_CREDIT: dict[str, sa.Executable] = {}


async def check_ledger(conn: AsyncConnection, tables_in_play: Collection[str] = ()) -> LedgerReport:
    """Recompute every balance from the transfers and check the invariants.

    Run it in one read transaction so it sees one consistent snapshot.
    """
    flows = sa.union_all(
        sa.select(TRANSFER.c.dst.label("key"), TRANSFER.c.amount.label("delta")),
        sa.select(TRANSFER.c.src.label("key"), (-TRANSFER.c.amount).label("delta")),
    ).subquery()
    net = sa.select(flows.c.key, sa.func.sum(flows.c.delta).label("net")).group_by(flows.c.key).subquery()
    query = (
        sa.select(PLACE.c.key, PLACE.c.balance, PLACE.c.overdraft, sa.func.coalesce(net.c.net, 0))
        .select_from(PLACE.outerjoin(net, net.c.key == PLACE.c.key))
        .order_by(PLACE.c.key)
    )
    rows = (await conn.execute(query)).all()
    orphans = (await conn.execute(sa.select(net.c.key).where(net.c.key.not_in(sa.select(PLACE.c.key))))).all()
    transfers = (await conn.execute(sa.select(sa.func.count()).select_from(TRANSFER))).scalar_one()

    report = LedgerReport(ok=True, discrepancies=[], totals={}, places=len(rows), transfers=int(transfers))
    total = 0
    for key, balance, overdraft, computed in rows:
        key, balance, computed = str(key), int(balance), int(computed)
        total += balance
        kind = place_kind(key)
        report.totals[kind] = report.totals.get(kind, 0) + balance
        report.discrepancies.extend(_place_problems(key, balance, bool(overdraft), computed))
        if kind in FELT_KINDS and balance != 0 and place_table(key) not in tables_in_play:
            report.open_felt_places[key] = balance
    report.discrepancies.extend(f"transfers name {k}, which has no place row" for (k,) in orphans)
    if total != 0:
        report.discrepancies.append(f"all balances sum to {total}, not 0")
    report.totals["sum"] = total
    report.rigged = await rigged_hands(conn)
    report.ok = not report.discrepancies  # the accounting; a rigged hand is flagged apart (the CLI fails on both)
    return report


def _place_problems(key: str, balance: int, overdraft: bool, computed: int) -> list[str]:
    problems = []
    if balance != computed:
        problems.append(f"{key} holds {balance} but its transfers add up to {computed}")
    if overdraft != allows_overdraft(key):
        problems.append(f"{key} has overdraft={overdraft}, expected {allows_overdraft(key)}")
    if balance < 0 and not allows_overdraft(key):
        problems.append(f"{key} is negative ({balance}) and may not overdraw")
    return problems
