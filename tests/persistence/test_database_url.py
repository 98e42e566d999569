"""URLs as people write them become URLs with an asyncio driver."""

from __future__ import annotations

import pytest

from server.persistence import StoreError, database_url


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("sqlite:///hcf.db", "sqlite+aiosqlite:///hcf.db"),
        ("sqlite:///data/hcf.db", "sqlite+aiosqlite:///data/hcf.db"),
        ("sqlite:////var/lib/hcf/hcf.db", "sqlite+aiosqlite:////var/lib/hcf/hcf.db"),
        ("sqlite+aiosqlite:///hcf.db", "sqlite+aiosqlite:///hcf.db"),
        ("postgresql://hcf@db.local/hcf", "postgresql+asyncpg://hcf@db.local/hcf"),
        ("postgres://hcf:s3cret@db.local:5433/hcf", "postgresql+asyncpg://hcf:s3cret@db.local:5433/hcf"),
        ("postgresql://hcf:p%40ss@db/hcf?ssl=require", "postgresql+asyncpg://hcf:p%40ss@db/hcf?ssl=require"),
        ("postgresql+asyncpg://db/hcf", "postgresql+asyncpg://db/hcf"),
        ("postgresql+psycopg://db/hcf", "postgresql+psycopg://db/hcf"),
        ("  sqlite:///hcf.db\n", "sqlite+aiosqlite:///hcf.db"),
    ],
)
def test_urls_get_an_async_driver(written: str, expected: str) -> None:
    assert database_url(written) == expected


@pytest.mark.parametrize(
    ("written", "fragment"),
    [
        ("mysql://db/hcf", "unsupported database 'mysql'"),
        ("hcf.db", "not a database URL"),
        ("sqlite://", "SQLite needs a file"),
        ("sqlite:///:memory:", "SQLite needs a file"),
        ("postgresql+psycopg2://db/hcf", "not an asyncio driver"),
        ("sqlite+pysqlite:///hcf.db", "not an asyncio driver"),
    ],
)
def test_other_urls_are_refused_with_a_reason(written: str, fragment: str) -> None:
    with pytest.raises(StoreError, match=fragment) as caught:
        database_url(written)
    assert caught.value.code == "db/bad_url"
