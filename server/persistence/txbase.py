"""What every group of ``Tx`` operations shares: the connection, the clock, doom.

A transaction is *doomed* once one of its write operations has raised: it will
roll back even if the caller catches the error and carries on, because the
failed operation may have written half of its rows (PostgreSQL behaves the same
way after any error).

On PostgreSQL a deadlock or a serialization failure aborts the transaction; the
statement that met it raises ``StoreError("db/conflict")`` (the whole
transaction may simply be run again: ``Database.run``).

The statements every table command runs go through :meth:`TxBase._rows` and
:meth:`TxBase._change`: on SQLite they are compiled once and handed straight to
the ``sqlite3`` connection of the transaction (which runs inline on the event
loop, see ``engines.py``), skipping SQLAlchemy's per-statement work (parameter
processing, result set-up and two greenlet switches: about 150 us a statement here,
where SQLite itself needs 10-30); elsewhere they are ordinary Core executions.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, Final, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Executable

from server.persistence.engines import sqlite3_connection
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


_SQLITE_DIALECT: Final = sqlite.dialect()
# Statement -> (SQL text, the parameter name of each "?", the values of the statement's own literals).
_COMPILED: dict[Executable, tuple[str, tuple[str, ...], dict[str, Any]]] = {}
Params = Mapping[str, Any]


def _compiled(statement: Executable, keys: Sequence[str] | None) -> tuple[str, tuple[str, ...], dict[str, Any]]:
    found = _COMPILED.get(statement)
    if found is None:
        try:
            # An INSERT without .values(): its columns are the keys of the parameters given.
            compiled = statement.compile(dialect=_SQLITE_DIALECT, column_keys=keys)  # type: ignore[attr-defined]  # Executable: an insert
        except sa.exc.CompileError:  # an INSERT with bound .values(): the keys are parameter names
            compiled = statement.compile(dialect=_SQLITE_DIALECT)  # type: ignore[attr-defined]  # Executable: an insert
        found = _COMPILED[statement] = (compiled.string, tuple(compiled.positiontup or ()), dict(compiled.params))
    return found


class TxBase:
    """One database transaction; see ``Database.transaction``."""

    def __init__(self, conn: AsyncConnection, clock: Clock, *, writable: bool,
                 sqlite: sqlite3.Connection | None = None) -> None:
        self._conn = conn
        self._clock = clock
        self._writable = writable
        self._doomed: Exception | None = None
        # The inline sqlite3 connection when the Database began the transaction on it, else looked up
        # at the first statement (False: not yet): the lookup is a greenlet switch (Database._begin).
        self._sqlite: sqlite3.Connection | bool | None = False if sqlite is None else sqlite
        # (table, hand) -> the last seq this transaction appended there: its checks need no query again
        self._appended: dict[tuple[str, int | None], int] = {}

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

    @contextlib.asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        """A part of the transaction that, if its block raises, is undone alone (and the error re-raised).

        The transaction stays usable after it: the part's own statements are rolled back to the
        savepoint, so the doom its error brought is lifted. Several table commands share one
        transaction this way, each undone alone if refused (server/storage/tables.py).
        """
        self._check_writable()
        raw = await self._raw_sqlite()
        if raw is None:
            try:
                async with self._conn.begin_nested():
                    yield
            except BaseException:
                self._doomed = None
                self._appended.clear()
                raise
            return
        raw.execute("SAVEPOINT command")
        try:
            yield
        except BaseException:
            raw.execute("ROLLBACK TO command")
            raw.execute("RELEASE command")
            self._doomed = None  # what failed was undone with the savepoint
            self._appended.clear()  # and so may be the events it appended
            raise
        raw.execute("RELEASE command")

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

    async def _raw_sqlite(self) -> sqlite3.Connection | None:
        """The transaction's own ``sqlite3`` connection, when it runs inline (see ``engines.py``)."""
        if self._sqlite is False:
            self._sqlite = None
            if self._conn.dialect.name == "sqlite":
                self._sqlite = sqlite3_connection((await self._conn.get_raw_connection()).driver_connection)
        assert self._sqlite is not True
        return self._sqlite

    async def _rows(self, statement: Executable, params: Params) -> list[Sequence[Any]]:
        """The rows of a query built once with bound parameters (see the module's docstring)."""
        raw = await self._raw_sqlite()
        if raw is None:
            return list((await self._run(statement, params)).all())
        sql, names, own = _compiled(statement, list(params) if isinstance(statement, sa.Insert) else None)
        try:
            return raw.execute(sql, [params[n] if n in params else own[n] for n in names]).fetchall()
        except sqlite3.Error as exc:
            raise self._raw_error(sql, params, exc) from exc

    async def _change(self, statement: Executable, params: Params | Sequence[Params]) -> int:
        """Run a write built once with bound parameters, for one or several rows; returns the rows changed.

        Several rows (a list of mappings) are one ``executemany``; every mapping then has
        the same keys, and the count is reliable on SQLite only.
        """
        raw = await self._raw_sqlite()
        if raw is None:
            return int((await self._run(statement, params)).rowcount)
        rows: Sequence[Params] = [params] if isinstance(params, Mapping) else params
        sql, names, own = _compiled(statement, list(rows[0]) if isinstance(statement, sa.Insert) else None)
        values = [[row[n] if n in row else own[n] for n in names] for row in rows]
        try:
            if len(values) == 1:
                return raw.execute(sql, values[0]).rowcount
            return raw.executemany(sql, values).rowcount
        except sqlite3.Error as exc:
            raise self._raw_error(sql, params, exc) from exc

    def _raw_error(self, sql: str, params: Any, exc: sqlite3.Error) -> Exception:
        """What SQLAlchemy would have raised for this driver error (an IntegrityError...); dooms the transaction."""
        return self._doom(sa.exc.DBAPIError.instance(sql, params, exc, sqlite3.Error))

    @property
    def _is_postgresql(self) -> bool:
        return self._conn.dialect.name == "postgresql"

    def _upsert(self, table: sa.Table) -> sqlite.Insert | postgresql.Insert:
        """An INSERT with ``on_conflict_do_*`` for the dialect at hand."""
        if self._conn.dialect.name == "postgresql":
            return postgresql.insert(table)
        return sqlite.insert(table)
