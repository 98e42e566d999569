"""The server benchmark: floor, action latency, burst and capacity, in one go.

Run by hand (never a timed test), from the repository root:

    bench/run.sh [--quick]

It writes ``bench/results.json`` and prints a table. What it measures (see
``docs/benchmarks.md``, "Server"):

- **floor**: emit-with-ack against ``bench/floor_server.py``, a python-socketio server
  that answers at once (another process, same options and event loop as the server);
- **action latency**: real ``bet``, ``raise`` and ``fold`` at one 7-seat table of
  ``hcf-server serve`` (SQLite, persistence on) in another process, one action at a
  time, with the same client (``socketio.AsyncClient``) and pacing as the floor; and
  the time from sending an action to its table event reaching the next player;
- **burst**: load-generator processes whose bots act at once at 50 tables;
  server hands per second beside ``simulate``'s;
- **spectators**: one table of bots acting at once, watched by 0, 50 and 200
  spectators (``loadgen``'s ``watch``): the server's CPU per hand at each step;
- **capacity**: players acting 1-3 s after being asked at full 7-seat tables, in
  steps, until the p99 acknowledgement passes 100 ms or a clock is missed.

``--database postgres`` runs every server on PostgreSQL instead of SQLite: a throwaway
server from Debian's binaries (the test suite's own, ``tests/support/postgres.py``), one
fresh database per server; the database's CPU is measured beside the server's.

Every server, floor and load generator is a child process on 127.0.0.1, stopped at
the end (also on failure); every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import os
import platform
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import socketio

from bench.prepare import Player as PreparedPlayer
from bench.prepare import Prepared
from bench.sioraw import RawClient
from bench.v2client import APPLIED, Model, Pick, events_of, is_v2_snapshot, pick_move
from client_cli.bots import choose_raise

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
HCF_SERVER = str(Path(PY).parent / "hcf-server")
TICK = os.sysconf("SC_CLK_TCK")
ANTE = 5
P99_LIMIT_MS = 100.0
PROBE_DIR = ROOT / "bench" / "phaseprobe"  # sitecustomize.py: phase stamps, with HCF_BENCH_PHASES only


# ------------------------------------------------------------------ processes


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_kib(pid: int) -> int:
    """Resident memory of a process now."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


class Children:
    """Every process this run started, stopped at the end whatever happens."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen[Any]] = []

    def start(self, args: list[str], **kwargs: Any) -> subprocess.Popen[Any]:
        proc = subprocess.Popen(args, cwd=ROOT, **kwargs)
        self.procs.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen[Any], grace: float = 10.0) -> None:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if proc in self.procs:
            self.procs.remove(proc)

    def stop_all(self) -> None:
        for proc in list(self.procs):
            self.stop(proc, 5.0)


CHILDREN = Children()
# --uvloop runs the server and the floor on uvloop (an experiment: not a dependency of the server).
UVLOOP_PRELUDE = "import sys, uvloop; uvloop.install(); "
SERVER_COMMAND = [HCF_SERVER]
FLOOR_COMMAND = [PY, "bench/floor_server.py"]
PROFILE_DIR: Path | None = None  # --profile: py-spy samples each server into this folder
CPROFILE_DIR: Path | None = None  # --cprofile: each server runs under cProfile, its stats in this folder
SERVER_PATH: Path | None = None  # --server-path: the folder holding the ``server`` package the server runs
SERVER_PYTHON = PY  # the interpreter of the tree under test (its own virtualenv's when it has one)
PROTOCOL = 1  # the protocol version of the tree under test (its server/protocol.py)
EXPERIMENT = ""  # --experiment: a change tried on the server from outside (bench/phaseprobe/sitecustomize.py)
POSTGRES: Any = None  # --database postgres: the running tests.support.postgres.PostgresServer


def tree_protocol(tree: Path) -> int:
    """``PROTOCOL_VERSION`` in a tree's ``server/protocol.py`` (read as text: the tree may be another copy)."""
    import re

    text = (tree / "server" / "protocol.py").read_text()
    found = re.search(r"^PROTOCOL_VERSION\b[^=]*=\s*(\d+)", text, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"no PROTOCOL_VERSION in {tree / 'server' / 'protocol.py'}")
    return int(found.group(1))


def server_env(phases: Path | None = None) -> dict[str, str]:
    """The environment of a server (and its database preparation): the tree under test first on the path."""
    # Every benchmark player connects from 127.0.0.1: the per-address cap on connections not yet logged
    # in (64) closed the websockets of players connecting 128 at a time (4 load generators x 32).
    env = {**os.environ, "HCF_SHUTDOWN_GRACE": "1", "HCF_MAX_CONNECTIONS_PER_ADDRESS": "100000",
           "HCF_WEB_PORT": "0"}  # no second port: the benchmark measures the main one (older trees ignore it)
    path = [str(SERVER_PATH)] if SERVER_PATH is not None else []
    if phases is not None or EXPERIMENT:  # the probe (bench/phaseprobe/sitecustomize.py)
        path.append(str(PROBE_DIR))
    if phases is not None:  # and where it writes its stamps
        env["HCF_BENCH_PHASES"] = str(phases)
    if EXPERIMENT:
        env["HCF_BENCH_EXPERIMENT"] = EXPERIMENT
    if path:
        env["PYTHONPATH"] = os.pathsep.join(path)
    return env


def database_cpu_seconds() -> float:
    """CPU so far of the PostgreSQL server and every backend it started (0 on SQLite: it is in the server)."""
    if POSTGRES is None:
        return 0.0
    pids = [POSTGRES.process.pid]
    for task in Path(f"/proc/{pids[0]}/task").iterdir():
        with contextlib.suppress(OSError):
            pids += [int(x) for x in (task / "children").read_text().split()]
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):  # a backend that ended meanwhile
            total += cpu_seconds(pid)
    return total


async def prepare_tree(db: Path, players: int) -> Prepared:
    """``bench.prepare.prepare`` run by the tree under test (its own schema and store), in a child process.

    On PostgreSQL, a fresh database, prepared by this tree's ``bench/prepare.py`` (an older
    tree's takes a SQLite file only) with the tree under test's store.
    """
    target = str(db)
    load = "from bench.prepare import prepare; "
    if POSTGRES is not None:
        target = POSTGRES.create_database()
        load = ("import importlib.util as u; s = u.spec_from_file_location('hcf_bench_prepare', sys.argv[3]); "
                "m = sys.modules['hcf_bench_prepare'] = u.module_from_spec(s); s.loader.exec_module(m); "
                "prepare = m.prepare; ")
    code = ("import asyncio, json, sys; from pathlib import Path; " + load +
            "t = sys.argv[1]; p = asyncio.run(prepare(t if '://' in t else Path(t), int(sys.argv[2]))); "
            "print(json.dumps([p.url, p.host_token, [[x.name, x.account_id, x.token] for x in p.players]]))")
    proc = await asyncio.create_subprocess_exec(SERVER_PYTHON, "-c", code, target, str(players),
                                                str(ROOT / "bench" / "prepare.py"),
                                                cwd=SERVER_PATH or ROOT, env=server_env(),
                                                stdout=subprocess.PIPE)
    out, _ = await asyncio.wait_for(proc.communicate(), 600)
    if proc.returncode:
        raise RuntimeError(f"preparing the database failed (exit {proc.returncode})")
    url, host_token, rows = json.loads(out)
    return Prepared(url, host_token, [PreparedPlayer(n, int(a), t) for n, a, t in rows])


@dataclass(slots=True)
class Server:
    """A running ``hcf-server serve``."""

    proc: subprocess.Popen[Any]
    port: int
    prepared: Prepared
    log: Path
    profiler: subprocess.Popen[Any] | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid


async def wait_ready(port: int, proc: subprocess.Popen[Any], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode}")
            with contextlib.suppress(aiohttp.ClientError, OSError):
                async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                    if response.status == 200:
                        return
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not answer /healthz in time")


async def start_server(workdir: Path, name: str, players: int, phases: Path | None = None) -> Server:
    """A fresh database with ``players`` accounts, and ``hcf-server serve`` on it (``phases``: the probe on)."""
    db = workdir / f"{name}.db"
    prepared = await prepare_tree(db, players)
    port = free_port()
    log = workdir / f"{name}.log"
    env = {**server_env(phases), "XDG_DATA_HOME": str(workdir)}
    command = SERVER_COMMAND
    if CPROFILE_DIR is not None:  # written when the server exits (SIGTERM: it stops cleanly)
        CPROFILE_DIR.mkdir(parents=True, exist_ok=True)
        # -P: not the working directory first on the path, or `-m` would run this tree's server, not --server-path's
        command = [SERVER_PYTHON, "-P", "-m", "cProfile", "-o", str(CPROFILE_DIR / f"{name}.prof"), "-m", "server.cli"]
    with log.open("wb") as out:
        proc = CHILDREN.start([*command, "serve", "--port", str(port), "--db", prepared.url,
                               "--log-format", "json"], stdout=out, stderr=subprocess.STDOUT, env=env)
    await wait_ready(port, proc)
    server = Server(proc, port, prepared, log)
    if PROFILE_DIR is not None:
        PROFILE_DIR.mkdir(parents=True, exist_ok=True)
        server.profiler = CHILDREN.start([str(Path(PY).parent / "py-spy"), "record", "--pid", str(proc.pid),
                                          "--rate", "250", "--format", "raw", "--nonblocking",
                                          "--output", str(PROFILE_DIR / f"{name}.txt")],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return server


def stop_server(server: Server) -> None:
    if server.profiler is not None:
        server.profiler.send_signal(signal.SIGINT)  # py-spy writes its file when interrupted
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.profiler.wait(30)
        CHILDREN.stop(server.profiler)
    CHILDREN.stop(server.proc, 15.0)


async def host_all(server: Server, action: str, names: list[str]) -> None:
    """One host command (``pause``, ``resume``) for each table, over the host's socket."""
    async with aiohttp.ClientSession() as session:
        host = RawClient(session, server.port, {"host_token": server.prepared.host_token})
        await host.connect()
        try:
            for name in names:
                for _attempt in range(50):
                    reply = await host.call("host", {"action": action, "table": name})
                    if reply.get("ok"):
                        break
                    if (reply.get("error") or {}).get("code") != "rate/limited":
                        raise RuntimeError(f"{action} refused: {reply}")
                    await asyncio.sleep(0.1)
        finally:
            await host.close()


async def create_tables(server: Server, names: list[str], settings: dict[str, Any]) -> None:
    """The host creates the tables: the first through ``POST /api/host``, the rest over its socket.

    ``/api/host`` is rate limited per address (2 a second), which would make a few
    hundred tables take minutes; the host's socket goes through the same ``host_command``.
    """
    if not names:
        return
    token = server.prepared.host_token
    async with aiohttp.ClientSession() as session:
        body = {"action": "create_table", "table": names[0], "settings": settings}
        async with session.post(f"http://127.0.0.1:{server.port}/api/host", json=body,
                                headers={"Authorization": f"Bearer {token}"}) as response:
            data = await response.json()
            if not data.get("ok"):
                raise RuntimeError(f"create_table refused: {data}")
        if len(names) == 1:
            return
        host = RawClient(session, server.port, {"host_token": token})
        await host.connect()
        try:
            for name in names[1:]:
                for _attempt in range(50):
                    reply = await host.call("host", {"action": "create_table", "table": name, "settings": settings})
                    if reply.get("ok"):
                        break
                    if (reply.get("error") or {}).get("code") != "rate/limited":
                        raise RuntimeError(f"create_table refused: {reply}")
                    await asyncio.sleep(0.1)
        finally:
            await host.close()


# ------------------------------------------------------------------ floor


@dataclass(slots=True)
class Pacing:
    """How the latency clients send: one request at a time, a short pause after each."""

    warmup: int
    count: int
    pause: float = 0.002


async def start_floor(phases: Path | None = None) -> tuple[subprocess.Popen[Any], int]:
    """The floor server in its own process, once it listens: (process, port). ``phases``: the probe on."""
    port = free_port()
    env = None
    if phases is not None:
        env = {**os.environ, "PYTHONPATH": str(PROBE_DIR), "HCF_BENCH_PHASES": str(phases)}
    proc = CHILDREN.start([*FLOOR_COMMAND, "--port", str(port)], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 20)
    if line.strip() != "ready":
        CHILDREN.stop(proc)
        raise RuntimeError(f"the floor server said {line!r}")
    return proc, port


async def measure_floor(pacing: Pacing, phases: Path | None = None) -> dict[str, Any]:
    proc, port = await start_floor(phases)
    timeline: list[tuple[str, float, float]] = []
    try:
        sio = socketio.AsyncClient(reconnection=False)
        await asyncio.wait_for(sio.connect(f"http://127.0.0.1:{port}", transports=["websocket"]), 10)
        samples = []
        cpu0 = cpu_seconds(proc.pid)
        for i in range(pacing.warmup + pacing.count):
            started = time.perf_counter()
            reply = await sio.call("echo", {"table": "bench", "ante": ANTE}, timeout=5)
            answered = time.perf_counter()
            elapsed = answered - started
            if not reply.get("ok"):
                raise RuntimeError(f"the floor answered {reply!r}")
            if i >= pacing.warmup:
                samples.append(elapsed)
                timeline.append(("echo", started, answered))
            await asyncio.sleep(pacing.pause)
        server_cpu = cpu_seconds(proc.pid) - cpu0
        await sio.disconnect()
    finally:
        CHILDREN.stop(proc)
    out = {"samples": len(samples), "p50_us": percentile(samples, 50) * 1e6, "p99_us": percentile(samples, 99) * 1e6,
           "server_cpu_us_per_request": server_cpu / (pacing.warmup + pacing.count) * 1e6}
    if phases is not None:
        out["timeline"] = timeline
    return out


async def measure_floor_throughput(nworkers: int, clients: int, seconds: float) -> dict[str, Any]:
    """How many websocket frames the floor server handles per second of its CPU, flooded by the load generators.

    Every ack is two frames at the server (the request in, the answer out), as every
    table event is one frame out per recipient: so this is what one core spends on
    Socket.IO alone, the most hands per second any server on it could reach with the
    frames a hand needs (``burst_ceiling_hands_per_s``).
    """
    proc, port = await start_floor()
    workers: Workers | None = None
    try:
        workers = Workers(port, nworkers, 0.0, 0.0)
        cpu0, w0, t0 = cpu_seconds(proc.pid), workers.cpu(), time.monotonic()
        answers = await workers.all({"cmd": "flood", "clients": clients // nworkers, "seconds": seconds})
        elapsed = time.monotonic() - t0
        cpu, w1 = cpu_seconds(proc.pid) - cpu0, workers.cpu()
    finally:
        if workers is not None:
            await workers.stop()
        CHILDREN.stop(proc)
    acks = sum(a["acks"] for a in answers)
    flood_seconds = max(a["seconds"] for a in answers)
    return {"clients": clients, "workers": nworkers, "acks": acks, "acks_per_s": acks / flood_seconds,
            "server_cpu_share": cpu / elapsed, "frames_per_cpu_s": 2 * acks / cpu if cpu else None,
            "loadgen_cpu_share": [round((b - a) / elapsed, 3) for a, b in zip(w0, w1, strict=True)]}


# ------------------------------------------------------------------ action latency


class LatencyTable:
    """Seven players at one table, each a ``socketio.AsyncClient``; one acts at a time."""

    TABLE = "lat"

    def __init__(self, server: Server) -> None:
        self.server = server
        self.clients: dict[int, socketio.AsyncClient] = {}
        self.cards: dict[tuple[int, int], list[str]] = {}  # (seat, seq of the deal) -> cards
        self.card_news = asyncio.Event()
        self.waiters: dict[tuple[int, str, int], asyncio.Future[float]] = {}
        self.feed: dict[int, dict[str, Any]] = {}
        self.feed_news = asyncio.Event()
        self.next_seq = 1

    async def open(self) -> None:
        await create_tables(self.server, [self.TABLE], {"pause_seconds": 0})
        url = f"http://127.0.0.1:{self.server.port}"
        for seat, player in enumerate(self.server.prepared.players[:7], start=1):
            sio = socketio.AsyncClient(reconnection=False)
            sio.on("table_event", self._table_handler(seat))
            sio.on("private_event", self._private_handler(seat))
            await asyncio.wait_for(sio.connect(url, auth={"token": player.token}, transports=["websocket"]), 10)
            self.clients[seat] = sio
        snapshot = await self.clients[1].call("join", {"table": self.TABLE}, timeout=10)
        self.next_seq = int(snapshot["snapshot"]["seq"]) + 1
        for seat, sio in self.clients.items():
            reply = await sio.call("sit", {"table": self.TABLE, "seat": seat, "buy_in": 10_000}, timeout=10)
            if not reply.get("ok"):
                raise RuntimeError(f"sit refused: {reply}")

    def _table_handler(self, seat: int) -> Any:
        async def handler(data: dict[str, Any]) -> None:
            arrived = time.perf_counter()
            event = data.get("event") or {}
            waiter = self.waiters.pop((seat, str(event.get("type")), int(event.get("seat") or 0)), None)
            if waiter is not None and not waiter.done():
                waiter.set_result(arrived)
            if seat == 1:
                self.feed[int(data["seq"])] = event
                self.feed_news.set()
        return handler

    def _private_handler(self, seat: int) -> Any:
        async def handler(data: dict[str, Any]) -> None:
            event = data.get("event") or {}
            if event.get("type") == "your_cards":
                self.cards[(seat, int(data["seq"]))] = list(event.get("cards") or [])
                self.card_news.set()
        return handler

    async def next_event(self) -> tuple[int, dict[str, Any]]:
        """The table's events in sequence order, as seat 1 received them."""
        while self.next_seq not in self.feed:
            self.feed_news.clear()
            await asyncio.wait_for(self.feed_news.wait(), 30)
        seq = self.next_seq
        self.next_seq += 1
        return seq, self.feed.pop(seq)

    async def cards_of(self, seat: int, deal_seq: int) -> list[str]:
        while (seat, deal_seq) not in self.cards:
            self.card_news.clear()
            await asyncio.wait_for(self.card_news.wait(), 10)
        return self.cards[(seat, deal_seq)]

    async def act(self, seat: int, event: str, payload: dict[str, Any], expect: str,
                  pause: float) -> tuple[float, float | None, dict[str, Any]]:
        """Send one action: ``(ack seconds, seconds until the next seat saw its event, the ack)``."""
        observer = seat % 7 + 1
        waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters[(observer, expect, seat)] = waiter
        started = time.perf_counter()
        reply = await self.clients[seat].call(event, {"table": self.TABLE, **payload}, timeout=10)
        acked = time.perf_counter() - started
        seen: float | None = None
        if reply.get("ok"):
            seen = await asyncio.wait_for(waiter, 10) - started
        else:
            self.waiters.pop((observer, expect, seat), None)
        await asyncio.sleep(pause)
        return acked, seen, reply

    async def close(self) -> None:
        for sio in self.clients.values():
            with contextlib.suppress(Exception):
                await sio.disconnect()


async def measure_actions(server: Server, pacing: Pacing, time_limit: float,
                          timeline: bool = False) -> dict[str, Any]:
    """Action latency at one table, in the protocol of the tree under test (``timeline``: each action's times)."""
    if PROTOCOL >= 2:
        out = await measure_actions_v2(server, pacing, time_limit)
    else:
        out = await measure_actions_v1(server, pacing, time_limit)
    if not timeline:
        out.pop("timeline", None)
    out["protocol"] = PROTOCOL
    return out


async def measure_actions_v1(server: Server, pacing: Pacing, time_limit: float) -> dict[str, Any]:
    table = LatencyTable(server)
    await table.open()
    acks: dict[str, list[float]] = {"bank": [], "bet": [], "raise": [], "fold": []}
    seen: list[float] = []
    refused: dict[str, int] = {}
    timeline: list[tuple[str, float, float]] = []
    done = 0
    deal_seq = 0
    hands = 0
    cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
    deadline = time.monotonic() + time_limit
    try:
        while done < pacing.warmup + pacing.count and time.monotonic() < deadline:
            seq, event = await table.next_event()
            kind = event.get("type")
            todo: list[tuple[int, str, dict[str, Any], str]] = []
            if kind == "bank_offered":
                todo.append((event["seat"], "bank", {"accept": True}, "bank_accepted"))
            elif kind == "betting_opened":
                todo += [(s, "bet", {"ante": ANTE}, "bets_placed") for s in event["bettors"]]
            elif kind == "cards_dealt":
                deal_seq = seq
            elif kind == "turn_started":
                seat = event["seat"]
                amount = choose_raise("basic", await table.cards_of(seat, deal_seq), ANTE, 10**9, random.Random(0))
                if amount:
                    todo.append((seat, "raise", {"amount": amount}, "player_raised"))
                else:
                    todo.append((seat, "fold", {}, "player_folded"))
            elif kind == "hand_revealed":
                hands += 1
            for seat, action, payload, expect in todo:
                sent = time.perf_counter()
                acked, saw, reply = await table.act(seat, action, payload, expect, pacing.pause)
                timeline.append((action, sent, sent + acked))
                if not reply.get("ok"):
                    code = str((reply.get("error") or {}).get("code"))
                    refused[code] = refused.get(code, 0) + 1
                    continue
                if action != "bank":
                    done += 1
                if done > pacing.warmup:
                    acks[action].append(acked)
                    if action != "bank" and saw is not None:
                        seen.append(saw)
    finally:
        server_cpu = cpu_seconds(server.pid) - cpu0
        wall = time.monotonic() - wall0
        await table.close()
    return action_summary(acks, seen, refused, hands, server_cpu, wall, timeline)


def action_summary(acks: dict[str, list[float]], seen: list[float], refused: dict[str, int], hands: int,
                   server_cpu: float, wall: float, timeline: list[tuple[str, float, float]]) -> dict[str, Any]:
    moves = acks["bet"] + acks["raise"] + acks["fold"]
    return {
        "samples": len(moves), "hands": hands, "refused": refused,
        "p50_us": percentile(moves, 50) * 1e6, "p99_us": percentile(moves, 99) * 1e6,
        "by_action_p50_us": {k: percentile(v, 50) * 1e6 for k, v in acks.items() if v},
        "by_action_count": {k: len(v) for k, v in acks.items()},
        "broadcast_p50_us": percentile(seen, 50) * 1e6, "broadcast_p99_us": percentile(seen, 99) * 1e6,
        "server_cpu_share": server_cpu / wall if wall else 0.0,
        "timeline": timeline,
    }


class LatencyTableV2:
    """Seven players at one table in protocol v2, each a ``socketio.AsyncClient``; one acts at a time.

    Each seat keeps a :class:`bench.v2client.Model` fed by its ``table_update`` pushes and
    by the ``update`` in the answers to its own requests. ``AsyncClient`` runs each push
    as its own task (PITFALLS 1), so updates wait in a per-seat buffer until the one
    before them is applied. The driver acts only for a seat whose model is up to date
    with the latest update any seat holds, and sends what its choices call for.
    """

    TABLE = "lat"

    def __init__(self, server: Server) -> None:
        self.server = server
        self.clients: dict[int, socketio.AsyncClient] = {}
        self.models: dict[int, Model] = {}
        self.cards: dict[int, list[str]] = {}
        self.waiting: dict[int, dict[int, dict[str, Any]]] = {}  # seat -> from_seq -> update not yet applied
        self.arrivals: dict[int, list[tuple[int, float]]] = {}  # seat -> (last seq of a push, when it came)
        self.news = asyncio.Event()
        self.hands = 0
        self.rng = random.Random(0)

    async def open(self) -> None:
        await create_tables(self.server, [self.TABLE], {"pause_seconds": 0})
        url = f"http://127.0.0.1:{self.server.port}"
        for seat, player in enumerate(self.server.prepared.players[:7], start=1):
            sio = socketio.AsyncClient(reconnection=False)
            sio.on("table_update", self._handler(seat))
            await asyncio.wait_for(sio.connect(url, auth={"token": player.token}, transports=["websocket"]), 10)
            self.clients[seat] = sio
            self.models[seat], self.waiting[seat], self.arrivals[seat] = Model(), {}, []
            joined = await sio.call("join", {"table": self.TABLE}, timeout=10)
            if not is_v2_snapshot(joined):
                raise RuntimeError(f"the tree says protocol {PROTOCOL} but its join answer has no choices")
            self.models[seat].load_snapshot(joined)
        for seat, sio in self.clients.items():
            reply = await sio.call("sit", {"table": self.TABLE, "seat": seat, "buy_in": 10_000}, timeout=10)
            if not reply.get("ok"):
                raise RuntimeError(f"sit refused: {reply}")
            self._take(seat, reply.get("update"))

    def _handler(self, seat: int) -> Any:
        async def handler(data: dict[str, Any]) -> None:
            self.arrivals[seat].append((int(data.get("seq") or 0), time.perf_counter()))
            self._take(seat, data)
        return handler

    def _take(self, seat: int, update: Any) -> None:
        """Buffer one update and apply every buffered one that now follows the model."""
        if not isinstance(update, dict):
            return
        model, waiting = self.models[seat], self.waiting[seat]
        waiting[int(update.get("from_seq", update["seq"]))] = update
        for first in sorted(waiting):
            if model.seq is not None and first > model.seq + 1:
                break  # the update before it is still on its way
            applied = waiting.pop(first)
            if model.apply(applied) != APPLIED:
                continue
            for _seq, private, event in events_of(applied):
                kind = event.get("type")
                if private and kind == "your_cards":
                    self.cards[seat] = list(event.get("cards") or [])
                elif seat == 1 and kind == "hand_revealed":
                    self.hands += 1
        self.news.set()

    def top_seq(self) -> int:
        return max((m.seq or 0) for m in self.models.values())

    async def next_pick(self) -> tuple[int, Pick]:
        """The next seat to act and its move, once some up-to-date seat has one."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            top = self.top_seq()
            for seat, model in self.models.items():
                if (model.seq or 0) < top:
                    continue
                pick = pick_move(model.choices, self.cards.get(seat, []), ANTE, self.rng, choose_raise)
                if pick is not None:
                    return seat, pick
            self.news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.news.wait(), max(0.01, deadline - time.monotonic()))
        raise RuntimeError("no seat had a move to make for 30 s")

    async def act(self, seat: int, pick: Pick, pause: float) -> tuple[float, float | None, dict[str, Any]]:
        """Send one move: ``(ack seconds, seconds until the next seat had the update covering it, the ack)``."""
        observer = seat % 7 + 1
        started = time.perf_counter()
        reply = await self.clients[seat].call(pick.request, {"table": self.TABLE, **pick.payload}, timeout=10)
        acked = time.perf_counter() - started
        seen: float | None = None
        update = reply.get("update") if isinstance(reply, dict) else None
        self._take(seat, update)
        if isinstance(update, dict):
            last = int(update["seq"])
            deadline = time.monotonic() + 10
            while seen is None and time.monotonic() < deadline:
                seen = next((t - started for s, t in self.arrivals[observer] if s >= last and t >= started), None)
                if seen is None:
                    self.news.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.news.wait(), 1.0)
        await asyncio.sleep(pause)
        return acked, seen, reply

    async def close(self) -> None:
        for sio in self.clients.values():
            with contextlib.suppress(Exception):
                await sio.disconnect()


async def measure_actions_v2(server: Server, pacing: Pacing, time_limit: float) -> dict[str, Any]:
    table = LatencyTableV2(server)
    await table.open()
    acks: dict[str, list[float]] = {"bank": [], "bet": [], "raise": [], "fold": [], "pass": [], "sit_out": []}
    seen: list[float] = []
    refused: dict[str, int] = {}
    timeline: list[tuple[str, float, float]] = []
    done = 0
    stalled: str | None = None
    cpu0, wall0 = cpu_seconds(server.pid), time.monotonic()
    deadline = time.monotonic() + time_limit
    try:
        while done < pacing.warmup + pacing.count and time.monotonic() < deadline:
            try:
                seat, pick = await table.next_pick()
            except RuntimeError as exc:  # the table stopped offering moves: keep what was measured, say so
                stalled = str(exc)
                print(f"  the latency table stalled after {done} actions: {exc}", flush=True)
                break
            sent = time.perf_counter()
            acked, saw, reply = await table.act(seat, pick, pacing.pause)
            timeline.append((pick.label, sent, sent + acked))
            if not reply.get("ok"):
                code = str((reply.get("error") or {}).get("code"))
                refused[code] = refused.get(code, 0) + 1
                continue
            if pick.label in ("bet", "raise", "fold"):
                done += 1
            if done > pacing.warmup:
                acks[pick.label].append(acked)
                if pick.label in ("bet", "raise", "fold") and saw is not None:
                    seen.append(saw)
    finally:
        server_cpu = cpu_seconds(server.pid) - cpu0
        wall = time.monotonic() - wall0
        await table.close()
    out = action_summary(acks, seen, refused, table.hands, server_cpu, wall, timeline)
    out["updates_waiting_at_end"] = sum(len(w) for w in table.waiting.values())  # a gap never filled
    out["stalled"] = stalled
    return out


# ------------------------------------------------------------------ where one action's time goes


def split_phases(timeline: list[tuple[str, float, float]], stamps: Path, labels: tuple[str, ...]) -> dict[str, Any]:
    """Each action's round trip cut at the probe's stamps (``bench/phaseprobe``): median of each phase.

    receive: from the client's send to the server's handler starting (the client's
    write, loopback, aiohttp's websocket read, Engine.IO and Socket.IO decoding); decide:
    the handler's time less the commits in it (validation, the table's queue, the rules,
    the reply, less build); commit: the storage's commits (a batch's COMMIT too); build:
    building the requester's update; answer: from the handler's return to the client
    holding the acknowledgement, cut in encode (Socket.IO's encoding of the ACK and its
    queueing) and send (Engine.IO's writer task, the write, loopback, the client's read).
    One action at a time, so the stamp line whose receive falls inside an action's round
    trip is that action's.
    """
    import bisect

    records = []
    with contextlib.suppress(OSError):
        for line in stamps.read_text().splitlines():
            with contextlib.suppress(ValueError):
                records.append(json.loads(line))
    records.sort(key=lambda r: r["recv"])
    starts = [r["recv"] for r in records]
    phases: dict[str, list[float]] = {"receive": [], "decide": [], "commit": [], "build": [], "encode": [],
                                      "send": [], "answer": [], "total": []}
    for label, sent, answered in timeline:
        if label not in labels:
            continue
        i = bisect.bisect_left(starts, sent)
        if i >= len(records) or records[i]["recv"] > answered:
            continue
        r = records[i]
        handler = r["done"] - r["start"]
        phases["receive"].append(r["start"] - sent)
        phases["decide"].append(handler - r["commit_s"] - r.get("build_s", 0.0))
        phases["commit"].append(r["commit_s"])
        phases["answer"].append(answered - r["done"])
        if "acked" in r:  # the probe of this round: the answer cut in encode (and queue) and send
            phases["build"].append(r["build_s"])
            phases["encode"].append(r["encode_s"])
            phases["send"].append(answered - r["acked"])
        phases["total"].append(answered - sent)
    out: dict[str, Any] = {"matched": len(phases["total"]), "actions": sum(1 for t in timeline if t[0] in labels)}
    for name, values in phases.items():
        out[f"{name}_p50_us"] = round(percentile(values, 50) * 1e6, 1)
    return out


async def measure_phases(workdir: Path, count: int) -> dict[str, Any]:
    """The floor and the actions again, shorter, with the phase probe on (so the headline runs carry no probe)."""
    floor_stamps, action_stamps = workdir / "floor-phases.jsonl", workdir / "action-phases.jsonl"
    floor = await measure_floor(Pacing(warmup=50, count=count), phases=floor_stamps)
    server = await start_server(workdir, "phases", 8, phases=action_stamps)
    try:
        actions = await measure_actions(server, Pacing(warmup=24, count=count), 120, timeline=True)
    finally:
        stop_server(server)
    return {"floor": split_phases(floor["timeline"], floor_stamps, ("echo",)),
            "action": split_phases(actions["timeline"], action_stamps, ("bet", "raise", "fold")),
            "floor_p50_us": round(floor["p50_us"], 1), "action_p50_us": round(actions["p50_us"], 1)}


# ------------------------------------------------------------------ load generators


class Workers:
    """Load-generator processes, driven with JSON lines."""

    def __init__(self, port: int, count: int, min_delay: float, max_delay: float) -> None:
        self.procs = [CHILDREN.start([PY, "-m", "bench.loadgen", "--port", str(port), "--min-delay", str(min_delay),
                                      "--max-delay", str(max_delay), "--seed", str(i + 1), "--max-seconds", "1500"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                      for i in range(count)]

    async def ask(self, commands: list[dict[str, Any]], timeout: float = 300.0) -> list[dict[str, Any]]:
        """Send one command to each worker (in parallel) and read each answer."""

        def one(proc: subprocess.Popen[Any], command: dict[str, Any]) -> dict[str, Any]:
            assert proc.stdin is not None
            assert proc.stdout is not None
            proc.stdin.write(json.dumps(command) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"a load generator ended (exit {proc.poll()})")
            answer: dict[str, Any] = json.loads(line)
            return answer

        return list(await asyncio.wait_for(
            asyncio.gather(*(asyncio.to_thread(one, p, c) for p, c in zip(self.procs, commands, strict=True))),
            timeout))

    async def all(self, command: dict[str, Any], timeout: float = 300.0) -> list[dict[str, Any]]:
        return await self.ask([command] * len(self.procs), timeout)

    def cpu(self) -> list[float]:
        return [cpu_seconds(p.pid) for p in self.procs]

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await self.all({"cmd": "stop"}, 30)
        for proc in self.procs:
            CHILDREN.stop(proc)


def seat_players(prepared: Prepared, tables: list[str], first: int, workers: int) -> list[list[list[str]]]:
    """Seven players per table, whole tables per worker (round robin)."""
    rows: list[list[list[str]]] = [[] for _ in range(workers)]
    for t, table in enumerate(tables):
        for k in range(7):
            player = prepared.players[first + 7 * t + k]
            rows[t % workers].append([player.name, player.token, table])
    return rows


@dataclass(slots=True)
class Window:
    """One measuring window over the server and the load generators."""

    seconds: float
    latencies_ms: list[float]
    hands: int
    settled: int
    missed_clocks: int
    refused: dict[str, int]
    server_cpu: float  # share of one core
    server_rss_kib: int
    worker_cpu: list[float]  # share of one core, each
    worker_lag_p99_ms: float
    connected: int
    frames: int = 0  # websocket frames the load generators' connections received and sent
    frame_bytes: int = 0  # their characters
    database_cpu: float = 0.0  # share of one core: PostgreSQL's server and backends (0 on SQLite)
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        lat = self.latencies_ms
        return {
            "seconds": round(self.seconds, 1), "actions": len(lat),
            "p50_ms": round(percentile(lat, 50), 2), "p99_ms": round(percentile(lat, 99), 2),
            "max_ms": round(max(lat), 2) if lat else None, "hands": self.hands,
            "hands_per_s": round(self.hands / self.seconds, 1) if self.seconds else 0.0,
            "missed_clocks": self.missed_clocks, "refused": self.refused,
            "server_cpu_share": round(self.server_cpu, 3), "server_rss_kib": self.server_rss_kib,
            # CPU per hand moves less than hands/s when other work shares the machine
            "server_cpu_ms_per_hand": (round(self.server_cpu * self.seconds / self.hands * 1e3, 1)
                                       if self.hands else None),
            "database_cpu_ms_per_hand": (round(self.database_cpu * self.seconds / self.hands * 1e3, 1)
                                         if self.hands and self.database_cpu else None),
            "loadgen_cpu_share": [round(c, 3) for c in self.worker_cpu],
            "loadgen_lag_p99_ms": round(self.worker_lag_p99_ms, 2), "connected": self.connected,
            "frames": self.frames, "frames_per_hand": round(self.frames / self.hands, 1) if self.hands else None,
            "kib_per_hand": round(self.frame_bytes / 1024 / self.hands, 1) if self.hands else None,
            **self.extra,
        }


async def measure_window(server: Server, workers: Workers, seconds: float) -> Window:
    await workers.all({"cmd": "mark"})
    s0, w0, t0, d0 = cpu_seconds(server.pid), workers.cpu(), time.monotonic(), database_cpu_seconds()
    await asyncio.sleep(seconds)
    reports = await workers.all({"cmd": "report"})
    elapsed = time.monotonic() - t0
    s1, w1, d1 = cpu_seconds(server.pid), workers.cpu(), database_cpu_seconds()
    refused: dict[str, int] = {}
    for r in reports:
        for code, n in r["refused"].items():
            refused[code] = refused.get(code, 0) + n
    lags = [x for r in reports for x in r["lag_ms"]]
    by_action: dict[str, list[float]] = {}
    for r in reports:
        for action, values in r["by_action_ms"].items():
            by_action.setdefault(action, []).extend(values)
    pushes: dict[str, int] = {}
    for r in reports:
        for name, n in (r.get("pushes") or {}).items():
            pushes[name] = pushes.get(name, 0) + n
    hands = sum(r["hands"] for r in reports)
    snapshots = sum(r.get("snapshots", 0) for r in reports)
    extra = {"by_action": {a: {"n": len(v), "p50_ms": round(percentile(v, 50), 2),
                               "p99_ms": round(percentile(v, 99), 2)} for a, v in sorted(by_action.items())},
             "snapshots": snapshots, "snapshots_per_hand": round(snapshots / hands, 3) if hands else None,
             "pushes": pushes, "retries": sum(r.get("retries", 0) for r in reports),
             "protocol_seen": sorted({r.get("protocol") for r in reports if r.get("protocol")}),
             "sinks_open": sum(r.get("sinks_open", 0) for r in reports)}
    return Window(
        seconds=elapsed,
        latencies_ms=[x for r in reports for x in r["latencies_ms"]],
        hands=sum(r["hands"] for r in reports), settled=sum(r["settled"] for r in reports),
        missed_clocks=sum(r["missed_clocks"] for r in reports), refused=refused,
        server_cpu=(s1 - s0) / elapsed, server_rss_kib=rss_kib(server.pid), database_cpu=(d1 - d0) / elapsed,
        worker_cpu=[(b - a) / elapsed for a, b in zip(w0, w1, strict=True)],
        worker_lag_p99_ms=percentile(lags, 99), connected=sum(r["connected"] for r in reports),
        frames=sum(r.get("frames", 0) for r in reports), frame_bytes=sum(r.get("bytes", 0) for r in reports),
        extra=extra,
    )


async def measure_burst(workdir: Path, tables: int, nworkers: int, warmup: float, seconds: float) -> dict[str, Any]:
    server = await start_server(workdir, "burst", tables * 7)
    workers = Workers(server.port, nworkers, 0.0, 0.0)
    try:
        names = [f"b{i}" for i in range(tables)]
        await create_tables(server, names, {"pause_seconds": 0})
        await host_all(server, "pause", names)  # everyone sits down first, then the hands start
        answers = await workers.ask([{"cmd": "add", "players": rows}
                                     for rows in seat_players(server.prepared, names, 0, nworkers)])
        errors = [e for a in answers for e in a["errors"]]
        await host_all(server, "resume", names)
        await asyncio.sleep(warmup)
        window = await measure_window(server, workers, seconds)
    finally:
        await workers.stop()
        stop_server(server)
    out = window.summary()
    out.update(tables=tables, players=tables * 7, workers=nworkers, errors=errors,
               hands_per_s=window.hands / window.seconds)
    return out


async def measure_spectators(workdir: Path, counts: list[int], warmup: float, seconds: float) -> dict[str, Any]:
    """One 7-seat table whose bots act at once, watched by more and more spectators: server CPU per hand.

    Every spectator gets the same updates; the figure is what each one adds to a hand's cost.
    The bots are one load generator, the spectators (light ones, ``bench/sink.py``) the other;
    each step says how many joined and how many were still open at its end.
    """
    top = max(counts)
    server = await start_server(workdir, "spectators", 7 + top)
    workers = Workers(server.port, 2, 0.0, 0.0)
    steps: list[dict[str, Any]] = []
    try:
        await create_tables(server, ["s0"], {"pause_seconds": 0})
        await host_all(server, "pause", ["s0"])
        rows = seat_players(server.prepared, ["s0"], 0, 1)[0]
        answers = await workers.ask([{"cmd": "add", "players": rows}, {"cmd": "add", "players": []}])
        errors = [e for a in answers for e in a["errors"]]
        await host_all(server, "resume", ["s0"])
        watching = 0
        for count in sorted(counts):
            extra = [[p.name, p.token, "s0"] for p in server.prepared.players[7 + watching:7 + count]]
            watchers = 0
            if extra:
                joined = await workers.ask([{"cmd": "add", "players": []}, {"cmd": "sink", "players": extra}])
                errors += joined[1]["errors"]
                watchers = joined[1]["watchers"]
            watching = count
            await asyncio.sleep(warmup)
            window = await measure_window(server, workers, seconds)
            summary = window.summary()
            steps.append({"spectators": count, "hands": window.hands, "hands_per_s": summary["hands_per_s"],
                          "server_cpu_ms_per_hand": summary["server_cpu_ms_per_hand"],
                          "server_cpu_share": summary["server_cpu_share"], "joined": watchers,
                          "open_at_end": summary["sinks_open"]})
            print(f"  {count:4d} spectators ({watchers} joined, {summary['sinks_open']} still open at the end): "
                  f"{summary['server_cpu_ms_per_hand']} ms of server CPU a hand, {summary['hands_per_s']} hands/s",
                  flush=True)
    finally:
        await workers.stop()
        stop_server(server)
    base = steps[0]["server_cpu_ms_per_hand"] if steps else None
    for step in steps:
        cost = step["server_cpu_ms_per_hand"]
        step["vs_none"] = round(cost / base, 3) if base and cost else None
    return {"steps": steps, "errors": errors[:5]}


async def measure_capacity(workdir: Path, steps: list[int], nworkers: int, warmup: float,
                           seconds: float) -> dict[str, Any]:
    """Add whole tables step by step until a step fails (p99 > 100 ms or a missed clock)."""
    server = await start_server(workdir, "capacity", steps[-1] * 7)
    workers = Workers(server.port, nworkers, 1.0, 3.0)
    results: list[dict[str, Any]] = []
    passed: dict[str, Any] | None = None
    await asyncio.sleep(1.0)
    base_rss = rss_kib(server.pid)
    try:
        made = 0
        for target in steps:
            names = [f"c{i}" for i in range(made, target)]
            step_started = time.monotonic()
            await create_tables(server, names, {})
            answers = await workers.ask([{"cmd": "add", "players": rows}
                                         for rows in seat_players(server.prepared, names, made * 7, nworkers)])
            made = target
            setup = time.monotonic() - step_started
            await asyncio.sleep(warmup)
            window = await measure_window(server, workers, seconds)
            players = target * 7
            row = window.summary()
            p99 = percentile(window.latencies_ms, 99)
            ok = p99 <= P99_LIMIT_MS and window.missed_clocks == 0 and window.connected == players
            row.update(players=players, tables=target, setup_seconds=round(setup, 1), passed=ok,
                       errors=[e for a in answers for e in a["errors"]],
                       rss_per_player_kib=round((window.server_rss_kib - base_rss) / players, 1),
                       server_cpu_ms_per_player_s=round(window.server_cpu * 1000 / players, 3))
            results.append(row)
            print(f"  capacity {players:5d} players: p99 {p99:7.1f} ms, server CPU {window.server_cpu:5.0%}, "
                  f"RSS {window.server_rss_kib / 1024:6.0f} MiB, loadgen CPU "
                  f"{'/'.join(f'{c:.0%}' for c in window.worker_cpu)}, missed clocks {window.missed_clocks}"
                  f" -> {'ok' if ok else 'over'}", flush=True)
            if not ok:
                break
            passed = row
    finally:
        await workers.stop()
        stop_server(server)
    return {"steps": results, "base_rss_kib": base_rss, "largest_passed": passed, "workers": nworkers}


# ------------------------------------------------------------------ simulate


def measure_simulate(hands: int) -> dict[str, Any]:
    from server.simulation.command import run

    args = argparse.Namespace(game="hcf", hands=hands, players=None, profile="california", strategy="basic",
                              seed="be9c4", json=True)
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        status = run(args)
    elapsed = time.perf_counter() - started
    if status:
        raise RuntimeError(f"simulate failed with status {status}")
    return {"hands": hands, "hands_per_s": hands / elapsed}


# ------------------------------------------------------------------ the run


def machine() -> dict[str, Any]:
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    import aiohttp as _aiohttp
    import engineio

    return {"nproc": len(os.sched_getaffinity(0)), "cpu": model, "python": platform.python_version(),
            "platform": platform.platform(), "load_average_1min": os.getloadavg()[0],
            "python_socketio": socketio.__version__ if hasattr(socketio, "__version__") else "?",
            "python_engineio": getattr(engineio, "__version__", "?"), "aiohttp": _aiohttp.__version__,
            "event_loop": "uvloop" if "-c" in SERVER_COMMAND else "asyncio"}


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    print(f"== {name}", flush=True)
    started = time.monotonic()
    yield
    print(f"   ({time.monotonic() - started:.1f} s)", flush=True)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    quick = args.quick
    results: dict[str, Any] = {"mode": "quick" if quick else "full", "machine": machine(),
                               "command": " ".join(["bench/run.sh", *sys.argv[1:]]),
                               "server_path": str(SERVER_PATH or ROOT), "server_python": SERVER_PYTHON,
                               "protocol": PROTOCOL, "experiment": EXPERIMENT or None, "database": args.database}
    with tempfile.TemporaryDirectory(prefix="hcf-bench-") as tmp:
        workdir = Path(tmp)
        only = set(args.only.split(",")) if args.only else None
        pacing = Pacing(warmup=100, count=1000) if quick else Pacing(warmup=300, count=5000)
        if only is None or "latency" in only:
            with phase("floor: python-socketio emit-with-ack, answered at once"):
                results["floor"] = await measure_floor(pacing)
            with phase(f"action latency: bet / raise / fold at one table of hcf-server serve ({args.database})"):
                server = await start_server(workdir, "latency", 8)
                try:
                    moves = Pacing(warmup=24, count=400 if quick else 3000)
                    results["actions"] = await measure_actions(server, moves, 60 if quick else 300)
                finally:
                    stop_server(server)
            if not args.no_phases:
                with phase("where one action's time goes: floor and actions again, the phase probe on"):
                    results["phases"] = await measure_phases(workdir, 300 if quick else 1000)
        if only is None or "simulate" in only:
            with phase("simulate: the rules core alone"):
                results["simulate"] = measure_simulate(200_000)
        if only is None or "burst" in only:
            with phase("floor throughput: the floor server flooded with emit-with-ack by the load generators"):
                results["floor_throughput"] = await measure_floor_throughput(2, 100, 3.0 if quick else 10.0)
            with phase("burst: bots acting at once at 50 tables"):
                results["burst"] = await measure_burst(workdir, 50, 2, 3.0 if quick else 5.0,
                                                       10.0 if quick else 30.0)
        if only is None or "spectators" in only:
            with phase("spectators: one table of bots acting at once, watched by 0 to 200 spectators"):
                results["spectators"] = await measure_spectators(workdir, args.spectators, 3.0 if quick else 5.0,
                                                                 10.0 if quick else 30.0)
        if only is None or "capacity" in only:
            with phase("capacity: players at human pace, rising"):
                # 286 tables are 2,002 players: issue 15's target is 2,000
                steps = args.steps or ([10, 20, 30] if quick else
                                       [10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 286, 300])
                workers = args.capacity_workers or (2 if quick else 4)
                results["capacity"] = await measure_capacity(workdir, steps, workers,
                                                             4.0 if quick else 15.0, 8.0 if quick else 30.0)
    results.update(headline(results))
    return results


def headline(r: dict[str, Any]) -> dict[str, Any]:
    """The figures issue 6 asks for, at the top level of the JSON."""
    out: dict[str, Any] = {}
    if "floor" in r:
        out["floor_p50_us"] = round(r["floor"]["p50_us"], 1)
        out["floor_p99_us"] = round(r["floor"]["p99_us"], 1)
    if "actions" in r:
        a = r["actions"]
        out["action_p50_us"] = round(a["p50_us"], 1)
        out["action_p99_us"] = round(a["p99_us"], 1)
        out["broadcast_p50_us"] = round(a["broadcast_p50_us"], 1)
        if "floor" in r:
            out["action_p50_ratio"] = round(a["p50_us"] / r["floor"]["p50_us"], 2)
            out["action_p99_ratio"] = round(a["p99_us"] / r["floor"]["p99_us"], 2)
    if "simulate" in r:
        out["simulate_hands_per_s"] = round(r["simulate"]["hands_per_s"])
    if "burst" in r:
        out["burst_hands_per_s"] = round(r["burst"]["hands_per_s"], 1)
        out["burst_server_cpu_ms_per_hand"] = r["burst"].get("server_cpu_ms_per_hand")
        if "simulate" in r:
            per_hand_server = 1 / r["burst"]["hands_per_s"] if r["burst"]["hands_per_s"] else float("inf")
            per_hand_core = 1 / r["simulate"]["hands_per_s"]
            out["burst_shell_share"] = round(1 - per_hand_core / per_hand_server, 5)
    if "burst" in r and "floor_throughput" in r:
        frames_per_hand = r["burst"].get("frames_per_hand")
        per_cpu_s = r["floor_throughput"].get("frames_per_cpu_s")
        out["burst_frames_per_hand"] = frames_per_hand
        out["burst_kib_per_hand"] = r["burst"].get("kib_per_hand")
        out["floor_frames_per_cpu_s"] = round(per_cpu_s) if per_cpu_s else None
        if frames_per_hand and per_cpu_s:
            # a server spending nothing beyond Socket.IO's own cost, on one whole core
            ceiling = per_cpu_s / frames_per_hand
            out["burst_ceiling_hands_per_s"] = round(ceiling, 1)
            out["burst_share_of_ceiling"] = round(r["burst"]["hands_per_s"] / ceiling, 3)
            # the same per second of the server's own CPU (the ceiling is per CPU-second): what a busy
            # machine does not move as much
            cpu_ms = r["burst"].get("server_cpu_ms_per_hand")
            if cpu_ms:
                out["burst_share_of_ceiling_per_cpu"] = round(1000 / cpu_ms / ceiling, 3)
    if "burst" in r:
        out["burst_snapshots_per_hand"] = r["burst"].get("snapshots_per_hand")
        out["burst_protocol_seen"] = r["burst"].get("protocol_seen")
    if "phases" in r:
        out["action_phases_p50_us"] = {k[:-7]: v for k, v in r["phases"]["action"].items() if k.endswith("_p50_us")}
        out["floor_phases_p50_us"] = {k[:-7]: v for k, v in r["phases"]["floor"].items() if k.endswith("_p50_us")}
    if "spectators" in r and r["spectators"]["steps"]:
        last = r["spectators"]["steps"][-1]
        out["spectators_watching"] = last["spectators"]
        out["spectators_cpu_vs_none"] = last["vs_none"]
    if "capacity" in r:
        best = r["capacity"]["largest_passed"]
        out["capacity_players"] = best["players"] if best else 0
        out["memory_per_player_kib"] = best["rss_per_player_kib"] if best else None
        out["cpu_ms_per_player_s"] = best["server_cpu_ms_per_player_s"] if best else None
        out["capacity_limited_by"] = next(
            (("p99" if s["p99_ms"] > P99_LIMIT_MS else "clock" if s["missed_clocks"] else "connections")
             for s in r["capacity"]["steps"] if not s["passed"]), "not reached (largest step passed)")
    return out


def print_table(r: dict[str, Any]) -> None:
    rows = [
        ("floor p50 / p99", f"{r.get('floor_p50_us', 0):,.0f} / {r.get('floor_p99_us', 0):,.0f} us", ""),
        ("action p50 / p99", f"{r.get('action_p50_us', 0):,.0f} / {r.get('action_p99_us', 0):,.0f} us",
         f"{r.get('action_p50_ratio', 0)}x / {r.get('action_p99_ratio', 0)}x the floor (targets 2.5x / 4x)"),
        ("broadcast p50", f"{r.get('broadcast_p50_us', 0):,.0f} us", "action sent -> its event at the next seat"),
        ("burst", f"{r.get('burst_hands_per_s', 0):,.1f} hands/s",
         f"50 tables, bots acting at once; server CPU {r.get('burst_server_cpu_ms_per_hand')} ms/hand"),
        ("burst ceiling", f"{r.get('burst_ceiling_hands_per_s') or 0:,.1f} hands/s",
         f"Socket.IO alone on one core: {r.get('floor_frames_per_cpu_s') or 0:,} frames per CPU-second, "
         f"{r.get('burst_frames_per_hand')} frames a hand (target <= 90), {r.get('burst_kib_per_hand')} KiB"),
        ("burst / ceiling", f"{r.get('burst_share_of_ceiling') or 0:.0%}",
         f"per server CPU-second: {r.get('burst_share_of_ceiling_per_cpu') or 0:.0%} (target 85%); snapshot "
         f"requests a hand {r.get('burst_snapshots_per_hand')} (target 0); protocol {r.get('protocol')}"),
        ("simulate", f"{r.get('simulate_hands_per_s', 0):,} hands/s",
         f"shell share of a hand's time: {r.get('burst_shell_share', 0):.3%}"),
        ("spectators", f"{r.get('spectators_cpu_vs_none') or 0:.2f}x",
         f"a hand's server CPU with {r.get('spectators_watching')} spectators against none (target <= 1.25x)"),
        ("capacity", f"{r.get('capacity_players', 0):,} players",
         f"limited by: {r.get('capacity_limited_by')} (target 2,000)"),
        ("memory / CPU per player", f"{r.get('memory_per_player_kib')} KiB",
         f"{r.get('cpu_ms_per_player_s')} ms CPU per second per player"),
    ]
    for name in ("action", "floor"):
        got = r.get(f"{name}_phases_p50_us")
        if got:
            rows.append((f"{name} phases p50", f"{got.get('total', 0):,.0f} us",
                         " / ".join(f"{k} {got.get(k, 0):,.0f}" for k in ("receive", "decide", "commit", "build",
                                                                           "encode", "send"))
                         + " us"))
    for name, value, note in rows:
        print(f"{name:24} {value:>24}  {note}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (under two minutes)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    parser.add_argument("--only", help="comma-separated: latency, simulate, burst, spectators, capacity")
    parser.add_argument("--spectators", type=lambda s: [int(x) for x in s.split(",")], default=[0, 50, 200],
                        help="spectator counts, the first the one the others are compared with (0,50,200)")
    parser.add_argument("--capacity-workers", type=int, help="load generators for capacity (2 quick, else 4)")
    parser.add_argument("--steps", type=lambda s: [int(x) for x in s.split(",")],
                        help="capacity steps, in tables (7 players each)")
    parser.add_argument("--profile", type=Path, metavar="DIR",
                        help="sample each server with py-spy (collapsed stacks in DIR/NAME.txt)")
    parser.add_argument("--cprofile", type=Path, metavar="DIR",
                        help="run each server under cProfile (py-spy is not installed here): DIR/NAME.prof")
    parser.add_argument("--experiment", choices=["no-binary-check"],
                        help="try a change on the server from outside (bench/phaseprobe/sitecustomize.py)")
    parser.add_argument("--no-phases", action="store_true",
                        help="skip the phase breakdown of one action (a second, shorter latency pass with a probe)")
    parser.add_argument("--uvloop", action="store_true", help="run the server and the floor on uvloop (experiment)")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite",
                        help="where every server keeps its books: a SQLite file, or a throwaway PostgreSQL server "
                             "from Debian's binaries (tests/support/postgres.py), a fresh database per server")
    parser.add_argument("--server-path", type=Path, metavar="DIR",
                        help="run the server from the copy of the `server` package in DIR (put first on PYTHONPATH), "
                             "e.g. an older copy to compare side by side")
    args = parser.parse_args()
    global PROFILE_DIR, CPROFILE_DIR, SERVER_COMMAND, FLOOR_COMMAND, SERVER_PATH, SERVER_PYTHON, PROTOCOL, EXPERIMENT
    global POSTGRES
    PROFILE_DIR = args.profile
    CPROFILE_DIR = args.cprofile.resolve() if args.cprofile else None
    SERVER_PATH = args.server_path.resolve() if args.server_path else None
    if SERVER_PATH is not None and (SERVER_PATH / ".venv" / "bin" / "hcf-server").exists():
        # the other tree's own virtualenv: its dependencies, and its hcf-server
        SERVER_PYTHON = str(SERVER_PATH / ".venv" / "bin" / "python")
        SERVER_COMMAND = [str(SERVER_PATH / ".venv" / "bin" / "hcf-server")]
    PROTOCOL = tree_protocol(SERVER_PATH or ROOT)
    EXPERIMENT = args.experiment or ""
    print(f"server tree {SERVER_PATH or ROOT} (protocol {PROTOCOL}), python {SERVER_PYTHON}", flush=True)
    if args.uvloop:
        SERVER_COMMAND = [SERVER_PYTHON, "-c",
                          UVLOOP_PRELUDE + "sys.argv[0] = 'hcf-server'; from server.cli import main; main()"]
        FLOOR_COMMAND = [PY, "-c", UVLOOP_PRELUDE + "sys.path.insert(0, 'bench'); "
                         "from floor_server import main; main()"]
    started = time.monotonic()
    try:
        if args.database == "postgres":
            from tests.support.postgres import PostgresServer

            POSTGRES = PostgresServer.start()
        results = asyncio.run(run(args))
    finally:
        CHILDREN.stop_all()
        if POSTGRES is not None:
            POSTGRES.stop()
    results["seconds"] = round(time.monotonic() - started, 1)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print()
    print_table(results)
    print(f"\nwritten to {args.out} ({results['seconds']} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
