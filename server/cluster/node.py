"""One process of several: table leases in the database, commands routed over Redis.

Leases (``server/persistence/leases.py``): every ``lease_renew_seconds`` this
process renews the leases it holds (one conditional UPDATE), stops the runner of
any table whose lease it lost, and takes every table whose lease is missing or
expired. Taking a table over is a restart of that one table: hands left in
progress are voided (docs/rules/hcf.md section 5, ``void_interrupted_hands``), the table
is restored from the database and its runner starts. Every write of a runner is
fenced: it checks, in its own transaction, that this process still holds the
lease.

Routing: the owner of table ``T`` subscribes to the Redis channel ``hcf:table:T``.
Another process publishes ``{"id", "reply_to", "command"}`` there; the owner runs
the command and publishes ``{"id", "reply"}`` or ``{"id", "error"}`` on the
requester's channel ``hcf:reply:<node id>``. PUBLISH answers how many processes
received the message: none means the table has no owner at the moment (a
takeover is under way), and the request is sent again until ``ROUTE_WAIT``
seconds have passed. A command that reached an owner is never sent twice.

Updates: the owner hands each batch's updates (the spectator's and every seated
account's, private cards included) to this process's connections, and publishes them
on ``hcf:updates`` for the other processes, each of which hands them to its own
connections at that table. Private cards travel only on the servers' own Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time
import uuid
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, Final

import redis.asyncio as aioredis
import structlog

from server.cluster.codec import decode_command, decode_updates, dumps, encode_command, encode_updates
from server.config import ServerConfig
from server.persistence.errors import StoreError, refusal_of
from server.persistence.records import to_micros
from server.persistence.tx import Tx
from server.rules.game import AccountId
from server.rules.vocabulary import Answer, is_refusal_code
from server.storage.tables import TableStore
from server.table.commands import Presence, TableCommand, TableError
from server.table.ports import Publisher, RecordedEvent, TableUpdates
from server.table.registry import Tables
from server.table.runner import TableRunner

log = structlog.get_logger("hcf.cluster")

ROUTE_WAIT: Final = 10.0  # how long a command waits for its table to have an owner
REPLY_WAIT: Final = 15.0  # how long a command sent to an owner waits for the answer
TABLE_CHANNEL: Final = "hcf:table:"
REPLY_CHANNEL: Final = "hcf:reply:"
PRESENCE_CHANNEL: Final = "hcf:presence"  # a new owner asks every process who is connected
UPDATE_CHANNEL: Final = "hcf:updates"  # {"origin", "table", "spectator", "accounts", "skip"}: a batch's updates
PUBLIC_AFTER_TAKEOVER: Final = frozenset({"hand_voided", "hand_revealed"})  # what void_interrupted_hands records


def default_node_id() -> str:
    """The host name and process id, and a random part: unique among the processes."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Cluster:
    """This process's part in sharing the tables: its leases, and the router of :class:`Tables`."""

    def __init__(self, config: ServerConfig, bindings: TableStore, tables: Tables, *,
                 stopping: Callable[[], bool] = lambda: False) -> None:
        self.config, self.bindings, self.tables = config, bindings, tables
        self.node = config.node_id or default_node_id()
        self.ttl = to_micros(config.lease_seconds)
        self.stopping = stopping
        self.redis = aioredis.Redis.from_url(config.redis_url)
        self.pubsub = self.redis.pubsub()
        self.reply_channel = REPLY_CHANNEL + self.node
        self.owned: set[str] = set()
        self.known: set[str] = set()
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._renewed_at = time.monotonic()
        self._loop: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        # The accounts connected to this process (set by the app once the gateway exists).
        self.present: Callable[[], Iterable[AccountId]] = tuple
        # Where updates reach this process's own connections; the runners publish through this Cluster.
        self.local: Publisher = tables.publisher

    # ------------------------------------------------------------ lifecycle

    async def start(self, *, first_table: str | None = None) -> None:
        """Listen on Redis, take the free tables, then keep the leases in the background.

        ``first_table`` is created when the database has no table yet (two processes
        starting at once on a new database: one creates it, the other finds it).
        """
        self.tables.router = self
        self.tables.publisher = self
        self.bindings.fence = self._fence
        await self.pubsub.subscribe(self.reply_channel, PRESENCE_CHANNEL, UPDATE_CHANNEL)
        self._listener = asyncio.create_task(self._listen(), name="cluster-listen")
        await self._round()
        if first_table is not None and not await self.bindings.any_table_recorded():
            with contextlib.suppress(TableError):  # table/exists, table/unavailable: another process was first
                await self.tables.create(first_table, {}, None)
        self._loop = asyncio.create_task(self._keep_leases(), name="cluster-leases")
        log.info("cluster_joined", node=self.node, owned=sorted(self.owned))

    async def stop(self) -> None:
        """Stop every runner still here, give the leases back (others take over at once), close Redis."""
        for task in (self._loop, self._listener, *self._tasks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for name in list(self.owned):
            runner = self.tables.runners.pop(name, None)
            if runner is not None:
                await _abort(runner)
        with contextlib.suppress(Exception):
            async with self.bindings.db.transaction() as tx:
                await tx.release_leases(self.node, self.owned)
        self.owned.clear()
        for future in self.pending.values():
            future.cancel()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # redis before 8.2 leaves aclose untyped
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        log.info("cluster_left", node=self.node)

    # ------------------------------------------------------------ leases

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease_renew_seconds)
            try:
                await self._round()
            except Exception:
                log.exception("lease_round_failed")
                if time.monotonic() - self._renewed_at > self.config.lease_seconds * 0.8:
                    await self._lose_all("lease not renewed in time")

    async def _round(self) -> None:
        """Renew, let go of what was lost or stopped, take what is free."""
        async with self.bindings.db.transaction() as tx:
            held = await tx.renew_leases(self.node, self.ttl)
        self._renewed_at = time.monotonic()
        for name in sorted(self.owned - held):
            await self._lose(name, "lease taken by another process")
        done = {name for name in self.owned if _finished(self.tables.runners.get(name))}
        if done:  # stopped or closed here: let another process run it
            for name in done:
                await self._lose(name, "runner stopped")
            async with self.bindings.db.transaction() as tx:
                await tx.release_leases(self.node, done)
        if self.stopping():
            return
        async with self.bindings.db.transaction(write=False) as tx:
            open_tables = [t.name for t in await tx.list_tables()]
            leases = await tx.leases()
            now = tx.now()
        self.known = set(open_tables)
        for name in open_tables:
            lease = leases.get(name)
            if name not in self.owned and (lease is None or lease.expires_at < now):
                await self._take(name, lease.owner if lease else None)

    async def _take(self, name: str, previous: str | None) -> None:
        async with self._lock:
            if name in self.owned or self.stopping():
                return
            started = time.monotonic()
            async with self.bindings.db.transaction() as tx:
                if not await tx.take_lease(name, self.node, self.ttl):
                    return
            self.owned.add(name)
            try:
                async with self.bindings.db.transaction(write=False) as tx:
                    before = await tx.last_seq(name)
                voided = await self.bindings.void_interrupted_hands(name)
                setup = next((s for s in await self.bindings.load_tables() if s.name == name), None)
                if setup is None:  # closed meanwhile
                    raise TableError("table/unknown", f"table {name} is not open")
                await self._publish_since(self.tables.adopt(setup), before)
                await self.pubsub.subscribe(TABLE_CHANNEL + name)
                # Restored seats count as absent until told: every process tells who is connected to it.
                await self.redis.publish(PRESENCE_CHANNEL, dumps({"table": name}))
            except Exception:
                log.exception("table_takeover_failed", table=name)
                await self._lose(name, "takeover failed")
                async with self.bindings.db.transaction() as tx:
                    await tx.release_leases(self.node, [name])
                return
            log.info("table_owned", table=name, node=self.node, previous_owner=previous, voided=voided,
                     seconds=round(time.monotonic() - started, 3))

    async def _publish_since(self, runner: TableRunner, seq: int) -> None:
        """Publish what the takeover recorded (the voided hand's end): clients still connected see no gap."""
        async with self.bindings.db.transaction(write=False) as tx:
            events = await tx.table_events(runner.name, seq)
        public = [RecordedEvent(e.seq, {k: v for k, v in e.payload.items() if not k.startswith("_")})
                  for e in events if e.type in PUBLIC_AFTER_TAKEOVER]
        if events:
            await runner.publish_recorded(seq, public)

    # ------------------------------------------------------------ updates (the runners' Publisher)

    async def table_update(self, table: str, updates: TableUpdates) -> None:
        """To this process's connections, then to the other processes' over Redis."""
        await self.local.table_update(table, updates)
        try:
            await self.redis.publish(UPDATE_CHANNEL, encode_updates(self.node, table, updates))
        except Exception:
            log.exception("update_relay_failed", table=table)  # those clients find the gap and resync

    async def _relayed_update(self, data: dict[str, Any]) -> None:
        """Another process's updates: to this process's connections at that table."""
        if data.get("origin") == self.node:
            return
        try:
            await self.local.table_update(*decode_updates(data))
        except Exception:
            log.exception("relayed_update_failed")

    async def claim(self, name: str) -> None:
        """Own a table this process just recorded (called by ``Tables.create``)."""
        async with self._lock:
            async with self.bindings.db.transaction() as tx:
                if not await tx.take_lease(name, self.node, self.ttl):
                    raise TableError("table/unavailable", f"another server owns table {name}")
            self.owned.add(name)
            self.known.add(name)
            await self.pubsub.subscribe(TABLE_CHANNEL + name)

    async def _lose(self, name: str, why: str) -> None:
        self.owned.discard(name)
        with contextlib.suppress(Exception):
            await self.pubsub.unsubscribe(TABLE_CHANNEL + name)
        runner = self.tables.runners.pop(name, None)
        if runner is not None:
            await _abort(runner)
        log.warning("table_released", table=name, node=self.node, why=why)

    async def _lose_all(self, why: str) -> None:
        for name in sorted(self.owned):
            await self._lose(name, why)

    async def _fence(self, tx: Tx, table: str) -> None:
        try:
            await tx.check_lease(table, self.node)
        except StoreError as exc:
            raise refusal_of(exc) from None

    # ------------------------------------------------------------ routing (Tables.router)

    async def resolve(self, name: str) -> str:
        """The table's name if it is open anywhere."""
        if name in self.tables.runners or name in self.known:
            return name
        self.known = {t.name for t in await self.bindings.db.list_tables()}
        if name not in self.known:
            raise TableError("table/unknown", f"no table named {name!r}")
        return name

    async def seated(self, account: AccountId) -> list[str]:
        """The tables where ``account`` has a seat, from the database."""
        async with self.bindings.db.transaction(write=False) as tx:
            return await tx.seated_tables(account)

    async def submit(self, name: str, command: TableCommand) -> Answer:
        """Run ``command`` at the table's owner: here, or over Redis.

        Presence is sent without waiting for the table: the gateway reports it from its connect
        and disconnect handlers, and engine.io may run a disconnect handler *inside* a table's
        broadcast (a send to a client whose ping went unanswered closes it there); waiting on
        that table's queue from there would wait for ever.
        """
        if isinstance(command, Presence):
            self._spawn(self._presence(name, command))
            return {}
        return await self._submit(name, command)

    async def _presence(self, name: str, command: Presence) -> None:
        with contextlib.suppress(TableError):
            await self._submit(name, command)

    async def _submit(self, name: str, command: TableCommand) -> Answer:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ROUTE_WAIT
        message = {"reply_to": self.reply_channel, "command": encode_command(command)}
        while True:
            runner = self.tables.runners.get(name)
            if runner is not None and name in self.owned:
                return await runner.submit(command)
            request_id = uuid.uuid4().hex
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            self.pending[request_id] = future
            try:
                receivers = await self.redis.publish(TABLE_CHANNEL + name, dumps({"id": request_id, **message}))
                answer: dict[str, Any] = (await asyncio.wait_for(future, REPLY_WAIT) if receivers
                                          else {"retry": True})
            except TimeoutError:
                raise TableError("table/timeout", f"table {name} did not answer in time") from None
            finally:
                self.pending.pop(request_id, None)
            if "error" in answer:
                error = answer["error"]
                code = error.get("code")
                raise TableError(code if is_refusal_code(code) else "request/internal", str(error.get("message")))
            if not answer.get("retry"):
                # What the owner's table answered, as it sent it over Redis: an Answer it built, typed there.
                reply: Answer = answer.get("reply", {})
                return reply
            if loop.time() > deadline:
                raise TableError("table/unavailable", f"table {name} has no server running it; try again")
            await asyncio.sleep(0.1)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except Exception:
                log.exception("redis_listen_failed")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = _text(message["channel"])
            try:
                data = json.loads(_text(message["data"]))
            except ValueError:
                continue
            if channel == UPDATE_CHANNEL:
                await self._relayed_update(data)  # in order of arrival: the next batch's comes after
            elif channel == PRESENCE_CHANNEL:
                self._spawn(self._tell_presence(str(data.get("table"))))
            elif channel == self.reply_channel:
                future = self.pending.get(str(data.get("id")))
                if future is not None and not future.done():
                    future.set_result(data)
            elif channel.startswith(TABLE_CHANNEL):
                # The runner's queue keeps the order of arrival: put each command there before the next.
                name = channel[len(TABLE_CHANNEL):]
                runner = self.tables.runners.get(name)
                if runner is None or name not in self.owned:
                    await self._answer(data, {"retry": True})
                    continue
                try:
                    command = decode_command(data["command"])
                except (TableError, TypeError, KeyError) as exc:
                    await self._answer(data, {"error": {"code": "request/internal", "message": str(exc)}})
                    continue
                self._spawn(self._run(runner, command, data))
                await asyncio.sleep(0)  # let it queue the command before the next one

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell_presence(self, table: str) -> None:
        """Tell a table's new owner which of its seated accounts are connected here."""
        async with self.bindings.db.transaction(write=False) as tx:
            seated = {seat.account_id for seat in await tx.seats(table)}
        for account in [a for a in self.present() if a in seated]:
            await self._presence(table, Presence(account, True))

    async def _run(self, runner: TableRunner, command: TableCommand, request: dict[str, Any]) -> None:
        try:
            answer: dict[str, Any] = {"reply": await runner.submit(command)}
        except TableError as exc:
            answer = {"error": {"code": exc.code, "message": exc.message}}
        except Exception as exc:
            log.exception("remote_command_failed")
            answer = {"error": {"code": "request/internal", "message": str(exc)}}
        await self._answer(request, answer)

    async def _answer(self, request: dict[str, Any], answer: dict[str, Any]) -> None:
        reply_to = request.get("reply_to")
        if isinstance(reply_to, str):
            with contextlib.suppress(Exception):
                await self.redis.publish(reply_to, dumps({"id": request.get("id"), **answer}))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _finished(runner: TableRunner | None) -> bool:
    task = runner._task if runner is not None else None
    return runner is not None and (runner.closed or (task is not None and task.done()))


async def _abort(runner: TableRunner) -> None:
    """Stop a runner at once, writing nothing (as a crash would): the table's new owner voids its hand."""
    runner.stopping = True
    for handle in runner._timers.values():
        handle.cancel()
    task = runner._task
    if task is not None and not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    while not runner._queue.empty():
        _, future = runner._queue.get_nowait()
        if future is not None and not future.done():
            future.set_exception(TableError("table/moved", f"table {runner.name} moved to another server"))
