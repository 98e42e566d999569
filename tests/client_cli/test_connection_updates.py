"""The client library's side of protocol v2: updates applied in seq order, gaps, duplicates, retries.

The ordering rules live in ``TableFeed`` (no I/O, no clock), fed here with
payloads shaped as docs/protocol.md section 3 shows. ``Connection`` is then tested
with its Socket.IO calls and its clock replaced by a few lines each, and once
against a real server: a whole hand, after which every client's model equals a
fresh snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.connection import (
    GAP_HOLD,
    RATE_DEFAULT_WAIT,
    RATE_RETRIES,
    Connection,
    ServerRefused,
    TableFeed,
    http_json,
)

from .conftest import Server

T = "main"


def snapshot(seq: int, **keys: Any) -> dict[str, Any]:
    return {"table": T, "seq": seq, "server_time": 1000.0 + seq, "status": "paused", "hand": None,
            "seats": [], "choices": {"seat": None, "deadline": None, "moves": []}, **keys}


def update(first: int, last: int, *, private: tuple[int, ...] = (), **view: Any) -> dict[str, Any]:
    """An update covering ``first..last``, one public event per seq (and a private one after some)."""
    events: list[dict[str, Any]] = []
    for seq in range(first, last + 1):
        events.append({"seq": seq, "event": {"type": f"e{seq}"}})
        if seq in private:
            events.append({"seq": seq, "private": True, "event": {"type": f"p{seq}"}})
    return {"table": T, "from_seq": first, "seq": last, "server_time": 2000.0 + last, "events": events,
            "view": view, "choices": {"seat": 1, "deadline": None, "moves": [{"request": "stand", "at": last}]}}


def kinds(items: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(i["kind"], i.get("seq", -1)) for i in items]


# ---------------------------------------------------------------- TableFeed


def test_an_update_that_follows_the_snapshot_patches_the_model_and_lists_its_events_then_itself() -> None:
    feed = TableFeed(T)
    feed.reset(snapshot(40, status="running"))
    items = feed.offer(update(41, 43, private=(43,), status="dealing", hand={"id": 7}))
    assert kinds(items) == [("table", 41), ("table", 42), ("table", 43), ("private", 43), ("update", 43)]
    assert items[3]["event"] == {"type": "p43"}
    assert items[-1]["view"] == {"status": "dealing", "hand": {"id": 7}}
    assert items[-1]["choices"]["moves"] == [{"request": "stand", "at": 43}]
    assert feed.model is not None
    assert feed.model["status"] == "dealing"
    assert feed.model["hand"] == {"id": 7}
    assert feed.model["seq"] == 43
    assert feed.model["server_time"] == 2043.0
    assert feed.model["choices"] == items[-1]["choices"]
    assert feed.model["seats"] == [], "a key the view leaves out is kept"
    assert not feed.gap


def test_an_update_already_covered_is_dropped() -> None:
    feed = TableFeed(T)
    feed.reset(snapshot(40))
    assert feed.offer(update(41, 42)) != []
    assert feed.offer(update(41, 42)) == [], "the same update twice"
    assert feed.offer(update(38, 40)) == [], "older than the snapshot"
    assert feed.seq == 42
    assert not feed.gap


def test_an_update_that_comes_early_waits_for_the_one_before_it() -> None:
    feed = TableFeed(T)
    feed.reset(snapshot(40))
    assert feed.offer(update(44, 45, status="b")) == []
    assert feed.gap
    assert feed.seq == 40
    items = feed.offer(update(41, 43, status="a"))
    assert [i["seq"] for i in items if i["kind"] == "update"] == [43, 45]
    assert [i["seq"] for i in items if i["kind"] == "table"] == [41, 42, 43, 44, 45]
    assert feed.model is not None
    assert feed.model["status"] == "b"
    assert not feed.gap


def test_updates_before_the_first_snapshot_wait_for_it_and_the_old_ones_go() -> None:
    feed = TableFeed(T)
    assert feed.offer(update(39, 40)) == []
    assert feed.offer(update(41, 41)) == []
    assert feed.gap
    items = feed.reset(snapshot(40), announce=True)
    assert kinds(items) == [("snapshot", -1), ("table", 41), ("update", 41)]
    assert items[0]["snapshot"]["seq"] == 40
    assert not feed.gap


def test_a_snapshot_older_than_the_model_leaves_the_model_alone() -> None:
    feed = TableFeed(T)
    feed.reset(snapshot(40))
    feed.offer(update(41, 44, status="newer"))
    items = feed.reset(snapshot(42, status="older"), announce=True)
    assert feed.seq == 44
    assert feed.model is not None
    assert feed.model["status"] == "newer"
    assert items == [{"kind": "snapshot", "table": T, "snapshot": feed.model}], "what it announces is ours"


def test_an_update_that_overlaps_the_snapshot_brings_only_the_newer_events() -> None:
    feed = TableFeed(T)
    feed.reset(snapshot(42))
    items = feed.offer(update(41, 44, private=(42, 43), status="x"))
    assert kinds(items) == [("table", 43), ("private", 43), ("table", 44), ("update", 44)]
    assert feed.model is not None
    assert feed.model["status"] == "x"


def test_a_malformed_update_changes_nothing() -> None:
    feed = TableFeed(T)
    feed.reset(snapshot(40))
    for bad in ({}, {"from_seq": "41", "seq": 42}, {"from_seq": 43, "seq": 42}, {"from_seq": True, "seq": 41}):
        assert feed.offer(bad) == []
    assert feed.seq == 40
    assert not feed.gap


VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "vectors" / "viewpatch.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", VECTORS, ids=[case["name"] for case in VECTORS])
def test_the_feed_follows_every_shared_vector(case: dict[str, Any]) -> None:
    """The terminal's feed applies each case of tests/vectors/viewpatch.json as feed.js does (tests/web)."""
    feed = TableFeed(T)
    feed.reset(case["model"])
    items = feed.offer(case["update"])
    if case.get("fits", True):
        assert feed.model == case["result"]
        assert not feed.gap
        assert items[-1]["kind"] == "update"
    else:  # the model is dropped: nothing applies until a snapshot, which then brings what was held
        assert feed.gap
        assert all(item["kind"] != "update" for item in items)
        fresh = {**case["model"], "seq": case["update"]["seq"], "status": "fresh"}
        feed.reset(fresh)
        assert feed.model == fresh
        assert not feed.gap


def _chain(cuts: list[int]) -> list[dict[str, Any]]:
    """Consecutive updates from seq 1 on, each ``cut`` seqs long, each setting ``status`` to its number."""
    out, first = [], 1
    for n, size in enumerate(cuts):
        out.append(update(first, first + size - 1, private=(first,), status=f"s{n}", **{f"k{n % 3}": n}))
        first += size
    return out


@given(st.lists(st.integers(1, 4), min_size=1, max_size=12).flatmap(
    lambda cuts: st.tuples(st.just(cuts), st.permutations(list(range(len(cuts)))),
                           st.lists(st.integers(0, len(cuts) - 1), max_size=6))))
def test_in_any_order_with_repeats_the_feed_ends_as_if_it_came_in_order(case: tuple[list[int], list[int],
                                                                                   list[int]]) -> None:
    cuts, order, repeats = case
    chain = _chain(cuts)
    straight = TableFeed(T)
    straight.reset(snapshot(0))
    expected = [item for u in chain for item in straight.offer(u)]
    shuffled = TableFeed(T)
    shuffled.reset(snapshot(0))
    got = [item for k in order + repeats for item in shuffled.offer(chain[k])]
    assert got == expected
    assert shuffled.model == straight.model
    assert not shuffled.gap
    assert [i["seq"] for i in got if i["kind"] == "table"] == list(range(1, sum(cuts) + 1))


# ---------------------------------------------------------------- Connection, on fakes


class Clock:
    """The connection's sleep, on the test's hand: each wait is recorded and ends when the test says."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.go = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        await self.go.wait()


class FakeServer:
    """Answers ``sio.call`` from a list, recording each request."""

    def __init__(self, *answers: dict[str, Any]) -> None:
        self.answers = list(answers)
        self.requests: list[tuple[str, Any]] = []

    async def call(self, event: str, payload: Any, timeout: float = 0) -> Any:
        assert timeout > 0
        self.requests.append((event, payload))
        return self.answers.pop(0)


def fake_connection(server: FakeServer, clock: Clock) -> Connection:
    conn = Connection("http://127.0.0.1:1", reconnect=False)
    conn.sio.call = server.call  # the fake in place of the socket (socketio is untyped)
    conn.sleep = clock.sleep
    return conn


def drain(conn: Connection) -> list[dict[str, Any]]:
    items = []
    while not conn.events.empty():
        items.append(conn.events.get_nowait())
    return items


async def test_a_gap_that_does_not_fill_is_closed_by_a_snapshot() -> None:
    fresh = snapshot(47, status="fresh")
    server = FakeServer({"ok": True, "snapshot": snapshot(40)}, {"ok": True, "snapshot": fresh})
    clock = Clock()
    conn = fake_connection(server, clock)
    await conn.join(T)
    await conn._table_update(update(44, 45))
    await asyncio.sleep(0)  # the gap's watch starts holding
    assert conn.gap(T)
    assert clock.waits == [GAP_HOLD]
    assert [r[0] for r in server.requests] == ["join"]
    clock.go.set()
    while conn.gap(T):
        await asyncio.sleep(0)
    assert list(server.requests) == [("join", {"table": T}), ("snapshot", {"table": T})]
    assert conn.models[T] == fresh
    assert conn.resyncs == 1
    assert kinds(drain(conn)) == [("snapshot", -1), ("snapshot", -1)]
    await conn.close()


async def test_a_gap_that_fills_while_held_asks_for_no_snapshot() -> None:
    server = FakeServer({"ok": True, "snapshot": snapshot(40)},
                        {"ok": True, "seat": 1, "update": update(41, 43, status="mine")})
    clock = Clock()
    conn = fake_connection(server, clock)
    await conn.join(T)
    await conn._table_update(update(44, 44, status="theirs"))
    await asyncio.sleep(0)
    reply = await conn.call("sit", {"table": T})  # our own answer carries the missing update
    assert reply["seat"] == 1
    assert conn.models[T]["status"] == "theirs"
    assert conn.models[T]["seq"] == 44
    clock.go.set()
    for _ in range(5):
        await asyncio.sleep(0)
    assert [r[0] for r in server.requests] == ["join", "sit"]
    assert conn.resyncs == 0
    assert kinds(drain(conn)) == [("snapshot", -1), ("table", 41), ("table", 42), ("table", 43), ("update", 43),
                                  ("table", 44), ("update", 44)]
    await conn.close()


class SlowServer(FakeServer):
    """A fake whose answers wait for the test's word (an answer on its way while the caller gives up)."""

    def __init__(self, *answers: dict[str, Any]) -> None:
        super().__init__(*answers)
        self.answer = asyncio.Event()

    async def call(self, event: str, payload: Any, timeout: float = 0) -> Any:
        if event != "join":
            await self.answer.wait()
        return await super().call(event, payload, timeout)


async def test_the_update_of_an_answer_nobody_waits_for_any_more_is_applied() -> None:
    """A bot leaving mid-move stops waiting for the move's answer: the update the answer carries still applies, so
    the next update finds no gap and the table is not asked for again (a suite run's flake, found this way)."""
    server = SlowServer({"ok": True, "snapshot": snapshot(40)}, {"ok": True, "update": update(41, 43, status="moved")})
    clock = Clock()
    conn = fake_connection(server, clock)
    await conn.join(T)
    caller = asyncio.ensure_future(conn.call("move", {"table": T}))
    await asyncio.sleep(0)
    caller.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await caller
    server.answer.set()
    for _ in range(5):
        await asyncio.sleep(0)  # the answer comes in
    await conn._table_update(update(44, 44, status="theirs"))  # the next batch's, after the answer
    for _ in range(5):
        await asyncio.sleep(0)
    assert conn.models[T]["seq"] == 44
    assert not conn.gap(T)
    assert clock.waits == [], "no gap was held"
    assert [r[0] for r in server.requests] == ["join", "move"]
    await conn.close()


async def test_a_rate_limited_request_goes_again_after_the_retry_after_it_was_given() -> None:
    limited = {"ok": False, "error": {"code": "rate/limited", "message": "slow down", "retry_after": 0.4}}
    server = FakeServer(limited, {"ok": False, "error": {"code": "rate/limited", "message": "slow down"}},
                        {"ok": True, "seat": 3})
    clock = Clock()
    clock.go.set()
    conn = fake_connection(server, clock)
    assert (await conn.call("sit", {"table": T}))["seat"] == 3
    assert clock.waits == [0.4, RATE_DEFAULT_WAIT]
    assert len(server.requests) == 3


async def test_a_request_still_limited_after_every_retry_is_refused_and_other_refusals_are_not_retried() -> None:
    limited = {"ok": False, "error": {"code": "rate/limited", "message": "slow down", "retry_after": 1}}
    server = FakeServer(*[limited] * (RATE_RETRIES + 1),
                        {"ok": False, "error": {"code": "seat/taken", "message": "that seat is taken"}})
    clock = Clock()
    clock.go.set()
    conn = fake_connection(server, clock)
    with pytest.raises(ServerRefused) as refused:
        await conn.call("sit", {"table": T})
    assert refused.value.code == "rate/limited"
    assert clock.waits == [1.0] * RATE_RETRIES
    with pytest.raises(ServerRefused) as refused:
        await conn.call("sit", {"table": T})
    assert refused.value.code == "seat/taken"
    assert len(clock.waits) == RATE_RETRIES


# ---------------------------------------------------------------- a real server


def _host(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.url}/api/host", data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {server.host_token}",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def _without_time(model: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in model.items() if k != "server_time"}


def _least(value: Any) -> Any:
    """The least of a choice's argument: a range's min, a list's first, a fixed value as it is."""
    if isinstance(value, dict):
        return value["min"]
    if isinstance(value, list):
        return _least(value[0])
    return value


async def _play_from_choices(conn: Connection, table: str, hands: int) -> None:
    """Make the first hand move each update offers (never a raise), until ``hands`` hands were revealed."""
    revealed = 0
    while revealed < hands:
        item = await asyncio.wait_for(conn.events.get(), 30)
        if item.get("kind") == "table" and (item.get("event") or {}).get("type") == "hand_revealed":
            revealed += 1
        if item.get("kind") != "update":
            continue
        for move in (item.get("choices") or {}).get("moves", []):
            if move.get("request") != "move" or move.get("action") == "raise":
                continue
            args = {k: _least(v) for k, v in move.items()
                    if k not in ("request", "limits") and not (isinstance(v, dict) and "min" not in v)}
            # refused: the clock or another answer got there first; the next update says what is left
            with contextlib.suppress(ServerRefused):
                await conn.call("move", {"table": table, **args})
            break


async def _model_equals_a_fresh_snapshot(conn: Connection, table: str) -> None:
    """Take a snapshot past the library (so it does not reset the model), then catch the model up to it."""
    for _ in range(5):
        fresh = (await conn.sio.call("snapshot", {"table": table}, timeout=10))["snapshot"]
        assert "choices" in fresh
        while conn.models[table]["seq"] < fresh["seq"]:  # updates still on their way
            await asyncio.wait_for(conn.events.get(), 10)
        if conn.models[table]["seq"] == fresh["seq"]:
            assert _without_time(conn.models[table]) == _without_time(fresh)
            return
    raise AssertionError("the table never stood still for a snapshot")


async def test_over_a_real_hand_every_model_equals_a_fresh_snapshot(server: Server) -> None:
    table = "lib-updates"
    _host(server, {"action": "create_table", "table": table,
                   "settings": {"pause_seconds": 3, "offer_seconds": 5, "bet_seconds": 5, "action_seconds": 5}})
    conns: list[Connection] = []
    watcher = Connection(server.url, reconnect=False)
    await watcher.connect()
    await watcher.join(table)
    try:
        for name in ("libann", "libbob"):
            body = {"name": name, "password": "password123"}
            account = await http_json("POST", f"{server.url}/api/register", body)
            conn = Connection(server.url, token=account["token"], reconnect=False)
            await conn.connect()
            await conn.join(table)
            await conn.call("sit", {"table": table})
            conns.append(conn)
        await asyncio.gather(*(_play_from_choices(c, table, 1) for c in conns))
        _host(server, {"action": "pause", "table": table})
        for conn in [*conns, watcher]:
            await _model_equals_a_fresh_snapshot(conn, table)
            assert conn.resyncs == 0, "a gap during a quiet hand"
        assert any(i.get("kind") == "update" for i in drain(watcher)), "the spectator was sent updates"
    finally:
        for conn in [*conns, watcher]:
            await conn.close()
