"""Table leases: which server process owns a table, taken and renewed with conditional writes.

Used only when several processes share one database (``server/cluster``,
docs/scaling.md). A lease row names its owner and when the lease runs out. The
owner renews it (``UPDATE ... WHERE owner = me``); another process takes a table
only when its row is missing (``INSERT ... ON CONFLICT DO NOTHING``) or expired
(``UPDATE ... WHERE expires_at < now``). Each of these is one statement, atomic
on PostgreSQL (row locks) and SQLite (one writer), so two processes can never
both hold a lease. Every write of a table's owner checks that it still holds the
row (:meth:`LeaseOps.check_lease`, the fence), so a process that lost its lease
without noticing cannot write for the table any more.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import sqlalchemy as sa

from server.persistence.errors import StoreError
from server.persistence.models import SEAT, TABLE_LEASE
from server.persistence.records import Micros
from server.persistence.txbase import TxBase


@dataclass(frozen=True, slots=True)
class Lease:
    """One lease row."""

    table: str
    owner: str
    expires_at: Micros
    acquired_at: Micros


class LeaseOps(TxBase):
    """Lease operations of a transaction."""

    async def take_lease(self, table: str, owner: str, ttl: Micros) -> bool:
        """Hold ``table``'s lease for ``ttl`` from now if it is free, expired or already ours."""
        self._check_writable()
        now = self.now()
        taken = await self._run(
            sa.update(TABLE_LEASE)
            .where(TABLE_LEASE.c.table_name == table,
                   sa.or_(TABLE_LEASE.c.owner == owner, TABLE_LEASE.c.expires_at < now))
            .values(owner=owner, expires_at=now + ttl, acquired_at=now))
        if taken.rowcount == 1:
            return True
        inserted = await self._run(
            self._upsert(TABLE_LEASE)
            .values(table_name=table, owner=owner, expires_at=now + ttl, acquired_at=now)
            .on_conflict_do_nothing(index_elements=["table_name"]))
        return inserted.rowcount == 1

    async def renew_leases(self, owner: str, ttl: Micros) -> set[str]:
        """Extend every lease ``owner`` holds; returns the tables it still holds."""
        self._check_writable()
        result = await self._run(
            sa.update(TABLE_LEASE).where(TABLE_LEASE.c.owner == owner)
            .values(expires_at=self.now() + ttl).returning(TABLE_LEASE.c.table_name))
        return {row.table_name for row in result.all()}

    async def release_leases(self, owner: str, tables: Collection[str]) -> None:
        """Give up ``owner``'s leases of ``tables`` (another process may take them at once)."""
        self._check_writable()
        if tables:
            await self._run(sa.delete(TABLE_LEASE).where(TABLE_LEASE.c.owner == owner,
                                                         TABLE_LEASE.c.table_name.in_(list(tables))))

    async def leases(self) -> dict[str, Lease]:
        """Every lease row, by table."""
        rows = (await self._run(sa.select(TABLE_LEASE))).all()
        return {row.table_name: Lease(row.table_name, row.owner, row.expires_at, row.acquired_at) for row in rows}

    async def check_lease(self, table: str, owner: str) -> None:
        """The fence: raise ``table/lease_lost`` unless ``owner`` holds ``table``'s lease.

        On PostgreSQL the row stays share-locked until this transaction ends, so a
        takeover (an UPDATE of the row) waits for the write in progress.
        """
        query = sa.select(TABLE_LEASE.c.owner).where(TABLE_LEASE.c.table_name == table)
        if self._is_postgresql:
            query = query.with_for_update(read=True)
        holder = (await self._run(query)).scalar_one_or_none()
        if holder != owner:
            raise self._doom(StoreError("table/lease_lost",
                                        f"this server no longer owns table {table} (now: {holder or 'nobody'})"))

    async def seated_tables(self, account: int) -> list[str]:
        """The tables where ``account`` has a seat."""
        query = sa.select(SEAT.c.table_name).where(SEAT.c.account_id == account).order_by(SEAT.c.table_name)
        return [row.table_name for row in (await self._run(query)).all()]
