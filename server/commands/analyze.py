"""``hcf-server analyze``: the exact odds of a table's own settings (docs/odds.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from server.commands.operator_db import add_database_arguments
from server.simulation.inputs import InputError, parse_pairs

EXIT_USAGE = 2
__all__ = ["InputError", "add_parser", "parse_pairs", "resolve", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``analyze``."""
    parser = subparsers.add_parser(
        "analyze", help="the exact odds and house edge of a table's own settings",
        description="Each bet's outcomes, probabilities and house edge for one table's settings: "
                    "a table in the database (--table), a JSON file (--settings) or a game with "
                    "changes (--game, --set). Results are cached per distinct settings.",
        epilog="examples:\n  hcf-server analyze --game hcf --set profile=standard\n"
               "  hcf-server analyze --game hcf --set 'flush_pays={\"7\": 300, \"6\": 100, \"5\": 10, \"4\": 1}'\n"
               "  hcf-server analyze --table main --json\n"
               "  hcf-server analyze --settings table.json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--table", metavar="NAME", help="a table's settings, read from the database")
    source.add_argument("--settings", metavar="FILE", help="a JSON object of table settings, game included")
    source.add_argument("--game", choices=("hcf", "caribbean", "sixcard"), help="a game's defaults (default: hcf)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="pairs",
                        help="change one setting (repeatable); VALUE is read as JSON when it parses")
    add_database_arguments(parser, "--database")
    parser.add_argument("--cache-dir", help="where analyses are kept (default: $HCF_CACHE_DIR, else "
                        "$XDG_CACHE_HOME/hcf-table/odds)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    parser.set_defaults(runner=run)


def _read_file(path: str) -> dict[str, Any]:
    try:
        loaded = json.loads(Path(path).read_text())
    except OSError as error:
        raise InputError(f"--settings: cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise InputError(f"--settings: {path} is not JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(loaded, dict):
        raise InputError(f"--settings: {path} must hold a JSON object of table settings")
    return loaded


def _read_table(args: argparse.Namespace) -> tuple[dict[str, Any], int | None]:
    from server.commands.operator_db import existing_database

    async def read() -> tuple[dict[str, Any], int | None]:
        async with existing_database(args) as database:
            info = await database.get_table(args.table)
            if info is None:
                raise InputError(f"--table: there is no table named {args.table!r} in that database")
            recent = await database.recent_hands(args.table, 5)
            carry: Any = next((h.summary["carry"] for h in recent if h.summary and "carry" in h.summary), {})
            meter = carry.get("meter") if isinstance(carry, Mapping) else None
            # The server keeps the game in the settings (the column may say hcf): the settings win.
            return {"game": info.game, **info.settings}, int(meter) if meter is not None else None

    return asyncio.run(read())


def resolve(args: argparse.Namespace) -> tuple[Any, int | None]:
    """(validated settings, Caribbean meter in hundredths or None) from the arguments."""
    from server.rules.errors import SettingsError, Violation
    from server.rules.games import game_of

    meter = None
    if args.table:
        values, meter = _read_table(args)
    elif args.settings:
        values = _read_file(args.settings)
    else:
        values = {"game": args.game or "hcf"}
    values = {**values, **parse_pairs(args.pairs)}
    try:
        game = game_of(values)
        return game.settings_from_mapping(values), meter
    except (SettingsError, Violation) as error:
        raise InputError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    """Analyze and print; the exit status."""
    from rich.console import Console

    from server.analysis.analyze import analyze_settings
    from server.analysis.render import render
    from server.simulation.progress import progress_bar

    try:
        settings, meter = resolve(args)
    except InputError as error:
        print(f"hcf-server analyze: {error}", file=sys.stderr)
        return EXIT_USAGE
    cache = Path(args.cache_dir) if args.cache_dir else None
    with progress_bar() as progress:
        report = analyze_settings(settings, meter, progress=progress, cache=cache)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        render(report, Console())
    return 0
