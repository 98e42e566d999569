"""The database's own floor for a hand: the statements a hand writes, run again through ``sqlite3`` alone.

    .venv/bin/python bench/db_floor.py [--hands 150] [--repeats 3]

Plays hands as ``bench/commit_bench.py`` does (the real table runner and storage on a SQLite
file, seven bots answering at once), and records every statement the store hands to its
``sqlite3`` connection, with its values, the transactions' ``BEGIN`` and ``COMMIT`` and the
commands' savepoints among them. Then it runs the same statements, in the same order and the
same transactions, on a copy of the database as it was before the first of them, through a
bare ``sqlite3`` connection with the store's settings (WAL, ``synchronous=NORMAL``, foreign
keys on). That is what SQLite itself needs for a hand's rows, kept as durable as the server
keeps them: no Python of ours, no SQLAlchemy, no event loop. Prints, as JSON, the CPU a hand
of the table shell (the bots included) and of that replay, and the statements and
transactions a hand (docs/benchmarks.md, eleventh round).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))

import structlog

import bench.commit_bench as commit_bench
import server.persistence.database as database_module
import server.persistence.engines as engines_module
import server.persistence.txbase as txbase_module

# (the connection it was made on, "one" or "many", the SQL, its values)
Call = tuple[int, str, str, Sequence[Any] | list[Sequence[Any]] | None]


class Recording:
    """A ``sqlite3`` connection that keeps every ``execute`` and ``executemany`` it is asked for."""

    def __init__(self, raw: sqlite3.Connection, calls: list[Call]) -> None:
        self._raw, self._calls = raw, calls

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        self._calls.append((id(self._raw), "one", sql, tuple(params)))
        return self._raw.execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> sqlite3.Cursor:
        kept = [tuple(row) for row in rows]
        self._calls.append((id(self._raw), "many", sql, kept))
        return self._raw.executemany(sql, kept)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


def _recorded(calls: list[Call]) -> Any:
    """``sqlite3_connection`` as the store finds it, wrapped so that its calls are kept."""
    found = txbase_module.sqlite3_connection

    def wrapped(driver_connection: Any) -> Any:
        raw = found(driver_connection)
        return None if raw is None else Recording(raw, calls)
    return wrapped


def _recorded_inline(calls: list[Call]) -> Any:
    """``_InlineSqlite._execute`` (what SQLAlchemy's statements go through), with its statements kept."""
    run = engines_module._InlineSqlite._execute

    async def wrapped(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        name = getattr(fn, "__name__", "")
        if name in ("commit", "rollback") and self._connection.in_transaction:  # SQLAlchemy ends its transactions so
            calls.append((id(self._connection), "one", name.upper(), ()))
        elif name in ("execute", "executemany") and args and isinstance(args[0], str):
            params = args[1] if len(args) > 1 else ()
            on = id(self._connection)
            calls.append((on, "one", args[0], tuple(params)) if fn.__name__ == "execute"
                         else (on, "many", args[0], [tuple(row) for row in params]))
        return await run(self, fn, *args, **kwargs)
    return wrapped, run


def replay(calls: list[Call], path: Path) -> float:
    """Seconds of CPU to run ``calls`` on the database at ``path``, each on its own connection, as the store ran
    them."""
    connections: dict[int, sqlite3.Connection] = {}
    for on in dict.fromkeys(call[0] for call in calls):
        raw = connections[on] = sqlite3.connect(path, isolation_level=None)
        for pragma in ("journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON", "wal_autocheckpoint = 0"):
            raw.execute(f"PRAGMA {pragma}")
    started = time.process_time()
    for on, kind, sql, params in calls:
        if kind == "one":
            connections[on].execute(sql, params or ()).fetchall()
        else:
            connections[on].executemany(sql, params or [])
    spent = time.process_time() - started
    for raw in connections.values():
        raw.close()
    return spent


async def one_run(hands: int) -> dict[str, float]:
    calls: list[Call] = []
    prepare, found = commit_bench.prepare, txbase_module.sqlite3_connection
    with tempfile.TemporaryDirectory(prefix="hcf-db-floor-") as tmp:
        before = Path(tmp) / "before.db"

        async def prepared_and_kept(path: Path, seats: int) -> Any:
            done = await prepare(path, seats)
            with sqlite3.connect(path) as source, sqlite3.connect(before) as target:
                source.backup(target)  # the database before the table's first statement, its WAL included
            calls.clear()  # what made it
            return done

        commit_bench.prepare = prepared_and_kept  # type: ignore[assignment]
        txbase_module.sqlite3_connection = database_module.sqlite3_connection = _recorded(calls)  # type: ignore[assignment]
        inline, run = _recorded_inline(calls)
        engines_module._InlineSqlite._execute = inline  # type: ignore[method-assign]
        try:
            shell = await commit_bench.one_run(hands, [])
        finally:
            commit_bench.prepare = prepare  # type: ignore[assignment]
            txbase_module.sqlite3_connection = database_module.sqlite3_connection = found  # type: ignore[assignment]
            engines_module._InlineSqlite._execute = run  # type: ignore[method-assign]
        statements = sum(1 if kind == "one" else len(params or []) for _on, kind, _sql, params in calls)
        commits = sum(1 for _on, kind, sql, _ in calls if kind == "one" and sql.strip().upper() == "COMMIT")
        seconds = replay(calls, before)
    return {"shell_cpu_ms_per_hand": shell["cpu_ms_per_hand"], "replay_cpu_ms_per_hand": seconds / hands * 1e3,
            "statements_per_hand": statements / hands, "commits_per_hand": commits / hands}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))  # the table logs nothing here
    runs = [asyncio.run(one_run(args.hands)) for _ in range(args.repeats)]
    median = {k: round(statistics.median(r[k] for r in runs), 3) for k in runs[0]}
    print(json.dumps({"median": median, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
