"""Fixtures any test package may use: a real PostgreSQL server (tests/support/postgres.py).

The server starts on first use (about 1.5 s) and stops at the end of the session;
tests that never ask for it never start it. When PostgreSQL is not installed,
every test that asks fails, naming the Debian package to install; none is skipped.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

from tests.support.postgres import PostgresMissing, PostgresServer, database_name

# The odds cache (docs/odds.md) would otherwise be the user's own: a test run neither reads
# analyses a person made on this machine nor leaves its own behind. One directory for the
# run, so the counts made once are shared by every test and by the servers they start (by
# XDG_CACHE_HOME, which the tests that clear the HCF_ variables for a subprocess keep).
os.environ.pop("HCF_CACHE_DIR", None)
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="hcf-test-cache-")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server: ``.url(db)``, ``.create_database(template=...)``, ``.sql(...)``."""
    try:
        server = PostgresServer.start()
    except PostgresMissing as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """``postgresql://hcf@127.0.0.1:PORT/hcf``: an empty database made at first use, shared by the session."""
    return postgres_server.create_database("hcf")


@pytest.fixture
def fresh_postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A new empty database for one test, dropped after it."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(database_name(url))
