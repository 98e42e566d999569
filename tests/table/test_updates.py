"""Each viewer's model (its first snapshot, then every update applied) is a fresh snapshot (docs/protocol.md 4)."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.cluster.codec import decode_updates, encode_updates
from server.rules.games import game_named
from server.rules.hcf.settings import HcfSettings
from server.table.commands import Host, Play, SetSitOut, SetWilling, Sit, Snapshot, Stand, TableError, Tick, TopUp
from server.table.ports import RecordedEvent, TableUpdates
from server.table.roster import Seated
from server.table.runner import TableRunner, TableSetup
from server.table.updates import BatchRecord, UpdateBuilder, apply_update, merged
from server.viewpatch import diff
from tests.table.fakes import MemoryStorage, RecordingPublisher

PLAYERS = (1, 2, 3, 4)
VIEWERS: tuple[int | None, ...] = (*PLAYERS, 5, None)  # 5 is logged in and never sits; None has no account
LATE, LATE_AFTER = 6, 3  # a spectator that comes after the third batch: its snapshot then, and every update after
# No clock runs out by itself during a test: the test runs them out (a Tick) when it chooses.
SLOW = {"pause_seconds": 0, "offer_seconds": 600, "bet_seconds": 600, "action_seconds": 600, "seats": 4}


class ModelPublisher:
    """Applies every update to every viewer's model and checks, at once, that it is that viewer's snapshot."""

    def __init__(self) -> None:
        self.runner: TableRunner | None = None
        self.models: dict[int | None, dict[str, Any]] = {}
        self.batches: list[TableUpdates] = []
        # (viewer, the hand's id and the viewer's seat before and after, the hand sent whole?, patched?)
        self.sent: list[tuple[int | None, tuple[Any, Any], tuple[Any, Any], bool, bool]] = []
        self.hands: dict[int | None, Any] = {}  # each viewer's hand as its last update's snapshot showed it

    def start(self, runner: TableRunner) -> None:
        self.runner = runner
        self.models = {viewer: runner.snapshot(viewer) for viewer in VIEWERS}
        self.first = dict(self.models)  # each viewer's snapshot before the first update
        self.hands = {viewer: model["hand"] for viewer, model in self.models.items()}

    async def table_update(self, _table: str, updates: TableUpdates) -> None:
        assert self.runner is not None
        self.batches.append(updates)
        assert "you" not in updates.spectator["view"], "the spectators' update is the same for every spectator"
        for viewer, model in self.models.items():
            update = updates.accounts.get(viewer, updates.spectator) if viewer is not None else updates.spectator
            assert update["from_seq"] == model["seq"] + 1, (viewer, update["from_seq"], model["seq"])
            assert [e["seq"] for e in update["events"]] == sorted(e["seq"] for e in update["events"])
            self.models[viewer] = apply_update(model, update)
            after = self.models[viewer]
            self.sent.append((viewer, _hand_and_seat(model), _hand_and_seat(after), "hand" in update["view"],
                              any(op[0][0] == "hand" for op in update.get("patch", []))))
            snapshot = self.runner.snapshot(viewer)
            assert _bare(self.models[viewer]) == _bare(snapshot), f"viewer {viewer}"
            _assert_hand_ops_are_the_whole_diff(update, self.hands[viewer], snapshot["hand"])
            self.hands[viewer] = snapshot["hand"]
        if len(self.batches) == LATE_AFTER:  # it comes now (mid-hand, mostly): its snapshot, then every update
            self.models[LATE] = self.runner.snapshot(LATE)
            self.hands[LATE] = self.models[LATE]["hand"]


def _assert_hand_ops_are_the_whole_diff(update: dict[str, Any], before: Any, after: Any) -> None:
    """A patched hand carries, operation for operation and byte for byte, the diff of the viewer's whole hand view
    (what each seat's update held before its public part was diffed once a batch)."""
    if "hand" in update["view"] or not isinstance(before, dict) or not isinstance(after, dict) \
            or before.get("hand_id") != after.get("hand_id"):
        return
    sent = [op for op in update["patch"] if op[0][0] == "hand"]
    assert json.dumps(sent) == json.dumps(diff(before, after, ["hand"]))


def _hand_and_seat(model: dict[str, Any]) -> tuple[Any, Any]:
    return (model["hand"] or {}).get("hand_id"), model["you"]["seat"]


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
        return Tick("clock", runner.timers.token("clock"))
    return _hand_move(runner, account, n)


def _hand_move(runner: TableRunner, account: int, n: int) -> Play:
    if n % 3 or runner.game.name != "hcf":
        return _chosen(runner, account, n)
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


def _chosen(runner: TableRunner, account: int, n: int) -> Play:
    """One of the hand moves the table offers (to this account, or to a seat that has some), its args picked."""
    offered = {a: runner.choices(a)["moves"] for a in PLAYERS}
    with_moves = [a for a in PLAYERS if any(m["request"] == "move" for m in offered[a])]
    if account not in with_moves and with_moves:
        account = with_moves[n % len(with_moves)]
    moves = [m for m in offered[account] if m["request"] == "move"]
    if not moves:
        return Play(account, "pass")
    # Mostly the first (bank, bet, raise), or deal once there are bets: hands go on.
    deal = [m for m in moves if m["action"] == "deal"]
    item = deal[0] if deal and n % 2 else moves[0] if n % 5 else moves[n % len(moves)]
    args = {k: _pick(v, n) for k, v in item.items() if k not in ("request", "action", "limits", "seed")}
    return Play(account, item["action"], tuple(args.items()))


def _pick(value: Any, n: int) -> Any:
    """A value within a choice's argument: one of a list, within a range, a list of bets, a discard."""
    if isinstance(value, list):  # mostly a range when there is one (an optional bet), else the first
        usual = next((v for v in value if isinstance(v, dict)), value[0])
        return _pick(usual if n % 3 else value[n % len(value)], n // 3)
    if isinstance(value, dict) and "min" in value:
        low, high = value["min"], value["max"]
        return low + n % (high - low + 1) if n % 2 else low
    if isinstance(value, dict) and "each" in value and "min" in value["each"]:  # distinct values (a discard)
        count = _pick(value["count"], n)
        low, high = value["each"]["min"], value["each"]["max"]
        return [low + (n + i) % (high - low + 1) for i in range(min(count, high - low + 1))]
    if isinstance(value, dict) and "each" in value:  # bets on distinct spots or boxes
        count = _pick(value["count"], n)
        each = value["each"]
        key = value.get("distinct") or ("spot" if "spot" in each else "box")
        places: list[int] = each.get(key, [])
        return [{k: _pick(v, n + i) for k, v in each.items()} | {key: places[(n + i) % len(places)]}
                for i in range(min(count, len(places)))]
    return value


GAMES: dict[str, tuple[str, dict[str, Any]]] = {  # a table of each game, and of both High Card Flush profiles
    "hcf": ("hcf", {"profile": "california", "offer_seconds": 600, "seats": 4}),
    "hcf-standard": ("hcf", {"profile": "standard", "offer_seconds": 600, "seats": 4}),
    "caribbean": ("caribbean", {"spots": 4, "max_hands": 2}),
    "sixcard": ("sixcard", {"boxes": 4, "exchange_seconds": 600}),
}


def _setup(table: str) -> TableSetup:
    game, values = GAMES[table]
    clocks: dict[str, Any] = {k: v for k, v in SLOW.items() if k not in ("offer_seconds", "seats")}
    settings = game_named(game).settings_from_mapping(clocks | values)
    return TableSetup("t", settings, game=game)


async def _scenario(table: str, plan: list[list[Intent]]) -> ModelPublisher:
    storage, publisher = MemoryStorage(), ModelPublisher()
    for account in PLAYERS:
        storage.issue(account, 20000)
    runner = TableRunner(_setup(table), storage, publisher)
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
            await runner.submit(Tick("next_hand", runner.timers.token("next_hand")))
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
    return publisher


def test_a_player_who_sits_down_mid_hand_follows_it_as_a_spectator_then_as_a_seat() -> None:
    """Three play; the fourth sits down while their hand goes on, and is dealt in the next."""
    plan = [[(a, 0, a)] for a in PLAYERS[:3]] + [[(a, 10 + i, 7 * i + a)] for i in range(3) for a in PLAYERS[:3]]
    plan += [[(4, 0, 4)]] + [[(a, 10 + i, 5 * i + a)] for i in range(10) for a in PLAYERS]
    publisher = asyncio.run(_scenario("hcf", plan))
    seats = [after[1] for viewer, _, after, _, _ in publisher.sent if viewer == 4]
    assert None in seats
    assert seats[-1] is not None
    assert any(viewer == LATE for viewer, *_ in publisher.sent)


def test_a_hand_goes_whole_once_then_as_patches_of_what_changed() -> None:
    plan = [[(a, 0, a)] for a in PLAYERS] + [[(a, 10 + i, 7 * i + a)] for i in range(8) for a in PLAYERS]
    publisher = asyncio.run(_scenario("hcf", plan))
    patched = [s for s in publisher.sent if s[4]]
    assert len(patched) > 20, "the hands' changes went whole: no patch"
    for viewer, before, after, whole, _ in publisher.sent:
        if whole and before[0] is not None:
            # Whole again only for a new hand, or when the viewer's seat in it changed.
            assert before != after, (viewer, before)


@pytest.mark.parametrize("table", list(GAMES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=steps)
def test_every_viewers_model_is_its_snapshot_after_every_update(table: str, plan: list[list[Intent]]) -> None:
    asyncio.run(_scenario(table, plan))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=steps, together=st.lists(st.booleans(), min_size=80, max_size=80))
def test_updates_taken_together_hold_what_they_hold_one_by_one(plan: list[list[Intent]], together: list[bool]) -> None:
    """A spectator of a table many watch may get several batches' updates as one (server/transport/edge.py)."""
    publisher = asyncio.run(_scenario("hcf", plan))
    one_by_one = model = publisher.first[None]
    held: Any = None
    for update, joins in zip([b.spectator for b in publisher.batches], together + [False] * 1000, strict=False):
        one_by_one = apply_update(one_by_one, update)
        held = update if held is None else merged(held, update)
        if not joins:  # this one goes out with those held before it
            model, held = apply_update(model, held), None
            assert model == one_by_one
    if held is not None:
        model = apply_update(model, held)
    assert model == one_by_one == publisher.models[None]


def test_a_batch_without_events_sends_nothing() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW)), MemoryStorage(), ModelPublisher())
    assert UpdateBuilder("t").build(runner.view(), BatchRecord(frozenset()), 0.0) is None


def test_private_events_follow_their_public_event_for_their_account_only() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW)), MemoryStorage(), ModelPublisher())
    record = BatchRecord(frozenset({7}), [{"seq": 1, "event": {"type": "a"}}, {"seq": 2, "event": {"type": "b"}}],
                         [(7, 1, {"type": "mine"})], in_hand=True)
    updates = UpdateBuilder("t").build(runner.view(), record, 0.0)
    assert updates is not None
    assert [e["event"]["type"] for e in updates.spectator["events"]] == ["a", "b"]
    assert updates.accounts[7]["events"] == [{"seq": 1, "event": {"type": "a"}},
                                             {"seq": 1, "private": True, "event": {"type": "mine"}},
                                             {"seq": 2, "event": {"type": "b"}}]
    assert (updates.spectator["from_seq"], updates.spectator["seq"]) == (1, 2)


def test_only_what_changed_since_the_last_update_is_in_the_view() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW)), MemoryStorage(), ModelPublisher())
    builder = UpdateBuilder("t")
    first = builder.build(runner.view(), BatchRecord(frozenset(), [{"seq": 1, "event": {"type": "a"}}]),
                          0.0)
    second = builder.build(runner.view(), BatchRecord(frozenset(), [{"seq": 2, "event": {"type": "b"}}]),
                           0.0)
    assert first is not None
    assert second is not None
    assert {"settings", "seats", "status", "hand"} <= set(first.spectator["view"])
    assert second.spectator["view"] == {}
    runner.floor = replace(runner.floor, paused=True)
    third = builder.build(runner.view(), BatchRecord(frozenset(), [{"seq": 3, "event": {"type": "c"}}]),
                          0.0)
    assert third is not None
    assert third.spectator["view"] == {"status": "paused"}


def test_updates_relayed_to_another_process_arrive_as_they_left() -> None:
    runner = TableRunner(TableSetup("t", HcfSettings.from_mapping(SLOW)), MemoryStorage(), ModelPublisher())
    runner.roster = runner.roster.with_seated(Seated(2, 7, "ann"))
    record = BatchRecord(frozenset({7}), [{"seq": 1, "event": {"type": "a"}}], [(7, 1, {"type": "mine"})], in_hand=True)
    updates = UpdateBuilder("t").build(runner.view(), record, 12.5, frozenset({7}))
    assert updates is not None
    table, back = decode_updates(json.loads(encode_updates("node-a", "t", updates)))
    assert table == "t"
    assert back == updates


async def test_what_a_takeover_recorded_goes_out_as_a_whole_view_without_a_gap() -> None:
    publisher = RecordingPublisher()
    setup = TableSetup("t", HcfSettings.from_mapping(SLOW), seq=12)
    runner = TableRunner(setup, MemoryStorage(), publisher)
    runner.start()
    try:
        # seqs 10 to 12 were recorded before this runner ran; 11 is the public one of them
        await runner.publish_recorded(9, [RecordedEvent(11, {"type": "hand_voided"})])
    finally:
        await runner.stop(0.1)
    update = publisher.updates[0].spectator
    assert (update["from_seq"], update["seq"]) == (10, 12)
    assert [e["seq"] for e in update["events"]] == [11]
    assert set(runner.shared_view()) | {"hand"} <= set(update["view"])
