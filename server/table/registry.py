"""The running tables of one server process, by name."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Protocol

import structlog

from server.clock import SYSTEM_CLOCK, Clock
from server.i18n import phrase
from server.rules.drill.settings import DrillSettings, drill_settings
from server.rules.errors import RuleError
from server.rules.game import JSON, AccountId, JSONIn, TableSettings
from server.rules.games import game_of
from server.table.commands import TableCommand, TableError
from server.table.ports import Answer, Publisher, TableStorage
from server.table.runner import TableRunner, TableSetup

log = structlog.get_logger("hcf.tables")


def drill_for(values: object, settings: TableSettings) -> DrillSettings:
    """A drill table's ``drill`` settings, checked against its game (raises TableError ``settings/invalid``)."""
    game = game_of(settings.as_dict()).name
    try:
        return drill_settings(values, game, house_banked=settings.house_banked, chips=bool(settings.chips))
    except RuleError as exc:
        raise TableError("settings/invalid", exc.message) from None


class TableCatalog(TableStorage, Protocol):
    """Storage that also knows which tables exist and how to restore them."""

    async def create_table(self, name: str, settings: JSON, by: AccountId | None) -> None:
        """Record a new table (raises TableError ``table/exists``)."""
        ...

    async def load_tables(self) -> list[TableSetup]:
        """Every open table as it was recorded (seats, stacks, sequence)."""
        ...


class Router(Protocol):
    """Where commands for tables go when several processes share them (``server/cluster``)."""

    async def resolve(self, name: str) -> str:
        """The table's name if it exists anywhere (raises TableError ``table/unknown``)."""
        ...

    async def submit(self, name: str, command: TableCommand) -> Answer:
        """Run a command at the table's owner, here or in another process."""
        ...

    async def seated(self, account: AccountId) -> list[str]:
        """Names of the tables where ``account`` has a seat."""
        ...

    async def claim(self, name: str) -> None:
        """Own a table this process just created (raises TableError if it cannot)."""
        ...


class Tables:
    """Creates, restores, finds and stops table runners."""

    def __init__(self, catalog: TableCatalog, publisher: Publisher, defaults: JSONIn,
                 *, grace: float = 0.5, clock: Clock = SYSTEM_CLOCK) -> None:
        self.catalog, self.publisher = catalog, publisher
        self.defaults = dict(defaults)
        self.grace, self.clock = grace, clock
        self.runners: dict[str, TableRunner] = {}
        self._lock = asyncio.Lock()
        self.router: Router | None = None  # set only when several processes share the tables

    @staticmethod
    def settings_for_defaults(defaults: JSONIn) -> TableSettings:
        """Check the server's ``table_defaults`` (raises SettingsError naming the setting)."""
        settings: TableSettings = game_of(defaults).settings_from_mapping(defaults)
        return settings

    def settings_for(self, values: JSONIn) -> TableSettings:
        """A new table's settings: ``values`` over the server's table defaults.

        The defaults are for one game (``game`` in them, else High Card Flush); a table
        of another game starts from that game's own defaults.
        """
        try:
            game = game_of(values)
            base = None
            if game_of(self.defaults).name == game.name:
                base = game.settings_from_mapping(self.defaults)
            settings: TableSettings = game.settings_from_mapping(values, base=base)
            return settings
        except RuleError as exc:
            raise TableError("settings/invalid", exc.message) from None

    async def restore(self) -> None:
        """Start a runner for every table recorded in the database."""
        for setup in await self.catalog.load_tables():
            self._start(setup)

    async def create(self, name: str, values: JSONIn, by: AccountId | None) -> TableRunner:
        """Create, record and start a table (a live drill table when ``values`` has ``drill``: docs/drills.md)."""
        values = dict(values)
        drill_values = values.pop("drill", None)
        settings = self.settings_for(values)
        drill = None if drill_values is None else drill_for(drill_values, settings)
        stored = settings.as_dict() | ({"drill": drill.as_dict()} if drill is not None else {})
        async with self._lock:
            if name.lower() in (n.lower() for n in self.runners):
                raise TableError("table/exists", phrase("a table named {name} exists", name=name))
            await self.catalog.create_table(name, stored, by)
            log.info("table_created", table=name, by=by, settings=stored)
            if self.router is not None:
                await self.router.claim(name)
            return self._start(TableSetup(name, settings, game=game_of(settings.as_dict()).name, drill=drill))

    def adopt(self, setup: TableSetup) -> TableRunner:
        """Start the runner of a table restored from the database (a takeover)."""
        return self._start(setup)

    def _start(self, setup: TableSetup) -> TableRunner:
        runner = TableRunner(setup, self.catalog, self.publisher, grace=self.grace, clock=self.clock)
        self.runners[setup.name] = runner
        runner.start()
        return runner

    def get(self, name: str) -> TableRunner:
        """The runner of a table (raises TableError ``table/unknown``)."""
        runner = self.runners.get(name)
        if runner is None:
            raise TableError("table/unknown", phrase("no table named {name}", name=repr(name)))
        return runner

    async def resolve(self, name: str) -> str:
        """The name of an existing table (raises TableError ``table/unknown``)."""
        if self.router is not None:
            return await self.router.resolve(name)
        return self.get(name).name

    async def submit(self, name: str, command: TableCommand) -> Answer:
        """Run a command at a table: its runner here, or its owner's (several processes)."""
        if self.router is not None:
            return await self.router.submit(name, command)
        return await self.get(name).submit(command)

    def queue_of(self, name: str) -> Callable[[TableCommand], Awaitable[Answer]]:
        """Where a command for the table goes: its task's queue here, or its owner's (several processes).

        Handed out, not called: the caller submits to the table's queue itself, so a command takes no
        pass-through on its way (docs/server.md, one raise's path). Raises TableError ``table/unknown``.
        """
        if self.router is not None:
            return functools.partial(self.router.submit, name)
        return self.get(name).task.submit

    async def seated_names(self, account: AccountId) -> list[str]:
        """Names of the tables where ``account`` has a seat."""
        if self.router is not None:
            return await self.router.seated(account)
        return [r.name for r in self.seated_tables(account)]

    def seated_tables(self, account: AccountId) -> list[TableRunner]:
        """Tables where ``account`` has a seat."""
        return [r for r in self.runners.values() if r.roster.of_account(account) is not None]

    def lobby(self) -> list[JSON]:
        """Every open table, for ``GET /api/tables``."""
        return [r.lobby_entry() for r in self.runners.values() if not r.closed]

    async def stop_all(self, grace_seconds: float) -> None:
        """Stop every table: hands in progress get ``grace_seconds`` to end, then are voided."""
        await asyncio.gather(*(r.stop(grace_seconds) for r in self.runners.values()))
