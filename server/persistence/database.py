"""Opening the database, and transactions that keep the ledger safe.

SQLite (the default) gets WAL, ``BEGIN IMMEDIATE`` for every write transaction
and one writer at a time in this process (PITFALLS 13): a write transaction
takes the write lock when it starts, so it never fails half-way with
"database is locked". Read transactions use a plain ``BEGIN`` and run beside
the writer, each on one consistent snapshot.

PostgreSQL (asyncpg) runs writers concurrently at READ COMMITTED: debits are
conditional updates and transfers lock the places they touch in key order, so
no update is lost and transfers do not deadlock each other. Read transactions
are REPEATABLE READ, READ ONLY (one snapshot). A deadlock or serialization
failure that still happens is ``db/conflict``, which :meth:`Database.run` retries.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from pathlib import Path
from typing import Any, Final, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from server.persistence.accounts import MAX_SESSIONS
from server.persistence.auth import AuthFlows
from server.persistence.engines import (
    BUSY_TIMEOUT_MS,
    READ_ONLY,
    Synchronous,
    begin_at_once,
    checkpoint_wal,
    create_engine,
    sqlite3_connection,
)
from server.persistence.errors import StoreError
from server.persistence.invite_flows import InviteFlows
from server.persistence.ledger import check_ledger
from server.persistence.migrate import migrate
from server.persistence.records import Clock, Event, Hand, LedgerReport, TableInfo
from server.persistence.tx import Tx
from server.persistence.txbase import conflict_error

__all__ = ["BUSY_TIMEOUT_MS", "Database", "Synchronous", "database_url", "open_database"]

T = TypeVar("T")

ASYNC_DRIVERS: Final = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
_KNOWN_ASYNC: Final = {"sqlite+aiosqlite", "postgresql+asyncpg", "postgresql+psycopg"}
_ALIASES: Final = {"sqlite": "sqlite", "postgresql": "postgresql", "postgres": "postgresql"}
RUN_ATTEMPTS: Final = 5
CHECKPOINT_SECONDS: Final = 1.0  # SQLite: how often the WAL is checkpointed while writes come in


async def _end(writer: AsyncConnection, raw: sqlite3.Connection, *, commit: bool) -> None:
    """End a transaction begun on ``raw``: through SQLAlchemy if a statement of its own joined it."""
    if writer.in_transaction():
        await (writer.commit() if commit else writer.rollback())
        return
    statement = "COMMIT" if commit else "ROLLBACK"
    try:
        raw.execute(statement)
    except sqlite3.Error as exc:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise sa.exc.DBAPIError.instance(statement, None, exc, sqlite3.Error) from exc


def database_url(url: str) -> str:
    """The URL as people write it, with the async driver SQLAlchemy needs.

    >>> database_url("sqlite:///data/hcf.db")
    'sqlite+aiosqlite:///data/hcf.db'
    >>> database_url("postgres://hcf:secret@db.example/hcf")
    'postgresql+asyncpg://hcf:secret@db.example/hcf'
    >>> database_url("postgresql+asyncpg://db.example/hcf")
    'postgresql+asyncpg://db.example/hcf'
    """
    parsed = _parse(url)
    backend, _, driver = parsed.drivername.partition("+")
    dialect = _ALIASES.get(backend)
    if dialect is None:
        raise StoreError("db/bad_url", f"unsupported database {backend!r}: use sqlite:///path or postgresql://...")
    drivername = f"{dialect}+{driver or ASYNC_DRIVERS[dialect]}"
    if drivername not in _KNOWN_ASYNC:
        raise StoreError("db/bad_url", f"{drivername} is not an asyncio driver: use {dialect}+{ASYNC_DRIVERS[dialect]}")
    if dialect == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise StoreError("db/bad_url", "SQLite needs a file: sqlite:///path/to/hcf.db")
    return parsed.set(drivername=drivername).render_as_string(hide_password=False)


def _parse(url: str) -> URL:
    if "://" not in url:
        raise StoreError("db/bad_url", f"{url!r} is not a database URL; write e.g. sqlite:///hcf.db")
    try:
        return make_url(url.strip())
    except sa.exc.ArgumentError as exc:
        raise StoreError("db/bad_url", f"cannot read the database URL: {exc}") from exc


class Database(AuthFlows, InviteFlows):
    """The store: transactions, plus shortcuts that each run one transaction."""

    def __init__(self, engine: AsyncEngine, clock: Clock, *, session_ttl: float,
                 max_sessions: int = MAX_SESSIONS) -> None:
        self.engine = engine
        self.clock = clock
        self.session_ttl = session_ttl
        self.max_sessions = max_sessions  # live session tokens per account; a new one revokes the oldest
        self.is_sqlite = engine.dialect.name == "sqlite"
        # PostgreSQL runs writers concurrently: conditional debits and places locked in key order keep them safe.
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self._writer: AsyncConnection | None = None  # SQLite: the one connection every write transaction uses
        # One snapshot per read transaction: SQLite's BEGIN gives it; PostgreSQL needs REPEATABLE READ.
        read_options: dict[str, Any] = {READ_ONLY: True}
        if not self.is_sqlite:
            read_options.update(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        self._read_engine = engine.execution_options(**read_options)
        self._writing_tasks: set[asyncio.Task[Any]] = set()
        # SQLite: the WAL is checkpointed by a task of ours, off the event loop (see _checkpoint_soon).
        self._sqlite_file = engine.url.database if self.is_sqlite and engine.url.database else None
        self._checkpoints: asyncio.Task[None] | None = None
        self._wal_grew = False

    @contextlib.asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[Tx]:
        """One database transaction: commits if the block ends normally, else rolls back.

        ``write=False`` gives a read-only snapshot that does not wait for writers (it
        sees committed data only). A task cannot open a write transaction inside its
        own write transaction: that raises ``db/nested`` instead of deadlocking.
        """
        task = asyncio.current_task()
        if write and task in self._writing_tasks:
            raise StoreError("db/nested", "this task already has a write transaction open")
        lock = self._write_lock if write and self._write_lock is not None else contextlib.nullcontext()
        owner = task if write else None
        try:
            async with lock, self._begin(write) as (conn, raw):
                if owner is not None:
                    self._writing_tasks.add(owner)
                tx = Tx(conn, self.clock, writable=write, sqlite=raw)
                yield tx
                if tx.doomed is not None:
                    if isinstance(tx.doomed, StoreError) and tx.doomed.code == "db/conflict":
                        raise tx.doomed
                    message = f"rolled back: an operation in it failed ({tx.doomed})"
                    raise StoreError("db/rolled_back", message) from tx.doomed
            if write and self._sqlite_file is not None:
                self._checkpoint_soon()
        except sa.exc.DBAPIError as exc:  # e.g. at COMMIT
            conflict = conflict_error(exc)
            if conflict is None:
                raise
            raise conflict from exc
        finally:
            if owner is not None:
                self._writing_tasks.discard(owner)

    @contextlib.asynccontextmanager
    async def _begin(self, write: bool) -> AsyncIterator[tuple[AsyncConnection, sqlite3.Connection | None]]:
        """A connection with a transaction begun on it; committed if the block ends normally.

        With it, its ``sqlite3`` connection when the transaction was begun on that (else None).

        On SQLite writers take turns (the write lock), so they share one connection kept
        open for the purpose, and its transaction is begun and committed on the ``sqlite3``
        connection itself: checking a connection out of the pool for each transaction, and
        SQLAlchemy's begin and commit around it, cost more than the statements of a typical
        table command (``bench/tx_bench.py``: an empty write transaction 330 us through
        the pool, 150 us on a kept connection, 25 us on ``sqlite3``). A statement that goes
        through SQLAlchemy inside it finds the transaction open (``engines.py``) and is part
        of it; SQLAlchemy then ends it.
        """
        if not (write and self._write_lock is not None):
            async with (self.engine if write else self._read_engine).begin() as conn:
                yield conn, None
            return
        writer = self._writer
        if writer is None or writer.closed or writer.invalidated:
            writer = self._writer = await self.engine.connect()
        # Neither closed nor invalidated, it holds its pooled connection: reached without the greenlet
        # switch of ``get_raw_connection`` (85 us a batch under cProfile, docs/benchmarks.md, ninth round).
        assert writer.sync_connection is not None  # connected above
        pooled = writer.sync_connection.connection
        raw = sqlite3_connection(pooled.driver_connection)
        if raw is not None and pooled.info.get(READ_ONLY) is not False:
            raw.execute("PRAGMA query_only = 0")  # the pool may hand over a connection last used to read
            pooled.info[READ_ONLY] = False
        if raw is None or writer.in_transaction() or not begin_at_once(raw, "BEGIN IMMEDIATE", BUSY_TIMEOUT_MS):
            async with writer.begin():  # another process holds the lock: wait for it off the event loop
                yield writer, None
            return
        try:
            yield writer, raw
        except BaseException:
            await _end(writer, raw, commit=False)
            raise
        await _end(writer, raw, commit=True)

    async def run(self, work: Callable[[Tx], Awaitable[T]], *, write: bool = True, attempts: int = RUN_ATTEMPTS) -> T:
        """``await work(tx)`` in one transaction, run again (up to ``attempts`` times) on ``db/conflict``.

        A conflict is a deadlock or serialization failure (PostgreSQL): the whole
        transaction rolled back, so running it again is safe as long as ``work``
        does nothing outside the database.
        """
        for attempt in range(1, attempts + 1):
            try:
                async with self.transaction(write=write) as tx:
                    return await work(tx)
            except StoreError as exc:
                if exc.code != "db/conflict" or attempt == attempts:
                    raise
            await asyncio.sleep(random.uniform(0, 0.01 * 2**attempt))  # jitter, not a secret
        raise AssertionError("unreachable")

    def _checkpoint_soon(self) -> None:
        """A write committed: have the WAL copied into the database file within :data:`CHECKPOINT_SECONDS`.

        SQLite's own automatic checkpoint (every 1,000 pages) runs inside the COMMIT
        that crosses the limit, on the event loop's thread (``engines.py``): a few
        milliseconds during which no table moves, the worst of the action latency
        tail (``docs/benchmarks.md``). The store's connections turn it off; this task
        runs a PASSIVE checkpoint (it waits for no lock and blocks no reader or writer)
        in a worker thread instead, once a second while writes come in.
        """
        self._wal_grew = True
        task = self._checkpoints
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            self._checkpoints = asyncio.create_task(self._checkpoint_forever(), name="sqlite-checkpoints")

    async def _checkpoint_forever(self) -> None:
        assert self._sqlite_file is not None
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            if not self._wal_grew:
                continue
            self._wal_grew = False
            try:
                await asyncio.to_thread(checkpoint_wal, self._sqlite_file)
            except sqlite3.Error:
                self._wal_grew = True  # tried again in a second; meanwhile the WAL only grows

    async def close(self) -> None:
        """Close every pooled connection (and stop the checkpoints of a SQLite database)."""
        task, self._checkpoints = self._checkpoints, None
        if task is not None and not task.done():
            task.cancel()
            if task.get_loop() is asyncio.get_running_loop():
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        writer, self._writer = self._writer, None
        if writer is not None and not writer.closed:
            await writer.close()
        await self.engine.dispose()

    async def ledger_check(self, *, tables_in_play: Collection[str] = ()) -> LedgerReport:
        """Check the ledger invariants on one snapshot (see ``check_ledger``)."""
        async with self._read_engine.begin() as conn:
            return await check_ledger(conn, tables_in_play)

    async def get_table(self, name: str) -> TableInfo | None:
        """The table, open or closed, if it exists."""
        async with self.transaction(write=False) as tx:
            return await tx.get_table(name)

    async def list_tables(self, *, include_closed: bool = False) -> list[TableInfo]:
        """Tables by name."""
        async with self.transaction(write=False) as tx:
            return await tx.list_tables(include_closed=include_closed)

    async def hands_in_progress(self) -> list[Hand]:
        """Unfinished hands of every table: after a crash, the ones to void."""
        async with self.transaction(write=False) as tx:
            return await tx.hands_in_progress()

    async def get_hand(self, hand_id: int) -> Hand:
        """The hand with this id; ``hand/unknown`` if there is none."""
        async with self.transaction(write=False) as tx:
            hand = await tx.hand(hand_id)
        if hand is None:
            raise StoreError("hand/unknown", f"there is no hand {hand_id}")
        return hand

    async def hand_events(self, hand_id: int) -> list[Event]:
        """A hand's events in seq order."""
        async with self.transaction(write=False) as tx:
            return await tx.hand_events(hand_id)

    async def recent_hands(self, table: str, limit: int = 20, *, dealt_only: bool = False) -> list[Hand]:
        """The table's latest hands, newest first (``dealt_only``: attempts never dealt left out)."""
        async with self.transaction(write=False) as tx:
            return await tx.recent_hands(table, limit, dealt_only=dealt_only)

    async def hand_by_number(self, table: str, number: int) -> Hand:
        """The table's dealt hand ``number``; ``hand/unknown`` if there is none."""
        async with self.transaction(write=False) as tx:
            hand = await tx.hand_by_number(table, number)
        if hand is None:
            raise StoreError("hand/unknown", f"table {table!r} has no hand number {number}")
        return hand

    async def last_seq(self, table: str) -> int:
        """The table's highest event seq, 0 before its first event."""
        async with self.transaction(write=False) as tx:
            return await tx.last_seq(table)

    async def balance(self, place: str) -> int:
        """The chips at ``place`` (0 for a place never used)."""
        async with self.transaction(write=False) as tx:
            return await tx.balance(place)


async def open_database(
    url: str,
    *,
    clock: Clock = time.time,
    synchronous: Synchronous = "NORMAL",
    session_ttl: float = 30 * 24 * 3600,
    create: bool = True,
    max_sessions: int = MAX_SESSIONS,
) -> Database:
    """Open the database at ``url`` and bring its schema to the newest revision.

    A SQLite file (and its folder) is created if missing; a PostgreSQL database
    must exist. ``create=False`` (the operator commands) opens only a database that
    already holds hcf-table's tables, and refuses any other with ``db/missing``: a
    mistyped path must not leave an empty database behind, nor read one as if it
    were the server's. The migrations run first, under a lock that makes a second
    process starting at the same time wait (see ``migrate.py``).

    ``synchronous="NORMAL"`` (SQLite, WAL) survives the death of the process but may
    lose the last transactions on power loss or an OS crash; ``"FULL"`` survives
    those too at the cost of an fsync per commit.
    """
    if synchronous not in ("NORMAL", "FULL"):
        raise StoreError("db/bad_option", f"synchronous is NORMAL or FULL, not {synchronous!r}")
    async_url = make_url(database_url(url))
    if not create:
        await _require_existing(async_url)
    elif async_url.get_backend_name() == "sqlite":
        assert async_url.database is not None  # database_url refuses SQLite URLs without a file
        Path(async_url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    await migrate(async_url, synchronous=synchronous)
    return Database(create_engine(async_url, synchronous), clock, session_ttl=session_ttl,
                    max_sessions=max_sessions)


async def _require_existing(url: URL) -> None:
    """Refuse (``db/missing``) a database without hcf-table's tables, changing nothing in it."""
    if url.get_backend_name() == "sqlite":
        assert url.database is not None  # database_url refuses SQLite URLs without a file
        path = Path(url.database).expanduser().resolve()
        if not path.is_file():  # checked first: connecting would create the file
            raise StoreError("db/missing", f"there is no database at {path}")
        where = str(path)
        # Read-only, and not through our engine: its first connection would switch the file to WAL.
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as connection:
            names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    else:
        where = url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True)
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                names = set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))
        finally:
            await engine.dispose()
    if not names & {"alembic_version", "hand"}:  # "hand": made by create_all before migrations existed
        raise StoreError("db/missing", f"the database at {where} holds no hcf-table data")
