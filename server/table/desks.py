"""The table's parts, composed: each owns one concept and is given what it needs at construction.

The pipeline records, commits, applies and publishes; the hand desk starts, runs, clocks, ends
and voids hands; the seat desk takes the seats' commands; the floor desk the host's; the drill
desk a live drill's holds. A call back into another part is a callable passed in (the hand
desk's ``command`` to the others, its ``after_hand`` to the pipeline), never an inherited stub.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from server.rules.game import HandLike
from server.table.away import AwayDesk
from server.table.commands import (
    DrillRequest,
    Host,
    Play,
    Presence,
    SetAway,
    SetSitOut,
    SetWilling,
    Sit,
    Stand,
    TableError,
    Tick,
    TopUp,
)
from server.table.context import TableContext
from server.table.drill import DrillDesk
from server.table.floor_commands import FloorDesk
from server.table.hand_timer import HandTimer
from server.table.hands import HandDesk
from server.table.pipeline import Pipeline
from server.table.ports import DrillReportKeeper, Publisher, Reply, TableStorage
from server.table.scheduler import HOUSEKEEPING_SECONDS, Scheduler
from server.table.seating import SeatDesk
from server.table.time_bank import TimeBanks

Routed = Sit | Stand | TopUp | SetSitOut | SetWilling | SetAway | Presence | Play | Host | Tick | DrillRequest
"""Every command a desk takes (a snapshot is the runner's own read)."""


@dataclass(frozen=True, slots=True)
class Desks:
    """The table's parts, and which of them each command is for."""

    table: TableContext
    timers: Scheduler
    pipeline: Pipeline
    hands: HandDesk
    seats: SeatDesk
    floor: FloorDesk
    drill: DrillDesk
    away: AwayDesk

    async def route(self, command: Routed) -> Reply:
        """The desk ``command`` is for decides, records and applies it; then the table acts for whoever is away
        and the hand waits on (server/table/away.py)."""
        reply = await self._route(command)
        await self.away.act()
        return reply

    async def _route(self, command: Routed) -> Reply:
        """The desk ``command`` is for decides, records and applies it (a closed table takes only timers)."""
        if isinstance(command, Tick):
            return await self._tick(command)
        if self.table.closed:
            raise TableError("table/closed", f"table {self.table.name} is closed")
        match command:
            case Sit() | Stand() | TopUp() | SetSitOut() | SetWilling() | Presence():
                return await self._seat(command)
            case SetAway():
                return await self.away.switch(command)
            case Play():
                if command.action not in ("leave", "stay"):  # a move of one's own: back from away
                    await self.away.back(command.account)
                return await self.hands.play(command)
            case Host():
                return await self.floor.host(command)
            case DrillRequest():
                return await self.drill.request(command)

    async def _seat(self, command: Sit | Stand | TopUp | SetSitOut | SetWilling | Presence) -> Reply:
        match command:
            case Sit():
                return await self.seats.sit(command)
            case Stand():
                return await self.seats.stand(command)
            case TopUp():
                return await self.seats.top_up(command)
            case SetSitOut():
                return await self.seats.set_sit_out(command)
            case SetWilling():
                return await self.seats.set_willing(command)
            case Presence():
                return await self.seats.presence(command)

    async def _tick(self, tick: Tick) -> Reply:
        """A due timer: the part its kind is for acts, unless the timer was replaced or cancelled since."""
        if not self.timers.take(tick):
            return {}
        if tick.kind == "next_hand":
            await self.hands.start()
        elif tick.kind == "clock":
            await self.hands.clock_ran_out()
        elif tick.kind == "drill":
            await self.drill.timeout()
        elif tick.kind == "housekeeping":
            await self.seats.housekeeping()
            self.timers.at("housekeeping", self.table.now() + HOUSEKEEPING_SECONDS)
        return {}


def compose(table: TableContext, storage: TableStorage, publisher: Publisher, timers: Scheduler,
            hand_timer: HandTimer, seed_source: Callable[[int], bytes]) -> Desks:
    """The table's parts for ``table``, each given the others it calls."""
    hands: list[HandDesk] = []  # the hand desk is made last: the others reach it through these callables

    def hand(command: object) -> Awaitable[Reply]:
        return hands[0].command(command)

    async def after_hand(state: HandLike) -> None:
        await hands[0].after_hand(state)

    pipeline = Pipeline(table, storage, publisher, hand_timer, after_hand)
    keeper = storage if isinstance(storage, DrillReportKeeper) else None  # a trainee's history, where kept
    drill = DrillDesk(table, pipeline, timers, hand_timer, hand, keeper)
    seats = SeatDesk(table, pipeline, timers, hand)
    floor = FloorDesk(table, pipeline, timers, seats, drill, hand)
    banks = TimeBanks(table, pipeline, hand_timer)
    hands.append(HandDesk(table, pipeline, (seats, floor, drill), (timers, hand_timer), seed_source, banks))
    return Desks(table, timers, pipeline, hands[0], seats, floor, drill, AwayDesk(table, seats, hand))
