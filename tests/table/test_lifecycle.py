"""Stopping a table whose task has already ended: it stops at once, whatever killed the task.

A table's task can end before ``stop`` is called: cancelled from outside, or killed by an
error no command catches. ``stop`` used to queue the hand's void for that task and wait for
its answer for ever, so one such table held up the whole server's shutdown. Now it stops at
once and leaves the hand in progress, as recorded, to the next start (which voids it as after
a crash); nothing is raised out of ``stop``. A command still waiting in the queue of a task
an error killed is refused at once, not left waiting for a stop.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import structlog

from server.rules.caribbean.settings import CaribbeanSettings
from server.table.commands import Play, Sit, Snapshot, TableError
from server.table.ports import Batch
from server.table.runner import TableRunner, TableSetup
from tests.support.clock import ManualClock
from tests.table.fakes import MemoryStorage, RecordingPublisher

SETTINGS = CaribbeanSettings.from_mapping({"pause_seconds": 0, "bet_seconds": 3600, "action_seconds": 3600})
GUARD_SECONDS = 10.0  # only a guard against the hang this file is about: a table that stops takes no time


class Crash(BaseException):
    """Something no command catches (not an ``Exception``): it ends the table's task."""


class CrashingStorage(MemoryStorage):
    """A :class:`MemoryStorage` that, once armed, kills whatever commits through it."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.committing = asyncio.Event()  # set once an armed commit has begun
        self.release = asyncio.Event()  # the armed commit crashes once this is set
        self.release.set()

    async def commit(self, table: str, hand_id: int | None, batch: Batch) -> int | None:
        if self.armed:
            self.committing.set()
            await self.release.wait()
            raise Crash("the table's task is gone")
        return await super().commit(table, hand_id, batch)


@pytest.fixture
async def in_hand() -> AsyncIterator[tuple[TableRunner, CrashingStorage]]:
    """A table with a hand in progress, waiting for a bet that never comes."""
    storage = CrashingStorage()
    storage.issue(1, 5000)
    runner = TableRunner(TableSetup("stud", SETTINGS, game="caribbean"), storage, RecordingPublisher(),
                         grace=0.0, clock=ManualClock())
    runner.start()
    await runner.submit(Sit(1, "ann", buy_in=1000))
    assert isinstance(runner.time_source, ManualClock)
    runner.time_source.advance(0.2)  # the first hand opens 0.2 s after the start
    assert (await runner.submit(Snapshot(1)))["snapshot"]["hand"] is not None
    assert runner.hand_in_progress()
    yield runner, storage
    if runner._task is not None and not runner._task.done():
        await runner.stop(0.0)


async def _cancelled(runner: TableRunner, _storage: CrashingStorage) -> None:
    assert runner._task is not None
    runner._task.cancel()
    await asyncio.wait([runner._task])


async def _crashed(runner: TableRunner, storage: CrashingStorage) -> None:
    storage.armed = True
    with pytest.raises(TableError) as refused:
        await runner.submit(Play(1, "bet", (("bets", [{"spot": 1, "ante": 10}]),)))
    assert refused.value.code == "table/closed"


@pytest.mark.parametrize("end", [_cancelled, _crashed], ids=["cancelled", "killed by an error"])
async def test_a_table_whose_task_has_ended_stops_at_once_with_its_hand_left_to_the_next_start(
        in_hand: Any, end: Any) -> None:
    runner, storage = in_hand
    await end(runner, storage)
    assert runner._task is not None
    assert runner._task.done()
    with structlog.testing.capture_logs() as logs:
        await asyncio.wait_for(runner.stop(60.0), GUARD_SECONDS)  # a grace it must not wait out either
    assert runner.hand_in_progress(), "nobody is left to void it: the next start does"
    assert list(storage.hands.values()) == [{"status": "in_progress"}]
    assert "table_task_gone" in [entry["event"] for entry in logs]
    with pytest.raises(TableError) as closed:
        await runner.submit(Snapshot(1))
    assert closed.value.code == "table/closed"


async def test_a_command_waiting_when_an_error_kills_the_task_is_refused_at_once(in_hand: Any) -> None:
    runner, storage = in_hand
    storage.armed = True
    storage.release.clear()
    bet = asyncio.create_task(runner.submit(Play(1, "bet", (("bets", [{"spot": 1, "ante": 10}]),))))
    await storage.committing.wait()  # the bet's commit is under way: the table takes nothing else meanwhile
    waiting = asyncio.create_task(runner.submit(Snapshot(1)))
    await asyncio.sleep(0)  # one turn of the loop: the snapshot is queued behind the bet
    assert not runner._queue.empty()
    with structlog.testing.capture_logs() as logs:
        storage.release.set()
        for request in (bet, waiting):
            with pytest.raises(TableError) as refused:
                await asyncio.wait_for(request, GUARD_SECONDS)
            assert refused.value.code == "table/closed"
    assert "table_task_died" in [entry["event"] for entry in logs]
