"""A Socket.IO connection to the table server that keeps each table's model in table order.

Protocol v2 (docs/protocol.md section 3): the server sends each viewer one
``table_update`` per batch of commands, and the answer to this connection's own
request carries its update in ``reply["update"]``. Both go through one
:class:`TableFeed` per table, which applies them in ``seq`` order to
:attr:`Connection.models` (a dict shaped like the snapshot). python-socketio may
run incoming messages concurrently (PITFALLS 1), so an update that comes before
the one it follows is held for a moment (:data:`GAP_HOLD`); a gap that does not
fill in that time is closed by asking for a snapshot. Each applied update puts,
on :attr:`Connection.events`, one item per event as protocol v1 did
(``{"kind": "table"|"private", "table", "seq", "event"}``), then one
``{"kind": "update", "table", "seq", "choices", "view"}``. A ``join`` or a
snapshot taken to close a gap puts ``{"kind": "snapshot", "table", "snapshot"}``.
A request refused ``rate/limited`` is sent again after the ``retry_after`` the
refusal gives (:data:`RATE_RETRIES` times at most). Connecting has a timeout
(PITFALLS 6) and uses the websocket transport only.

Coming back: python-socketio reconnects by itself after a dropped link, but takes
a disconnection sent by the server as final, and a server that stops (SIGTERM)
sends one to every client. So after one of those this connection reconnects on
its own, with a growing delay (:data:`RETRY_DELAYS`), until it is back, the
server refuses it (its reason is put on :attr:`Connection.events` as ``gone``),
or the program closes it. A client that was replaced by a newer connection of
the same account does not come back. Closing it ourselves is quiet: no
``on_disconnect`` for a disconnection the program asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import aiohttp
import socketio

from client_cli.api import ServerRefused as ServerRefused  # one class for every refusal
from client_cli.api import UnreachableError
from server import protocol as p
from server.i18n import _, chosen_language
from server.viewpatch import PatchMismatchError, apply_update

CONNECT_TIMEOUT = 10.0
CALL_TIMEOUT = 10.0
# After the server sent us away (it is stopping): wait this long before each attempt (then the last,
# again and again). The first comes quickly, for a restart that takes a second or two.
RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0, 3.0)
# An update that comes before the one it follows waits this long for it, then a snapshot closes the gap.
GAP_HOLD = 1.0
# A request refused rate/limited is sent again after the refusal's retry_after, at most this many times.
RATE_RETRIES = 5
# ... and after this long when the refusal gives no retry_after.
RATE_DEFAULT_WAIT = 0.25


Item = dict[str, Any]


def _is_seq(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(slots=True)
class TableFeed:
    """One table's model and the updates held behind a gap: the ordering rules, without any I/O or clock.

    Each method returns the items to put on :attr:`Connection.events`, in order.
    """

    table: str
    seq: int = 0
    model: dict[str, Any] | None = None
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)  # held updates, by from_seq
    broken: bool = False  # a patch did not fit the model: nothing more applies until a snapshot

    def reset(self, snapshot: dict[str, Any], *, announce: bool = False) -> list[Item]:
        """Start again from a snapshot (unless ours is newer), then apply what was held behind it.

        ``announce``: begin with a ``snapshot`` item holding the model as it stands then.
        """
        seq = snapshot.get("seq")
        if not _is_seq(seq):
            return []
        # An answer overtaken by updates already applied is older than our model: keep ours.
        if self.model is None or seq >= self.seq or self.broken:
            self.model, self.seq, self.broken = dict(snapshot), seq, False
            self.pending = {k: u for k, u in self.pending.items() if u["seq"] > seq}
        items: list[Item] = []
        if announce and self.model is not None:
            items.append({"kind": "snapshot", "table": self.table, "snapshot": dict(self.model)})
        return items + self._drain()

    def offer(self, update: dict[str, Any]) -> list[Item]:
        """Apply an update if it is the next one; drop it if old; hold it if one is missing before it."""
        first, last = update.get("from_seq"), update.get("seq")
        if not _is_seq(first) or not _is_seq(last) or first > last or last <= self.seq:
            return []
        held = self.pending.get(first)
        if held is None or held["seq"] < last:
            self.pending[first] = update
        return self._drain()

    @property
    def gap(self) -> bool:
        """Whether updates wait behind a missing one (or for a first snapshot, or a model a patch did not fit)."""
        return bool(self.pending) or self.broken

    def _drain(self) -> list[Item]:
        items: list[Item] = []
        while self.model is not None and not self.broken:
            self.pending = {k: u for k, u in self.pending.items() if u["seq"] > self.seq}
            ready = [k for k in self.pending if k <= self.seq + 1]
            if not ready:
                break
            items += self._apply(self.pending.pop(min(ready)))
        return items

    def _apply(self, update: dict[str, Any]) -> list[Item]:
        """Apply the update (:func:`server.viewpatch.apply_update`); list the events not seen yet, then it."""
        assert self.model is not None
        items: list[Item] = []
        for entry in update.get("events") or []:
            seq = entry.get("seq") if isinstance(entry, dict) else None
            if _is_seq(seq) and seq > self.seq:  # an update that overlaps a snapshot: only what is newer
                kind = "private" if entry.get("private") else "table"
                items.append({"kind": kind, "table": self.table, "seq": seq, "event": entry.get("event")})
        try:
            self.model = apply_update(self.model, update)
        except PatchMismatchError:  # not the model the server patched: drop it, start again from a snapshot
            self.broken = True
            self.pending[update["from_seq"]] = update
            return items
        self.seq = update["seq"]
        view, patch = update.get("view"), update.get("patch")
        items.append({"kind": "update", "table": self.table, "seq": self.seq,
                      "choices": update.get("choices"), "view": view if isinstance(view, dict) else {},
                      "patch": patch if isinstance(patch, list) else []})
        return items


class Connection:
    """A logged-in (or spectating) connection."""

    def __init__(self, url: str, *, token: str | None = None, host_token: str | None = None,
                 reconnect: bool = True) -> None:
        self.url = url.rstrip("/")
        self.token, self.host_token = token, host_token
        self.lang = chosen_language()  # the server says its refusals in it (docs/i18n.md)
        # handle_sigint=False: Ctrl-C belongs to the program (it leaves the table cleanly); the
        # library's own handler would cancel every task instead.
        self.sio = socketio.AsyncClient(reconnection=reconnect, reconnection_delay=0.5,
                                        reconnection_delay_max=3, handle_sigint=False)
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.feeds: dict[str, TableFeed] = {}
        self._gap_watch: dict[str, asyncio.Task[None]] = {}
        self._asking: set[asyncio.Future[Any]] = set()  # requests in flight, kept until their answers are applied
        self.resyncs = 0  # snapshots taken to close a gap (during play there should be none)
        self.replaced = asyncio.Event()
        self.on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
        self.on_disconnect: Callable[[], None] | None = None
        self._connected_once = False
        self._closing = False
        self._comeback: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.sio.on(p.EV_UPDATE, self._table_update)
        self.sio.on(p.EV_REPLACED, self._replaced)
        self.sio.on(p.EV_REVOKED, self._revoked)
        self.sio.on(p.EV_NOTICE, self._notice)
        self.sio.on(p.EV_CHAT, self._chat)
        self.sio.on("connect", self._connected)
        self.sio.on("disconnect", self._disconnected)
        self.sio.on("connect_error", self._refused)
        self.refusal: dict[str, Any] | None = None
        # The server's "retry_after" (a refusal rate/limited): no attempt before this loop time.
        self.not_before = 0.0
        # Every wait of this connection (a retry_after, the hold of a gap): a test may put its own clock here.
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    @property
    def models(self) -> dict[str, dict[str, Any]]:
        """Each joined table's model: its last snapshot with every update since applied (V2 section 4)."""
        return {table: feed.model for table, feed in self.feeds.items() if feed.model is not None}

    async def connect(self) -> None:
        """Connect (websocket only), within a timeout."""
        auth: dict[str, str] = {}
        if self.token:
            auth["token"] = self.token
        if self.host_token:
            auth["host_token"] = self.host_token
        if self.lang != "en":
            auth["lang"] = self.lang
        self.refusal = None
        wait = self.not_before - asyncio.get_running_loop().time()
        if wait > 0:
            await self.sleep(wait)
        try:
            await asyncio.wait_for(
                self.sio.connect(self.url, auth=auth, transports=["websocket"], wait_timeout=CONNECT_TIMEOUT),
                CONNECT_TIMEOUT + 1,
            )
        except socketio.exceptions.ConnectionError:
            if self.refusal is not None:  # the server said why: keep its code
                raise ServerRefused(str(self.refusal.get("code")), str(self.refusal.get("message"))) from None
            raise

    async def _refused(self, data: Any = None) -> None:
        """The server refused the connection; its reason carries a code (docs/protocol.md)."""
        details = data.get("data") if isinstance(data, dict) else None
        if isinstance(details, dict) and "code" in details:
            self.refusal = details
            retry = details.get("retry_after")
            if isinstance(retry, int | float) and not isinstance(retry, bool) and 0 < retry <= 3600:
                self.not_before = asyncio.get_running_loop().time() + retry
                # the library's own reconnect loop: its waits grow up to this, not only up to its default
                self.sio.reconnection_delay_max = max(self.sio.reconnection_delay_max, float(retry))
        elif isinstance(data, dict):
            self.refusal = {"code": "auth/token_invalid", "message": data.get("message")}

    async def close(self) -> None:
        """Disconnect for good (quietly: the program asked for it)."""
        self._closing = True
        for watch in list(self._gap_watch.values()):
            watch.cancel()
        task, self._comeback = self._comeback, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.sio.disconnect()

    async def call(self, event: str, payload: dict[str, Any], timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        """Send a request and return its acknowledgement; raises ServerRefused on ``ok: false``.

        The update the answer carries is applied first. A ``rate/limited`` refusal is no answer yet:
        the request goes again after the refusal's ``retry_after``, :data:`RATE_RETRIES` times at most.
        """
        return await self._call(event, payload, timeout, announce=event == "join")

    async def _call(self, event: str, payload: dict[str, Any], timeout: float, *,
                    announce: bool) -> dict[str, Any]:
        for attempt in range(RATE_RETRIES + 1):
            asked = asyncio.ensure_future(self._ask_and_take(event, payload, timeout, announce=announce))
            self._asking.add(asked)
            asked.add_done_callback(_forget_asked(self._asking))
            # Shielded: a caller that stops waiting (a bot leaving mid-move) must not lose the update its answer
            # carries, or the next update finds a gap and the table is asked again whole.
            reply = await asyncio.shield(asked)
            if not isinstance(reply, dict):
                raise ServerRefused("request/internal", _("the server's answer is not one this client can read"))
            if reply.get("ok"):
                return reply
            err = reply.get("error") or {}
            if err.get("code") != "rate/limited" or attempt == RATE_RETRIES:
                raise ServerRefused(str(err.get("code")), str(err.get("message")))
            await self.sleep(_retry_after(err))
        raise AssertionError("unreachable")  # the loop returns or raises

    async def _ask_and_take(self, event: str, payload: dict[str, Any], timeout: float, *, announce: bool) -> Any:
        """Ask, and apply what an accepted answer brings (its snapshot, its update)."""
        reply = await self._ask(event, payload, timeout)
        if isinstance(reply, dict) and reply.get("ok"):
            await self._answered(event, payload, reply, announce=announce)
        return reply

    async def _ask(self, event: str, payload: dict[str, Any], timeout: float) -> Any:
        """The library's call, its failures said as ours (a program's ``except OSError`` says them to a person)."""
        try:
            return await self.sio.call(event, payload, timeout=timeout)
        except socketio.exceptions.TimeoutError:
            raise UnreachableError(_("the server did not answer within {seconds} s", seconds=f"{timeout:g}")) from None
        except socketio.exceptions.BadNamespaceError:
            raise UnreachableError(_("this client is not connected to the server now")) from None

    async def raw_call(self, event: str, payload: Any, timeout: float = CALL_TIMEOUT) -> Any:
        """Send anything and return whatever comes back (for protocol tests); an update in it is applied."""
        reply = await self.sio.call(event, payload, timeout=timeout)
        if isinstance(reply, dict) and reply.get("ok") and isinstance(payload, dict):
            await self._answered(event, payload, reply, announce=event == "join")
        return reply

    async def join(self, table: str) -> dict[str, Any]:
        """Watch a table; returns its snapshot (the table's model starts again from it)."""
        reply = await self.call("join", {"table": table})
        snapshot: dict[str, Any] = reply["snapshot"]
        return snapshot

    async def _answered(self, event: str, payload: dict[str, Any], reply: dict[str, Any], *,
                        announce: bool) -> None:
        """What an answer of ours brings: a snapshot (join, snapshot) and this account's update."""
        table = payload.get("table")
        if not isinstance(table, str):
            return
        snapshot, update = reply.get("snapshot"), reply.get("update")
        if isinstance(snapshot, dict) and event in ("join", "snapshot"):
            if "choices" in reply and "choices" not in snapshot:
                snapshot = {**snapshot, "choices": reply["choices"]}
            await self._reset(table, snapshot, announce=announce)
        if isinstance(update, dict):
            await self._offer(table, update)

    async def _reset(self, table: str, snapshot: dict[str, Any], *, announce: bool) -> None:
        async with self._lock:
            for item in self._feed(table).reset(snapshot, announce=announce):
                await self.events.put(item)

    async def _offer(self, table: str, update: dict[str, Any]) -> None:
        async with self._lock:
            feed = self._feed(table)
            for item in feed.offer(update):
                await self.events.put(item)
            if feed.gap and table not in self._gap_watch and not self._closing:
                self._gap_watch[table] = asyncio.get_running_loop().create_task(
                    self._close_gap(table), name=f"gap-{table}")

    def _feed(self, table: str) -> TableFeed:
        return self.feeds.setdefault(table, TableFeed(table))

    async def _close_gap(self, table: str) -> None:
        """Hold a gap for a moment (the missing update may be on its way), then start from a snapshot."""
        try:
            await self.sleep(GAP_HOLD)
            if not self.feeds[table].gap or self._closing:
                return
            self.resyncs += 1
            await self._call("snapshot", {"table": table}, CALL_TIMEOUT, announce=True)
        except (ServerRefused, socketio.exceptions.SocketIOError, OSError, TimeoutError):
            pass  # not connected now: the next update held, or the program's join, tries again
        finally:
            self._gap_watch.pop(table, None)

    # ------------------------------------------------------------ incoming

    async def _connected(self) -> None:
        if self._connected_once and self.on_reconnect is not None:
            asyncio.get_running_loop().create_task(self.on_reconnect())
        self._connected_once = True

    async def _disconnected(self, *reason: Any) -> None:
        if self._closing:
            return
        if self.on_disconnect is not None:
            self.on_disconnect()
        sent_away = bool(reason) and reason[0] == self.sio.reason.SERVER_DISCONNECT
        if sent_away and self.sio.reconnection and not self.replaced.is_set() and self._comeback is None:
            # The library's own reconnection gives up here (see the module's docstring).
            self._comeback = asyncio.get_running_loop().create_task(self._come_back(), name="come-back")

    async def _come_back(self) -> None:
        """Reconnect after the server sent us away, until back, refused for good, or closed."""
        attempt = 0
        try:
            # replaced: checked again after the first delay, as events may be handled out of order (PITFALLS 1).
            while not self._closing and not self.sio.connected and not self.replaced.is_set():
                delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
                await asyncio.sleep(delay * random.uniform(0.8, 1.2))  # jitter: not every client at once
                attempt += 1
                if self._closing or self.replaced.is_set():
                    return
                try:
                    await self.connect()
                except ServerRefused as exc:
                    if exc.code == "rate/limited":  # too many returns at once: connect() waits its retry_after
                        continue
                    # e.g. the token was revoked: trying again cannot help
                    await self.events.put({"kind": "gone", "code": exc.code, "message": exc.message})
                    return
                except (socketio.exceptions.ConnectionError, OSError, TimeoutError):
                    continue  # not back yet
        finally:
            self._comeback = None

    @property
    def connected(self) -> bool:
        """Whether the socket is up now."""
        return bool(self.sio.connected)

    async def _table_update(self, data: Any) -> None:
        table = data.get("table") if isinstance(data, dict) else None
        if isinstance(table, str):
            await self._offer(table, data)

    async def _replaced(self, data: dict[str, Any]) -> None:
        self.replaced.set()
        await self.events.put({"kind": "replaced", "message": data.get("message")})

    async def _revoked(self, data: dict[str, Any]) -> None:
        """The session token was revoked (a logout, a password change): the server closes this connection."""
        self.replaced.set()
        await self.events.put({"kind": "revoked", "message": data.get("message")})

    async def _notice(self, data: dict[str, Any]) -> None:
        await self.events.put({"kind": "notice", **data})

    async def _chat(self, data: dict[str, Any]) -> None:
        await self.events.put({**data, "kind": "chat", "chat_kind": data.get("kind")})

    def gap(self, table: str) -> bool:
        """Whether updates are waiting behind a missing one."""
        feed = self.feeds.get(table)
        return bool(feed and feed.gap)


def _retry_after(error: dict[str, Any]) -> float:
    """How long a rate/limited refusal asks us to wait (within reason)."""
    wait = error.get("retry_after")
    if isinstance(wait, int | float) and not isinstance(wait, bool) and 0 < wait <= 60:
        return float(wait)
    return RATE_DEFAULT_WAIT


async def http_json(method: str, url: str, body: dict[str, Any] | None = None,
                    token: str | None = None) -> dict[str, Any]:
    """One JSON request to the server's HTTP API; raises ServerRefused on ``ok: false``."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    timeout = aiohttp.ClientTimeout(total=CALL_TIMEOUT)
    async with aiohttp.ClientSession(timeout=timeout) as session, \
            session.request(method, url, json=body, headers=headers) as response:
        data: Any = await response.json(content_type=None)
    if not isinstance(data, dict):
        raise ServerRefused("request/internal", _("the server's answer is not one this client can read"))
    if data.get("ok") is False:
        err = data.get("error") or {}
        raise ServerRefused(str(err.get("code")), str(err.get("message")))
    return data


def _forget_asked(asking: set[asyncio.Future[Any]]) -> Callable[[asyncio.Future[Any]], None]:
    """A done callback: drop the request from ``asking``; a failure nobody awaited any more is read, not warned of."""
    def forget(asked: asyncio.Future[Any]) -> None:
        asking.discard(asked)
        if not asked.cancelled():
            asked.exception()
    return forget
