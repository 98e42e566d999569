"""Where a hand's server CPU goes, by part, from a cProfile of the server (``bench/run.sh --cprofile DIR``).

    .venv/bin/python bench/cprofile_parts.py DIR/burst.prof [--hands N]

Each function's own time (not what it calls) is put in one part by the file it is in:
persistence (SQLAlchemy, SQLite and server/persistence, server/storage), views (building
and patching the updates), the rules, the table shell, Socket.IO and Engine.IO, aiohttp,
JSON, logging, asyncio, and the rest. With ``--hands`` (the hands played while the
profile ran, from the benchmark's report) it prints milliseconds per hand too. The
profiler's own cost inflates every part; compare shares, not absolute times.
"""

from __future__ import annotations

import argparse
import pstats
from pathlib import Path

# (part, what the file's path contains): the first that matches wins.
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("start-up (imports)", ("importlib", "marshal.loads", "builtins.compile", "builtins.exec", "__build_class__")),
    ("persistence (SQLAlchemy, SQLite, the store)", ("sqlalchemy/", "aiosqlite", "sqlite3", "server/persistence/",
                                                     "server/storage/", "asyncpg", "greenlet")),
    ("views (updates built, diffed, patched)", ("server/table/updates.py", "server/viewpatch.py",
                                                "server/table/views.py", "/views.py", "/view.py")),
    ("the rules (decide, evolve, views of a hand)", ("server/rules/",)),
    ("the table shell (runner, pipeline, gateway)", ("server/table/", "server/transport/", "server/commands/")),
    ("Socket.IO and Engine.IO", ("socketio/", "engineio/")),
    ("aiohttp (websocket frames, HTTP)", ("aiohttp/", "multidict", "yarl")),
    ("JSON", ("json", "orjson")),
    ("logging (structlog, logging)", ("structlog/", "logging/", "server/logs.py")),
    ("asyncio (the event loop, tasks, futures)", ("asyncio/", "selectors.py", "_asyncio", "{method 'poll'",
                                                  "{method 'run' of '_contextvars")),
)


def part_of(filename: str, function: str) -> str:
    """The part a function's own time belongs to."""
    text = f"{filename} {function}"
    for part, needles in PARTS:
        if any(needle in text for needle in needles):
            return part
    return "the rest (the interpreter, other libraries)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--hands", type=int, help="hands played while the profile ran")
    args = parser.parse_args()
    stats = pstats.Stats(str(args.profile))
    parts: dict[str, float] = {}
    idle = 0.0
    for (filename, _line, function), (_cc, _nc, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if "method 'poll' of 'select.epoll'" in function:
            idle += own  # waiting for the network: not CPU
            continue
        part = part_of(filename, function)
        parts[part] = parts.get(part, 0.0) + own
    total = sum(parts.values())
    print(f"{total:.2f} s of CPU in the profile ({idle:.2f} s more waiting in epoll, left out)")
    for part, seconds in sorted(parts.items(), key=lambda item: -item[1]):
        per_hand = f"{seconds / args.hands * 1e3:8.2f} ms a hand" if args.hands else ""
        print(f"{seconds / total:6.1%}  {per_hand}  {part}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
