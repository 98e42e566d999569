"""One load-generator process: players at whole tables, at human pace or acting at once.

Started by ``bench/server_bench.py`` (several at a time) and driven with JSON lines
on stdin; each command is answered with one JSON line on stdout:

- ``{"cmd": "add", "players": [[name, token, table], ...]}``: connect and sit them;
- ``{"cmd": "watch", "players": [[name, token, table], ...]}``: connect them and join
  their tables as spectators (they read every update and never act);
- ``{"cmd": "sink", "players": [[name, token, table], ...]}``: the same as light
  spectators (``bench/sink.py``: they read every frame and answer pings, nothing more,
  so that one process keeps up with hundreds of them at a table of bots acting at once);
- ``{"cmd": "mark"}``: start a measuring window (forget what was measured so far);
- ``{"cmd": "report"}``: what happened since the mark (every ack latency, hands,
  missed clocks, refusals, and this process's own event-loop lag);
- ``{"cmd": "flood", "clients": N, "seconds": S}``: against the floor server instead
  (``bench/floor_server.py`` on ``--port``): N connections each sending ``echo`` with
  an ack as fast as the answers come, for S seconds; answers how many acks came back;
- ``{"cmd": "stop"}``: disconnect everyone and exit.

Each player answers what the table asks of it and nothing else: it takes the bank
when offered, bets the smallest Ante when betting opens, and raises or folds with
the basic strategy on its turn, each ``--min-delay`` to ``--max-delay`` seconds
after being asked (1 to 3 s at human pace, 0 for the burst). Every loop here is
bounded: the process exits on ``stop``, at end of input, or after ``--max-seconds``.

Both protocols are spoken, chosen by what the server sends (so an older tree and the
new one can be measured side by side in one run):

- **v1**: ``table_event`` / ``private_event`` pushes, one per event; the player acts on
  ``bank_offered``, ``betting_opened`` and ``turn_started`` with the requests ``bank``,
  ``bet``, ``raise``, ``fold``;
- **v2**: one ``table_update`` per batch (and the player's own update inside the answer
  to its request), applied by the gap rule (``bench/v2client.py``); the player acts on
  its ``choices`` through ``move``, and asks a ``snapshot`` only after a gap (counted:
  the target is none).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

import aiohttp

from bench.sink import Sink
from bench.sioraw import RawClient
from bench.v2client import APPLIED, GAP, Model, Pick, events_of, pick_move
from client_cli.bots import choose_raise

ACTIONS = ("bank", "bet", "raise", "fold", "sit_out")
MAX_RETRIES = 5  # rate/limited answers retried after their retry_after, then counted as refused
GAP_HOLD = 1.0  # seconds an update past a gap waits for the one before it (as client_cli/connection.py)
CLOCK_EVENTS = ("bank_declined", "bets_passed", "player_folded")


class Stats:
    """What one window measured."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.by_action: dict[str, list[float]] = {}
        self.hands = 0
        self.settled = 0
        self.missed_clocks = 0
        self.refused: dict[str, int] = {}
        self.lag: list[float] = []
        self.started = time.monotonic()
        self.frames_at_mark = 0  # websocket frames in and out of every connection when the window started
        self.bytes_at_mark = 0  # and their characters
        self.snapshots = 0  # snapshot requests sent (v2: after a sequence gap only)
        self.pushes: dict[str, int] = {}  # server events received, by name (table_update, table_event, ...)
        self.retries = 0  # requests sent again after rate/limited


class Player:
    """One seated player and its connection (either protocol: see the module's docstring)."""

    def __init__(self, gen: Generator, name: str, token: str, table: str, counter: bool) -> None:
        self.gen, self.name, self.table, self.counter = gen, name, table, counter
        self.client = RawClient(gen.session, gen.port, {"token": token}, self._event)
        self.seat: int | None = None
        self.cards: list[str] = []
        self.ante = gen.ante
        # v2 state: the model the updates apply to, whether a move is on its way, updates held behind a gap
        self.model = Model()
        self.busy = False
        self.refused_at: int | None = None  # the seq whose choices were refused: wait for newer ones
        self.held: dict[int, dict[str, Any]] = {}  # by from_seq
        self.gap_watch: asyncio.Future[None] | None = None

    def _event(self, name: str, data: Any) -> None:
        stats = self.gen.stats
        stats.pushes[name] = stats.pushes.get(name, 0) + 1
        if not isinstance(data, dict):
            return
        if name == "table_update":
            self._update(data)
            return
        event = data.get("event") or {}
        kind = event.get("type")
        if name == "private_event":
            if kind == "your_cards":
                self.cards = list(event.get("cards") or [])
            return
        if name != "table_event":
            return
        seat = event.get("seat")
        if kind == "player_sat" and event.get("name") == self.name:
            self.seat = seat
        elif kind == "bank_offered" and seat == self.seat:
            self._act("bank", {"accept": True})
        elif kind == "betting_opened" and self.seat in (event.get("bettors") or ()):
            self._act("bet", {"ante": self.ante})
        elif kind == "turn_started" and seat == self.seat:
            amount = choose_raise("basic", self.cards, self.ante, 10**9, self.gen.rng) if self.cards else 0
            if amount:
                self._act("raise", {"amount": amount})
            else:
                self._act("fold", {})
        elif kind == "player_sat_out" and seat == self.seat:
            self._act("sit_out", {"sitting_out": False})
        else:
            self._count(event, seat)

    def _count(self, event: dict[str, Any], seat: Any) -> None:
        """The events the statistics count (both protocols): missed clocks, and hands at one seat per table."""
        kind = event.get("type")
        if kind in CLOCK_EVENTS and seat == self.seat and seat is not None and event.get("reason") == "clock":
            self.gen.stats.missed_clocks += 1
        elif kind == "hand_revealed" and self.counter:
            self.gen.stats.hands += 1
            if event.get("status") == "settled":
                self.gen.stats.settled += 1

    # ------------------------------------------------------------ protocol v2

    def _update(self, update: dict[str, Any]) -> None:
        """One v2 update (pushed, or from the answer to this player's own request), by the gap rule.

        An update past a gap is held, not answered with a snapshot at once: the server
        may write the next batch's push before the answer that carries this player's
        update (the answer fills the gap then), as ``client_cli/connection.py`` holds it.
        A gap still open after ``gen.gap_hold`` seconds is closed by a snapshot.
        """
        outcome = self.model.apply(update)
        if outcome == GAP:
            self.held[int(update["from_seq"])] = update
            if self.gap_watch is None:
                self.gap_watch = asyncio.ensure_future(self._close_gap())
            return
        if outcome != APPLIED:
            return
        self._took(update)
        self._drain()
        self._decide()

    def _took(self, update: dict[str, Any]) -> None:
        """What an applied update tells this player: its cards, its seat; the statistics' events."""
        for _seq, private, event in events_of(update):
            if private:
                if event.get("type") == "your_cards":
                    self.cards = list(event.get("cards") or [])
                continue
            if event.get("type") == "player_sat" and event.get("name") == self.name:
                self.seat = event.get("seat")
            self._count(event, event.get("seat"))
        if self.model.seat is not None:
            self.seat = self.model.seat

    def _drain(self) -> None:
        """Apply the held updates that now follow the model (and drop those it has passed)."""
        while self.held:
            seq = self.model.seq or 0
            for first in [k for k, u in self.held.items() if int(u["seq"]) <= seq]:
                del self.held[first]
            ready = [k for k in self.held if k <= seq + 1]
            if not ready:
                return
            update = self.held.pop(min(ready))
            if self.model.apply(update) == APPLIED:
                self._took(update)

    async def _close_gap(self) -> None:
        """Hold a gap for a moment; if it is still open, start again from a snapshot."""
        try:
            await asyncio.sleep(self.gen.gap_hold)
            if not self.held:
                return
            self.gen.stats.snapshots += 1
            try:
                reply = await self.client.call("snapshot", {"table": self.table})
            except Exception as exc:
                self._refused(f"client/{type(exc).__name__}")
                return
            snapshot = reply.get("snapshot") if reply.get("ok") else None
            if isinstance(snapshot, dict) and int(snapshot.get("seq", -1)) > (self.model.seq or 0):
                self.model.load_snapshot(reply)
            self._drain()
            self.held.clear()  # whatever still does not follow the snapshot is older than it
        finally:
            self.gap_watch = None
        self._decide()

    def _decide(self) -> None:
        """Send the move the current choices call for, unless one is on its way or these choices were refused."""
        if self.busy or self.held or self.refused_at == self.model.seq:
            return
        pick = pick_move(self.model.choices, self.cards, self.ante, self.gen.rng, choose_raise)
        if pick is not None:
            self.busy = True
            self.gen.spawn(self._move(pick))

    async def _move(self, pick: Pick) -> None:
        seq = self.model.seq
        try:
            reply = await self._send(pick.request, pick.payload, pick.label)
        finally:
            self.busy = False
        if reply is not None and isinstance(reply.get("update"), dict):
            self._update(reply["update"])
        elif reply is not None and not reply.get("ok"):
            self.refused_at = seq  # stale choices, most likely: wait for the next update
        self._decide()

    # ------------------------------------------------------------ sending (both)

    def _act(self, event: str, payload: dict[str, Any]) -> None:
        self.gen.spawn(self._send(event, payload, event))

    def _refused(self, code: str) -> None:
        self.gen.stats.refused[code] = self.gen.stats.refused.get(code, 0) + 1

    async def _send(self, event: str, payload: dict[str, Any], label: str) -> dict[str, Any] | None:
        """Send one request after the player's delay; the answer (None if the connection failed)."""
        delay = self.gen.rng.uniform(self.gen.min_delay, self.gen.max_delay)
        if delay > 0:
            await asyncio.sleep(delay)
        for attempt in range(MAX_RETRIES + 1):
            stats = self.gen.stats
            try:
                seconds, reply = await self.client.timed_call(event, {"table": self.table, **payload})
            except Exception as exc:
                self._refused(f"client/{type(exc).__name__}")
                return None
            if not isinstance(reply, dict):
                reply = {"ok": False, "error": {"code": "client/bad_answer"}}
            error = reply.get("error") or {}
            if error.get("code") == "rate/limited" and attempt < MAX_RETRIES:
                # v2 says how long to wait (retry_after); v1 does not: a short wait then
                self.gen.stats.retries += 1
                wait = error.get("retry_after")
                await asyncio.sleep(float(wait) if isinstance(wait, int | float) else 0.05)
                continue
            if stats is self.gen.stats:  # sent after the mark: this window's
                stats.latencies.append(seconds)
                stats.by_action.setdefault(label, []).append(round(seconds * 1000, 3))
                if not reply.get("ok"):
                    self._refused(str(error.get("code")))
            return reply
        return None


class Generator:
    """The players of this process."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.port = args.port
        self.min_delay, self.max_delay = args.min_delay, args.max_delay
        self.ante, self.buy_in = args.ante, args.buy_in
        self.rng = random.Random(args.seed)
        self.gap_hold = GAP_HOLD
        self.stats = Stats()
        self.players: list[Player] = []
        self.watchers: list[Player] = []  # spectators: joined, never seated
        self.sinks: list[Sink] = []  # light spectators (bench/sink.py)
        self.tasks: set[asyncio.Task[Any]] = set()
        self.counted: set[str] = set()
        self.session: aiohttp.ClientSession

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def add(self, rows: list[list[str]]) -> dict[str, Any]:
        new = []
        for name, token, table in rows:
            counter = table not in self.counted
            self.counted.add(table)
            new.append(Player(self, name, token, table, counter))
        # Connect first (any order), then sit table by table in seat order.
        gate = asyncio.Semaphore(32)

        async def connect(player: Player) -> None:
            async with gate:
                await player.client.connect()

        results = await asyncio.gather(*(connect(p) for p in new), return_exceptions=True)
        errors = [repr(r) for r in results if isinstance(r, BaseException)]
        connected = [p for p, r in zip(new, results, strict=True) if not isinstance(r, BaseException)]
        for player in connected:
            try:
                # As a real client does: the snapshot first, so every update after it applies (v2 patches).
                joined = await player.client.call("join", {"table": player.table})
                if joined.get("ok") and isinstance(joined.get("snapshot"), dict):
                    player.model.load_snapshot(joined)
                reply = await player.client.call("sit", {"table": player.table, "buy_in": self.buy_in})
                if not reply.get("ok"):
                    raise RuntimeError(f"sit refused: {reply}")
                player.seat = int(reply["seat"])
                self.players.append(player)
                if isinstance(reply.get("update"), dict):  # v2: the sit's own update (choices included)
                    player._update(reply["update"])
            except Exception as exc:
                errors.append(repr(exc))
        return {"added": len(new) - len(errors), "errors": errors[:5], "players": len(self.players)}

    async def watch(self, rows: list[list[str]]) -> dict[str, Any]:
        """Connect and join as spectators (each reads its table's updates, as a real client does)."""
        new = [Player(self, name, token, table, False) for name, token, table in rows]
        gate = asyncio.Semaphore(32)

        async def join(player: Player) -> None:
            async with gate:
                await player.client.connect()
                joined = await player.client.call("join", {"table": player.table})
                if not joined.get("ok"):
                    raise RuntimeError(f"join refused: {joined}")
                if isinstance(joined.get("snapshot"), dict):
                    player.model.load_snapshot(joined)

        results = await asyncio.gather(*(join(p) for p in new), return_exceptions=True)
        self.watchers += [p for p, r in zip(new, results, strict=True) if not isinstance(r, BaseException)]
        errors = [repr(r) for r in results if isinstance(r, BaseException)]
        return {"added": len(new) - len(errors), "errors": errors[:5], "watchers": len(self.watchers)}

    async def sink(self, rows: list[list[str]]) -> dict[str, Any]:
        """Connect and join as light spectators, each then reading every frame in a task of its own."""
        gate = asyncio.Semaphore(32)

        async def join(token: str, table: str) -> None:
            sink = Sink(self.port, {"token": token})
            try:
                async with gate:
                    await sink.join(table)
            except BaseException:
                await sink.close()
                raise
            self.sinks.append(sink)
            self.spawn(sink.run())

        results = await asyncio.gather(*(join(token, table) for _name, token, table in rows), return_exceptions=True)
        errors = [repr(r) for r in results if isinstance(r, BaseException)]
        return {"added": len(rows) - len(errors), "errors": errors[:5], "watchers": len(self.sinks)}

    def report(self) -> dict[str, Any]:
        s = self.stats
        return {"latencies_ms": [round(x * 1000, 3) for x in s.latencies], "by_action_ms": s.by_action,
                "hands": s.hands,
                "settled": s.settled, "missed_clocks": s.missed_clocks, "refused": s.refused,
                "lag_ms": [round(x * 1000, 3) for x in s.lag], "seconds": time.monotonic() - s.started,
                "frames": self.frames() - s.frames_at_mark, "bytes": self.bytes() - s.bytes_at_mark,
                "snapshots": s.snapshots, "pushes": s.pushes,
                "retries": s.retries, "protocol": self.protocol(),
                "players": len(self.players), "connected": sum(not p.client.closed.is_set() for p in self.players),
                "sinks_open": sum(not s.closed.is_set() for s in self.sinks),
                "sink_frames": sum(s.frames for s in self.sinks)}

    def protocol(self) -> int | None:
        """The protocol the server spoke to these players so far: 2 (``table_update``), 1 (``table_event``)."""
        if any(p.model.seq is not None for p in self.players):
            return 2
        return 1 if self.stats.pushes.get("table_event") else None

    def bytes(self) -> int:
        """Characters of every websocket frame received and sent by every player's connection so far."""
        return sum(p.client.bytes_in + p.client.bytes_out for p in self.players)

    def frames(self) -> int:
        """Websocket frames received and sent by every player's connection so far."""
        return sum(p.client.frames_in + p.client.frames_out for p in self.players)

    async def flood(self, clients: int, seconds: float) -> dict[str, Any]:
        """Emit-with-ack as fast as the floor server answers, ``clients`` connections at once."""
        connections = [RawClient(self.session, self.port, {}) for _ in range(clients)]
        await asyncio.gather(*(c.connect() for c in connections))
        acks = 0
        deadline = time.monotonic() + seconds

        async def loop(client: RawClient) -> None:
            nonlocal acks
            while time.monotonic() < deadline:
                await client.call("echo", {"table": "bench", "ante": self.ante})
                acks += 1

        started = time.monotonic()
        await asyncio.gather(*(loop(c) for c in connections))
        elapsed = time.monotonic() - started
        await asyncio.gather(*(c.close() for c in connections), return_exceptions=True)
        return {"acks": acks, "seconds": elapsed}

    async def watch_lag(self) -> None:
        """This process's own event-loop lag: how late a 50 ms sleep wakes up."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.05)
            self.stats.lag.append(time.perf_counter() - started - 0.05)

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for player in self.players:
            if player.gap_watch is not None:
                player.gap_watch.cancel()
        await asyncio.gather(*(p.client.close() for p in [*self.players, *self.watchers]),
                             *(s.close() for s in self.sinks), return_exceptions=True)


def _reply(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


async def main_async(args: argparse.Namespace) -> None:
    gen = Generator(args)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        gen.session = session
        lag = asyncio.create_task(gen.watch_lag())
        deadline = time.monotonic() + args.max_seconds
        try:
            while time.monotonic() < deadline:
                try:
                    line = await asyncio.wait_for(asyncio.to_thread(sys.stdin.readline),
                                                  max(1.0, deadline - time.monotonic()))
                except TimeoutError:
                    break
                if not line:
                    break
                command = json.loads(line)
                cmd = command.get("cmd")
                if cmd == "add":
                    _reply(await gen.add(command["players"]))
                elif cmd == "watch":
                    _reply(await gen.watch(command["players"]))
                elif cmd == "sink":
                    _reply(await gen.sink(command["players"]))
                elif cmd == "mark":
                    gen.stats = Stats()
                    gen.stats.frames_at_mark = gen.frames()
                    gen.stats.bytes_at_mark = gen.bytes()
                    _reply({"ok": True})
                elif cmd == "flood":
                    _reply(await gen.flood(int(command["clients"]), float(command["seconds"])))
                elif cmd == "report":
                    _reply(gen.report())
                elif cmd == "stop":
                    break
        finally:
            lag.cancel()
            await gen.close()
    _reply({"stopped": True})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--min-delay", type=float, default=1.0)
    parser.add_argument("--max-delay", type=float, default=3.0)
    parser.add_argument("--ante", type=int, default=5)
    parser.add_argument("--buy-in", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=1800.0, help="exit by itself after this long")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
