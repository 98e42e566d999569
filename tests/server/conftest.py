"""The real server on loopback: build_app, a real SQLite file, real Socket.IO clients.

After every test the app is stopped (which voids an unfinished hand) and the
same database file is opened again to check the ledger: every invariant holds,
the stacks recorded are the stacks the table runners held in memory, account
balances are not negative, and no chip is left on the felt.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from server.app import DATABASE, STOPPED, TABLES, build_app, graceful_stop, guard
from server.clock import SYSTEM_CLOCK, Clock
from server.config import ServerConfig
from server.persistence import passwords
from server.persistence.database import Database, open_database
from server.table.registry import Tables
from tests.support.clock import ManualClock

from .helpers import TABLE, Bot, Client, Policy, cancel_and_wait, register

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
FAST_TABLE: dict[str, Any] = {
    "pause_seconds": 0,
    "offer_seconds": 2,
    "bet_seconds": 2,
    "action_seconds": 2,
    "min_bank": 500,
}


@dataclass
class Server:
    """One running server and everything a test opened on it."""

    url: str
    host_token: str
    app: web.Application
    runner: web.AppRunner
    database_url: str
    config: ServerConfig = field(default_factory=ServerConfig)
    family: list[Server] = field(default_factory=list)
    clients: list[Client] = field(default_factory=list)
    bots: list[Bot] = field(default_factory=list)
    stopped: bool = False
    crashed: bool = False
    clock: Clock = SYSTEM_CLOCK
    _host: Client | None = None

    @property
    def tables(self) -> Tables:
        return self.app[TABLES]

    async def client(self, *, name: str | None = None, token: str | None = None,
                     host_token: str | None = None, account_id: int | None = None,
                     reconnect: bool = False) -> Client:
        """A connected client (a spectator unless given a token)."""
        client = Client(self.url, token=token, host_token=host_token, name=name, account_id=account_id,
                        reconnect=reconnect)
        self.clients.append(client)
        await client.connect()
        return client

    async def account(self, name: str) -> dict[str, Any]:
        return await register(self.url, name)

    async def player(self, name: str, *, sit: bool = True, table: str = TABLE,
                     policy: Policy | None = None, **sit_args: Any) -> Client:
        """Register, connect, join; then sit (``sit_args``) and start a bot (``policy``)."""
        account = await self.account(name)
        client = await self.client(name=name, token=account["token"], account_id=account["account_id"])
        await client.join(table)
        if sit:
            await client.sit(table, **sit_args)
        if policy is not None:
            self.bot(client, policy, table)
        return client

    async def table(self, *policies: Policy | None, names: tuple[str, ...] = (), **sit_args: Any,
                    ) -> tuple[Client, list[Client]]:
        """The host (watching, the main table paused) and one seated player per policy, seats 1, 2, ..."""
        host = await self.host()
        await host.host("pause")
        names = names or NAMES[:len(policies)]
        players = [await self.player(name, policy=policy, **sit_args)
                   for name, policy in zip(names, policies, strict=True)]
        return host, players

    def bot(self, client: Client, policy: Policy, table: str = TABLE) -> Bot:
        bot = Bot(client, policy, table).start()
        self.bots.append(bot)
        return bot

    async def host(self) -> Client:
        """The host's connection (no account: a spectator with host powers), watching the main table."""
        if self._host is None:
            self._host = await self.client(name="host", host_token=self.host_token)
            await self._host.join(TABLE)
        return self._host

    async def stop(self) -> None:
        """Stop the app once: a hand in progress gets the grace time to end, else it is voided."""
        if not self.stopped:
            self.stopped = True
            await graceful_stop(self.app)  # first, with the connections alive: as ``serve`` does on SIGTERM
            await self.runner.cleanup()

    def app_database(self) -> Database:
        """The running server's own database handle."""
        return self.app[DATABASE]

    async def restart(self) -> Server:
        """Stop (if still running) and start a new server on the same database."""
        await self.close_clients()
        await self.drained()
        await self.stop()
        return await start_server(self.config, self.family, self.clock)

    async def crash(self) -> None:
        """Die without a shutdown: the tables stop dead, nothing is voided (the database is closed)."""
        for runner in self.tables.runners.values():
            for handle in runner._timers.values():
                handle.cancel()
            if runner._task is not None:
                await cancel_and_wait(runner._task)
        await self.close_clients()
        await self.drained()
        self.crashed = True
        self.app[STOPPED].set()  # no graceful stop: as if the process had been killed
        await self.stop()

    async def drained(self, timeout: float = 3.0) -> None:
        """Wait for the server to see every closed connection end (else aiohttp waits out its timeout)."""
        server = self.runner.server
        deadline = asyncio.get_running_loop().time() + timeout
        while server is not None and server.connections and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)

    async def close_clients(self) -> None:
        for bot in self.bots:
            await bot.stop()
        for client in self.clients:
            await client.close()


@pytest.fixture
def config_overrides() -> dict[str, Any]:
    """Server settings a test changes (parametrize this name to override)."""
    return {}


@pytest.fixture
def table_overrides() -> dict[str, Any]:
    """Table defaults a test changes (parametrize this name to override)."""
    return {}


@pytest.fixture
def server_clock(request: pytest.FixtureRequest) -> Clock:
    """The server's clock: the system's, or ``@pytest.mark.parametrize("server_clock", ["manual"],
    indirect=True)`` for a :class:`ManualClock` the test advances (``server.clock``) instead of sleeping."""
    return ManualClock() if getattr(request, "param", "system") == "manual" else SYSTEM_CLOCK


async def start_server(config: ServerConfig, family: list[Server], clock: Clock = SYSTEM_CLOCK) -> Server:
    """Build the real app with the composition root and serve it on a free loopback port."""
    announce = io.StringIO()
    app = build_app(config, announce=announce, clock=clock)
    runner = web.AppRunner(app, shutdown_timeout=5.0, keepalive_timeout=config.idle_timeout)  # as ``serve`` has it
    await runner.setup()
    guard(app, runner)
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    found = re.search(r"host token \(shown once\): (\S+)", announce.getvalue())
    host_token = found.group(1) if found else (family[-1].host_token if family else "")
    assert host_token, f"no host token announced: {announce.getvalue()!r}"
    srv = Server(f"http://127.0.0.1:{port}", host_token, app, runner, config.database_url, config=config,
                 family=family, clock=clock)
    family.append(srv)
    return srv


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The server's database: a SQLite file (tests/server/test_on_postgres.py overrides it)."""
    return f"sqlite:///{tmp_path}/hcf.db"


@pytest.fixture
async def server(database_url: str, monkeypatch: pytest.MonkeyPatch, config_overrides: dict[str, Any],
                 table_overrides: dict[str, Any], server_clock: Clock) -> AsyncIterator[Server]:
    # scrypt at full cost is ~50 ms a hash on this machine; its cost is not what these tests test.
    monkeypatch.setattr(passwords, "SCRYPT_N", 2**4)
    config = ServerConfig(
        host="127.0.0.1", port=0, database_url=database_url,
        table_defaults={**FAST_TABLE, **table_overrides},
        # Test clients poll snapshots far faster than people play: the rate limit has its own tests
        # (test_errors.py, test_http.py) that set it back to the production values.
        # A drop publishes its presence at once here (tests/server/test_presence.py waits for it);
        # the grace that coalesces a drop and a return has its own test (test_abuse_limits.py).
        **{"clock_grace": 0.05, "shutdown_grace": 1.0, "rate_per_second": 1e6, "rate_burst": 1_000_000,
           "presence_grace": 0.0, **config_overrides},
    )
    family: list[Server] = []
    try:
        yield await start_server(config, family, server_clock)
    finally:
        for srv in family:
            await srv.close_clients()
            await srv.drained()
            await srv.stop()
            still = [name for name, r in srv.tables.runners.items() if r.hand_in_progress() and not srv.crashed]
            assert not still, f"hands still in progress after the shutdown: {still}"
        last = family[-1]
        await check_ledger(config.database_url, {name: dict(r.stacks) for name, r in last.tables.runners.items()})


async def check_ledger(database_url: str, runner_stacks: dict[str, dict[int, int]]) -> None:
    """The ledger invariants, the stacks as the runners knew them, and an empty felt."""
    database = await open_database(database_url)
    try:
        report = await database.ledger_check()
        assert report.ok, report.discrepancies
        assert not report.open_felt_places, f"chips left on the felt: {report.open_felt_places}"
        assert not await database.hands_in_progress(), "a hand is still recorded as in progress"
        async with database.transaction(write=False) as tx:
            stacks = await tx.balances("stack:")
            accounts = await tx.balances("account:")
        for table, memory in runner_stacks.items():
            recorded = {int(k.rsplit(":", 1)[1]): v for k, v in stacks.items()
                        if k.startswith(f"stack:{table}:") and v}
            assert recorded == {a: v for a, v in memory.items() if v}, \
                f"table {table}: recorded stacks {recorded} != runner stacks {memory}"
        negative = {k: v for k, v in {**stacks, **accounts}.items() if v < 0}
        assert not negative, f"negative balances: {negative}"
    finally:
        await database.close()
