"""Each viewer's model (its first snapshot, then every update applied) is a fresh snapshot (docs/protocol.md 4)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.hcf.settings import HcfSettings
from server.table.commands import Host, Play, SetSitOut, SetWilling, Sit, Snapshot, Stand, TableError, Tick, TopUp
from server.table.ports import RecordedEvent, TableUpdates
from server.table.runner import TableRunner, TableSetup
from server.table.updates import BatchRecord, UpdateBuilder, apply_update
from tests.table.fakes import MemoryStorage

PLAYERS = (1, 2, 3, 4)
VIEWERS: tuple[int | None, ...] = (*PLAYERS, 5, None)  # 5 is logged in and never sits; None has no account
# No clock runs out by itself during a test: the test runs them out (a Tick) when it chooses.
SLOW = {"pause_seconds": 0, "offer_seconds": 600, "bet_seconds": 600, "action_seconds": 600, "seats": 4}


class ModelPublisher:
    """Applies every update to every viewer's model and checks, at once, that it is that viewer's snapshot."""

    def __init__(self) -> None:
        self.runner: TableRunner | None = None
        self.models: dict[int | None, dict[str, Any]] = {}
        self.batches: list[TableUpdates] = []

    def start(self, runner: TableRunner) -> None:
        self.runner = runner
        self.models = {viewer: runner.snapshot(viewer) for viewer in VIEWERS}

    async def table_update(self, _table: str, updates: TableUpdates) -> None:
        assert self.runner is not None
        self.batches.append(updates)
        assert "you" not in updates.spectator["view"], "the spectators' update is the same for every spectator"
        for viewer, model in self.models.items():
            update = updates.accounts.get(viewer, updates.spectator) if viewer is not None else updates.spectator
            assert update["from_seq"] == model["seq"] + 1, (viewer, update["from_seq"], model["seq"])
            assert [e["seq"] for e in update["events"]] == sorted(e["seq"] for e in update["events"])
            self.models[viewer] = apply_update(model, update)
            assert _bare(self.models[viewer]) == _bare(self.runner.snapshot(viewer)), f"viewer {viewer}"


def _bare(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k != "server_time"}


Intent = tuple[int, int, int]  # (account, what, a number to pick with)
steps = st.lists(st.lists(st.tuples(st.sampled_from(PLAYERS), st.integers(0, 19), st.integers(0, 1000)),
                          min_size=1, max_size=4), min_size=5, max_size=40)


def _command(runner: TableRunner, intent: Intent) -> Any:
    """A command for the intent: mostly the move the hand in progress waits for (refusals are fine too)."""
    account, what, n = intent
    if what <= 2:
        return Sit(account, f"p{account}", seat=n % 5 or None, buy_in=(100, 1000, 5000)[n % 3])
    if what == 3:
        return Stand(account)
    if what == 4:
        return TopUp(account, 1 + n % 600)
    if what == 5:
        return SetSitOut(account, n % 3 == 0)
    if what == 6:
        return SetWilling(account, n % 3 != 0)
    if what == 7:
        return Play(account, ("leave", "stay")[n % 2])
    if what == 8:
        return Host(("pause", "resume", "change_settings", "resume")[n % 4], None,
                    (("settings", {"min_ante": 5 + n % 3}),) if n % 4 == 2 else ())
    if what == 9:
        return Tick("clock", runner._tokens.get("clock", 0))
    return _hand_move(runner, account, n)


def _hand_move(runner: TableRunner, account: int, n: int) -> Play:
    hand = runner.snapshot(None)["hand"] or {}
    phase = hand.get("phase")
    waiting = hand.get("offered") if phase == "offer" else hand.get("turn") if phase == "decisions" else \
        next((int(s) for s in hand.get("bettors", []) if not hand["seats"][str(s)]["in_hand"]), None)
    if n % 4 and waiting in runner.roster.by_seat:
        account = runner.roster.by_seat[waiting].account  # mostly the one the hand waits for
    if phase == "offer":
        return Play(account, "bank", (("accept", n % 3 != 0),))
    if phase == "decisions":
        return Play(account, "fold") if n % 4 == 0 else Play(account, "raise", (("amount", 5 + n % 60),))
    if n % 7 == 0:
        return Play(account, "pass")
    return Play(account, "bet", (("ante", 5 + n % 40), ("flush_bonus", n % 3), ("straight_flush_bonus", n % 2)))


async def _scenario(profile: str, plan: list[list[Intent]]) -> None:
    storage, publisher = MemoryStorage(), ModelPublisher()
    for account in PLAYERS:
        storage.issue(account, 20000)
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW | {"profile": profile})), storage, publisher)
    publisher.start(runner)
    runner.start()
    answered: list[tuple[int, Any]] = []
    try:
        for burst in plan:
            # Sent together, they wait in the queue together: the table takes them as one batch.
            commands = [_command(runner, intent) for intent in burst]
            replies = await asyncio.gather(*(runner.submit(c) for c in commands), return_exceptions=True)
            for command, reply in zip(commands, replies, strict=True):
                if isinstance(reply, TableError):
                    assert not isinstance(command, Tick)
                    continue
                assert not isinstance(reply, BaseException), reply
                if "update" in reply:
                    answered.append((command.account, reply["update"]))
            # Whatever the table started meanwhile (a hand after the last one) is published too.
            await runner.submit(Tick("next_hand", runner._tokens.get("next_hand", 0)))
        final = await runner.submit(Snapshot(1))
        assert _bare(final["snapshot"]) == _bare(publisher.models[1])
    finally:
        await runner.stop(0.1)
    assert storage.total() == 0
    # The update in an answer is the one that account's connections were spared.
    for account, update in answered:
        batch = next(b for b in publisher.batches if b.spectator["seq"] == update["seq"])
        assert update is batch.accounts.get(account, batch.spectator)
        assert account in batch.skip


@pytest.mark.parametrize("profile", ["california", "standard"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=steps)
def test_every_viewers_model_is_its_snapshot_after_every_update(profile: str, plan: list[list[Intent]]) -> None:
    asyncio.run(_scenario(profile, plan))


def test_a_batch_without_events_sends_nothing() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW)), MemoryStorage(), ModelPublisher())
    assert UpdateBuilder("t").build(runner, BatchRecord(frozenset()), 0.0) is None


def test_private_events_follow_their_public_event_for_their_account_only() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW)), MemoryStorage(), ModelPublisher())
    record = BatchRecord(frozenset({7}), [RecordedEvent(1, {"type": "a"}), RecordedEvent(2, {"type": "b"})],
                         [(7, 1, {"type": "mine"})])
    updates = UpdateBuilder("t").build(runner, record, 0.0)
    assert updates is not None
    assert [e["event"]["type"] for e in updates.spectator["events"]] == ["a", "b"]
    assert updates.accounts[7]["events"] == [{"seq": 1, "event": {"type": "a"}},
                                             {"seq": 1, "private": True, "event": {"type": "mine"}},
                                             {"seq": 2, "event": {"type": "b"}}]
    assert (updates.spectator["from_seq"], updates.spectator["seq"]) == (1, 2)


def test_only_what_changed_since_the_last_update_is_in_the_view() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW)), MemoryStorage(), ModelPublisher())
    builder = UpdateBuilder("t")
    first = builder.build(runner, BatchRecord(frozenset(), [RecordedEvent(1, {"type": "a"}, in_hand=False)]), 0.0)
    second = builder.build(runner, BatchRecord(frozenset(), [RecordedEvent(2, {"type": "b"}, in_hand=False)]), 0.0)
    assert first is not None
    assert second is not None
    assert {"settings", "seats", "status", "hand"} <= set(first.spectator["view"])
    assert second.spectator["view"] == {}
    runner.paused = True
    third = builder.build(runner, BatchRecord(frozenset(), [RecordedEvent(3, {"type": "c"}, in_hand=False)]), 0.0)
    assert third is not None
    assert third.spectator["view"] == {"status": "paused"}
