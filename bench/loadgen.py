"""One load-generator process: players at whole tables, at human pace or acting at once.

Started by ``bench/server_bench.py`` (several at a time) and driven with JSON lines
on stdin; each command is answered with one JSON line on stdout:

- ``{"cmd": "add", "players": [[name, token, table], ...]}``: connect and sit them;
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

from bench.sioraw import RawClient
from client_cli.bots import choose_raise

ACTIONS = ("bank", "bet", "raise", "fold", "sit_out")
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


class Player:
    """One seated player and its connection."""

    def __init__(self, gen: Generator, name: str, token: str, table: str, counter: bool) -> None:
        self.gen, self.name, self.table, self.counter = gen, name, table, counter
        self.client = RawClient(gen.session, gen.port, {"token": token}, self._event)
        self.seat: int | None = None
        self.cards: list[str] = []
        self.ante = gen.ante

    def _event(self, name: str, data: Any) -> None:
        if not isinstance(data, dict):
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
        elif kind in CLOCK_EVENTS and seat == self.seat and event.get("reason") == "clock":
            self.gen.stats.missed_clocks += 1
        elif kind == "hand_revealed" and self.counter:
            self.gen.stats.hands += 1
            if event.get("status") == "settled":
                self.gen.stats.settled += 1

    def _act(self, event: str, payload: dict[str, Any]) -> None:
        self.gen.spawn(self._send(event, payload))

    async def _send(self, event: str, payload: dict[str, Any]) -> None:
        delay = self.gen.rng.uniform(self.gen.min_delay, self.gen.max_delay)
        if delay > 0:
            await asyncio.sleep(delay)
        stats = self.gen.stats
        try:
            seconds, reply = await self.client.timed_call(event, {"table": self.table, **payload})
        except Exception as exc:
            code = f"client/{type(exc).__name__}"
            self.gen.stats.refused[code] = self.gen.stats.refused.get(code, 0) + 1
            return
        if stats is not self.gen.stats:  # sent before the mark: not this window's
            return
        stats.latencies.append(seconds)
        stats.by_action.setdefault(event, []).append(round(seconds * 1000, 3))
        if not reply.get("ok"):
            code = str((reply.get("error") or {}).get("code"))
            stats.refused[code] = stats.refused.get(code, 0) + 1


class Generator:
    """The players of this process."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.port = args.port
        self.min_delay, self.max_delay = args.min_delay, args.max_delay
        self.ante, self.buy_in = args.ante, args.buy_in
        self.rng = random.Random(args.seed)
        self.stats = Stats()
        self.players: list[Player] = []
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
                reply = await player.client.call("sit", {"table": player.table, "buy_in": self.buy_in})
                if not reply.get("ok"):
                    raise RuntimeError(f"sit refused: {reply}")
                player.seat = int(reply["seat"])
                self.players.append(player)
            except Exception as exc:
                errors.append(repr(exc))
        return {"added": len(new) - len(errors), "errors": errors[:5], "players": len(self.players)}

    def report(self) -> dict[str, Any]:
        s = self.stats
        return {"latencies_ms": [round(x * 1000, 3) for x in s.latencies], "by_action_ms": s.by_action,
                "hands": s.hands,
                "settled": s.settled, "missed_clocks": s.missed_clocks, "refused": s.refused,
                "lag_ms": [round(x * 1000, 3) for x in s.lag], "seconds": time.monotonic() - s.started,
                "frames": self.frames() - s.frames_at_mark,
                "players": len(self.players), "connected": sum(not p.client.closed.is_set() for p in self.players)}

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
        await asyncio.gather(*(p.client.close() for p in self.players), return_exceptions=True)


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
                elif cmd == "mark":
                    gen.stats = Stats()
                    gen.stats.frames_at_mark = gen.frames()
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
