"""A real database per test, on both backends; a clock the test moves; quick account makers.

Tests that take ``db`` (or ``db_url``) run twice: ``[sqlite]`` on a copy of a
migrated file, ``[postgresql]`` on a database at head on the session's
PostgreSQL server (tests/conftest.py), emptied before each test. ``sqlite_db``
(a new file, migrated when opened) and ``pg_db`` are for the tests of one
database's own behaviour; ``new_database`` makes empty ones for the migration tests.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from server.persistence import Account, Database, open_database
from tests.support.postgres import PostgresServer, database_name

START = 1_800_000_000.0
BACKENDS = ("sqlite", "postgresql")
T = TypeVar("T")


class FakeClock:
    """Seconds since the epoch, moved by hand."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def run_in_thread(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end on its own loop in another thread (usable from sync fixtures)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _open_and_close(url: str) -> None:
    await (await open_database(url)).close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def persistence_template(postgres_server: PostgresServer) -> str:
    """A PostgreSQL database migrated to head, to copy (CREATE DATABASE ... TEMPLATE)."""
    name = "persistence_template"
    run_in_thread(_open_and_close(postgres_server.create_database(name)))
    return name


class ReusedDatabases:
    """PostgreSQL databases at head for one test each: emptied and reused, unless a test changed the schema.

    Emptying takes a few ms; a new copy of the template takes 0.1-0.4 s here.
    """

    def __init__(self, server: PostgresServer, template: str) -> None:
        self.server = server
        self.template = template
        self.idle: list[str] = []

    def take(self) -> str:
        if self.idle:
            name = self.idle.pop()
            self.server.empty_database(name)
            return self.server.url(name)
        return self.server.create_database(template=self.template)

    def give_back(self, url: str, *, reusable: bool) -> None:
        if reusable:
            self.idle.append(database_name(url))
        else:
            self.server.drop_database(database_name(url))


@pytest.fixture(scope="session")
def reused_databases(postgres_server: PostgresServer, persistence_template: str) -> ReusedDatabases:
    return ReusedDatabases(postgres_server, persistence_template)


SCHEMA_CHANGED = pytest.StashKey[bool]()


@pytest.fixture
def changes_the_schema(request: pytest.FixtureRequest) -> None:
    """Ask for this in a test that alters the schema: its PostgreSQL database is dropped, not reused."""
    request.node.stash[SCHEMA_CHANGED] = True


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "hcf.db"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to head, to copy (a copy costs 1 ms, migrating 60 ms)."""
    path = tmp_path_factory.mktemp("template") / "hcf.db"
    run_in_thread(_open_and_close(f"sqlite:///{path}"))
    assert not path.with_name("hcf.db-wal").exists()  # the last connection to close checkpointed it
    return path


@pytest.fixture
def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A database nobody used, at head: a copy of a migrated SQLite file, or an emptied PostgreSQL database."""
    if backend == "sqlite":
        db_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(request.getfixturevalue("sqlite_template"), db_path)
        yield f"sqlite:///{db_path}"
        return
    databases: ReusedDatabases = request.getfixturevalue("reused_databases")
    url = databases.take()
    yield url
    databases.give_back(url, reusable=not request.node.stash.get(SCHEMA_CHANGED, False))


NewDatabase = Callable[[], str]


@pytest.fixture
def new_database(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[NewDatabase]:
    """Makes databases without any table (migrations start from nothing); PostgreSQL ones are dropped after."""
    made: list[str] = []
    server: PostgresServer | None = request.getfixturevalue("postgres_server") if backend == "postgresql" else None

    def make() -> str:
        url = server.create_database() if server is not None else f"sqlite:///{tmp_path}/new-{len(made)}.db"
        made.append(url)
        return url

    yield make
    if server is not None:
        for url in made:
            server.drop_database(database_name(url))


@pytest.fixture
async def db(db_url: str, clock: FakeClock) -> AsyncIterator[Database]:
    database = await open_database(db_url, clock=clock, session_ttl=3600)
    yield database
    await database.close()


@pytest.fixture
async def pg_db(reused_databases: ReusedDatabases, clock: FakeClock) -> AsyncIterator[Database]:
    """For the tests of PostgreSQL's own behaviour: a database at head on the session's server."""
    url = reused_databases.take()
    database = await open_database(url, clock=clock, session_ttl=3600)
    yield database
    await database.close()
    reused_databases.give_back(url, reusable=True)


@pytest.fixture
async def sqlite_db(db_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
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


async def raw_sql(db: Database, statement: str) -> None:
    """Run one SQL statement and commit, around the store (as a careless script would)."""
    async with db.engine.connect() as conn:
        await conn.exec_driver_sql(statement)
        await conn.commit()
