"""Issue 14 B.26: a command that fails inside a clock's expiry must not leave the hand without a clock.

The clock's command (here: folding the spot in turn) fails to commit. The table
keeps the hand's clock and tries again; a storage that keeps refusing gets the
hand voided after ``CLOCK_ATTEMPTS`` tries, every chip back. The expiries are
fed to the table as the timer would (a ``Tick``), so no test waits for a clock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from server.rules.caribbean.settings import CaribbeanSettings
from server.table.commands import Play, Sit, Snapshot, Tick
from server.table.ports import Batch
from server.table.runner import CLOCK_ATTEMPTS, TableRunner, TableSetup
from tests.support.clock import ManualClock
from tests.table.fakes import MemoryStorage, RecordingPublisher

# The decision clock never runs out by itself here: the test says when it does.
SETTINGS = {"pause_seconds": 0, "bet_seconds": 3600, "action_seconds": 3600}


class FailingStorage(MemoryStorage):
    """A :class:`MemoryStorage` that refuses every batch ``fails(batch)`` picks, as a broken database would."""

    def __init__(self) -> None:
        super().__init__()
        self.fails: Callable[[Batch], bool] = lambda _batch: False
        self.refused = 0

    async def commit(self, table: str, hand_id: int | None, batch: Batch) -> int | None:
        if self.fails(batch):
            self.refused += 1
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return await super().commit(table, hand_id, batch)


def folds(batch: Batch) -> bool:
    return any(e.payload.get("type") == "spot_folded" for e in batch.events)


@pytest.fixture
async def table() -> AsyncIterator[tuple[TableRunner, FailingStorage]]:
    storage = FailingStorage()
    storage.issue(1, 5000)
    runner = TableRunner(TableSetup("stud", CaribbeanSettings.from_mapping(SETTINGS), game="caribbean"),
                         storage, RecordingPublisher(), grace=0.0, clock=ManualClock())
    runner.start()
    yield runner, storage
    await runner.stop(0.5)


async def in_decisions(runner: TableRunner) -> None:
    await runner.submit(Sit(1, "ann", buy_in=1000))
    assert isinstance(runner.time_source, ManualClock)
    runner.time_source.advance(0.2)  # the first hand opens 0.2 s after the start
    assert (await runner.submit(Snapshot(1)))["snapshot"]["hand"] is not None
    await runner.submit(Play(1, "bet", (("bets", [{"spot": 1, "ante": 10}]),)))
    await runner.submit(Play(1, "deal", ()))
    assert runner.state.phase == "decisions"


async def expire(runner: TableRunner) -> None:
    """What the table's timer does when the running clock's deadline passes."""
    await runner.submit(Tick("clock", runner.timers.token("clock")))  # the timer's own token


def hand(runner: TableRunner) -> dict[str, Any]:
    snapshot: dict[str, Any] = runner.snapshot(1)
    return snapshot


async def test_a_failed_commit_on_an_expiry_keeps_the_clock_and_the_retry_settles(table: Any) -> None:
    runner, storage = table
    await in_decisions(runner)
    storage.fails = folds
    await expire(runner)
    assert storage.refused == 1
    assert runner.state.phase == "decisions"
    assert runner.clock is not None, "the hand must keep a clock"
    assert "clock" in runner.timers.handles  # the retry is armed
    storage.fails = lambda _batch: False
    await expire(runner)
    assert runner.state.phase == "settled"
    assert storage.total() == 0


async def test_an_expiry_that_keeps_failing_voids_the_hand_with_every_chip_back(table: Any) -> None:
    runner, storage = table
    await in_decisions(runner)
    storage.fails = folds
    for _ in range(CLOCK_ATTEMPTS):
        await expire(runner)
        assert runner.clock is not None
    assert storage.refused == CLOCK_ATTEMPTS
    await expire(runner)  # the next try voids the hand instead
    assert runner.state.phase == "void"
    assert runner.state.reason == "interrupted"
    assert storage.balances["stack:stud:1"] == 1000
    assert storage.total() == 0


async def test_when_even_the_void_fails_the_clock_stays_armed(table: Any) -> None:
    runner, storage = table
    await in_decisions(runner)
    storage.fails = lambda _batch: True
    for _ in range(CLOCK_ATTEMPTS + 2):
        await expire(runner)
        assert runner.clock is not None
        assert runner.hand_in_progress()
    storage.fails = lambda _batch: False
    await expire(runner)
    assert runner.state.phase == "void"
    assert storage.balances["stack:stud:1"] == 1000
