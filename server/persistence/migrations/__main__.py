"""``python -m server.persistence.migrations {current,upgrade,revision MESSAGE} --db URL``.

* ``current``: the database's revision, and the newest this code knows;
* ``upgrade``: upgrade it to head, under the migration lock (as the server does at start);
* ``revision "add a column"``: upgrade a scratch database to head, then autogenerate
  ``versions/vNNNN_add_a_column.py`` from its difference with ``models.py``. Review it
  (autogenerate misses triggers, CHECK changes and server defaults) before committing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from alembic import command
from sqlalchemy.engine import Connection, make_url

from server.persistence.database import database_url
from server.persistence.engines import create_migration_engine
from server.persistence.migrate import alembic_config, current_revision, head_revision, migrate


async def _current(url: str) -> str | None:
    engine = create_migration_engine(make_url(url), "FULL")
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(current_revision)
    finally:
        await engine.dispose()


async def _new_revision(url: str, message: str) -> None:
    await migrate(url)
    engine = create_migration_engine(make_url(url), "FULL")
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_write_revision, message)
    finally:
        await engine.dispose()


def _write_revision(connection: Connection, message: str) -> None:
    number = int(head_revision()) + 1
    command.revision(alembic_config(connection), message, autogenerate=True, rev_id=f"{number:04d}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m server.persistence.migrations", description="Show, upgrade or extend the store's schema."
    )
    parser.add_argument("action", choices=["current", "upgrade", "revision"])
    parser.add_argument("message", nargs="?", default="", help="what a new revision does (revision only)")
    parser.add_argument("--db", required=True, help="database URL, e.g. sqlite:////tmp/hcf-dev.db")
    args = parser.parse_args(argv)
    url = database_url(args.db)
    if args.action == "upgrade":
        before, after = asyncio.run(migrate(url))
        print(f"{before} -> {after}")
    elif args.action == "revision":
        if not args.message:
            parser.error("revision needs a MESSAGE")
        asyncio.run(_new_revision(url, args.message))
    else:
        print(asyncio.run(_current(url)), f"(head: {head_revision()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
