"""Engines for SQLite and PostgreSQL, set up the way the store relies on.

SQLite (PITFALLS 13): WAL, a busy timeout, foreign keys on, and ``BEGIN
IMMEDIATE`` for every write transaction, emitted by us (SQLAlchemy's documented
recipe: the driver's own BEGIN is turned off). The store's engine turns SQLite's
automatic checkpoints off: ``Database`` runs them in a worker thread. Read transactions (the execution
option :data:`READ_ONLY`) get a plain ``BEGIN`` and ``PRAGMA query_only``.
"""

from __future__ import annotations

import functools
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, Literal

import aiosqlite
import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

Synchronous = Literal["NORMAL", "FULL"]

BUSY_TIMEOUT_MS: Final = 5_000
# How long a starting process waits for another one to finish migrating (both databases).
MIGRATION_LOCK_TIMEOUT_S: Final = 120
PAGE_SIZE: Final = 1024  # bytes of a new SQLite file's page (on_connect)
READ_ONLY: Final = "hcf_read_only"


def create_engine(url: URL, synchronous: Synchronous) -> AsyncEngine:
    """The store's engine: a connection pool with the settings above."""
    if url.get_backend_name() == "sqlite":
        engine = create_async_engine(url, async_creator=_inline_sqlite(url))
        _configure_sqlite(engine, synchronous, busy_timeout_ms=BUSY_TIMEOUT_MS, foreign_keys=True,
                          autocheckpoint=False)
        return engine
    return create_async_engine(url, pool_pre_ping=True)


class _InlineSqlite(aiosqlite.Connection):
    """aiosqlite's connection, with every call made at once on the event loop's thread.

    aiosqlite hands each call to a worker thread and back: two thread wake-ups and a
    GIL hand-off, 100-250 us each on a 2-core machine, and SQLAlchemy makes several
    calls per statement, dozens per table command (``bench/``: a one-transfer commit
    took 10 ms, 3 ms inline). SQLite answers from a local file in microseconds, so the
    calls run inline. A statement that may wait for a lock held by another connection
    (``BEGIN IMMEDIATE`` for the write lock, switching to WAL) is tried inline without
    waiting, and only if the lock is taken goes through the worker thread, which waits
    (up to :data:`BUSY_TIMEOUT_MS`) without holding up the event loop. Once a write
    transaction holds the lock, and in WAL mode for reads, SQLite does not wait.
    """

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        if args and isinstance(args[0], str) and args[0].lstrip().upper().startswith(_MAY_WAIT):
            connection = self._connection
            waits = connection.execute("PRAGMA busy_timeout").fetchone()[0]
            connection.execute("PRAGMA busy_timeout = 0")
            try:
                return fn(*args, **kwargs)
            except sqlite3.OperationalError as exc:
                if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
            finally:
                connection.execute(f"PRAGMA busy_timeout = {int(waits)}")
            return await super()._execute(fn, *args, **kwargs)  # type: ignore[no-untyped-call]  # aiosqlite's own, untyped
        return fn(*args, **kwargs)


_MAY_WAIT: Final = ("BEGIN IMMEDIATE", "BEGIN EXCLUSIVE", "PRAGMA JOURNAL_MODE")


def sqlite3_connection(driver_connection: Any) -> sqlite3.Connection | None:
    """The ``sqlite3`` connection under an :class:`_InlineSqlite` (the store's own engine), else None.

    Inside a transaction that holds the write lock, a statement run on it directly
    is what ``_InlineSqlite`` would have run inline anyway, minus SQLAlchemy's and
    aiosqlite's layers (``TxBase._rows``).
    """
    if isinstance(driver_connection, _InlineSqlite) and driver_connection._running:
        connection = driver_connection._connection
        return connection if isinstance(connection, sqlite3.Connection) else None
    return None


def _inline_sqlite(url: URL) -> Callable[[], Awaitable[aiosqlite.Connection]]:
    """The engine's ``async_creator``: the URL's connection arguments, an :class:`_InlineSqlite`."""
    args, kwargs = url.get_dialect()().create_connect_args(url)
    kwargs["check_same_thread"] = False  # opened on aiosqlite's thread, used on the loop's

    async def connect() -> aiosqlite.Connection:
        connection = _InlineSqlite(functools.partial(sqlite3.connect, *args, **kwargs), iter_chunk_size=64)
        connection._thread.daemon = True  # as SQLAlchemy does: it never keeps the process alive
        return await connection

    return connect


def create_migration_engine(url: URL, synchronous: Synchronous) -> AsyncEngine:
    """A one-connection engine for migrating at start, disposed of afterwards.

    On SQLite it waits up to :data:`MIGRATION_LOCK_TIMEOUT_S` for the write lock
    (another process may be migrating) and turns foreign keys off, as table
    rebuilds in batch mode need; the migration checks them at its end instead.
    """
    if url.get_backend_name() == "sqlite":
        engine = create_async_engine(url, poolclass=NullPool)
        timeout_ms = MIGRATION_LOCK_TIMEOUT_S * 1000
        _configure_sqlite(engine, synchronous, busy_timeout_ms=timeout_ms, foreign_keys=False)
        return engine
    return create_async_engine(url, poolclass=NullPool)


def _configure_sqlite(
    engine: AsyncEngine, synchronous: Synchronous, *, busy_timeout_ms: int, foreign_keys: bool,
    autocheckpoint: bool = True,
) -> None:
    """The SQLAlchemy-documented hooks that let us emit BEGIN ourselves (Python < 3.12)."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver emits no BEGIN of its own
        cursor = dbapi_connection.cursor()
        for pragma in (
            f"busy_timeout = {busy_timeout_ms}",  # first: switching a new file to WAL may wait for a lock
            # A new file's pages (a file already written keeps its own, and WAL mode fixes it): a commit
            # writes each page it changed whole to the WAL, and a table command changes a few rows in
            # each of about ten tables and indexes (docs/benchmarks.md, twelfth round).
            f"page_size = {PAGE_SIZE}",
            "journal_mode = WAL",
            f"synchronous = {synchronous}",
            f"foreign_keys = {'ON' if foreign_keys else 'OFF'}",
            # off: the Database checkpoints in a worker thread, not inside a COMMIT on the event loop
            *(() if autocheckpoint else ("wal_autocheckpoint = 0",)),
        ):
            _pragma(cursor, pragma, busy_timeout_ms)
        cursor.close()

    def on_begin(conn: Connection) -> None:
        read_only = bool(conn.get_execution_options().get(READ_ONLY, False))
        info = conn.connection.info
        if info.get(READ_ONLY) != read_only:
            conn.exec_driver_sql(f"PRAGMA query_only = {int(read_only)}")
            info[READ_ONLY] = read_only
        # IMMEDIATE takes the write lock up front (waiting up to busy_timeout), so a
        # read-then-write transaction cannot fail with "database is locked" mid-way.
        statement = "BEGIN" if read_only else "BEGIN IMMEDIATE"
        raw = sqlite3_connection(conn.connection.driver_connection)
        if raw is not None and raw.in_transaction:
            return  # begun on sqlite3 by Database._begin: SQLAlchemy joins that transaction
        if raw is None or not begin_at_once(raw, statement, busy_timeout_ms):
            conn.exec_driver_sql(statement)  # through _InlineSqlite: a lock to wait for is waited for off the loop

    sa.event.listen(engine.sync_engine, "connect", on_connect)
    sa.event.listen(engine.sync_engine, "begin", on_begin)


def begin_at_once(connection: sqlite3.Connection, statement: str, busy_timeout_ms: int) -> bool:
    """Begin on the ``sqlite3`` connection itself if no lock has to be waited for (True), else do nothing.

    What ``_InlineSqlite`` does for a BEGIN, without SQLAlchemy's statement machinery
    around it (a table command is one short transaction: its BEGIN cost as much as the
    rest of its statements together).
    """
    if statement == "BEGIN":  # a reader never waits in WAL mode
        connection.execute(statement)
        return True
    connection.execute("PRAGMA busy_timeout = 0")
    try:
        connection.execute(statement)
    except sqlite3.OperationalError as exc:
        if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise
        return False
    finally:
        connection.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    return True


def checkpoint_wal(path: str) -> None:
    """Copy what the WAL holds into the database file, waiting for nobody (a PASSIVE checkpoint).

    Blocking: run it in a worker thread. Its own short-lived connection, so it never
    shares one with the event loop's transactions.
    """
    connection = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    finally:
        connection.close()


def _pragma(cursor: Any, pragma: str, busy_timeout_ms: int) -> None:
    """Run one connection PRAGMA, trying again while another connection holds the file's lock.

    ``journal_mode = WAL`` may answer "database is locked" at once, without waiting out
    ``busy_timeout``, while another process migrates or checkpoints the same file (seen when
    two servers start on one new file together); so it is retried here, up to that timeout.
    """
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            cursor.execute(f"PRAGMA {pragma}")
            return
        except sqlite3.OperationalError as exc:
            busy = exc.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
            if not busy or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)  # only while opening a connection, and only when another process holds the lock
