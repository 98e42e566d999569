"""The table shell without the network: one table run in-process on a SQLite file, timed.

    .venv/bin/python bench/commit_bench.py [--hands 150] [--repeats 3]

A real :class:`TableRunner` with the real storage (``DatabaseBindings`` over SQLite,
persistence on) plays hands with seven bots that answer at once (bank accepted, the
smallest Ante, raise or fold by the basic strategy); the publisher only hands the
events to the bots, so no socket is involved. Prints hands per second, the time spent
in the storage's ``commit`` per command (median, p99, by number of transfers) and how
many SQL statements SQLite runs per command (BEGIN and COMMIT included), as JSON.

To compare two versions of the server side by side, run the same file with
``PYTHONPATH`` pointing at the other copy first (the script imports ``server`` from
whatever comes first on the path):

    PYTHONPATH=/tmp/before:. .venv/bin/python bench/commit_bench.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH: see above

import sqlalchemy as sa
import structlog

from bench.prepare import prepare
from client_cli.bots import choose_raise
from server.bindings import DatabaseBindings
from server.config import ServerConfig
from server.persistence.database import open_database
from server.table.commands import Play, Sit
from server.table.ports import Batch, TableUpdates
from server.table.registry import Tables

ANTE = 5
SEATS = 7
TABLE = "bench"


class Bots:
    """The publisher: hands every event of each batch's updates to the bots' queue."""

    def __init__(self) -> None:
        self.events: asyncio.Queue[tuple[str, int, int, dict[str, Any]]] = asyncio.Queue()

    async def table_update(self, _table: str, updates: TableUpdates) -> None:
        for item in updates.spectator["events"]:
            self.events.put_nowait(("table", 0, item["seq"], item["event"]))
        for account, update in updates.accounts.items():
            for item in update["events"]:
                if item.get("private"):
                    self.events.put_nowait(("private", account, item["seq"], item["event"]))


class TimedBindings(DatabaseBindings):
    """The real storage, with each commit timed and its statements counted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.statements = 0
        self.samples: list[tuple[int, float, int]] = []  # transfers, seconds, statements
        self.batch_ends: list[tuple[float, int]] = []  # seconds, statements (the batch's COMMIT)

    async def commit(self, table: str, hand_id: int | None, batch: Batch) -> int | None:
        before, started = self.statements, time.perf_counter()
        try:
            return await super().commit(table, hand_id, batch)
        finally:
            self.samples.append((len(batch.transfers), time.perf_counter() - started, self.statements - before))

    async def end_batch(self, table: str, *, commit: bool = True) -> None:
        before, started = self.statements, time.perf_counter()
        try:
            await super().end_batch(table, commit=commit)
        finally:
            self.batch_ends.append((time.perf_counter() - started, self.statements - before))


async def act(runner: Any, account: int, action: str, args: dict[str, Any]) -> None:
    try:
        await runner.submit(Play(account, action, tuple(args.items())))
    except Exception:  # a raise the cards do not allow (the bot misread them): fold instead
        await runner.submit(Play(account, "fold", ()))


async def one_run(hands: int, pragmas: list[str]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hcf-commit-bench-") as tmp:
        prepared = await prepare(Path(tmp) / "bench.db", SEATS)
        db = await open_database(prepared.url)
        bindings = TimedBindings(db, ServerConfig())

        def count(sql: str) -> None:
            if not sql.startswith("--"):  # "-- TRIGGER ...": a statement run by a trigger
                bindings.statements += 1

        def traced(dbapi_connection: Any, _record: Any) -> None:
            # every statement SQLite runs on the store's connections, whichever layer sent it
            aio = getattr(dbapi_connection, "driver_connection", None) or dbapi_connection._connection
            aio._connection.set_trace_callback(count)
            for pragma in pragmas:
                aio._connection.execute(f"PRAGMA {pragma}")

        sa.event.listen(db.engine.sync_engine, "connect", traced)
        bots = Bots()
        tables = Tables(bindings, bots, {})
        try:
            runner = await tables.create(TABLE, {"pause_seconds": 0}, None)
            seat_of: dict[int, int] = {}
            for i, player in enumerate(prepared.players, start=1):
                await runner.submit(Sit(player.account_id, player.name, i, None))
                seat_of[i] = player.account_id
            bindings.samples.clear()
            bindings.batch_ends.clear()
            played, started, cpu0 = 0, time.perf_counter(), time.process_time()
            cards: dict[int, list[str]] = {}
            rng = random.Random(0)
            while played < hands:
                kind, account, _seq, event = await asyncio.wait_for(bots.events.get(), 30)
                if kind == "private":
                    if event.get("type") == "your_cards":
                        cards[account] = list(event.get("cards") or [])
                    continue
                todo: list[tuple[int, str, dict[str, Any]]] = []
                etype = event.get("type")
                if etype == "bank_offered":
                    todo.append((event["seat"], "bank", {"accept": True}))
                elif etype == "betting_opened":
                    todo += [(s, "bet", {"ante": ANTE}) for s in event["bettors"]]
                elif etype == "turn_started":
                    seat = event["seat"]
                    amount = choose_raise("basic", cards.get(seat_of[seat], []), ANTE, 10**9, rng)
                    todo.append((seat, "raise", {"amount": amount}) if amount else (seat, "fold", {}))
                elif etype == "hand_revealed":
                    played += 1
                # All at once, as bots that act the moment they are asked: one batch at the table.
                await asyncio.gather(*(act(runner, seat_of[seat], action, args) for seat, action, args in todo))
            wall, cpu = time.perf_counter() - started, time.process_time() - cpu0
        finally:
            await tables.stop_all(1.0)
            await db.close()
    samples = bindings.samples
    times = sorted(s[1] for s in samples)
    by_transfers: dict[str, list[float]] = {}
    for transfers, seconds, _ in samples:
        by_transfers.setdefault("0" if transfers == 0 else "1-2" if transfers <= 2 else "3+", []).append(seconds)
    return {
        "hands_per_s": hands / wall,
        "cpu_ms_per_hand": cpu / hands * 1e3,
        "commits_per_hand": len(samples) / hands,
        "commit_ms_per_hand": (sum(times) + sum(e[0] for e in bindings.batch_ends)) / hands * 1e3,
        "transactions_per_hand": len(bindings.batch_ends or samples) / hands,
        "commit_p50_us": statistics.median(times) * 1e6,
        "commit_p99_us": times[min(len(times) - 1, int(len(times) * 0.99))] * 1e6,
        "commit_p50_us_by_transfers": {k: round(statistics.median(v) * 1e6) for k, v in sorted(by_transfers.items())},
        "statements_per_commit": (sum(s[2] for s in samples) + sum(e[1] for e in bindings.batch_ends)) / len(samples),
        "statements_max": max(s[2] for s in samples),
        "slowest_us_transfers": [(round(s[1] * 1e6), s[0]) for s in sorted(samples, key=lambda s: -s[1])[:8]],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pragma", action="append", default=[],
                        help="an extra SQLite PRAGMA on each connection (experiments)")
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))  # the table logs nothing here
    runs = [asyncio.run(one_run(args.hands, args.pragma)) for _ in range(args.repeats)]
    best = {k: statistics.median(r[k] for r in runs) for k in runs[0] if isinstance(runs[0][k], (int, float))}
    import server
    print(json.dumps({"server": str(Path(server.__file__).parent), "median": best, "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
