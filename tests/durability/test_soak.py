"""A soak: many bots at several tables of the real server, dropping and coming back, for a bounded while.

The server runs as its own process with JSON logs. The host opens two more tables
beside ``main``; six bots sit at each. Every bot plays legal random moves, stands up
and sits down again now and then, and keeps losing its connection (half the time
abruptly: the websocket closed with no goodbye), staying away a moment (sometimes
past its clocks, so the table passes or folds for it and may sit it out), then
coming back with the same token. It stops after ``HANDS`` hands at the three tables
together or ``SECONDS`` seconds, whichever first; then every bot stands up and the
server is stopped with SIGTERM.

Checked: the server exits 0; no log line at level error or above, and no line
that is not JSON (a library's traceback); no bot met an error it did not expect
(a move refused for being a moment too late is expected); ``hcf-server ledger
check`` passes and ``replay --all`` agrees for every table; read from the file,
every chip is where the transfers put it, the felt is empty, every stack is back
in its account, and accounts + house fees equal the chips issued.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from pathlib import Path

import pytest

from client_cli.api import ServerRefused

from .conftest import Coverage
from .helpers import FAST_TABLE, Player, ServerProcess, Spectator, cancel_all, read_books

SEED = 4242
TABLES = ("main", "soak2", "soak3")
BOTS_PER_TABLE = 6
HANDS = 60  # settled, at the three tables together
SECONDS = 40.0
STAY = 6.0  # mean seconds a bot stays connected
AWAY = 2.0  # the most seconds it stays away (the clocks are 1 s)
SOAK_TABLE = {**FAST_TABLE, "offer_seconds": 1, "bet_seconds": 1, "action_seconds": 1, "pause_seconds": 0.2}


async def register(server: ServerProcess, name: str) -> str:
    """Register, waiting out the per-address limit of the register route (10 at once, then 2 a second)."""
    for _ in range(20):
        try:
            return await server.register(name)
        except ServerRefused as exc:
            if exc.code != "rate/limited":
                raise
            await asyncio.sleep(0.5)
    raise AssertionError(f"could not register {name}")


@pytest.mark.slow
@pytest.mark.timeout(240)
async def test_many_bots_dropping_and_coming_back_lose_nothing_and_log_no_error(
        tmp_path: Path, coverage: Coverage) -> None:
    rng = random.Random(SEED)
    server = ServerProcess(tmp_path, table_defaults=SOAK_TABLE)
    spectators: list[Spectator] = []
    players: list[Player] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        await server.start()
        for table in TABLES[1:]:
            await server.host("create_table", table=table, settings={})
        for table in TABLES:
            spectator = Spectator(server.url, table)
            await spectator.open()
            spectators.append(spectator)
        for i in range(BOTS_PER_TABLE * len(TABLES)):
            name, table = f"soak{i + 1}", TABLES[i % len(TABLES)]
            players.append(Player(server.url, name, await register(server, name), table,
                                  random.Random(rng.random()), think=0.2))
        until = asyncio.Event()
        started = time.monotonic()
        tasks = [asyncio.create_task(p.roam(until, stay=STAY, away=AWAY)) for p in players]

        def settled() -> int:
            return sum(1 for s in spectators for _, kind, _ in s.seen if kind == "hand_settled")

        while settled() < HANDS and time.monotonic() - started < SECONDS:
            await asyncio.sleep(0.2)
            for task in tasks:
                if task.done():
                    task.result()  # a bot that crashed fails the test now, with its traceback
        until.set()
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - started
        for p in players:
            p.leaving = True
            if p.conn is None:
                await p.connect()
        await asyncio.gather(*(p.leave() for p in players))
        for p in players:
            await p.close()
        hands_seen = settled()
        by_table = {s.table: Counter(kind for _, kind, _ in s.seen) for s in spectators}
        for spectator in spectators:
            await spectator.close()
        spectators = []
        assert await server.stop() == 0, server.stderr_tail()
        # ---- the logs
        lines, other = server.log_lines()
        levels = Counter(str(line.get("level")) for line in lines)
        errors = [line for line in lines if line.get("level") in ("error", "critical", "exception")]
        assert not errors, errors[:5]
        assert not other, other[:10]
        # ---- the bots
        assert all(not p.errors for p in players), {p.name: p.errors for p in players if p.errors}
        assert all(p.seat is None for p in players), "a bot did not stand up"
        # ---- the books
        checks = await asyncio.gather(server.cli("ledger", "check"),
                                      *(server.cli("replay", "--all", "--table", t) for t in TABLES))
        for code, out in checks:
            assert code == 0, out
        books = read_books(server.db_path)
        assert not books.problems(quiet=True), books.problems()
        assert books.total("stack:") == 0, "every stack went back to its account"
        assert books.total("account:") + books.total("house:fees") == books.issued
        statuses = Counter(status for _, status, _ in books.hands.values())
        drops = sum(p.drops for p in players)
        assert hands_seen >= 20, by_table
        assert drops >= 20, drops
        refused = sum(sum(p.refused.values()) for p in players)
        coverage(
            f"soak: {len(players)} bots at {len(TABLES)} tables for {elapsed:.0f} s: {statuses['settled']} hands "
            f"settled, {statuses['void']} void, {statuses['not_dealt']} not dealt; {drops} dropped connections "
            f"(half abrupt) and {sum(p.connections for p in players)} connections in all; "
            f"{sum(p.requests for p in players)} requests, {refused} refused as too late "
            f"({dict(sum((p.refused for p in players), Counter()).most_common(4))}); 0 bot errors; "
            f"server log: {dict(levels)}, no error line; {checks[0][1].strip()}; replay: "
            + "; ".join(out.strip().splitlines()[-1] for _, out in checks[1:]) + "; chips lost: 0",
            {"bots": len(players), "tables": len(TABLES), "seconds": round(elapsed, 1),
             "settled": statuses["settled"], "void": statuses["void"], "drops": drops,
             "log_levels": dict(levels), "ledger": checks[0][1].strip(), "chips_lost": 0})
    finally:
        await cancel_all(tasks)
        for spectator in spectators:
            await spectator.close()
        for p in players:
            await p.close()
        server.close()
