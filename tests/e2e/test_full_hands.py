"""End to end: the real ``hcf-server serve`` process, three real clients, ten hands, SIGTERM, the ledger.

The server runs as a subprocess on a free loopback port with a fresh SQLite
file and fast clocks; its host token is read from what it prints. After the
hands, SIGTERM must stop it within a bounded time with exit status 0, and the
database must balance with nothing left on the felt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from client_cli.connection import http_json
from server.persistence.database import open_database

from ..server.helpers import Bot, Client, Policy, raise_min

HANDS = 10
FAST = {"pause_seconds": 0, "offer_seconds": 2, "bet_seconds": 3, "action_seconds": 3}
GRACE = 3  # HCF_SHUTDOWN_GRACE: how long a hand in progress may take to end after SIGTERM
EXIT_WITHIN = GRACE + 7.0  # then clients are disconnected (up to 2 s) and aiohttp closes (bounded)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def server_command(port: int, database_url: str) -> list[str]:
    script = shutil.which("hcf-server", path=str(Path(sys.executable).parent))
    head = [script] if script else [sys.executable, "-m", "server.cli"]
    return [*head, "serve", "--port", str(port), "--web-port", "0", "--db", database_url,
            "--table-defaults", json.dumps(FAST)]


async def read_host_token(stdout: asyncio.StreamReader) -> str:
    while True:
        line = (await stdout.readline()).decode()
        assert line, "the server ended before printing its host token"
        found = re.search(r"host token \(shown once\): (\S+)", line)
        if found:
            return found.group(1)


async def wait_healthy(url: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(aiohttp.ClientError, OSError):
            health = await http_json("GET", f"{url}/healthz")
            if health.get("ok"):
                return
        assert time.monotonic() < deadline, "the server did not come up"
        await asyncio.sleep(0.1)


async def test_ten_full_hands_against_the_real_server_then_sigterm(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    database_url = f"sqlite:///{tmp_path}/hcf.db"
    env = {**os.environ, "HCF_SHUTDOWN_GRACE": str(GRACE), "HCF_LOG_LEVEL": "info"}
    stderr_path = tmp_path / "server.log"
    with stderr_path.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            *server_command(port, database_url), stdout=asyncio.subprocess.PIPE, stderr=stderr, env=env,
            cwd=Path(__file__).resolve().parents[2])
        clients: list[Client] = []
        bots: list[Bot] = []
        try:
            assert process.stdout is not None
            host_token = await asyncio.wait_for(read_host_token(process.stdout), 20)
            await wait_healthy(url)
            host = Client(url, host_token=host_token, name="host")
            clients.append(await host.connect())
            await host.join()
            await host.host("pause")
            for name, policy in (("alice", Policy(flush_bonus=2)), ("bob", Policy(decide=raise_min)),
                                 ("carol", Policy(straight_flush_bonus=1))):
                account = await http_json("POST", f"{url}/api/register", {"name": name, "password": "password123"})
                client = Client(url, token=account["token"], name=name, account_id=account["account_id"])
                clients.append(await client.connect())
                await client.join()
                await client.sit()
                bots.append(Bot(client, policy).start())
            mark = host.mark()
            await host.host("resume")
            revealed: list[dict[str, Any]] = []
            cursor = mark
            while len(revealed) < HANDS:
                cursor, ev = await host.event("hand_revealed", since=cursor, timeout=30)
                cursor += 1
                revealed.append(ev)
            assert [h["status"] for h in revealed] == ["settled"] * HANDS
            assert {h["dealer"] for h in revealed} == {1, 2, 3}, "the bank went round"
            refused = [r for bot in bots for r in bot.refusals]
            assert not refused, refused

            # SIGTERM with the bots still playing: the hand in progress ends or is voided, then the process exits
            started = time.monotonic()
            process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(process.wait(), EXIT_WITHIN)
            took = time.monotonic() - started
        finally:
            for bot in bots:
                await bot.stop()
            for client in clients:
                await client.close()
            if process.returncode is None:
                process.kill()
                await process.wait()
    log = stderr_path.read_text()
    assert code == 0, f"exit status {code}; server log:\n{log[-3000:]}"
    assert took < EXIT_WITHIN, took

    database = await open_database(database_url)
    try:
        report = await database.ledger_check()
        assert report.ok, report.discrepancies
        assert not report.open_felt_places, report.open_felt_places
        assert not await database.hands_in_progress()
        hands = await database.recent_hands("main", 100)
        settled = [h for h in hands if h.status == "settled"]
        assert len(settled) >= HANDS
        assert {h.status for h in hands} <= {"settled", "void"}
        for hand in settled:
            assert hand.summary is not None
            settlement = hand.summary["settlement"]
            assert settlement["house"] + settlement["dealer"]["net"] + sum(
                r["net"] for r in settlement["seats"]) == 0
        async with database.transaction(write=False) as tx:
            chips = sum((await tx.balances("account:")).values()) + sum((await tx.balances("stack:")).values())
            fees = await tx.balance("house:fees")
        assert chips + fees == 3 * 10_000, "every chip issued is in an account, a stack or the house's fees"
    finally:
        await database.close()
    print(f"e2e: {len(settled)} settled hands; SIGTERM to exit {took:.2f}s")
