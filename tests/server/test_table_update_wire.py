"""``table_update`` over real Socket.IO (docs/protocol.md section 2), with bare python-socketio clients.

Each connection gets its own update: a seated account its personal one (its cards
in it), every other connection the spectators' one, and the acting player its update
in the answer to its request instead of a push. Each model (the join's snapshot with
every update applied) is a fresh snapshot.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import socketio

from server.app import GATEWAY
from server.table.updates import apply_update

from .conftest import Server

SLOW = {"offer_seconds": 60, "bet_seconds": 60, "action_seconds": 60, "pause_seconds": 0}
WAIT = 10.0


class Viewer:
    """One connection: its updates, applied in seq order to the model its join started."""

    def __init__(self) -> None:
        self.sio = socketio.AsyncClient(reconnection=False)
        self.pushed: list[dict[str, Any]] = []
        self.model: dict[str, Any] | None = None
        self._waiting: dict[int, dict[str, Any]] = {}  # arrived ahead of their turn (handlers run as tasks)
        self._changed = asyncio.Condition()
        self.sio.on("table_update", self._pushed)

    async def connect(self, url: str, token: str | None = None) -> Viewer:
        await self.sio.connect(url, auth={"token": token} if token else {}, transports=["websocket"],
                               wait_timeout=WAIT)
        return self

    async def call(self, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = await self.sio.call(event, payload, timeout=WAIT)
        assert reply["ok"], reply
        if "snapshot" in reply and self.model is None:
            self.model = reply["snapshot"]
        if "update" in reply:
            await self._arrived(reply["update"])
        return reply

    async def _pushed(self, update: dict[str, Any]) -> None:
        self.pushed.append(update)
        await self._arrived(update)

    async def _arrived(self, update: dict[str, Any]) -> None:
        async with self._changed:
            self._waiting[update["from_seq"]] = update
            while self.model is not None:
                drop = [s for s in self._waiting if self._waiting[s]["seq"] <= self.model["seq"]]
                for seq in drop:
                    del self._waiting[seq]
                ready = self._waiting.pop(self.model["seq"] + 1, None)
                if ready is None:
                    break
                self.model = apply_update(self.model, ready)
            self._changed.notify_all()

    async def until(self, what: str, predicate: Any) -> dict[str, Any]:
        async def wait() -> dict[str, Any]:
            async with self._changed:
                await self._changed.wait_for(lambda: self.model is not None and predicate(self.model))
                assert self.model is not None
                return self.model
        try:
            return await asyncio.wait_for(wait(), WAIT)
        except TimeoutError:
            raise AssertionError(f"no {what}: model {self.model}") from None

    def events(self) -> list[dict[str, Any]]:
        return [e for u in self.pushed for e in u["events"]]


def _bare(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k != "server_time"}


@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_each_connection_gets_its_own_update_and_the_actor_its_own_in_the_answer(server: Server) -> None:
    accounts = [await server.account(name) for name in ("ann", "bob")]
    ann, bob = [await Viewer().connect(server.url, a["token"]) for a in accounts]
    watcher = await Viewer().connect(server.url)
    viewers = (ann, bob, watcher)
    try:
        for viewer in viewers:
            await viewer.call("join", {"table": "main"})
        sat = await ann.call("sit", {"table": "main", "buy_in": 1000})
        assert [e["event"]["type"] for e in sat["update"]["events"]] == ["player_sat"]
        assert sat["update"]["view"]["you"]["seat"] == sat["seat"]
        assert {"request": "stand"} in sat["update"]["choices"]["moves"]
        await bob.until("ann seated", lambda m: len(m["seats"]) == 1)
        await watcher.until("ann seated", lambda m: len(m["seats"]) == 1)
        assert "you" not in watcher.pushed[-1]["view"]
        await bob.call("sit", {"table": "main", "buy_in": 1000})
        offered = await watcher.until("the bank offer", lambda m: (m["hand"] or {}).get("phase") == "offer")
        dp = offered["hand"]["offered"]
        dealer, player = (ann, bob) if dp == sat["seat"] else (bob, ann)
        await dealer.call("move", {"table": "main", "action": "bank", "accept": True})
        await player.until("the betting", lambda m: m["hand"]["phase"] == "betting")
        await player.call("move", {"table": "main", "action": "bet", "ante": 10, "flush_bonus": 5})
        for viewer in viewers:
            await viewer.until("the decisions", lambda m: m["hand"]["phase"] in ("decisions", "settled"))
        # Private cards reach their own account only, right after the deal.
        assert not [e for e in watcher.events() if e.get("private")]
        kinds = [(e["event"]["type"], e.get("private", False)) for e in dealer.events()]
        deal = kinds.index(("cards_dealt", False))
        assert kinds[deal + 1] == ("your_cards", True)
        assert player.model is not None
        assert watcher.model is not None
        assert "your_cards" in player.model["hand"]
        assert "your_cards" not in watcher.model["hand"]
        # Nobody got a push for a batch whose update came with its own answer.
        for viewer in viewers:
            seqs = [u["seq"] for u in viewer.pushed]
            assert len(seqs) == len(set(seqs))
        for viewer in viewers:
            fresh = (await viewer.sio.call("snapshot", {"table": "main"}, timeout=WAIT))["snapshot"]
            await viewer.until("the snapshot's seq", lambda m, f=fresh: m["seq"] >= f["seq"])
            assert viewer.model is not None
            assert _bare(viewer.model) == _bare(fresh)
    finally:
        for viewer in viewers:
            await viewer.sio.disconnect()


async def test_a_refusal_for_too_many_requests_says_when_to_send_again(server: Server) -> None:
    gateway = server.app[GATEWAY]
    gateway.rate, gateway.burst = 1.0, 1  # for connections from now on
    viewer = await Viewer().connect(server.url)
    try:
        answers = [await viewer.sio.call("snapshot", {"table": "main"}, timeout=WAIT) for _ in range(3)]
        refused = [a for a in answers if not a["ok"]]
        assert refused
        assert refused[0]["error"]["code"] == "rate/limited"
        assert 0 < refused[0]["error"]["retry_after"] <= 1.0
    finally:
        await viewer.sio.disconnect()
