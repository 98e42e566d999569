"""One asyncio task per table: it owns the table's state and takes commands one at a time.

Every command follows one path: check it, work out the events (the rules core
decides), **record them** (events, chip transfers and seat rows in one
transaction), apply them in memory. The table takes what waits in its queue as one
batch: each command is still its own commit, then every requester is answered (with
its own update), then every other viewer gets one update for the whole batch
(``server/table/updates.py``). Clocks are the table's own timers feeding
:class:`Tick` commands into the same queue, so a slow or vanished client can never
stall a hand.

The runner is still one class made of parts, one module each (mixins over the state they share,
server/table/base.py): lifecycle (the queue), pipeline (record, commit, apply, publish),
hands (and the hand's clock), seating, floor_commands (the host's), drill (a live drill's steps).
What it holds is moving into pure values that decide and evolve without I/O: the seats
(seats.py, roster.py), the floor (floor_state.py), the course of hands (course.py,
hand_start.py), the hand's clock (hand_clock.py); what viewers see and may do is a function
of one frozen picture of the table (views.py, ``view()``), which the update builder reads
instead of the runner. Its timers (scheduler.py) and the hand's running clock on them
(hand_timer.py) are composed collaborators, like its storage, publisher and update builder:
the runner takes each due tick from its queue and calls the part the tick's kind is for.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from server.table.base import TableSetup, _Internal
from server.table.commands import (
    DrillRequest,
    Host,
    Play,
    Presence,
    SetSitOut,
    SetWilling,
    Sit,
    Snapshot,
    Stand,
    TableCommand,
    TableError,
    Tick,
    TopUp,
)
from server.table.drill import DrillMixin
from server.table.floor_commands import FloorCommandsMixin
from server.table.hand_clock import CLOCK_ATTEMPTS, HandClock
from server.table.hands import HandsMixin
from server.table.lifecycle import LifecycleMixin
from server.table.pipeline import PipelineMixin
from server.table.ports import Reply
from server.table.scheduler import HOUSEKEEPING_SECONDS
from server.table.seating import SeatingMixin


class TableRunner(LifecycleMixin, PipelineMixin, HandsMixin, SeatingMixin, FloorCommandsMixin, DrillMixin):
    """The single owner of one table's state.

    Its state is :class:`~server.table.base.RunnerBase`'s; each part is a mixin of its own module.
    """

    async def _dispatch(self, command: TableCommand | _Internal) -> Reply:
        if isinstance(command, _Internal):
            return await command.fn(*command.args)
        if isinstance(command, Tick):
            return await self._tick(command)
        if isinstance(command, Snapshot):
            return {"snapshot": self.snapshot(command.account)}
        if self.closed:
            raise TableError("table/closed", f"table {self.name} is closed")
        handler = _TABLE_HANDLERS[type(command)]
        reply: Reply = await handler(self, command)
        return reply

    async def _tick(self, tick: Tick) -> Reply:
        """A due timer: the part its kind is for acts, unless the timer was replaced or cancelled since."""
        if not self.timers.take(tick):
            return {}
        if tick.kind == "next_hand":
            await self._start_hand()
        elif tick.kind == "clock":
            await self._clock_ran_out()
        elif tick.kind == "drill":
            await self._drill_timeout()
        elif tick.kind == "housekeeping":
            await self._housekeeping()
            self.timers.at("housekeeping", self.now() + HOUSEKEEPING_SECONDS)
        return {}


_TABLE_HANDLERS: dict[type, Callable[[TableRunner, Any], Awaitable[Reply]]] = {
    Sit: TableRunner._sit,
    Stand: TableRunner._stand,
    TopUp: TableRunner._top_up,
    SetSitOut: TableRunner._set_sit_out,
    SetWilling: TableRunner._set_willing,
    Presence: TableRunner._presence,
    Play: TableRunner._play,
    Host: TableRunner._host,
    DrillRequest: TableRunner._drill_request,
}

__all__ = ["CLOCK_ATTEMPTS", "HandClock", "TableRunner", "TableSetup"]
