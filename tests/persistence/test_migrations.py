"""Migrations: a new database and an upgraded one end with the same schema, the models' schema.

The tests run on both databases (the last, on foreign keys, is SQLite's). Two
processes starting at once against one new database both succeed: one migrates,
the other waits for its lock and finds the schema at head.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.engine import Connection, make_url

from server.persistence import StoreError, account_place, database_url, open_database
from server.persistence.engines import create_migration_engine
from server.persistence.migrate import (
    ADVISORY_LOCK_KEY,
    INITIAL_REVISION,
    alembic_config,
    current_revision,
    head_revision,
    migrate,
    schema_differences,
)
from server.persistence.models import metadata

from .conftest import NewDatabase

ROOT = Path(__file__).resolve().parents[2]


async def _on(url: str, work: Any, *, transaction: bool = True) -> Any:
    """Run ``work(connection)`` on a migration engine (SQLite: inside BEGIN IMMEDIATE)."""
    engine = create_migration_engine(make_url(database_url(url)), "FULL")
    try:
        async with engine.begin() if transaction else engine.connect() as conn:
            return await conn.run_sync(work)
    finally:
        await engine.dispose()


def _alembic(action: str, revision: str) -> Any:
    def run(conn: Connection) -> None:
        getattr(command, action)(alembic_config(conn), revision)

    return run


def _schema(conn: Connection) -> dict[str, Any]:
    """Everything the schema is made of, comparable between two databases of one kind."""
    inspector = sa.inspect(conn)
    tables = {}
    for name in sorted(inspector.get_table_names()):
        tables[name] = {
            "columns": [
                (c["name"], str(c["type"]), c["nullable"], str(c.get("default"))) for c in inspector.get_columns(name)
            ],
            "primary_key": inspector.get_pk_constraint(name),
            "foreign_keys": sorted(
                (str(fk["name"]), fk["constrained_columns"], fk["referred_table"], fk["referred_columns"])
                for fk in inspector.get_foreign_keys(name)
            ),
            "indexes": sorted(
                (str(i["name"]), i["column_names"], bool(i["unique"]), _options(i.get("dialect_options", {})))
                for i in inspector.get_indexes(name)
            ),
            "uniques": sorted((str(u["name"]), u["column_names"]) for u in inspector.get_unique_constraints(name)),
            "checks": sorted((str(c["name"]), c["sqltext"]) for c in inspector.get_check_constraints(name)),
        }
    if conn.dialect.name == "sqlite":
        query = "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"
    else:
        query = (
            "SELECT tgname, tgrelid::regclass::text, pg_get_triggerdef(oid) FROM pg_trigger "
            "WHERE NOT tgisinternal ORDER BY tgname"
        )
    triggers = [tuple(row) for row in conn.exec_driver_sql(query)]
    functions = []
    if conn.dialect.name == "postgresql":
        query = "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname"
        functions = [tuple(row) for row in conn.exec_driver_sql(query)]
    return {"tables": tables, "triggers": triggers, "functions": functions}


def _options(options: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((key, str(getattr(value, "text", value))) for key, value in options.items())


def _check(conn: Connection) -> tuple[str | None, list[object], dict[str, Any]]:
    return current_revision(conn), schema_differences(conn), _schema(conn)


async def _opened(url: str) -> tuple[str | None, list[object], dict[str, Any]]:
    """Open the store (which migrates), then read the revision, the differences and the schema."""
    await (await open_database(url)).close()
    return await _on(url, _check, transaction=False)


async def test_a_new_database_is_migrated_to_head_and_matches_the_models(new_database: NewDatabase) -> None:
    url = new_database()
    assert await migrate(database_url(url)) == (None, head_revision())
    revision, differences, schema = await _opened(url)
    assert revision == head_revision()
    assert differences == []  # alembic's compare_metadata: the models and the migrated database agree
    assert set(schema["tables"]) == {*metadata.tables, "alembic_version"}
    assert {(name, table) for name, table, _ in schema["triggers"]} >= {
        (name, table) for table in ("transfer", "settings_change", "hand_event") for name in _append_only(url, table)
    }
    assert await migrate(database_url(url)) == (head_revision(), head_revision())  # again: nothing to do


def _append_only(url: str, table: str) -> list[str]:
    if url.startswith("sqlite"):
        return [f"{table}_no_update", f"{table}_no_delete"]
    return [f"{table}_no_change", f"{table}_no_truncate"]


async def test_an_upgraded_database_ends_like_a_new_one(new_database: NewDatabase) -> None:
    fresh, old = new_database(), new_database()
    await _on(old, _alembic("upgrade", INITIAL_REVISION))
    db = await open_database(old)  # upgrades from the initial revision, keeping the data
    try:
        assert await db.balance(account_place(7)) == 0
    finally:
        await db.close()
    assert await _opened(old) == await _opened(fresh)


async def test_data_survive_the_upgrade(new_database: NewDatabase) -> None:
    url = new_database()
    await _on(url, _alembic("upgrade", INITIAL_REVISION))
    await _on(url, lambda conn: conn.exec_driver_sql(
        "INSERT INTO place (key, balance, overdraft) VALUES ('issuance', -50, TRUE), ('account:7', 50, FALSE)"
    ))
    db = await open_database(url)
    try:
        assert await db.balance(account_place(7)) == 50
        assert (await db.ledger_check()).discrepancies == [
            "account:7 holds 50 but its transfers add up to 0",
            "issuance holds -50 but its transfers add up to 0",
        ]
    finally:
        await db.close()


async def test_downgrading_to_nothing_and_back_gives_the_same_schema(new_database: NewDatabase) -> None:
    fresh, url = new_database(), new_database()
    await migrate(database_url(url))
    await _on(url, _alembic("downgrade", "base"))
    revision, _, schema = await _on(url, _check, transaction=False)
    assert revision is None
    assert set(schema["tables"]) == {"alembic_version"}
    assert schema["triggers"] == []
    assert schema["functions"] == []
    assert await _opened(url) == await _opened(fresh)


def _create_all_as_before_migrations(conn: Connection) -> None:
    """What ``open_database`` made before migrations: ``create_all``, and the SQLite triggers."""
    metadata.create_all(conn)
    if conn.dialect.name == "sqlite":
        for table in ("transfer", "settings_change", "hand_event"):
            for action in ("UPDATE", "DELETE"):
                conn.exec_driver_sql(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
                )


async def test_a_database_made_before_migrations_is_adopted(new_database: NewDatabase) -> None:
    fresh, old = new_database(), new_database()
    await _on(old, _create_all_as_before_migrations)
    assert await migrate(database_url(old)) == (None, head_revision())
    assert await _opened(old) == await _opened(fresh)


async def test_a_database_with_only_some_of_the_tables_is_refused(new_database: NewDatabase) -> None:
    url = new_database()
    await _on(url, lambda conn: metadata.tables["place"].create(conn))
    with pytest.raises(StoreError) as caught:
        await open_database(url)
    assert caught.value.code == "db/unknown_schema"


async def test_a_database_from_a_newer_version_is_refused(new_database: NewDatabase) -> None:
    url = new_database()
    await migrate(database_url(url))
    await _on(url, lambda conn: conn.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(StoreError) as caught:
        await open_database(url)
    assert caught.value.code == "db/unknown_revision"
    assert "'9999'" in caught.value.message


async def test_a_migration_waits_for_the_lock(new_database: NewDatabase) -> None:
    """Whoever holds the migration lock (another process migrating) makes a starting process wait."""
    url = new_database()
    async with _holding_the_migration_lock(url):
        waiting = asyncio.create_task(migrate(database_url(url)))  # as another process would
        await asyncio.sleep(0.5)
        assert not waiting.done()
    assert await asyncio.wait_for(waiting, 30) == (None, head_revision())


async def test_opening_a_database_at_head_takes_no_lock(new_database: NewDatabase) -> None:
    """A running server writing (SQLite's write lock) or migrating does not delay a start with nothing to do."""
    url = new_database()
    await migrate(database_url(url))
    async with _holding_the_migration_lock(url):
        db = await asyncio.wait_for(open_database(url), 10)
        assert await db.balance(account_place(1)) == 0
        await db.close()


@contextlib.asynccontextmanager
async def _holding_the_migration_lock(url: str) -> Any:
    engine = create_migration_engine(make_url(database_url(url)), "FULL")
    try:
        async with engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(ADVISORY_LOCK_KEY)))
            else:
                await conn.exec_driver_sql("SELECT 1")  # autobegins: BEGIN IMMEDIATE, SQLite's write lock
            yield
            await conn.rollback()
    finally:
        await engine.dispose()


_STARTER = textwrap.dedent(
    """
    import asyncio, json, sys
    import server.persistence.database as database

    async def main(url):
        real = database.migrate
        seen = {}

        async def recording(*args, **kwargs):
            seen["before"], seen["after"] = await real(*args, **kwargs)
            return seen["before"], seen["after"]

        database.migrate = recording
        print("ready", flush=True)
        sys.stdin.readline()  # "go", to every process at once
        db = await database.open_database(url)
        try:
            report = await db.ledger_check()
        finally:
            await db.close()
        print(json.dumps({**seen, "ok": report.ok}))

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.slow
async def test_processes_starting_at_once_never_race_on_migrations(new_database: NewDatabase) -> None:
    url = new_database()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", _STARTER, url, cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    for process in processes:  # every interpreter has imported the store
        assert process.stdout is not None
        assert await asyncio.wait_for(process.stdout.readline(), 60) == b"ready\n"
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(b"go\n")
    results = [await asyncio.wait_for(p.communicate(), 120) for p in processes]
    for process, (_, err) in zip(processes, results, strict=True):
        assert process.returncode == 0, err.decode()
    reports = sorted((json.loads(out) for out, _ in results), key=lambda r: str(r["before"]))
    head = head_revision()
    # Exactly one migrated the new database; the other waited for its lock, then had nothing to do.
    assert reports == [{"before": head, "after": head, "ok": True}, {"before": None, "after": head, "ok": True}]
    revision, differences, _ = await _on(url, _check, transaction=False)
    assert revision == head
    assert differences == []


async def test_sqlite_migrations_keep_foreign_keys_checked(tmp_path: Path) -> None:
    """Migrations run with foreign keys off (batch mode needs it) and check them at the end."""
    url = f"sqlite:///{tmp_path}/fk.db"
    await migrate(database_url(url))
    with contextlib.closing(sqlite3.connect(tmp_path / "fk.db")) as raw:
        raw.execute("INSERT INTO transfer (created_at, src, dst, amount, kind, memo) VALUES (0, 'a', 'b', 1, 'x', '')")
        raw.execute("UPDATE alembic_version SET version_num = '0001'")
        raw.commit()
    with pytest.raises(StoreError) as caught:
        await migrate(database_url(url))
    assert caught.value.code == "db/migration_failed"
    with contextlib.closing(sqlite3.connect(tmp_path / "fk.db")) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]  # rolled back


def _hands_before_numbers(conn: Connection) -> None:
    """Two tables' hands as revision 0003 kept them: attempts nobody banked among dealt ones."""
    run = conn.exec_driver_sql
    run("INSERT INTO casino_table (name, game, settings, created_at, closed) VALUES "
        "('main', 'hcf', '{}', 1, FALSE), ('high', 'hcf', '{}', 1, FALSE)")
    # (id, table, hand_no, status, dealt): ids are server-wide, hand_no counted every attempt.
    hands = [(1, "main", 1, "not_dealt", False), (2, "main", 2, "settled", True), (3, "high", 1, "settled", True),
             (4, "main", 3, "not_dealt", False), (5, "main", 4, "void", True), (6, "main", 5, "void", False)]
    for seq, (hand_id, table, hand_no, status, dealt) in enumerate(hands, start=1):
        run("INSERT INTO hand (id, table_name, hand_no, started_at, ended_at, status, server_seed, commitment, "
            f"shuffle_version, arranged, summary) VALUES ({hand_id}, '{table}', {hand_no}, 1, 2, '{status}', "
            f"'{'0' * 64}', '{'0' * 64}', 1, FALSE, '{{}}')")
        kind = "cards_dealt" if dealt else "bank_offered"
        run("INSERT INTO hand_event (table_name, hand_id, seq, type, payload, created_at) VALUES "
            f"('{table}', {hand_id}, {seq}, '{kind}', '{{\"type\": \"{kind}\"}}', 1)")


async def test_the_upgrade_numbers_the_dealt_hands_of_each_table_from_their_logs(new_database: NewDatabase) -> None:
    url = new_database()
    await _on(url, _alembic("upgrade", "0003"))
    await _on(url, _hands_before_numbers)
    db = await open_database(url)
    try:
        numbers = {h.id: h.number for table in ("main", "high") for h in await db.recent_hands(table, 10)}
        assert numbers == {1: None, 2: 1, 3: 1, 4: None, 5: 2, 6: None}
        assert [h.id for h in await db.recent_hands("main", 10, dealt_only=True)] == [5, 2]
        assert (await db.hand_by_number("main", 2)).id == 5
    finally:
        await db.close()
