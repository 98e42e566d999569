"""Which server process owns a database: one at a time, claimed before anything is read or written.

A second ``hcf-server serve`` on a database that a running server owns must not
run crash recovery (it would void the live hand under the first server's feet),
nor migrate, nor write anything: it is refused before it opens the store, with
the holder's process id, host, port and start time (docs/reliability.md,
"One server per database").

The claim is a lock the operating system or the database server drops by itself
when its holder dies, so a SIGKILLed server never blocks the next start and no
expiry has to be waited out (a heartbeat row would: a killed server's row stays
until it expires, and the write every few seconds costs the table's writer):

* SQLite: ``flock`` on a file beside the database (``hcf.db.owner``). The kernel
  releases it when the process ends, however it ends. The holder writes who it is
  into the file, for the refusal's message only; the lock is what counts.
* PostgreSQL: a session-level advisory lock on a connection kept open for the
  server's life (``pg_try_advisory_lock``). The server releases it when the
  connection ends, a killed process's included. The holder is named in that
  connection's ``application_name``; a second server reads it from
  ``pg_stat_activity``.

The processes of the scaled setup (``--redis``, docs/scaling.md) share a
database on purpose, and table leases (``leases.py``) decide which of them runs
each table; they take the claim *shared*. A shared claim excludes a lone server
and a lone server excludes the scaled setup, while the scaled setup's processes
come and go beside each other.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from server.persistence.database import database_url

OWNER_SUFFIX: Final = ".owner"
# A session advisory lock key of its own (the migrations use b"hcf_migr"): b"hcf_ownr" as an int64.
ADVISORY_KEY: Final = int.from_bytes(b"hcf_ownr", "big", signed=True)
_APP_NAME: Final = re.compile(r"hcf-server pid=(\d+) port=(\d+) host=(.*)")
_PG_NAME_LIMIT: Final = 63  # application_name is cut at NAMEDATALEN - 1 bytes


@dataclass(frozen=True, slots=True)
class Holder:
    """The process that owns (or wants to own) a database."""

    pid: int
    host: str
    port: int
    since: float  # Unix time the claim was taken

    def describe(self) -> str:
        """``hcf-server pid 4242 on host.example, port 8765, since 2026-12-01 18:58:07 UTC``."""
        since = datetime.fromtimestamp(self.since, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        return f"hcf-server pid {self.pid} on {self.host}, port {self.port}, since {since}"


class DatabaseBusy(Exception):  # noqa: N818 - reads as what happened
    """Another server owns the database; nothing was read or written."""

    def __init__(self, where: str, holder: Holder | None, *, scaled: bool = False) -> None:
        if scaled:
            who = "the processes of a scaled setup (--redis)"
        elif holder is not None:
            who = holder.describe()
        else:
            who = "another hcf-server process"
        hint = "stop it first" if holder is None else f"stop it first (kill -TERM {holder.pid} on {holder.host})"
        super().__init__(f"the database {where} is in use by {who}; {hint}, or use another --db")
        self.where, self.holder, self.scaled = where, holder, scaled


class Ownership(Protocol):
    """A claim held until :meth:`release` (or until the process ends)."""

    async def release(self) -> None:
        """Give the database up (the next server may claim it at once)."""


def where_is(url: str) -> str:
    """The database as people should read it: a SQLite file's absolute path, else the URL without password."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        return str(Path(parsed.database).expanduser().resolve())
    return parsed.set(drivername=parsed.get_backend_name()).render_as_string(hide_password=True)


async def claim(url: str, holder: Holder, *, shared: bool = False) -> Ownership:
    """Own the database at ``url`` (``shared``: as one process of the scaled setup), or raise DatabaseBusy."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() == "sqlite":
        assert parsed.database is not None  # database_url refuses SQLite URLs without a file
        return _claim_file(Path(parsed.database).expanduser().resolve(), holder, shared=shared)
    return await _claim_postgres(parsed, holder, shared=shared)


# ------------------------------------------------------------------ SQLite: flock on a file beside it


def peek(url: str) -> Holder | None:
    """The server that owns a SQLite database now, if any, without claiming it (PostgreSQL: not looked up)."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    database = Path(parsed.database).expanduser().resolve()
    try:
        fd = os.open(database.with_name(database.name + OWNER_SUFFIX), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if _try_flock(fd, fcntl.LOCK_SH):
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None  # nobody, or the scaled setup's processes
        return _read_holder(fd)
    finally:
        os.close(fd)



@dataclass(slots=True)
class _FileClaim:
    fd: int | None
    exclusive: bool

    async def release(self) -> None:
        fd, self.fd = self.fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            if self.exclusive:
                os.ftruncate(fd, 0)  # no stale name left behind for the next reader
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _claim_file(database: Path, holder: Holder, *, shared: bool) -> _FileClaim:
    path = database.with_name(database.name + OWNER_SUFFIX)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        if not _try_flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX):
            busy = DatabaseBusy(str(database), None, scaled=not shared and _held_shared(fd))
            if not busy.scaled:
                busy = DatabaseBusy(str(database), _read_holder(fd))
            raise busy
        if not shared:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps({"pid": holder.pid, "host": holder.host, "port": holder.port,
                                      "since": holder.since}).encode(), 0)
    except BaseException:
        os.close(fd)
        raise
    return _FileClaim(fd, exclusive=not shared)


def _try_flock(fd: int, mode: int) -> bool:
    try:
        fcntl.flock(fd, mode | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return False
        raise
    return True


def _held_shared(fd: int) -> bool:
    """Whether the holders hold the lock shared (the scaled setup): a shared lock of ours is granted then."""
    if not _try_flock(fd, fcntl.LOCK_SH):
        return False
    fcntl.flock(fd, fcntl.LOCK_UN)
    return True


def _read_holder(fd: int) -> Holder | None:
    try:
        data: Any = json.loads(os.pread(fd, 4096, 0) or b"null")
        return Holder(int(data["pid"]), str(data["host"]), int(data["port"]), float(data["since"]))
    except (OSError, ValueError, TypeError, KeyError):  # being written at this moment, or not ours
        return None


# ------------------------------------------------------------------ PostgreSQL: a session advisory lock


@dataclass(slots=True)
class _PostgresClaim:
    connection: AsyncConnection | None
    dispose: Any

    async def release(self) -> None:
        connection, self.connection = self.connection, None
        if connection is None:
            return
        with contextlib.suppress(Exception):
            await connection.close()  # the session ends: its advisory lock with it
        with contextlib.suppress(Exception):
            await self.dispose()


async def _claim_postgres(url: URL, holder: Holder, *, shared: bool) -> _PostgresClaim:
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        connection = await (await engine.connect()).execution_options(isolation_level="AUTOCOMMIT")
    except BaseException:
        await engine.dispose()
        raise
    try:
        name = f"hcf-server pid={holder.pid} port={holder.port} host={holder.host}"[:_PG_NAME_LIMIT]
        await connection.execute(sa.text("SELECT set_config('application_name', :name, false)"), {"name": name})
        take = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
        if not (await connection.execute(sa.text(f"SELECT {take}(:key)"), {"key": ADVISORY_KEY})).scalar_one():
            raise await _postgres_busy(connection, where_is(url.render_as_string(hide_password=False)))
    except BaseException:
        await connection.close()
        await engine.dispose()
        raise
    return _PostgresClaim(connection, engine.dispose)


async def _postgres_busy(connection: AsyncConnection, where: str) -> DatabaseBusy:
    high, low = (ADVISORY_KEY >> 32) & 0xFFFFFFFF, ADVISORY_KEY & 0xFFFFFFFF
    rows = (await connection.execute(sa.text(
        "SELECT a.application_name, a.backend_start, l.mode FROM pg_locks l "
        "JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.database = "
        "(SELECT oid FROM pg_database WHERE datname = current_database()) "
        "AND l.classid = :high AND l.objid = :low AND l.objsubid = 1"), {"high": high, "low": low})).all()
    if any(row.mode == "ShareLock" for row in rows):
        return DatabaseBusy(where, None, scaled=True)
    for row in rows:
        found = _APP_NAME.fullmatch(row.application_name or "")
        if found:
            since = row.backend_start.timestamp() if row.backend_start is not None else time.time()
            return DatabaseBusy(where, Holder(int(found[1]), found[3], int(found[2]), since))
    return DatabaseBusy(where, None)
