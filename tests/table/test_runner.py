"""The table task with in-memory ports: record first, then change memory, then publish."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import structlog.testing

from server.rules.hcf.settings import HcfSettings
from server.table.commands import Host, Play, Sit, Snapshot, TableError
from server.table.ports import Batch
from server.table.roster import Seated
from server.table.runner import TableRunner, TableSetup
from tests.support.clock import ManualClock
from tests.table.fakes import MemoryStorage, RecordingPublisher

FAST = {"pause_seconds": 0, "offer_seconds": 1, "bet_seconds": 1, "action_seconds": 1}


@pytest.fixture
async def table() -> AsyncIterator[tuple[TableRunner, MemoryStorage, RecordingPublisher]]:
    storage, publisher = MemoryStorage(), RecordingPublisher()
    for account in (1, 2, 3):
        storage.issue(account, 5000)
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(FAST)), storage, publisher, grace=0.05,
                         clock=ManualClock())
    runner.start()
    yield runner, storage, publisher
    await runner.stop(0.5)


async def wait_for(runner: TableRunner, predicate: Any, timeout: float = 5.0) -> dict[str, Any]:
    """The first snapshot ``predicate`` holds for, the table's clock moved on a tenth of a second between
    snapshots (the ticks a move puts on the queue run before the next snapshot), for ``timeout`` table seconds."""
    clock = runner.time_source
    assert isinstance(clock, ManualClock)
    for _ in range(round(timeout / 0.1) + 1):
        snap: dict[str, Any] = (await runner.submit(Snapshot(1)))["snapshot"]
        if predicate(snap):
            return snap
        clock.advance(0.1)
    raise AssertionError(f"not within {timeout} s of the table's time")


async def wait_until(condition: Any, timeout: float = 5.0) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(poll(), timeout)


async def test_a_refused_commit_changes_nothing_in_memory(table: Any) -> None:
    runner, _storage, publisher = table
    seq = runner.seq
    with pytest.raises(TableError) as refused:
        await runner.submit(Sit(9, "broke", buy_in=1000))  # account 9 holds no chips
    assert refused.value.code == "ledger/insufficient_funds"
    assert runner.roster.by_seat == {}
    assert runner.seq == seq
    assert publisher.public == []


async def test_publishing_failure_does_not_undo_what_was_recorded(table: Any) -> None:
    runner, storage, publisher = table

    async def broken(*_args: Any) -> None:
        raise ConnectionError("client gone")

    publisher.table_update = broken
    assert (await runner.submit(Sit(1, "ann", buy_in=1000)))["seat"] == 1
    assert runner.roster.by_seat[1].name == "ann"
    assert storage.balances["stack:t:1"] == 1000


async def test_the_answer_is_on_its_way_before_the_events_it_caused(table: Any) -> None:
    runner, _storage, publisher = table
    reply = await runner.submit(Sit(1, "ann", buy_in=1000))
    # The caller runs on before the table publishes: its answer goes out first (docs/protocol.md section 3).
    assert reply["seat"] == 1
    assert "player_sat" not in publisher.types()
    await wait_until(lambda: "player_sat" in publisher.types())


async def test_sequence_is_contiguous_and_cards_come_before_the_turn(table: Any) -> None:
    runner, storage, publisher = table
    for account in (1, 2, 3):
        await runner.submit(Sit(account, f"p{account}", buy_in=1000))
    snap = await wait_for(runner, lambda s: s["hand"] and s["hand"]["offered"])
    dp = snap["hand"]["offered"]
    account_of = {s["seat"]: s["seat"] for s in snap["seats"]}
    await runner.submit(Play(account_of[dp], "bank", (("accept", True),)))
    for seat in snap["hand"]["seats"]:
        if int(seat) != dp:
            await runner.submit(Play(account_of[int(seat)], "bet", (("ante", 10),)))
    # The last bet's events are published just after its answer.
    await wait_until(lambda: any(p["type"] == "turn_started" for _, p in publisher.public))
    seqs = [seq for seq, _ in publisher.public]
    assert seqs == list(range(1, len(seqs) + 1))
    dealt = next(seq for seq, p in publisher.public if p["type"] == "cards_dealt")
    turn = next(seq for seq, p in publisher.public if p["type"] == "turn_started")
    assert {seq for _, seq, _ in publisher.private} == {dealt}
    assert dealt < turn
    assert all("_input" not in p for _, p in publisher.public), "recorded inputs are never published"
    assert sum(1 for e in storage.events if "_input" in e) >= 4


async def test_the_decision_clock_folds_and_the_hand_settles(table: Any) -> None:
    runner, storage, publisher = table
    for account in (1, 2):
        await runner.submit(Sit(account, f"p{account}", buy_in=1000))
    snap = await wait_for(runner, lambda s: s["hand"] and s["hand"]["offered"])
    await runner.submit(Play(snap["hand"]["offered"], "bank", (("accept", True),)))
    other = 2 if snap["hand"]["offered"] == 1 else 1
    await runner.submit(Play(other, "bet", (("ante", 10),)))
    await wait_for(runner, lambda s: s["last_hand"] is not None, timeout=5)
    await wait_until(lambda: "hand_revealed" in publisher.types())  # published just after the batch's answers
    folded = [p for _, p in publisher.public if p["type"] == "player_folded"]
    assert folded
    assert folded[0]["reason"] == "clock"
    assert storage.total() == 0


async def test_closing_lets_the_hand_in_progress_finish(table: Any) -> None:
    runner, storage, _publisher = table
    for account in (1, 2):
        await runner.submit(Sit(account, f"p{account}", buy_in=1000))
    await wait_for(runner, lambda s: s["hand"] and s["hand"]["offered"])
    assert (await runner.submit(Host("close_table", None)))["closed"] == "after_hand"
    with pytest.raises(TableError):
        await runner.submit(Sit(3, "late", buy_in=1000))
    await wait_for(runner, lambda s: s["status"] == "closed", timeout=10)
    assert runner.roster.by_seat == {}
    assert storage.balances["account:1"] + storage.balances["account:2"] == 10000 - storage.balances["house:fees"]


def test_batches_know_when_they_are_empty() -> None:
    assert Batch().empty()
    assert not Batch(close_table=True).empty()


def test_the_table_level_choices_follow_the_seat_and_the_game() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(FAST | {"seats": 3, "max_buy_in": 2000})),
                         MemoryStorage(), RecordingPublisher())
    runner.roster = runner.roster.with_seated(Seated(2, 7, "ann", willing_to_bank=False))
    runner.stacks[7] = 1500
    assert runner.choices(None) == {"seat": None, "deadline": None, "moves": [
        {"request": "sit", "seats": [1, 3], "buy_in": {"min": 100, "max": 2000}}]}
    assert runner.choices(8) == runner.choices(None), "an account without a seat sees what spectators see"
    assert runner.choices(7) == {"seat": 2, "deadline": None, "moves": [
        {"request": "stand"}, {"request": "top_up", "amount": {"min": 1, "max": 500}},
        {"request": "sit_out", "sitting_out": True}, {"request": "willing_to_bank", "willing": True}]}
    house = TableRunner(TableSetup("h", HcfSettings.from_mapping(FAST | {"profile": "standard"})),
                        MemoryStorage(), RecordingPublisher())
    house.roster = house.roster.with_seated(Seated(1, 7, "ann", sitting_out=True))
    house.stacks[7] = house.settings.max_buy_in
    assert house.choices(7)["moves"] == [{"request": "stand"}, {"request": "sit_out", "sitting_out": False}]


async def test_a_player_in_the_hand_may_leave_then_stay_and_has_the_clock_of_its_decision(table: Any) -> None:
    runner, _storage, _publisher = table
    for account in (1, 2):
        await runner.submit(Sit(account, f"p{account}", buy_in=1000))
    snap = await wait_for(runner, lambda s: s["hand"] and s["hand"]["offered"])
    dp = snap["hand"]["offered"]
    mine = (await runner.submit(Snapshot(dp)))["snapshot"]["choices"]
    assert mine["moves"][0] == {"request": "move", "action": "bank", "accept": [True, False]}
    assert {"request": "leave"} in mine["moves"]
    assert runner.clock is not None
    assert mine["deadline"] == runner.clock.deadline
    other = 2 if dp == 1 else 1
    theirs = (await runner.submit(Snapshot(other)))["snapshot"]["choices"]
    assert theirs["deadline"] is None
    assert not [m for m in theirs["moves"] if m["request"] == "move"]
    await runner.submit(Play(other, "leave"))
    theirs = (await runner.submit(Snapshot(other)))["snapshot"]["choices"]
    assert {"request": "stay"} in theirs["moves"]
    assert {"request": "leave"} not in theirs["moves"]


async def test_a_batchs_events_are_logged_once_its_requester_is_answered(table: Any) -> None:
    """A log line is not on an answer's way: the sitter hears first, then its event is logged (issue 25)."""
    runner, _storage, _publisher = table
    with structlog.testing.capture_logs() as lines:
        await runner.submit(Sit(1, "ann", buy_in=500))
        at_answer = [line["event"] for line in lines]
        await wait_until(lambda: any(line["event"] == "player_sat" for line in lines))
    assert "player_sat" not in at_answer
    sat = next(line for line in lines if line["event"] == "player_sat")
    assert (sat["ev_name"], sat["ev_seat"], sat["ev_stack"]) == ("ann", 1, 500)


async def test_a_refused_commands_events_are_never_logged(table: Any) -> None:
    runner, _storage, _publisher = table
    with structlog.testing.capture_logs() as lines:
        with pytest.raises(TableError):
            await runner.submit(Sit(9, "broke", buy_in=1000))  # account 9 holds no chips
        await runner.submit(Snapshot(1))  # a batch after it: its lines, if any, were written by now
    assert not [line for line in lines if line["event"] == "player_sat"]
