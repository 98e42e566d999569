"""How the operator commands find and open the database.

They find it by the server's own rule and code (``--db``, ``HCF_DB``, ``HCF_DATABASE_URL``,
``DATABASE_URL``, ``db`` in the config file, then ``hcf.db`` in the data folder:
:func:`server.config_file.server_settings`), say which one they use before anything else,
and never create one: a command pointed at the wrong place says so instead of reading an
empty database as if it were the server's.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TextIO

from server.config_file import server_settings

HINT = ("give the server's database with --db URL, or set HCF_DB (or db in the config file) for the server and "
        "these commands alike (the server prints its database when it starts)")


def add_database_arguments(parser: argparse.ArgumentParser, *aliases: str) -> None:
    """``--db`` and ``--data-dir``, as every operator command takes them."""
    parser.add_argument("--db", *aliases, dest="database_url", metavar="URL",
                        help="database URL, e.g. sqlite:///./hcf.db (default: $HCF_DB, $HCF_DATABASE_URL or "
                             "$DATABASE_URL, else db in the config file, else hcf.db in the data directory: "
                             "the server's own rule)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="where the default SQLite file hcf.db lives (default: $HCF_DATA_DIR, else data_dir "
                             "in the config file, else ~/.local/share/hcf-table)")
    add_config_argument(parser)


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """``--config``, as ``serve`` and every operator command take it."""
    parser.add_argument("--config", metavar="PATH",
                        help="the server's config file (default: $HCF_CONFIG, else "
                             "~/.config/hcf-table/server.toml if it exists; '' for none)")


def chosen_database(args: argparse.Namespace) -> tuple[str, str]:
    """(the database URL, where it came from in words), by the server's rule."""
    overrides = {"database_url": args.database_url, "data_dir": args.data_dir}
    config, _file, source = server_settings(overrides, getattr(args, "config", None))
    return config.resolved_database_url(), source


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


def host_token_command(url: str, source: str, config_file: Any, data_dir: str) -> str:
    """The command that gets a new host token for this server's database, as the server says it.

    It names the database as the server found it: ``--config`` when the database came from
    the config file, ``--db`` when from a flag or a variable (a SQLite file by its full path,
    so it works from any folder; a password only as ``PASSWORD``), ``--data-dir`` for the
    default file in another folder, nothing for the default.
    """
    import shlex

    from sqlalchemy.engine import make_url

    from server.persistence.ownership import where_is

    command = "hcf-server host-token"
    if config_file is not None and "config file" in source:
        return f"{command} --config {shlex.quote(str(Path(config_file.path).resolve()))}"
    if source.startswith("from "):
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            return f"{command} --db {shlex.quote('sqlite:///' + where_is(url))}"
        if parsed.password:
            shown = parsed.set(password="PASSWORD").render_as_string(hide_password=False)
            return f"{command} --db {shlex.quote(shown)} (the database's password in place of PASSWORD)"
        return f"{command} --db {shlex.quote(url)}"
    if data_dir and source.startswith("the default file in"):
        return f"{command} --data-dir {shlex.quote(str(Path(data_dir).expanduser().resolve()))}"
    return command
