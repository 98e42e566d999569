"""What the durability tests share: the real server as a process, bots that outlive it, the books read from SQLite.

``ServerProcess`` runs ``python -m server.cli serve`` on a free port of 127.0.0.1
with a SQLite file, and can SIGKILL it, restart it on the same file, stop it
gracefully, and run the operator commands (``ledger check``, ``replay``,
``export``) against the same database.

``Player`` is a small bot on :class:`client_cli.connection.Connection` that plays
legal random moves (the pure choices of :mod:`client_cli.bots`), sits, stands,
tops up, and can be dropped and brought back with the same token. Before the
requests whose interruption matters most (a buy-in, the last bet of a betting
round, the last decision before the settlement) it calls a hook: the crash test
uses it to kill the server at that very moment.

``read_books`` reads the ledger straight from the SQLite file with the standard
``sqlite3`` module, so the checks do not rely on the server's own code.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from client_cli.bots import choose_bets, choose_raise
from client_cli.connection import Connection, ServerRefused, http_json
from client_cli.parse import my_stack

ROOT: Final = Path(__file__).resolve().parents[2]
FAST_TABLE: Final[dict[str, Any]] = {"pause_seconds": 0, "offer_seconds": 2, "bet_seconds": 2, "action_seconds": 2}
EXPECTED_REFUSALS: Final = frozenset({
    # Races with the clock or the table, not mistakes: the move came a moment too late.
    "clock/stale", "phase/wrong", "turn/not_yours", "hand/none", "hand/over", "table/hand_in_progress",
    "bet/already_answered", "seat/not_in_hand",
})
CALL_TIMEOUT: Final = 10.0

Hook = Callable[[str, "Player", int | None], None]  # (moment, who, the hand it is about)


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# ------------------------------------------------------------------ the server as a process


class ServerProcess:
    """``hcf-server serve`` in a subprocess, on one SQLite file for its whole life."""

    def __init__(self, workdir: Path, *, table_defaults: Mapping[str, Any] = FAST_TABLE,
                 log_format: str = "json", env: Mapping[str, str] | None = None) -> None:
        self.workdir = workdir
        self.db_path = workdir / "hcf.db"
        self.db_url = f"sqlite:///{self.db_path}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.stdout_path = workdir / "server.out"
        self.stderr_path = workdir / "server.err"
        self.table_defaults = dict(table_defaults)
        self.log_format = log_format
        self.extra_env = dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None
        self.host_token: str | None = None
        self.starts = 0
        self.ready_seconds: list[float] = []

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_") and k != "DATABASE_URL"}
        env.update({"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(self.workdir)})
        env.update(self.extra_env)
        return env

    async def start(self, timeout: float = 30.0) -> None:
        """Start (or restart) the server and wait until it answers ``/healthz``."""
        assert self.proc is None or self.proc.poll() is not None, "the server is already running"
        started = time.monotonic()
        with self.stdout_path.open("ab") as out, self.stderr_path.open("ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "server.cli", "serve", "--port", str(self.port), "--web-port", "0",
                 "--db", self.db_url,
                 "--log-format", self.log_format, "--table-defaults", json.dumps(self.table_defaults)],
                cwd=ROOT, env=self._env(), stdout=out, stderr=err)
        self.starts += 1
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode} while starting:\n"
                                     f"{self.stderr_tail()}")
            with contextlib.suppress(Exception):
                if (await http_json("GET", f"{self.url}/healthz")).get("ok"):
                    break
            if time.monotonic() - started > timeout:
                raise AssertionError(f"the server did not answer within {timeout} s:\n{self.stderr_tail()}")
            await asyncio.sleep(0.05)
        self.ready_seconds.append(time.monotonic() - started)
        if self.host_token is None:
            found = re.search(r"host token \(shown once\): (\S+)", self.stdout_path.read_text())
            assert found, "the first start did not print the host token"
            self.host_token = found.group(1)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL, at once (safe to call when it is already dead)."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)

    async def wait_exit(self, timeout: float = 30.0) -> int:
        """Wait for the process to end; its exit status."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the server did not exit within {timeout} s")
            await asyncio.sleep(0.02)
        return self.proc.returncode

    async def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM (the graceful stop) and wait; its exit status."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return await self.wait_exit(timeout)

    def close(self) -> None:
        """Make sure no server process is left behind (for a ``finally``)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    async def cli(self, *args: str, timeout: float = 120.0) -> tuple[int, str]:
        """``hcf-server ARGS --db URL`` (exit status, stdout and stderr together)."""
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "server.cli", *args, "--db", self.db_url, cwd=ROOT, env=self._env(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), timeout)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        assert proc.returncode is not None
        return proc.returncode, out.decode(errors="replace")

    def stderr_tail(self, lines: int = 30) -> str:
        if not self.stderr_path.exists():
            return ""
        return "\n".join(self.stderr_path.read_text(errors="replace").splitlines()[-lines:])

    def log_lines(self) -> tuple[list[dict[str, Any]], list[str]]:
        """The server's log so far: JSON lines, and the lines that are not JSON."""
        parsed, other = [], []
        for line in self.stderr_path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                other.append(line)
                continue
            if isinstance(entry, dict):
                parsed.append(entry)
            else:
                other.append(line)
        return parsed, other

    async def register(self, name: str, password: str = "password123") -> str:
        """A new account's session token."""
        reply = await http_json("POST", f"{self.url}/api/register", {"name": name, "password": password})
        return str(reply["token"])

    async def host(self, action: str, **args: Any) -> dict[str, Any]:
        """A host command over HTTP."""
        return await http_json("POST", f"{self.url}/api/host", {"action": action, **args}, token=self.host_token)


# ------------------------------------------------------------------ the books, from the file


@dataclass(frozen=True, slots=True)
class Books:
    """The ledger as the SQLite file holds it."""

    balances: dict[str, int]
    transfer_sums: dict[str, int]
    transfers: int
    seats: set[tuple[str, int]]
    hands: dict[int, tuple[str, str, dict[str, Any] | None]]  # id -> (table, status, summary)
    events: dict[tuple[str, int], str]  # (table, seq) -> type
    hand_events: dict[int, set[str]]  # hand id -> the types of its events
    kinds: Counter[tuple[str, str]]  # (kind, destination) -> how many transfers

    def total(self, prefix: str) -> int:
        return sum(v for k, v in self.balances.items() if k.startswith(prefix))

    @property
    def issued(self) -> int:
        return -self.balances.get("issuance", 0)

    def buy_ins(self, table: str, account: int) -> int:
        """How many buy-ins and top-ups into this account's stack at ``table`` are recorded."""
        stack = f"stack:{table}:{account}"
        return self.kinds[("buy_in", stack)] + self.kinds[("top_up", stack)]

    def interrupted(self) -> set[int]:
        """Hands voided at a restart because the server had died during them."""
        return {h for h, (_, status, summary) in self.hands.items()
                if status == "void" and (summary or {}).get("reason") == "interrupted"}

    def problems(self, *, quiet: bool = True) -> list[str]:
        """What is wrong with the books (empty when they balance).

        ``quiet``: no hand may be in progress, so no chip may be on the felt or held as a fee.
        """
        out = []
        for key in sorted(set(self.balances) | set(self.transfer_sums)):
            balance, moved = self.balances.get(key, 0), self.transfer_sums.get(key, 0)
            if balance != moved:
                out.append(f"{key}: balance {balance} != its transfers {moved}")
        if sum(self.balances.values()) != 0:
            out.append(f"the places sum to {sum(self.balances.values())}, not 0")
        held = self.total("account:") + self.total("stack:") + self.total("house:fees") \
            + self.total("felt:") + self.total("fee_held:") + self.total("house:bank") + self.total("jackpot:")
        if held != self.issued:
            out.append(f"accounts + stacks + house + felt hold {held} chips, issued {self.issued}")
        negative = {k: v for k, v in self.balances.items() if v < 0 and k not in ("issuance", "house:bank")}
        if negative:
            out.append(f"negative places: {negative}")
        for key, chips in sorted(self.balances.items()):
            if key.startswith("stack:") and chips > 0:
                _, table, account = key.split(":")
                if (table, int(account)) not in self.seats:
                    out.append(f"{key}: {chips} chips in a stack without a seat")
        if quiet:
            in_progress = [h for h, (_, status, _) in self.hands.items() if status == "in_progress"]
            if in_progress:
                out.append(f"hands still in progress: {in_progress}")
            out += [f"{k}: {v} chips left on the felt" for k, v in sorted(self.balances.items())
                    if k.startswith(("felt:", "fee_held:")) and v]
        return out


def read_books(db_path: Path) -> Books:
    """Every balance, the sums of the transfers, seats, hands and events, in one read transaction."""
    with contextlib.closing(sqlite3.connect(db_path, isolation_level=None, timeout=10)) as db:
        db.execute("BEGIN")
        balances = {k: int(v) for k, v in db.execute("SELECT key, balance FROM place")}
        sums: Counter[str] = Counter()
        kinds: Counter[tuple[str, str]] = Counter()
        count = 0
        for src, dst, amount, kind in db.execute("SELECT src, dst, amount, kind FROM transfer"):
            sums[src] -= amount
            sums[dst] += amount
            kinds[(kind, dst)] += 1
            count += 1
        seats = {(t, int(a)) for t, a in db.execute("SELECT table_name, account_id FROM seat")}
        hands = {int(i): (t, s, json.loads(summary) if summary else None)
                 for i, t, s, summary in db.execute("SELECT id, table_name, status, summary FROM hand")}
        events: dict[tuple[str, int], str] = {}
        hand_events: dict[int, set[str]] = {}
        for table, seq, kind, hand in db.execute("SELECT table_name, seq, type, hand_id FROM hand_event"):
            events[(table, int(seq))] = kind
            if hand is not None:
                hand_events.setdefault(int(hand), set()).add(kind)
        db.execute("COMMIT")
    return Books(balances, dict(sums), count, seats, hands, events, hand_events, kinds)


# ------------------------------------------------------------------ a bot that survives drops and crashes


@dataclass(slots=True)
class Player:
    """One account playing legal random moves at one table, over as many connections as it takes."""

    url: str
    name: str
    token: str
    table: str
    rng: random.Random
    hook: Hook | None = None
    think: float = 0.0  # the most a move waits before it is sent (seconds)
    cycle: bool = False  # stand up and sit down again after the next hand (a buy-in)
    errors: list[str] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    connections: int = 0
    drops: int = 0
    seat: int | None = None
    account: int | None = None
    buy_ins: int = 0  # sits and top-ups the server acknowledged
    leaving: bool = False
    conn: Connection | None = None
    _lost: asyncio.Event = field(default_factory=asyncio.Event)
    _settings: dict[str, Any] = field(default_factory=dict)
    _stood_now: int = 0  # stand-ups it asked for and got at once: their player_stood is still to come

    # ------------------------------------------------------------ connections

    async def connect(self) -> dict[str, Any]:
        """A new connection with the same token; join the table; sit if not seated. The join snapshot."""
        self._lost = asyncio.Event()
        self._stood_now = 0  # a new connection starts from the join snapshot
        lost = self._lost
        self.conn = Connection(self.url, token=self.token, reconnect=False)
        self.conn.on_disconnect = lost.set
        await self.conn.connect()
        self.connections += 1
        snapshot = await self.conn.join(self.table)
        self._take(snapshot)
        if self.seat is None and not self.leaving:
            await self._sit()
        elif (snapshot.get("you") or {}).get("sitting_out") and not self.leaving:
            await self._request("sit_out", {"sitting_out": False})  # sat out by the clock while away
        return snapshot

    async def roam(self, until: asyncio.Event, *, stay: float, away: float) -> None:
        """Play, drop the connection (abruptly or not), stay away, come back with the same token; until ``until``.

        ``stay`` is the mean time connected, ``away`` the most time away (past the clocks, now and then).
        """
        while not until.is_set():
            if self.conn is None:
                await self.connect()
            outcome = await self.play(until, for_seconds=self.rng.expovariate(1 / stay))
            if outcome == "stopped":
                return
            await self.drop(abrupt=self.rng.random() < 0.5)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(until.wait(), self.rng.uniform(0.05, away))

    async def close(self) -> None:
        """Close the connection (also when the server is gone)."""
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 5)

    async def drop(self, *, abrupt: bool) -> None:
        """Lose the connection: an abrupt drop closes the websocket without a goodbye."""
        self.drops += 1
        if abrupt and self.conn is not None:
            ws = getattr(self.conn.sio.eio, "ws", None)
            if ws is not None:
                with contextlib.suppress(Exception):
                    await ws.close()
        await self.close()

    async def play(self, until: asyncio.Event, *, for_seconds: float | None = None) -> str:
        """Play on the current connection until ``until`` is set ("stopped"), the link drops
        ("lost") or ``for_seconds`` pass ("timeout")."""
        assert self.conn is not None
        deadline = None if for_seconds is None else time.monotonic() + for_seconds
        stopper = asyncio.ensure_future(until.wait())
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            while True:
                if until.is_set():
                    return "stopped"
                if self._lost.is_set():
                    return "lost"
                getter = asyncio.ensure_future(self.conn.events.get())
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                done, _ = await asyncio.wait({getter, stopper, lost}, timeout=timeout,
                                             return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await getter
                    if not done:
                        return "timeout"
                    continue
                await self._handle(getter.result())
        finally:
            for waiter in (stopper, lost):
                waiter.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await waiter

    async def leave(self, timeout: float = 20.0) -> None:
        """Stand up for good (after the hand in progress, if in it) and wait until the table says so."""
        self.leaving = True
        if self.conn is None or self.seat is None:
            return
        reply = await self._request("leave", {})
        if reply is None or reply.get("standing") == "now":
            self.seat = None if reply is not None else self.seat
            return
        deadline = time.monotonic() + timeout
        while self.seat is not None:
            remaining = deadline - time.monotonic()
            try:
                item = await asyncio.wait_for(self.conn.events.get(), max(0.01, remaining))
            except TimeoutError:
                self.errors.append(f"did not stand up within {timeout} s of asking to leave")
                return
            await self._handle(item)

    # ------------------------------------------------------------ reacting

    async def _handle(self, item: dict[str, Any]) -> None:
        if item.get("kind") != "table" or item.get("table") != self.table:
            return
        event = item.get("event") or {}
        kind, seat = event.get("type"), event.get("seat")
        if kind == "settings_changed":
            self._settings = dict(event.get("settings") or self._settings)
        if kind == "player_stood" and event.get("name") == self.name:
            if self._stood_now:
                self._stood_now -= 1  # the event of a stand-up it asked for and already acted on
                return
            self.seat = None
            if not self.leaving:
                await self._sit()  # stood up after the hand it asked to leave: back down with a new buy-in
            return
        if self.leaving or self.seat is None:
            return
        if kind == "bank_offered" and seat == self.seat:
            await self._think()
            if self._offered().get("bank"):
                await self._move("bank", {"accept": self.rng.random() < 0.85})
        elif kind == "betting_opened" and self.seat in (event.get("bettors") or []):
            await self._bet()
        elif kind == "turn_started" and seat == self.seat:
            await self._decide()
        elif kind == "hand_revealed":
            await self._between_hands()
        elif kind == "player_sat_out" and seat == self.seat:
            await self._request("sit_out", {"sitting_out": False})

    async def _bet(self) -> None:
        await self._think()
        snapshot = await self._view()
        if snapshot is None:
            return
        hand = snapshot.get("hand") or {}
        if self.seat is None or "pass" not in self._offered():
            return  # the model is newer than the queued betting_opened: answered, stood up or closed since
        bets = choose_bets("random", self._settings, my_stack(snapshot), self.rng)
        if bets is None or self.rng.random() < 0.08:
            await self._move("pass", {})
            return
        seats = hand.get("seats") or {}
        others = [s for s in hand.get("bettors") or [] if s != self.seat
                  and not (seats.get(str(s)) or {}).get("in_hand") and not (seats.get(str(s)) or {}).get("passed")]
        if not others:
            self._fire("deal", hand.get("hand_id"))  # this bet closes the betting: fees, the deck, the deal
        await self._move("bet", {**bets, "seed": f"{self.name}-{self.rng.getrandbits(48):x}"})

    async def _decide(self) -> None:
        await self._think()
        snapshot = await self._view()
        if snapshot is None:
            return
        hand = snapshot.get("hand") or {}
        cards = (hand.get("your_cards") or {}).get("cards")
        mine = (hand.get("seats") or {}).get(str(self.seat)) or {}
        if hand.get("turn") != self.seat or not cards or not mine.get("ante"):
            return  # the clock or the table moved on meanwhile
        amount = choose_raise("random", list(cards), int(mine["ante"]), my_stack(snapshot), self.rng)
        waiting = [s for s, v in (hand.get("seats") or {}).items()
                   if int(s) != self.seat and v.get("in_hand") and not v.get("dead") and v.get("decision") is None]
        if not waiting:
            self._fire("settlement", hand.get("hand_id"))  # this decision settles the hand
        offered = self._offered()
        if amount and "raise" in offered:
            await self._move("raise", {"amount": amount})
        elif "fold" in offered:
            await self._move("fold", {})

    async def _between_hands(self) -> None:
        if not self.cycle and self.rng.random() < 0.7:
            return  # look at the stack after one hand in three or so
        snapshot = await self._view()
        if snapshot is None or self.seat is None:
            return  # not seated: its player_stood is on its way, and sits it down again
        stack = my_stack(snapshot)
        short = stack < int(self._settings.get("min_bank", 500))
        if not (self.cycle or short):
            return
        self.cycle = False
        if short and snapshot.get("status") != "playing" and self.rng.random() < 0.5:
            want = min(int(self._settings["max_buy_in"]) - stack, await self._balance())
            if want > 0:
                self._fire("buy_in")
                if await self._request("top_up", {"amount": want}) is not None:
                    self.buy_ins += 1
                return
        # Stand up and sit down again with a new buy-in: now, or after the hand in progress (player_stood).
        reply = await self._request("stand", {})
        if reply is not None and reply.get("standing") == "now":
            self._stood_now += 1
            self.seat = None
            await self._sit()

    async def _sit(self) -> None:
        if self.conn is None or self.leaving:
            return
        s = self._settings
        balance = await self._balance()
        low, high = int(s.get("min_buy_in", 100)), min(int(s.get("max_buy_in", 10_000)), balance)
        if high < low:
            self.errors.append(f"only {balance} chips left: cannot buy in")
            return
        self._fire("buy_in")
        reply = await self._request("sit", {"buy_in": self.rng.randint(max(low, min(high, 600)), high)})
        if reply is not None:
            self.seat = int(reply["seat"])
            self.buy_ins += 1

    # ------------------------------------------------------------ plumbing

    def _fire(self, moment: str, hand_id: int | None = None) -> None:
        if self.hook is not None:
            self.hook(moment, self, hand_id)

    async def _think(self) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, self.think))

    async def _balance(self) -> int:
        info = await http_json("GET", f"{self.url}/api/account", token=self.token)
        return int(info["balance"])

    async def _snapshot(self) -> dict[str, Any] | None:
        reply = await self._request("snapshot", {})
        if reply is None:
            return None
        snapshot: dict[str, Any] = reply["snapshot"]
        self._take(snapshot)
        return snapshot

    async def _view(self) -> dict[str, Any] | None:
        """The table as this connection's model holds it (protocol v2: updates keep it, so no snapshot in play)."""
        model = None if self.conn is None else self.conn.models.get(self.table)
        if model is None:
            return await self._snapshot()
        self._take(model)
        return dict(model)

    def _offered(self) -> dict[str, dict[str, Any]]:
        """The hand moves the model's choices offer now, by action (the bot sends nothing else in play)."""
        model = None if self.conn is None else self.conn.models.get(self.table)
        moves = ((model or {}).get("choices") or {}).get("moves") or []
        return {m["action"]: m for m in moves if m.get("request") == "move" and "action" in m}

    async def _move(self, action: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """A hand move: every game's go through ``move`` (protocol v2)."""
        return await self._request("move", {"action": action, **args})

    def _take(self, snapshot: Mapping[str, Any]) -> None:
        self._settings = dict(snapshot.get("settings") or self._settings)
        self.account = (snapshot.get("you") or {}).get("account") or self.account
        seat = (snapshot.get("you") or {}).get("seat")
        self.seat = seat if isinstance(seat, int) else None

    async def _request(self, event: str, payload: dict[str, Any]) -> dict[str, Any] | None:
        if self.conn is None or self._lost.is_set():
            return None
        self.requests += 1
        try:
            return await self.conn.call(event, {"table": self.table, **payload}, timeout=CALL_TIMEOUT)
        except ServerRefused as exc:
            self.refused[exc.code] += 1
            if exc.code not in EXPECTED_REFUSALS:
                self.errors.append(f"{event} {payload} refused: {exc.code}: {exc.message}")
        except Exception as exc:  # the link dropped under the request: the caller sees it as lost
            if not self._lost.is_set() and self.conn is not None and self.conn.connected:
                self.errors.append(f"{event} failed: {type(exc).__name__}: {exc}")
        return None


class Spectator:
    """A connection without a token that records every table event it receives, in table order."""

    def __init__(self, url: str, table: str) -> None:
        self.url, self.table = url, table
        self.conn = Connection(url, reconnect=False)
        self.seen: list[tuple[int, str, int | None]] = []  # seq, type, hand id
        self.snapshot: dict[str, Any] = {}
        self._pump: asyncio.Task[None] | None = None

    async def open(self) -> dict[str, Any]:
        await self.conn.connect()
        self.snapshot = await self.conn.join(self.table)
        self._pump = asyncio.create_task(self._drain())
        return self.snapshot

    async def _drain(self) -> None:
        while True:
            item = await self.conn.events.get()
            if item.get("kind") == "table" and item.get("table") == self.table:
                event = item.get("event") or {}
                self.seen.append((int(item["seq"]), str(event.get("type")), event.get("hand_id")))

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump
            self._pump = None
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.close(), 5)


async def cancel_all(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel tasks and wait for them to end (whatever they raised)."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
