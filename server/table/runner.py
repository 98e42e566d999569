"""One asyncio task per table: it owns the table's state and takes commands one at a time.

Every command follows one path: check it, work out the events (the rules core and the table's
pure cores decide), **record them** (events, chip transfers and seat rows in one transaction),
apply them in memory. The table takes what waits in its queue as one batch: each command is
undone alone if refused, the batch is one commit (on SQLite), then every requester is answered
(with its own update), then every other viewer gets one update for the whole batch
(``server/table/updates.py``). Clocks are the table's own timers feeding :class:`Tick` commands
into the same queue, so a slow or vanished client can never stall a hand.

The runner is the shell, and only composes: one loop (lifecycle.py's ``TableTask``) takes a
batch, the desk each command is for decides, records and commits, evolves; then the pipeline
builds each viewer's update and publishes. What the table holds now is one plain record,
:class:`~server.table.context.TableContext` (frozen values, replaced as they evolve). Its parts
(desks.py) are given that record and what else they need at construction, and none inherits
from another: the pipeline (pipeline.py: record, commit, apply, publish), the hand desk
(hands.py: start, commands, clock, end, void), the seat desk (seating.py), the floor desk
(floor_commands.py: the host's commands) and the drill desk (drill.py: a live drill's holds);
a call back into another part is a callable passed in. The decisions are pure cores: the
seats (seats.py, roster.py), the floor (floor_state.py), the course of hands (course.py,
hand_start.py), the hand's clock (hand_clock.py), and what viewers see and may do (views.py).
The timers (scheduler.py) and the hand's running clock on them (hand_timer.py) are composed
collaborators, like the storage and the publisher (ports.py).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable

from server.clock import SYSTEM_CLOCK, Clock
from server.rules.game import AccountId, Game, HandLike, TableSettings
from server.rules.vocabulary import JSON
from server.table.commands import Snapshot, TableCommand
from server.table.context import Held, TableContext, TableSetup
from server.table.course import Course
from server.table.desks import Handler, compose
from server.table.drill_state import LiveDrill
from server.table.floor_state import Floor
from server.table.hand_clock import CLOCK_ATTEMPTS, HandClock
from server.table.hand_timer import HandTimer
from server.table.lifecycle import QueueItem, TableTask
from server.table.ports import Answer, Choices, Publisher, RecordedEvent, TableStorage
from server.table.roster import Roster
from server.table.scheduler import HOUSEKEEPING_SECONDS, Scheduler
from server.table.views import TableView


class TableRunner:
    """The single owner of one table's state: composes its parts and runs each batch of commands through them.

    What the rest of the server reads of the table (``runner.roster``, ``runner.state``...) is the context's.
    """

    name, game, course, roster, seq = Held[str](), Held[Game](), Held[Course](), Held[Roster](), Held[int]()
    stacks, floor, drill = Held[dict[AccountId, int]](), Held[Floor](), Held[LiveDrill | None]()
    state, settings, carry = Held[HandLike | None](), Held[TableSettings](), Held[JSON]()
    pending_settings = Held[TableSettings | None]()
    clock, closed, stopping, last_hand_id = Held[HandClock | None](), Held[bool](), Held[bool](), Held[int | None]()
    hand_in_progress, seated_accounts = Held[Callable[[], bool]](), Held[Callable[[], frozenset[AccountId]]]()
    view = Held[Callable[[], TableView]]()

    def __init__(self, setup: TableSetup, storage: TableStorage, publisher: Publisher, *, clock: Clock = SYSTEM_CLOCK,
                 seed_source: Callable[[int], bytes] = secrets.token_bytes, grace: float = 0.5) -> None:
        # The clock the timers run on (tests give a manual one); ``now()`` is its wall time.
        self.time_source, self.now = clock, clock.now
        self.timers = Scheduler(clock, lambda tick: self.task.deliver(tick))
        self.hand_timer = HandTimer(self.timers, grace)  # the hand's running clock and its timer
        self._timers = self.timers.handles  # what a shutdown cancels (server/cluster/node.py, the tests)
        self.table = TableContext.from_setup(setup, clock.now, lambda: self.hand_timer.running)
        self.desks = compose(self.table, storage, publisher, self.timers, self.hand_timer, seed_source)
        self.task = TableTask(setup.name, self._handler, self.desks.pipeline, lambda: self.table.course.hand_id)

    def start(self) -> None:
        """Start the table task and the first hand (after a short pause)."""
        self.task.start(self.table.hand_in_progress)
        self.timers.at("next_hand", self.now() + 0.2)
        self.timers.at("housekeeping", self.now() + HOUSEKEEPING_SECONDS)

    async def submit(self, command: TableCommand) -> Answer:
        """Queue a command and wait for its reply (raises TableError when refused)."""
        return await self.task.submit(command)

    def _handler(self, kind: type[TableCommand]) -> Handler:
        """What takes one command of a batch, by its type: the desk it is for decides, records and commits, evolves
        the table (a snapshot is the runner's own read)."""
        if issubclass(kind, Snapshot):
            return self._snapshot
        return self.desks.handler(kind)

    async def _snapshot(self, command: Snapshot) -> Answer:
        return {"snapshot": self.snapshot(command.account)}

    async def stop(self, grace_seconds: float) -> None:
        """Take no new hands; let a hand in progress end within ``grace_seconds``, else void it.

        A table whose task has already ended (cancelled, or killed by an error) has nobody left to
        end or void its hand: it stops at once and leaves the hand in progress to the next start,
        which voids it as after a crash (``void_interrupted_hands``).
        """
        self.table.stopping = True
        hands, in_hand = self.desks.hands, self.table.hand_in_progress
        await self.task.wind_down(grace_seconds, hands.idle, in_hand, lambda: hands.void("shutdown"))
        self.timers.stop()
        await self.task.end()

    async def publish_recorded(self, after_seq: int, events: list[RecordedEvent]) -> None:
        """Publish what was recorded here after ``after_seq`` before this runner ran (a takeover's voided hand).

        ``events`` are the public ones of them. Sent as the runner's first update, which holds
        every key of the view: a client still connected from before catches up without a snapshot.
        """
        await self.task.call(lambda: self.desks.pipeline.take_recorded(after_seq, events))

    @property
    def _task(self) -> asyncio.Task[None] | None:
        return self.task.task  # what a shutdown or a move to another server waits for (server/cluster/node.py)

    @property
    def _queue(self) -> asyncio.Queue[QueueItem]:
        return self.task.queue  # what a move to another server refuses (server/cluster/node.py)

    def snapshot(self, account: AccountId | None) -> JSON:
        """Everything ``account`` may see of the table now (spectator when None), and what it may do."""
        return self.view().snapshot(account)

    def choices(self, account: AccountId | None) -> Choices:
        """What ``account`` may do now (docs/protocol.md section 3)."""
        return self.view().choices(account)

    def shared_view(self) -> JSON:
        """The snapshot's keys that every viewer sees alike."""
        return self.view().shared_view()

    def lobby_entry(self) -> JSON:
        """The table as the lobby lists it."""
        return self.view().lobby_entry()


__all__ = ["CLOCK_ATTEMPTS", "HandClock", "TableRunner", "TableSetup"]
