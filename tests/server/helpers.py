"""Real clients for the integration tests: a recorder per connection, bots with policies, a hand driver.

Everything a client receives lands in ``Client.log`` in the order it was applied:
what the connection makes of each ``table_update`` (its table events in table
order, its private events, then the update itself: protocol v2, docs/protocol.md
section 3), snapshots, and the replies to its own requests. So a test can wait
for an event and, later, audit what each client was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from client_cli.connection import Connection, ServerRefused, http_json
from server.rules.cards import cards_list, parse_cards
from server.rules.fairness import derive_deck_seed, player_seed_bytes, shuffled_deck

TABLE = "main"
WAIT = 15.0

Entry = dict[str, Any]
Decision = tuple[str, int] | None


async def cancel_and_wait(task: asyncio.Task[Any]) -> None:
    """Cancel a task and wait for it to end.

    Cancelling again until it ends: on this Python (3.11.7) a cancellation that lands
    just as the task is woken by an ``asyncio.Event`` was seen to be lost.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=0.2)
    if not task.cancelled() and (error := task.exception()) is not None:
        raise error


class Client:
    """A Socket.IO connection that records everything it receives."""

    def __init__(self, url: str, *, token: str | None = None, host_token: str | None = None,
                 name: str | None = None, account_id: int | None = None, reconnect: bool = False) -> None:
        self.url, self.token, self.name, self.account_id = url, token, name, account_id
        self.conn = Connection(url, token=token, host_token=host_token, reconnect=reconnect)
        self.log: list[Entry] = []
        self.seat: int | None = None
        self._news = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None

    async def connect(self) -> Client:
        await self.conn.connect()
        self._pump = asyncio.create_task(self._drain())
        return self

    async def _drain(self) -> None:
        while True:
            self._note(await self.conn.events.get())

    def _note(self, entry: Entry) -> None:
        self.log.append(entry)
        news, self._news = self._news, asyncio.Event()
        news.set()

    @property
    def connected(self) -> bool:
        return bool(self.conn.sio.connected)

    async def close(self) -> None:
        if self._pump is not None:
            await cancel_and_wait(self._pump)
            self._pump = None
        await self.conn.close()

    # ------------------------------------------------------------ requests

    async def call(self, event: str, payload: dict[str, Any], timeout: float = WAIT) -> dict[str, Any]:
        """A request that must succeed; its reply is recorded in the log."""
        reply = await self.conn.call(event, payload, timeout=timeout)
        self._note({"kind": "reply", "request": event, "reply": reply})
        return reply

    async def refused(self, event: str, payload: Any) -> str:
        """A request that must be refused: its error code."""
        reply = await self.conn.raw_call(event, payload)
        self._note({"kind": "reply", "request": event, "reply": reply})
        assert isinstance(reply, dict), f"{event}: unexpected answer {reply!r}"
        assert reply.get("ok") is False, f"{event} {payload!r} was accepted: {reply!r}"
        code: str = reply["error"]["code"]
        return code

    async def join(self, table: str = TABLE) -> dict[str, Any]:
        return await self.conn.join(table)

    async def snapshot(self, table: str = TABLE) -> dict[str, Any]:
        snap: dict[str, Any] = (await self.call("snapshot", {"table": table}))["snapshot"]
        return snap

    async def host(self, action: str, table: str | None = TABLE, **args: Any) -> dict[str, Any]:
        payload = {"action": action, **args}
        if table is not None:
            payload["table"] = table
        return await self.call("host", payload)

    async def sit(self, table: str = TABLE, **args: Any) -> dict[str, Any]:
        reply = await self.call("sit", {"table": table, **args})
        self.seat = reply["seat"]
        return reply

    # ------------------------------------------------------------ waiting

    def mark(self) -> int:
        """A cursor: wait for what arrives from now on."""
        return len(self.log)

    async def wait_for(self, pred: Callable[[Entry], bool], *, since: int = 0,
                       timeout: float | None = WAIT, what: str = "an entry") -> tuple[int, Entry]:
        """The first log entry from ``since`` on that satisfies ``pred`` (index, entry)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        i = since
        while True:
            while i < len(self.log):
                if pred(self.log[i]):
                    return i, self.log[i]
                i += 1
            news = self._news
            if deadline is None:
                await news.wait()
                continue
            remaining = deadline - loop.time()
            if remaining <= 0:
                seen = [e.get("event", {}).get("type") for e in self.log[since:] if e.get("kind") == "table"]
                raise AssertionError(f"{self.name or 'client'}: no {what} within {timeout}s; "
                                     f"table events seen since: {seen[-40:]}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), remaining)

    async def event(self, kind: str, *, since: int = 0, timeout: float | None = WAIT,
                    where: Callable[[dict[str, Any]], bool] | None = None) -> tuple[int, dict[str, Any]]:
        """The next table event of type ``kind`` (index, payload)."""
        def pred(entry: Entry) -> bool:
            ev = entry.get("event")
            return (entry.get("kind") == "table" and isinstance(ev, dict) and ev.get("type") == kind
                    and (where is None or where(ev)))
        i, entry = await self.wait_for(pred, since=since, timeout=timeout, what=f"table event {kind}")
        payload: dict[str, Any] = entry["event"]
        return i, payload

    def table_events(self, since: int = 0, until: int | None = None) -> list[dict[str, Any]]:
        return [e["event"] for e in self.log[since:until] if e.get("kind") == "table"]

    def private_events(self) -> list[Entry]:
        return [e for e in self.log if e.get("kind") == "private"]

    def model(self, table: str = TABLE) -> dict[str, Any]:
        """This client's table model: its last snapshot with every update since applied (no request)."""
        return self.conn.models[table]

    def moves(self, table: str = TABLE) -> list[dict[str, Any]]:
        """The hand moves the model offers now (``choices.moves`` items of request ``move``)."""
        choices = self.conn.models.get(table, {}).get("choices") or {}
        return [m for m in choices.get("moves", []) if m.get("request") == "move"]


# ---------------------------------------------------------------- policies


def raise_max(cards: dict[str, Any], ante: int) -> Decision:
    return ("raise", cards["raise_limit"] * ante)


def raise_min(_cards: dict[str, Any], ante: int) -> Decision:
    return ("raise", ante)


def fold(_cards: dict[str, Any], _ante: int) -> Decision:
    return ("fold", 0)


def silent(_cards: dict[str, Any], _ante: int) -> Decision:
    return None


@dataclass
class Policy:
    """How a bot plays. ``None`` for an answer means: never answer (let the clock decide)."""

    bank: bool | None = True
    ante: int | None = 10  # 0: pass
    straight_flush_bonus: int = 0
    flush_bonus: int = 0
    seed: bool = True
    decide: Callable[[dict[str, Any], int], Decision] = raise_max
    choose_bank: Callable[[Bot, dict[str, Any]], bool | None] | None = None


@dataclass
class Bot:
    """Plays one client's seat by its policy until stopped."""

    client: Client
    policy: Policy
    table: str = TABLE
    refusals: list[tuple[str, str]] = field(default_factory=list)
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    hands_bet: int = 0
    _task: asyncio.Task[None] | None = None

    def start(self) -> Bot:
        self._task = asyncio.create_task(self._run(self.client.mark()))
        return self

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)
            self._task = None

    async def _run(self, since: int) -> None:
        i = since
        while True:
            i, entry = await self.client.wait_for(lambda e: e.get("kind") == "table", since=i, timeout=None)
            i += 1
            try:
                await self._react(entry["event"])
            except ServerRefused as exc:
                self.refusals.append((exc.code, exc.message))

    async def _act(self, action: str, payload: dict[str, Any]) -> None:
        """A hand move (protocol v2: every one is a ``move``)."""
        self.actions.append((action, payload))
        await self.client.call("move", {"table": self.table, "action": action, **payload})

    async def _react(self, ev: dict[str, Any]) -> None:
        me, kind, p = self.client.seat, ev.get("type"), self.policy
        if kind == "bank_offered" and ev.get("seat") == me:
            accept = p.choose_bank(self, ev) if p.choose_bank is not None else p.bank
            if accept is not None:
                await self._act("bank", {"accept": accept})
        elif kind == "betting_opened" and me in ev.get("bettors", []):
            if p.ante is None:
                return
            if p.ante == 0:
                await self._act("pass", {})
                return
            bet: dict[str, Any] = {"ante": p.ante, "straight_flush_bonus": p.straight_flush_bonus,
                                   "flush_bonus": p.flush_bonus}
            if p.seed:
                self.hands_bet += 1
                bet["seed"] = f"{self.client.name}-{self.hands_bet}-{ev.get('hand_id')}"
            await self._act("bet", bet)
        elif kind == "turn_started" and ev.get("seat") == me:
            hand = self.client.model(self.table)["hand"]  # the model holds the update this event came in
            if hand is None or hand.get("turn") != me or "your_cards" not in hand:
                return
            ante = hand["seats"][str(me)]["ante"]
            decision = p.decide(hand["your_cards"], ante)
            if decision is None:
                return
            move, amount = decision
            await self._act(move, {"amount": amount} if move == "raise" else {})


# ---------------------------------------------------------------- the hand driver


async def run_hands(host: Client, n: int, *, table: str = TABLE, timeout: float = 30.0,
                    resume: bool = True) -> list[dict[str, Any]]:
    """Let ``n`` hands start (the table is paused during the n-th), wait for their ends.

    Returns the ``hand_revealed`` payloads in order. The table is left paused.
    """
    mark = host.mark()
    if resume:
        await host.host("resume", table)
    started: list[int] = []
    cursor = mark
    for k in range(n):
        cursor, ev = await host.event("hand_started", since=cursor, timeout=timeout)
        cursor += 1
        started.append(ev["hand_id"])
        if k == n - 1:
            await host.host("pause", table)
    revealed = []
    cursor = mark
    for hand_id in started:
        cursor, ev = await host.event("hand_revealed", since=cursor, timeout=timeout,
                                      where=lambda e, h=hand_id: e.get("hand_id") == h)
        revealed.append(ev)
    return revealed


def hand_events(client: Client, hand_id: int) -> list[dict[str, Any]]:
    """Every table event of one hand that ``client`` received, in order."""
    return [e for e in client.table_events() if e.get("hand_id") == hand_id]


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("type") == kind]


def one(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = events_of(events, kind)
    assert len(found) == 1, f"expected one {kind}, got {len(found)}: {[e.get('type') for e in events]}"
    return found[0]


def seat_result(revealed: dict[str, Any], seat: int) -> dict[str, Any]:
    result: dict[str, Any] = next(r for r in revealed["settlement"]["seats"] if r["seat"] == seat)
    return result


def reply_fields(reply: dict[str, Any]) -> dict[str, Any]:
    """An answer without the update it carries (protocol v2: the acting account's update rides on its answer)."""
    assert isinstance(reply.get("update"), dict), f"the answer carries no update: {reply!r}"
    return {k: v for k, v in reply.items() if k != "update"}


def stacks_of(snapshot: dict[str, Any]) -> dict[int, int]:
    return {s["seat"]: s["stack"] for s in snapshot["seats"]}


# ---------------------------------------------------------------- decks


def arranged(hands: dict[int, str], order: list[int]) -> str:
    """The deck, in dealing order, that deals ``hands`` (seat -> 7 cards) to ``order``."""
    parsed = {seat: cards_list(parse_cards(text, 7)) for seat, text in hands.items()}
    deck = [parsed[seat][r] for r in range(7) for seat in order]
    assert len(set(deck)) == len(deck), "an arranged deck repeats a card"
    return " ".join(deck)


def rebuild_hands(revealed: dict[str, Any]) -> dict[int, list[str]]:
    """Every hand of a finished hand, from its revealed seeds and deal order alone."""
    server_seed = bytes.fromhex(revealed["server_seed"])
    assert hashlib.sha256(server_seed).hexdigest() == revealed["commitment"]
    seeds = [player_seed_bytes(seed) for _, seed in sorted(revealed["player_seeds"])]
    deck = cards_list(shuffled_deck(derive_deck_seed(server_seed, seeds)))
    order: list[int] = revealed["deal_order"]
    hands: dict[int, list[str]] = {seat: [] for seat in order}
    for i in range(7 * len(order)):
        hands[order[i % len(order)]].append(deck[i])
    return hands


CARD = re.compile(r"^(?:[2-9TJQKA][cdhs])$")


def card_strings(value: Any) -> Iterator[str]:
    """Every card in notation anywhere inside a JSON value."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from card_strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from card_strings(v)


async def register(url: str, name: str, password: str = "password123") -> dict[str, Any]:
    return await http_json("POST", f"{url}/api/register", {"name": name, "password": password})


def expected_stacks(initial: dict[int, int], hands: list[dict[str, Any]]) -> dict[int, int]:
    """Stacks after ``hands``: each seat's net and the DP's net added to where they started."""
    stacks = dict(initial)
    for revealed in hands:
        settlement = revealed.get("settlement")
        if revealed["status"] != "settled" or settlement is None:
            continue
        for result in settlement["seats"]:
            stacks[result["seat"]] += result["net"]
        stacks[revealed["dealer"]] += settlement["dealer"]["net"]
    return stacks



async def replay_table(database_url: str, table: str) -> list[Any]:
    """Replay every finished hand of ``table`` from its log (as ``hcf-server replay --all``); the reports."""
    from server.persistence import open_database
    from server.replay import replay_hand
    from server.rules.game import Transfer

    database = await open_database(database_url)
    try:
        reports = []
        for hand in reversed(await database.recent_hands(table, 10**9)):
            if hand.status == "in_progress":
                continue
            rows = [dict(e.payload) for e in await database.hand_events(hand.id)]
            async with database.transaction(write=False) as tx:
                recorded = await tx.hand_transfers(hand.id)
            transfers = [Transfer(t.src, t.dst, t.amount, t.kind) for t in recorded]
            reports.append(replay_hand(hand.id, hand.table, hand.status, hand.server_seed, rows, transfers))
        return reports
    finally:
        await database.close()


async def everyone_bet(client: Client, seats: list[int], kind: str, since: int) -> None:
    """Wait (a few seconds at most) until every seat of the hand has bets down.

    The first Deal closes the betting once all who have bets confirmed (docs/rules/caribbean.md section 3.1),
    so a bot that dealt at once could shut a slower one out of the hand.
    """
    def placed() -> set[int]:
        return {e["seat"] for e in client.table_events(since) if e.get("type") == kind}

    with contextlib.suppress(AssertionError):
        await client.wait_for(lambda _e: placed() >= set(seats), since=since, timeout=3, what="everyone's bets")
