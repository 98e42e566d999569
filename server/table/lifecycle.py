"""The table task's queue and lifecycle: start, submit, stop, and the loop that takes commands in batches.

One task owns the table; every command (a player's, the host's, a timer's ``Tick``) comes
through its queue, so nothing interleaves at an ``await``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import structlog

from server.rules.errors import RuleError
from server.table.base import RunnerBase, _Internal, _QueueItem
from server.table.commands import (
    TableCommand,
    TableError,
)
from server.table.ports import BatchedStorage, Reply
from server.table.scheduler import HOUSEKEEPING_SECONDS
from server.table.updates import BatchRecord

log = structlog.get_logger("hcf.table")


STOP_SECONDS = 5.0  # how long a stopping table waits for the command in hand
BATCH_LIMIT = 32  # commands taken from the queue at once, published as one update per viewer


class LifecycleMixin(RunnerBase):
    """The part of :class:`~server.table.runner.TableRunner` that owns the queue and the task."""

    def start(self) -> None:
        """Start the table task and the first hand (after a short pause)."""
        self._task = asyncio.create_task(self._run(), name=f"table:{self.name}")
        self._task.add_done_callback(self._task_ended)
        self.timers.at("next_hand", self.now() + 0.2)
        self.timers.at("housekeeping", self.now() + HOUSEKEEPING_SECONDS)

    async def submit(self, command: TableCommand) -> Reply:
        """Queue a command and wait for its reply (raises TableError when refused)."""
        if self._task is None or self._task.done():
            raise TableError("table/closed", f"table {self.name} is not running")
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self._queue.put((command, future))
        return await future

    async def stop(self, grace_seconds: float) -> None:
        """Take no new hands; let a hand in progress end within ``grace_seconds``, else void it.

        A table whose task has already ended (cancelled, or killed by an error) has nobody left to
        end or void its hand: it stops at once and leaves the hand in progress to the next start,
        which voids it as after a crash (``void_interrupted_hands``).
        """
        self.stopping = True
        if self._task is not None and self._task.done():
            log.warning("table_task_gone", hand_in_progress=self.hand_in_progress())
        if self._running():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._idle.wait(), grace_seconds)
        if self.hand_in_progress() and self._running():
            try:
                await self._call(self._void_hand, "shutdown")
            except TableError as exc:  # not voided now (the task died meanwhile): the next start voids it
                log.warning("shutdown_void_failed", code=exc.code)
        self.timers.stop()
        if self._running():
            await self._end_task()
        self._refuse_queued()

    def _running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def _end_task(self) -> None:
        """End the task between two commands: cancelling it could cut a command's database
        transaction in half and leave SQLite's write lock held by a lost connection."""
        assert self._task is not None
        await self._queue.put((_Internal(self._halt, ()), None))
        if not (await asyncio.wait([self._task], timeout=STOP_SECONDS))[0]:
            self._task.cancel()  # a command that hangs: give up on it
        await asyncio.wait([self._task])  # how it ended is _task_ended's to say, never raised here

    def _task_ended(self, task: asyncio.Task[None]) -> None:
        """A task killed by an error leaves nobody to take what waits in the queue: refuse it now rather
        than leave its callers waiting. The error is logged here, never raised."""
        if task.cancelled():
            return  # whoever cancelled it (stop, or a move to another server) answers what waits, in its words
        if (error := task.exception()) is not None:
            log.error("table_task_died", table=self.name, error=repr(error), hand_in_progress=self.hand_in_progress())
        self._refuse_queued()

    def _refuse_queued(self) -> None:
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            if future is not None and not future.done():
                future.set_exception(TableError("table/closed", f"table {self.name} has stopped"))

    async def _halt(self) -> Reply:
        raise asyncio.CancelledError  # not an Exception: it ends _run, after every command queued before it

    async def _call(self, fn: Callable[..., Awaitable[Reply]], *args: Any) -> Reply:
        """Run ``fn`` inside the table task (for callers outside it); refused if the task ends first."""
        if self._task is None or self._task.done():
            raise TableError("table/closed", f"table {self.name} is not running")
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self._queue.put((_Internal(fn, args), future))
        either: list[asyncio.Future[Any]] = [future, self._task]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not future.done():
            future.cancel()  # never taken: the task is gone
            raise TableError("table/closed", f"table {self.name} has stopped")
        return future.result()

    async def _run(self) -> None:
        while True:
            items = [await self._queue.get()]
            # Take what is already waiting too (docs/protocol.md section 2, batching): each command is
            # undone alone if refused, the batch is one commit (SQLite) and one update per viewer.
            while len(items) < BATCH_LIMIT and not self._queue.empty():
                items.append(self._queue.get_nowait())
            structlog.contextvars.bind_contextvars(table=self.name, hand=self.course.hand_id)
            try:
                await self._run_batch(items)
            finally:
                structlog.contextvars.unbind_contextvars("table", "hand")

    async def _run_batch(self, items: list[_QueueItem]) -> None:
        """Dispatch each item, answer every requester (with its update), then publish to the others."""
        self._batch = BatchRecord(self.seated_accounts())
        outcomes: list[Reply | TableError] = []
        halted = False
        shared = self.storage if isinstance(self.storage, BatchedStorage) else None
        if shared is not None:  # the batch's commands share one commit, made before anyone is answered
            shared.begin_batch(self.name)
        try:
            for command, _future in items:
                try:
                    outcomes.append(await self._attempt(command))
                except asyncio.CancelledError:
                    if not (isinstance(command, _Internal) and command.fn == self._halt):
                        raise
                    halted = True  # answer and publish what came before the halt, then end
                    break
            if shared is not None:
                await shared.end_batch(self.name)  # failing, the table stops: memory is ahead of what was recorded
        except BaseException:
            if shared is not None:
                await shared.end_batch(self.name, commit=False)
            self._batch = None
            for _command, future in items:
                if future is not None and not future.done():
                    future.set_exception(TableError("table/closed", f"table {self.name} has stopped"))
            raise
        record, self._batch = self._batch, None
        await self._answer_and_publish(items, outcomes, record)
        if halted:
            for _command, future in items[len(outcomes):]:
                if future is not None and not future.done():
                    future.set_exception(TableError("table/closed", f"table {self.name} has stopped"))
            raise asyncio.CancelledError

    async def _attempt(self, command: TableCommand | _Internal) -> Reply | TableError:
        try:
            return await self._dispatch(command)
        except TableError as exc:
            return exc
        except RuleError as exc:
            return TableError(exc.code, exc.message)
        except Exception as exc:
            log.exception("table_command_failed", command=type(command).__name__)
            return TableError("request/internal", f"the table failed: {exc}")
