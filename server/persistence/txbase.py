"""What every group of ``Tx`` operations shares: the connection, the clock, doom.

A transaction is *doomed* once one of its write operations has raised: it will
roll back even if the caller catches the error and carries on, because the
failed operation may have written half of its rows (PostgreSQL behaves the same
way after any error).

On PostgreSQL a deadlock or a serialization failure aborts the transaction; the
statement that met it raises ``StoreError("db/conflict")`` (the whole
transaction may simply be run again: ``Database.run``).
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Executable

from server.persistence.errors import StoreError
from server.persistence.records import Clock, Micros, to_micros

E = TypeVar("E", bound=Exception)

# SQLSTATEs after which the same transaction, run again, may well succeed.
RETRYABLE_SQLSTATES: Final = {"40001": "serialization failure", "40P01": "deadlock detected"}


def conflict_error(exc: sa.exc.DBAPIError) -> StoreError | None:
    """``db/conflict`` for a deadlock or serialization failure, else None."""
    state = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    if state not in RETRYABLE_SQLSTATES:
        return None
    return StoreError("db/conflict", f"{RETRYABLE_SQLSTATES[state]}: the transaction was rolled back; run it again")


class TxBase:
    """One database transaction; see ``Database.transaction``."""

    def __init__(self, conn: AsyncConnection, clock: Clock, *, writable: bool) -> None:
        self._conn = conn
        self._clock = clock
        self._writable = writable
        self._doomed: Exception | None = None

    @property
    def doomed(self) -> Exception | None:
        """The error that condemned this transaction to roll back, if any."""
        return self._doomed

    def now(self) -> Micros:
        """The injected clock, in microseconds."""
        return to_micros(self._clock())

    def _doom(self, error: E) -> E:
        self._doomed = error
        return error

    def _check_writable(self) -> None:
        if not self._writable:
            raise StoreError("db/read_only", "this is a read-only transaction")

    async def _run(self, statement: Executable, params: Any = None) -> CursorResult[Any]:
        try:
            return await self._conn.execute(statement, params)
        except sa.exc.DBAPIError as exc:
            conflict = conflict_error(exc)
            if conflict is not None:
                raise self._doom(conflict) from exc
            self._doom(exc)
            raise

    @property
    def _is_postgresql(self) -> bool:
        return self._conn.dialect.name == "postgresql"

    def _upsert(self, table: sa.Table) -> sqlite.Insert | postgresql.Insert:
        """An INSERT with ``on_conflict_do_*`` for the dialect at hand."""
        if self._conn.dialect.name == "postgresql":
            return postgresql.insert(table)
        return sqlite.insert(table)
