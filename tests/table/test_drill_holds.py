"""A live drill's holds on the table task with in-memory ports (no socket, no database, the clock moved by hand).

When one of the drill's steps comes, the table holds the events that bring it: nothing is
recorded or published, the players may not move (a leave waits for after), and the hand's
clock stops; the trainee's answer, or the step's own time running out, releases them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.rules.hcf.settings import HcfSettings
from server.table.commands import DrillRequest, Play, Sit, Snapshot, TableError
from server.table.registry import drill_for
from server.table.runner import TableRunner, TableSetup
from tests.support.clock import ManualClock
from tests.table.fakes import MemoryStorage, RecordingPublisher

TINA = 99
SETTINGS = HcfSettings.from_mapping({"pause_seconds": 0, "offer_seconds": 10, "bet_seconds": 10,
                                     "action_seconds": 10, "min_bank": 100})


@pytest.fixture
async def drill() -> AsyncIterator[tuple[TableRunner, MemoryStorage, RecordingPublisher, ManualClock]]:
    storage, publisher, clock = MemoryStorage(), RecordingPublisher(), ManualClock()
    for account in (1, 2):
        storage.issue(account, 5000)
    steps = drill_for({"trainee": "tina", "step_seconds": 30, "steps": ["offer_bank"]}, SETTINGS)
    runner = TableRunner(TableSetup("d", SETTINGS, drill=steps), storage, publisher, clock=clock, grace=0.05)
    runner.start()
    for account, name in ((1, "ann"), (2, "bob")):
        await runner.submit(Sit(account, name, seat=account, buy_in=1000))
    clock.advance(0.3)  # the table's pause before its first hand
    await _settled(runner)
    yield runner, storage, publisher, clock
    await runner.stop(0.5)


async def _settled(runner: TableRunner) -> dict[str, Any]:
    """A snapshot once every tick queued before it ran (the queue is first in, first out)."""
    snapshot: dict[str, Any] = (await runner.submit(Snapshot(TINA)))["snapshot"]
    return snapshot


def _asked(storage: MemoryStorage) -> list[str]:
    return [e["step"] for e in storage.events if e["type"] == "drill_step"]


async def test_the_bank_offer_is_held_until_the_trainee_answers(drill: Any) -> None:
    runner, storage, publisher, _clock = drill
    assert _asked(storage) == ["offer_bank"]
    assert "bank_offered" not in [e["type"] for e in storage.events], "held: nothing of the hand is recorded"
    assert (await _settled(runner))["hand"] is None, "nobody sees the hand before the trainee answers"
    with pytest.raises(TableError) as refused:
        await runner.submit(Play(1, "bank", (("accept", True),)))
    assert refused.value.code == "drill/waiting"
    assert runner.clock is None or "clock" not in runner.timers.handles, "the hand's clock stands still"
    reply = await runner.submit(DrillRequest(TINA, "tina", "answer", {"seat": 1}))
    assert reply["right"] is True
    assert "bank_offered" in [e["type"] for e in storage.events]
    await _settled(runner)  # the batch's updates go out after the answer
    assert "bank_offered" in publisher.types()
    assert "clock" in runner.timers.handles, "released: the hand's clock runs again"


async def test_a_leave_asked_during_a_hold_is_carried_out_once_it_is_released(drill: Any) -> None:
    runner, storage, _publisher, _clock = drill
    assert await runner.submit(Play(2, "leave")) == {"standing": "after_hand"}
    assert "player_leaving" not in [e["type"] for e in storage.events]
    await runner.submit(DrillRequest(TINA, "tina", "answer", {"seat": 1}))
    assert runner.roster.by_seat[2].leaving


async def test_a_step_whose_time_runs_out_counts_as_no_answer_and_releases_the_hand(drill: Any) -> None:
    runner, storage, _publisher, clock = drill
    clock.advance(29.0)
    await _settled(runner)
    assert "bank_offered" not in [e["type"] for e in storage.events]
    clock.advance(1.0)
    await _settled(runner)
    answered = [e for e in storage.events if e["type"] == "drill_answered"]
    assert [(a["step"], a["_given"], a["right"]) for a in answered] == [("offer_bank", None, False)]
    assert "bank_offered" in [e["type"] for e in storage.events]
