"""Schema migrations (alembic), applied when the store opens, under a lock.

``open_database`` calls :func:`migrate` before anything else touches the
database. When the schema is at head (the usual start) a plain read says so and
nothing is locked. Otherwise, two processes starting at once never race: on
PostgreSQL the upgrade runs in one transaction that first takes
``pg_advisory_xact_lock`` with a fixed key (:data:`ADVISORY_LOCK_KEY`); on SQLite
it runs in one ``BEGIN IMMEDIATE`` transaction, which holds the database's write
lock. The second process waits, then reads the revision again, finds head and
does nothing. Both databases roll the whole upgrade back if any step fails
(their DDL is transactional).

A database made by ``metadata.create_all`` before migrations existed holds
exactly revision :data:`INITIAL_REVISION`: it is stamped with it, then upgraded.

For developers, ``python -m server.persistence.migrations`` (``migrations/__main__.py``)
shows and upgrades a database's revision and autogenerates new revisions.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy.engine import URL, Connection, make_url

from server.persistence.engines import MIGRATION_LOCK_TIMEOUT_S, READ_ONLY, Synchronous, create_migration_engine
from server.persistence.errors import StoreError
from server.persistence.models import metadata

MIGRATIONS: Final = Path(__file__).with_name("migrations")
# pg_advisory_xact_lock key shared by every hcf-table process: b"hcf_migr" as a big-endian int64.
ADVISORY_LOCK_KEY: Final = int.from_bytes(b"hcf_migr", "big")
INITIAL_REVISION: Final = "0001"
_INITIAL_TABLES: Final = frozenset(
    {"account", "session_token", "host_token", "place", "transfer", "casino_table", "settings_change", "seat", "hand",
     "hand_event"}
)


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration without an ini file: the script location, and the connection to use."""
    config = Config(attributes={"connection": connection})
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    config.set_main_option("file_template", "v%%(rev)s_%%(slug)s")
    return config


@functools.cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    """The newest revision this code knows."""
    head = _scripts().get_current_head()
    assert head is not None, "there are no migrations"
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at (None before the first migration)."""
    return MigrationContext.configure(connection).get_current_revision()


def schema_differences(connection: Connection) -> list[object]:
    """What alembic's autogenerate finds between the database and the models (empty when they agree)."""
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


async def migrate(url: str | URL, *, synchronous: Synchronous = "FULL") -> tuple[str | None, str]:
    """Upgrade the database to head under the migration lock: ``(revision before, revision after)``.

    The revision before is None for a new database; it equals the one after when
    there was nothing to do (the usual start, and a process that waited for another).
    """
    engine = create_migration_engine(make_url(url), synchronous)
    try:
        # The usual start: already at head. A plain read says so without taking the lock,
        # so opening never waits for a writer (a running server, a maintenance script).
        async with engine.connect() as conn:
            await conn.execution_options(**{READ_ONLY: True})  # SQLite: BEGIN, not BEGIN IMMEDIATE
            current = await conn.run_sync(current_revision)
            await conn.rollback()
        if current == head_revision():
            return current, current
        async with engine.begin() as conn:  # SQLite: BEGIN IMMEDIATE, the lock
            return await conn.run_sync(upgrade_locked)
    finally:
        await engine.dispose()


def upgrade_locked(connection: Connection) -> tuple[str | None, str]:
    """In the caller's transaction: take the lock, adopt a pre-migration database, upgrade to head."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SET LOCAL lock_timeout = '{MIGRATION_LOCK_TIMEOUT_S}s'")
        connection.execute(sa.select(sa.func.pg_advisory_xact_lock(ADVISORY_LOCK_KEY)))
    current = current_revision(connection)  # again, under the lock
    if current == head_revision():
        return current, current  # another process migrated while we waited
    if current is None:
        _adopt_unversioned(connection)
    try:
        command.upgrade(alembic_config(connection), "head")
    except CommandError as exc:
        raise StoreError(
            "db/unknown_revision",
            f"the database is at revision {current!r}, which this version of hcf-table does not know "
            f"(its newest is {head_revision()!r}): run a newer version, or restore a backup ({exc})",
        ) from exc
    if connection.dialect.name == "sqlite":
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise StoreError("db/migration_failed", f"foreign keys broken by the migration: {broken[:5]}")
    after = current_revision(connection)
    assert after is not None
    return current, after


def _adopt_unversioned(connection: Connection) -> None:
    """Stamp a database made by ``create_all`` (before migrations) with the initial revision."""
    tables = set(sa.inspect(connection).get_table_names())
    if not tables & _INITIAL_TABLES:
        return  # a new database
    missing = _INITIAL_TABLES - tables
    if missing:
        raise StoreError(
            "db/unknown_schema",
            f"the database has some of hcf-table's tables but not {sorted(missing)} and no alembic_version",
        )
    command.stamp(alembic_config(connection), INITIAL_REVISION)
