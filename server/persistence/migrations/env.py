"""Alembic's environment: the store's metadata, on the connection ``migrate.py`` hands over.

There is no alembic.ini: ``server.persistence.migrate`` builds the configuration,
opens the connection (holding the migration lock) and passes it in
``config.attributes["connection"]``. Offline (``--sql``) mode is not supported.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from server.persistence.models import metadata


def run_migrations(connection: Connection) -> None:
    """Run the pending migrations in the caller's transaction (one transaction for all of them)."""
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite cannot ALTER most things: batch mode rebuilds the table instead (PITFALLS 12).
        render_as_batch=connection.dialect.name == "sqlite",
        # SQLite's DDL is transactional too (we emit BEGIN IMMEDIATE ourselves); alembic assumes otherwise.
        transactional_ddl=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _connection() -> Connection:
    connection = context.config.attributes.get("connection")
    if context.is_offline_mode() or not isinstance(connection, Connection):
        raise RuntimeError("run migrations through server.persistence.migrate, which passes a connection")
    return connection


# alembic runs this file inside its environment; a plain import (pytest's doctest
# collection imports every module) finds no environment and runs nothing.
if hasattr(context, "config"):
    run_migrations(_connection())
