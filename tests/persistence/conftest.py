"""A real SQLite file per test, a clock the test moves, and quick account makers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from server.persistence import Account, Database, open_database

START = 1_800_000_000.0


class FakeClock:
    """Seconds since the epoch, moved by hand."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "hcf.db"


@pytest.fixture
async def db(db_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
    database = await open_database(f"sqlite:///{db_path}", clock=clock, session_ttl=3600)
    yield database
    await database.close()


MakeAccount = Callable[[str], Awaitable[Account]]


@pytest.fixture
def make_account(db: Database) -> MakeAccount:
    """An account without the cost of scrypt (its password hash is a placeholder)."""

    async def make(name: str) -> Account:
        async with db.transaction() as tx:
            return await tx.create_account(name, "placeholder")

    return make
