"""The table's parts, composed: each owns one concept and is given what it needs at construction.

The pipeline records, commits, applies and publishes; the hand desk starts, runs, clocks, ends
and voids hands; the seat desk takes the seats' commands; the floor desk the host's; the drill
desk a live drill's holds. A call back into another part is a callable passed in (the hand
desk's ``command`` to the others, its ``after_hand`` to the pipeline), never an inherited stub.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from server.i18n import phrase
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
from server.table.ports import Answer, DrillReportKeeper, Publisher, TableStorage
from server.table.scheduler import HOUSEKEEPING_SECONDS, Scheduler
from server.table.seating import SeatDesk
from server.table.time_bank import TimeBanks

Routed = Sit | Stand | TopUp | SetSitOut | SetWilling | SetAway | Presence | Play | Host | Tick | DrillRequest
"""Every command a desk takes (a snapshot is the runner's own read)."""

Handler = Callable[..., Awaitable[Answer]]
"""A part's method that takes one kind of command (each takes its own type: looked up by it, see
:meth:`Desks.handler`)."""


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

    def handler(self, kind: type[Routed]) -> Handler:
        """The part's method that takes commands of ``kind``; a closed table's refusal for all but timers.

        Looked up by the command's type, not handed the command: the table's task gives the command to
        that method itself, so a move reaches the hand desk in one call (docs/server.md, one raise's path).
        Asked just before the command runs, inside the table's task: the table's closing is as it is then.
        """
        if kind is not Tick and self.table.closed:
            return self._closed
        found = self._tick if kind is Tick else self._handlers().get(kind, _unknown)
        if kind is SetAway or self._anyone_away():  # the table acts at once for whoever is away (away.py)
            return self._then_away(found)
        return found

    def _handlers(self) -> dict[type[Routed], Handler]:
        return {
            Sit: self.seats.sit, Stand: self.seats.stand, TopUp: self.seats.top_up, SetSitOut: self.seats.set_sit_out,
            SetWilling: self.seats.set_willing, Presence: self.seats.presence, SetAway: self.away.switch,
            Play: self.hands.play, Host: self.floor.host, DrillRequest: self.drill.request,
        }

    def _anyone_away(self) -> bool:
        return any(seated.away for seated in self.table.roster.by_seat.values())

    def _then_away(self, found: Handler) -> Handler:
        """``found``, then whatever the hand waits on from a seat away; a move of one's own first brings one back."""
        async def run(command: Routed) -> Answer:
            if isinstance(command, Play) and command.action not in ("leave", "stay"):
                await self.away.back(command.account)
            reply = await found(command)
            await self.away.act()
            return reply
        return run

    async def _closed(self, _command: Routed) -> Answer:
        raise TableError("table/closed", phrase("table {table} is closed", table=self.table.name))

    async def _tick(self, tick: Tick) -> Answer:
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


async def _unknown(command: object) -> Answer:
    raise TableError("request/internal", f"the table takes no {type(command).__name__}")


def compose(table: TableContext, storage: TableStorage, publisher: Publisher, timers: Scheduler,
            hand_timer: HandTimer, seed_source: Callable[[int], bytes]) -> Desks:
    """The table's parts for ``table``, each given the others it calls."""
    hands: list[HandDesk] = []  # the hand desk is made last: the others reach it through these callables

    def hand(command: object) -> Awaitable[Answer]:
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
