"""The table task's queue and lifecycle: start, submit, stop, and the loop that takes commands in batches.

One task owns the table; every command (a player's, the host's, a timer's ``Tick``) comes
through its queue, so nothing interleaves at an ``await``. What a batch does is the runner's
(server/table/runner.py): this only takes the batch, runs each command through ``dispatch`` and
hands the outcomes to the batch's recorder to answer and publish.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

import structlog

from server.i18n import phrase
from server.rules.errors import RuleError
from server.table.commands import TableCommand, TableError
from server.table.ports import Answer

log = structlog.get_logger("hcf.table")


STOP_SECONDS = 5.0  # how long a stopping table waits for the command in hand
BATCH_LIMIT = 32  # commands taken from the queue at once, published as one update per viewer


@dataclass(frozen=True, slots=True)
class Internal:
    """A call to run inside the table task, queued like a command (a shutdown's void, a takeover's publish)."""

    fn: Callable[[], Awaitable[Answer]]


QueueItem = tuple[TableCommand | Internal, "asyncio.Future[Answer] | None"]
"""A command (or an internal call) and the future its requester waits on (None: nobody waits)."""


class BatchRecorder(Protocol):
    """What keeps a batch's records and answers and publishes it (server/table/pipeline.py)."""

    def begin(self) -> None:
        """A batch begins."""

    async def commit(self) -> None:
        """The batch's one commit (raises if it fails)."""

    async def abandon(self) -> None:
        """The batch ended by an error: nothing of it is committed or published."""

    async def answer_and_publish(self, items: list[QueueItem], outcomes: list[Answer | TableError]) -> None:
        """The batch is over: answer every requester, then publish what it recorded to every viewer."""


class TableTask:
    """The one task that owns a table, and its queue: ``dispatch`` names what runs each kind of command (looked up
    by the command's type, and given the command here), ``recorder`` each batch."""

    def __init__(self, name: str, dispatch: Callable[[type[TableCommand]], Callable[..., Awaitable[Answer]]],
                 recorder: BatchRecorder, bind: Callable[[], int | None]) -> None:
        self.name, self._dispatch, self._recorder, self._bind = name, dispatch, recorder, bind
        self.queue: asyncio.Queue[QueueItem] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    def deliver(self, command: TableCommand) -> None:
        """Queue a command nobody waits for (a due timer's tick)."""
        self.queue.put_nowait((command, None))

    def start(self, in_hand: Callable[[], bool]) -> None:
        """Start the task."""
        self.task = asyncio.create_task(self._run(), name=f"table:{self.name}")
        self.task.add_done_callback(lambda task: self._task_ended(task, in_hand))

    def running(self) -> bool:
        """Whether the task runs."""
        return self.task is not None and not self.task.done()

    async def submit(self, command: TableCommand) -> Answer:
        """Queue a command and wait for its reply (raises TableError when refused)."""
        if not self.running():
            raise TableError("table/closed", phrase("table {table} is not running", table=self.name))
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((command, future))  # unbounded: never waits; no coroutine a command (ninth round)
        return await future

    async def wind_down(self, grace_seconds: float, idle: asyncio.Event, in_hand: Callable[[], bool],
                        void: Callable[[], Awaitable[Answer]]) -> None:
        """Let a hand in progress end within ``grace_seconds`` (until ``idle`` is set), else void it (inside the task).

        A task that has already ended (cancelled, or killed by an error) has nobody left to end or void
        its hand: the hand is left to the next start, which voids it as after a crash.
        """
        if self.task is not None and self.task.done():
            log.warning("table_task_gone", hand_in_progress=in_hand())
        if self.running():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(idle.wait(), grace_seconds)
        if in_hand() and self.running():
            try:
                await self.call(void)
            except TableError as exc:  # not voided now (the task died meanwhile): the next start voids it
                log.warning("shutdown_void_failed", code=exc.code)

    async def end(self) -> None:
        """End the task between two commands, and refuse whatever still waits."""
        if self.running():
            await self._end_task()
        self._refuse_queued()

    async def _end_task(self) -> None:
        """End the task between two commands: cancelling it could cut a command's database
        transaction in half and leave SQLite's write lock held by a lost connection."""
        assert self.task is not None
        await self.queue.put((Internal(_halt), None))
        if not (await asyncio.wait([self.task], timeout=STOP_SECONDS))[0]:
            self.task.cancel()  # a command that hangs: give up on it
        await asyncio.wait([self.task])  # how it ended is _task_ended's to say, never raised here

    def _task_ended(self, task: asyncio.Task[None], in_hand: Callable[[], bool]) -> None:
        """A task killed by an error leaves nobody to take what waits in the queue: refuse it now rather
        than leave its callers waiting. The error is logged here, never raised."""
        if task.cancelled():
            return  # whoever cancelled it (stop, or a move to another server) answers what waits, in its words
        if (error := task.exception()) is not None:
            log.error("table_task_died", table=self.name, error=repr(error), hand_in_progress=in_hand())
        self._refuse_queued()

    def _refuse_queued(self) -> None:
        while not self.queue.empty():
            _, future = self.queue.get_nowait()
            self._refuse(future)

    def _refuse(self, future: asyncio.Future[Answer] | None) -> None:
        if future is not None and not future.done():
            future.set_exception(TableError("table/closed", phrase("table {table} has stopped", table=self.name)))

    async def call(self, fn: Callable[[], Awaitable[Answer]]) -> Answer:
        """Run ``fn`` inside the table task (for callers outside it); refused if the task ends first."""
        if self.task is None or not self.running():
            raise TableError("table/closed", phrase("table {table} is not running", table=self.name))
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        await self.queue.put((Internal(fn), future))
        either: list[asyncio.Future[Answer] | asyncio.Task[None]] = [future, self.task]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not future.done():
            future.cancel()  # never taken: the task is gone
            raise TableError("table/closed", phrase("table {table} has stopped", table=self.name))
        return future.result()

    async def _run(self) -> None:
        while True:
            items = [await self.queue.get()]
            # Take what is already waiting too (docs/protocol.md section 2, batching): each command is
            # undone alone if refused, the batch is one commit (SQLite) and one update per viewer.
            while len(items) < BATCH_LIMIT and not self.queue.empty():
                items.append(self.queue.get_nowait())
            structlog.contextvars.bind_contextvars(table=self.name, hand=self._bind())
            try:
                await self._run_batch(items)
            finally:
                structlog.contextvars.unbind_contextvars("table", "hand")

    async def _run_batch(self, items: list[QueueItem]) -> None:
        """Run each item, answer every requester (with its update), then publish to the others."""
        self._recorder.begin()
        outcomes: list[Answer | TableError] = []
        try:
            halted = await self._attempt_all(items, outcomes)
            await self._recorder.commit()  # one commit for the batch, before anyone is answered
        except BaseException:
            await self._recorder.abandon()
            for _command, future in items:
                self._refuse(future)
            raise
        await self._recorder.answer_and_publish(items, outcomes)
        if halted:
            for _command, future in items[len(outcomes):]:
                self._refuse(future)
            raise asyncio.CancelledError

    async def _attempt_all(self, items: list[QueueItem], outcomes: list[Answer | TableError]) -> bool:
        """Each item's outcome, in order; True when a halt came (what came before it is answered and published)."""
        for command, _future in items:
            try:
                outcomes.append(await self._attempt(command))
            except asyncio.CancelledError:
                if not (isinstance(command, Internal) and command.fn is _halt):
                    raise
                return True
        return False

    async def _attempt(self, command: TableCommand | Internal) -> Answer | TableError:
        try:
            if isinstance(command, Internal):
                return await command.fn()
            return await self._dispatch(type(command))(command)
        except TableError as exc:
            return exc
        except RuleError as exc:
            return TableError(exc.code, exc.message)
        except Exception as exc:
            log.exception("table_command_failed", command=type(command).__name__)
            return TableError("request/internal", f"the table failed: {exc}")


async def _halt() -> Answer:
    raise asyncio.CancelledError  # not an Exception: it ends _run, after every command queued before it
