"""How the operator commands find and open the database.

They find it by the server's own rule (``--db``, ``HCF_DATABASE_URL``, ``DATABASE_URL``,
then ``hcf.db`` in the data folder: :func:`server.config.database_source`), say which
one they use before anything else, and never create one: a command pointed at the
wrong place says so instead of reading an empty database as if it were the server's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from typing import Any, TextIO

from server.config import config_from, database_source

HINT = ("give the server's database with --db URL, or set HCF_DATABASE_URL for the server and these commands "
        "alike (the server prints its database when it starts)")


def add_database_arguments(parser: argparse.ArgumentParser, *aliases: str) -> None:
    """``--db`` and ``--data-dir``, as every operator command takes them."""
    parser.add_argument("--db", *aliases, dest="database_url", metavar="URL",
                        help="database URL, e.g. sqlite:///./hcf.db (default: $HCF_DATABASE_URL or "
                             "$DATABASE_URL, else hcf.db in the data directory: the server's own rule)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="where the default SQLite file hcf.db lives (default: $HCF_DATA_DIR, else "
                             "~/.local/share/hcf-table)")


def chosen_database(args: argparse.Namespace) -> tuple[str, str]:
    """(the database URL, where it came from in words), by the server's rule."""
    overrides = {"database_url": args.database_url, "data_dir": args.data_dir}
    return config_from(os.environ, overrides).resolved_database_url(), database_source(os.environ, overrides)


@contextlib.asynccontextmanager
async def existing_database(args: argparse.Namespace, *, say: TextIO | None = None) -> AsyncIterator[Any]:
    """The database the arguments name, once it is known to exist; its name is printed to ``say`` (stderr)."""
    from server.persistence.database import open_database
    from server.persistence.errors import StoreError
    from server.persistence.ownership import where_is

    url, source = chosen_database(args)
    try:
        database = await open_database(url, create=False)
    except StoreError as exc:
        if exc.code != "db/missing":
            raise
        raise StoreError(exc.code, f"{exc.message} ({source}), and none was created: {HINT}") from None
    print(f"Using the database at {where_is(url)} ({source}).", file=say or sys.stderr)
    try:
        yield database
    finally:
        await database.close()
