"""6 Card Poker 1-2-5 tables at the real server (docs/rules/sixcard.md): boxes, draws, the dealer exchange, crashes."""

from __future__ import annotations

import asyncio
from typing import Any

from server.persistence import open_database

from .conftest import Server
from .helpers import Client, cancel_and_wait, everyone_bet, replay_table

SIX = "six"
SETTINGS = {"game": "sixcard", "bet_seconds": 5, "action_seconds": 5, "exchange_seconds": 2, "pause_seconds": 0.2,
            "max_hands_while_waiting": 4}  # the scripted players take several boxes in any order


async def six_table(server: Server, *names: str) -> tuple[Client, list[Client]]:
    host = await server.host()
    await host.host("create_table", table=SIX, settings=SETTINGS)
    await host.host("pause", table=SIX)  # the test resumes it once everyone sits and its bots listen
    await host.join(SIX)
    players = [await server.player(name, table=SIX) for name in names]
    return host, players


class SixBot:
    """Bets its boxes; on each turn buys (once), exchanges (once) or raises by a fixed plan; asks for the exchange."""

    def __init__(self, client: Client, boxes: list[tuple[int, int, int]], plan: tuple[str, ...] = ("raise",),
                 *, ask: bool = True) -> None:
        self.client, self.boxes, self.plan, self.ask = client, boxes, plan, ask
        self.refusals: list[str] = []
        self.turns = 0
        self.task: asyncio.Task[None] | None = None

    def start(self) -> SixBot:
        self.task = asyncio.create_task(self._run(self.client.mark()))
        return self

    async def stop(self) -> None:
        if self.task is not None:
            await cancel_and_wait(self.task)

    async def _run(self, since: int) -> None:
        i = since
        while True:
            i, entry = await self.client.wait_for(lambda e: e.get("kind") == "table", since=i, timeout=None)
            i += 1
            try:
                await self._react(entry["event"])
            except Exception as exc:  # read by the test
                self.refusals.append(f"{entry['event'].get('type')}: {exc}")

    async def _move(self, action: str, **args: Any) -> None:
        await self.client.call("move", {"table": SIX, "action": action, **args})

    async def _react(self, ev: dict[str, Any]) -> None:
        me = self.client.seat
        if ev["type"] == "betting_opened" and me in ev["seats"]:
            bets = [{"box": b, "ante": a, "bonus": n} for b, a, n in self.boxes]
            since = self.client.mark()
            await self._move("bet", bets=bets, seed=f"{self.client.name}-{ev['hand_id']}")
            await everyone_bet(self.client, ev["seats"], "box_bets_placed", since)
            await self._move("deal")
        elif ev["type"] == "turn_started" and ev["seat"] == me:
            step = self.plan[self.turns % len(self.plan)]
            self.turns += 1
            if step == "buy":
                await self._move("buy", box=ev["box"])
            elif step == "exchange":
                await self._move("exchange", box=ev["box"], discard=[1, 2])
            await self._move("fold" if step == "fold" else "raise", box=ev["box"])
        elif ev["type"] == "exchange_opened":
            mine = [box for box, seat in ev["boxes"] if seat == me]
            if mine and self.ask:
                await self._move("request_exchange", box=mine[0])
            if mine:
                await self._move("continue")


async def settled_hands(client: Client, count: int, since: int) -> list[dict[str, Any]]:
    hands, i = [], since
    while len(hands) < count:
        i, ev = await client.event("hand_revealed", since=i, timeout=40)
        i += 1
        if ev["status"] == "settled":
            hands.append(ev)
    return hands


async def test_full_hands_with_draws_blind_boxes_and_the_dealer_exchange(server: Server) -> None:
    host, (ann, bob) = await six_table(server, "ann", "bob")
    bots = [SixBot(ann, [(1, 10, 1), (2, 20, 0), (3, 10, 0)], ("buy", "exchange")).start(),
            SixBot(bob, [(4, 10, 2)], ("raise",), ask=False).start()]
    await host.host("resume", table=SIX)
    mark = host.mark()
    hands = await settled_hands(host, 4, mark)
    for bot in bots:
        await bot.stop()
    assert not [r for bot in bots for r in bot.refusals]
    events = host.table_events(mark)
    assert any(e["type"] == "cards_drawn" and e["kind"] == "buy" and e["fee"] for e in events)
    assert any(e["type"] == "cards_drawn" and e["kind"] == "exchange" for e in events)
    assert any(e["type"] == "blind_bets_placed" for e in events), "ann's third box is blind"
    turns = [(e["seat"], e["box"]) for e in events if e["type"] == "turn_started"]
    assert (ann.seat, 3) not in turns, "a blind box has no turn"
    assert turns[:3] == [(ann.seat, 2), (ann.seat, 1), (bob.seat, 4)], "the larger open Ante plays first"
    for h in hands:
        boxes = {b["box"]: b for b in h["settlement"]["boxes"]}
        assert boxes[3]["blind"] is True
        assert boxes[1]["draw_fee"] == -10
        assert boxes[2]["draw_fee"] == -20
    reports = await replay_table(server.database_url, SIX)
    assert reports
    assert all(r.ok for r in reports), [r.problems for r in reports if not r.ok]


async def test_an_open_box_is_shown_to_its_owner_only_at_its_turn(server: Server) -> None:
    host, (ann, bob) = await six_table(server, "ann", "bob")
    bots = [SixBot(ann, [(1, 10, 0), (2, 10, 0)]).start(), SixBot(bob, [(3, 10, 0)]).start()]
    await host.host("resume", table=SIX)
    await settled_hands(host, 2, host.mark())
    for bot in bots:
        await bot.stop()
    for watcher in (ann, bob, host):
        for entry in watcher.log:
            ev = entry.get("event") or {}
            if entry.get("kind") == "table" and ev.get("type") in ("cards_dealt", "turn_started"):
                assert "hands" not in ev, f"{ev['type']} carries cards to everyone"
                assert "cards" not in ev, f"{ev['type']} carries cards to everyone"
    # ann's second box reaches her only after her first box's turn started.
    seen: list[tuple[str, Any]] = []
    for entry in ann.log:
        ev = entry.get("event") or {}
        if entry.get("kind") == "table" and ev.get("type") == "turn_started" and ev.get("seat") == ann.seat:
            seen.append(("turn", ev["box"]))
        elif entry.get("kind") == "private" and ev.get("type") == "your_cards":
            seen.extend(("cards", b["box"]) for b in ev["boxes"])
    first_hand = seen[:4]
    assert first_hand == [("turn", 1), ("cards", 1), ("turn", 2), ("cards", 2)], seen[:6]
    bob_saw = {b["box"] for e in bob.private_events() for b in (e.get("event") or {}).get("boxes", [])}
    assert bob_saw <= {3}, f"bob was sent the cards of boxes {bob_saw - {3}}"


async def test_bets_out_of_line_are_refused_and_change_nothing(server: Server) -> None:
    host, (ann, bob) = await six_table(server, "ann", "bob")
    await host.host("resume", table=SIX)
    await ann.event("betting_opened", since=0, timeout=30)
    await ann.call("move", {"table": SIX, "action": "bet", "bets": [{"box": 2, "ante": 10}]})
    cases = [
        ({"bets": [{"box": 2, "ante": 10}]}, "box/taken"),
        ({"bets": [{"box": 1, "ante": 2}]}, "bet/below_min"),
        ({"bets": [{"box": 1, "ante": 10}, {"box": 3, "ante": 60}]}, "bet/ante_ratio"),
        ({"bets": [{"box": 1, "ante": 300}]}, "bet/insufficient_stack"),
    ]
    for payload, code in cases:
        assert await bob.refused("move", {"table": SIX, "action": "bet", **payload}) == code, payload
    assert await bob.refused("move", {"table": SIX, "action": "exchange", "discard": [1, 2, 3]}) == "phase/wrong"
    assert await bob.refused("move", {"table": SIX, "action": "play"}) == "request/unknown"
    hand = (await bob.snapshot(SIX))["hand"]
    assert [(b["box"], b["seat"]) for b in hand["bets"]] == [(2, ann.seat)], "the refusals changed nothing"


async def test_a_hand_cut_off_by_a_crash_is_void_at_restart_with_draw_fees_refunded(server: Server) -> None:
    host, (ann,) = await six_table(server, "ann")
    before = {s["seat"]: s["stack"] for s in (await host.snapshot(SIX))["seats"]}
    bot = SixBot(ann, [(1, 10, 1), (2, 10, 0)], ("buy",)).start()
    await host.host("resume", table=SIX)
    # Crash once a draw fee is paid: the hand is cut off with the fee held and the bets on the felt.
    await host.event("cards_drawn", since=0, timeout=30)
    await bot.stop()
    await server.crash()
    database = await open_database(server.database_url)
    try:
        (cut,) = await database.hands_in_progress()
    finally:
        await database.close()
    again = await server.restart()
    watcher = await again.client(name="watcher")
    snap = await watcher.join(SIX)
    assert snap["hand"] is None
    assert {s["seat"]: s["stack"] for s in snap["seats"]} == before, "bets and the draw fee came back"
    hand = await again.app_database().get_hand(cut.id)
    assert (hand.status, hand.summary["reason"]) == ("void", "interrupted")
    reports = await replay_table(server.database_url, SIX)
    assert all(r.ok for r in reports), [r.problems for r in reports if not r.ok]
