"""The PostgreSQL server the tests start themselves (tests/support/postgres.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.postgres import DEBIAN_PACKAGE, PostgresMissing, PostgresServer, database_name, find_bindir


def test_missing_binaries_name_the_debian_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HCF_PG_BINDIR", str(tmp_path))
    with pytest.raises(PostgresMissing, match=f"install the Debian package `{DEBIAN_PACKAGE}`"):
        find_bindir()


def test_the_server_listens_on_loopback_as_an_unprivileged_user(postgres_server: PostgresServer) -> None:
    assert postgres_server.sql("SHOW listen_addresses").strip() == "127.0.0.1"
    assert postgres_server.url().startswith(f"postgresql://hcf@127.0.0.1:{postgres_server.port}/")
    server_uid = Path(f"/proc/{postgres_server.process.pid}").stat().st_uid
    assert server_uid != 0
    if os.geteuid() != 0:
        assert server_uid == os.geteuid()


def test_databases_are_made_emptied_and_dropped(postgres_server: PostgresServer) -> None:
    url = postgres_server.create_database()
    name = database_name(url)
    postgres_server.sql("CREATE TABLE t (id serial PRIMARY KEY, x int); INSERT INTO t (x) VALUES (1), (2)",
                        database=name)
    postgres_server.empty_database(name)
    assert postgres_server.sql("INSERT INTO t (x) VALUES (3) RETURNING id", database=name).strip() == "1"
    copy = database_name(postgres_server.create_database(template=name))
    assert postgres_server.sql("SELECT x FROM t", database=copy).split() == ["3"]
    for db in (name, copy):
        postgres_server.drop_database(db)
    assert name not in postgres_server.sql("SELECT datname FROM pg_database").split()
