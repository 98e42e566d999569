"""Prepare a benchmark database: accounts with chips and session tokens, and the host token.

Registering through ``POST /api/register`` costs two scrypt runs per account (about
100 ms of CPU) and is rate limited per client address, so thousands of benchmark
players are written straight into a fresh SQLite file (or an empty PostgreSQL
database) with the store's own
operations (one shared password hash) before the server starts on it. The server
then sees ordinary accounts with live session tokens.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from server.persistence.database import open_database
from server.persistence.passwords import hash_password
from server.persistence.records import to_micros

CHIPS = 1_000_000
BATCH = 250


@dataclass(frozen=True, slots=True)
class Player:
    """One benchmark account."""

    name: str
    account_id: int
    token: str


@dataclass(slots=True)
class Prepared:
    """What the benchmark needs to drive the server."""

    url: str
    host_token: str
    players: list[Player]


async def prepare(path: Path | str, count: int, prefix: str = "p") -> Prepared:
    """A fresh database at ``path`` with ``count`` funded accounts, each logged in.

    ``path`` is a SQLite file (made anew), or the URL of an empty PostgreSQL database.
    """
    if isinstance(path, str) and "://" in path:
        url = path
    else:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        url = f"sqlite:///{path}"
    db = await open_database(url)
    try:
        shared_hash = await asyncio.to_thread(hash_password, "benchmark-password")
        players: list[Player] = []
        for start in range(0, count, BATCH):
            async with db.transaction() as tx:
                for i in range(start, min(count, start + BATCH)):
                    name = f"{prefix}{i}"
                    account = await tx.create_account(name, shared_hash)
                    await tx.issue(account.id, CHIPS, "benchmark chips")
                    token = await tx.create_session(account.id, to_micros(7 * 86400))
                    players.append(Player(name, account.id, token))
        host_token = await db.rotate_host_token()
    finally:
        await db.close()
    return Prepared(url, host_token, players)
