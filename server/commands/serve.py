"""``hcf-server serve`` and ``hcf-server host-token``."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from server.config_file import server_settings


def add_serve(subparsers: Any) -> None:
    """Register ``serve``."""
    serve = subparsers.add_parser(
        "serve", help="run the table server",
        description="Run the live table server (Socket.IO on aiohttp). Settings also come from "
                    "HCF_* environment variables (HCF_DB: the database) and a config file "
                    "(~/.config/hcf-table/server.toml); flags first, then the environment, then the file. "
                    "See docs/configuration.md.",
        epilog="examples:\n  hcf-server serve\n  hcf-server serve --port 9000 --web-port 9080 --db sqlite:///./hcf.db\n"
               "  hcf-server serve --config /etc/hcf-table/server.toml\n"
               "  hcf-server serve --log-format json --table-defaults '{\"fee_mode\": \"all\"}'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default 8765)")
    serve.add_argument("--web-port", type=int,
                       help="port of the browser client's pages, served beside the main port (default 8080; 0: off)")
    serve.add_argument("--db", dest="database_url", metavar="URL",
                       help="database URL (default: $HCF_DB, else db in the config file, else SQLite in the data dir)")
    serve.add_argument("--data-dir", help="where the default SQLite file lives")
    serve.add_argument("--log-format", choices=["console", "json"], help="log lines (default console)")
    serve.add_argument("--table-defaults", help="JSON object of table settings for new tables")
    serve.add_argument("--redis", dest="redis_url",
                       help="Redis URL: run as one of several processes sharing PostgreSQL (docs/scaling.md)")
    from server.commands.operator_db import add_config_argument

    add_config_argument(serve)
    serve.set_defaults(runner=_serve)


def add_host_token(subparsers: Any) -> None:
    """Register ``host-token``."""
    cmd = subparsers.add_parser(
        "host-token", help="print a new host token (the old one stops working)",
        epilog="example: hcf-server host-token --db sqlite:///./hcf.db")
    from server.commands.operator_db import add_database_arguments

    add_database_arguments(cmd)
    cmd.set_defaults(runner=_host_token)


PARSERS = [add_serve, add_host_token]


def _config(args: argparse.Namespace) -> tuple[Any, Any, str]:
    """(the settings, the config file read or None, where the database came from), by the operators' rule."""
    overrides: dict[str, Any] = {k: getattr(args, k, None) for k in
                                 ("host", "port", "web_port", "database_url", "data_dir", "log_format",
                                  "redis_url")}
    raw = getattr(args, "table_defaults", None)
    if raw is not None:
        try:
            overrides["table_defaults"] = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise SystemExit(f"error: --table-defaults is not JSON: {exc}") from None
    try:
        return server_settings(overrides, getattr(args, "config", None))
    except (ValueError, TypeError) as exc:  # a bad value or config file (ConfigError): one sentence
        raise SystemExit(f"error: {exc}") from None


def _serve(args: argparse.Namespace) -> int:
    from server.commands.operator_db import host_token_command
    from server.persistence.database import database_url
    from server.persistence.errors import StoreError
    from server.rules.errors import SettingsError
    from server.table.registry import Tables

    config, config_file, source = _config(args)
    try:
        Tables.settings_for_defaults(config.table_defaults)
        database_url(config.resolved_database_url())  # a bad URL is a sentence before the port is taken
    except SettingsError as exc:
        print(f"error: --table-defaults: {exc}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    from server.analysis.service import enable_background

    enable_background()  # a new table's odds are worked out as soon as it is created (docs/odds.md)
    if config_file is not None:
        print(f"config: {config_file.describe()}", flush=True)
    url = config.resolved_database_url()
    token_command = host_token_command(url, source, config_file, config.data_dir)
    asyncio.run(_start(config, token_command))  # a busy port or database: one sentence (server/commands/failures.py)
    return 0


async def _start(config: Any, token_command: str) -> None:
    """The port, then the database's claim, and only then the rest of the server.

    The server itself is imported after the claim (a second of imports on a small
    machine), so that a refusal comes at once.
    """
    import socket
    import time

    from server.listening import listening_socket
    from server.persistence.ownership import Holder, claim

    url = config.resolved_database_url()
    sock = listening_socket(config.host, config.port, database_url=url)
    try:
        holder = Holder(os.getpid(), socket.gethostname(), sock.getsockname()[1], time.time())
        ownership = await claim(url, holder, shared=bool(config.redis_url))
    except BaseException:
        sock.close()
        raise
    try:
        from server.app import serve
        from server.logs import configure_logging

        configure_logging(config.log_format, config.log_level)
    except BaseException:
        sock.close()
        await ownership.release()
        raise
    await serve(config, sock=sock, ownership=ownership, token_command=token_command)


def _host_token(args: argparse.Namespace) -> int:
    from server.commands.operator_db import existing_database

    async def rotate() -> str:  # the server's database only: a token in a new, empty one would open nothing
        async with existing_database(args) as database:
            token: str = await database.rotate_host_token()
            return token

    print(asyncio.run(rotate()))
    return 0
