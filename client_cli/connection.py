"""A Socket.IO connection to the table server that keeps events in table order.

python-socketio may run incoming events concurrently (PITFALLS 1), so events
are put back in order by their sequence number before anyone sees them; a gap
that does not fill in time is closed by asking for a snapshot. Connecting has a
timeout (PITFALLS 6) and uses the websocket transport only.

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
from typing import Any

import aiohttp
import socketio

from client_cli.api import ServerRefused as ServerRefused  # one class for every refusal
from server import protocol as p

CONNECT_TIMEOUT = 10.0
CALL_TIMEOUT = 10.0
# After the server sent us away (it is stopping): wait this long before each attempt (then the last,
# again and again). The first comes quickly, for a restart that takes a second or two.
RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0, 3.0)


@dataclass(slots=True)
class TableFeed:
    """One table's events in order, with what is known of its snapshot."""

    table: str
    seq: int = 0
    pending: dict[int, dict[str, Any]] = field(default_factory=dict)


class Connection:
    """A logged-in (or spectating) connection."""

    def __init__(self, url: str, *, token: str | None = None, host_token: str | None = None,
                 reconnect: bool = True) -> None:
        self.url = url.rstrip("/")
        self.token, self.host_token = token, host_token
        # handle_sigint=False: Ctrl-C belongs to the program (it leaves the table cleanly); the
        # library's own handler would cancel every task instead.
        self.sio = socketio.AsyncClient(reconnection=reconnect, reconnection_delay=0.5,
                                        reconnection_delay_max=3, handle_sigint=False)
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.feeds: dict[str, TableFeed] = {}
        self.replaced = asyncio.Event()
        self.on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
        self.on_disconnect: Callable[[], None] | None = None
        self._connected_once = False
        self._closing = False
        self._comeback: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.sio.on(p.EV_TABLE, self._table_event)
        self.sio.on(p.EV_PRIVATE, self._private_event)
        self.sio.on(p.EV_REPLACED, self._replaced)
        self.sio.on(p.EV_REVOKED, self._revoked)
        self.sio.on(p.EV_NOTICE, self._notice)
        self.sio.on("connect", self._connected)
        self.sio.on("disconnect", self._disconnected)
        self.sio.on("connect_error", self._refused)
        self.refusal: dict[str, Any] | None = None
        # The server's "retry_after" (a refusal rate/limited): no attempt before this loop time.
        self.not_before = 0.0
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def connect(self) -> None:
        """Connect (websocket only), within a timeout."""
        auth: dict[str, str] = {}
        if self.token:
            auth["token"] = self.token
        if self.host_token:
            auth["host_token"] = self.host_token
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
        task, self._comeback = self._comeback, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.sio.disconnect()

    async def call(self, event: str, payload: dict[str, Any], timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        """Send a request and return its acknowledgement; raises ServerRefused on ``ok: false``."""
        reply = await self.sio.call(event, payload, timeout=timeout)
        if not isinstance(reply, dict):
            raise ServerRefused("request/internal", f"unexpected answer {reply!r}")
        if not reply.get("ok"):
            err = reply.get("error") or {}
            raise ServerRefused(str(err.get("code")), str(err.get("message")))
        return reply

    async def raw_call(self, event: str, payload: Any, timeout: float = CALL_TIMEOUT) -> Any:
        """Send anything and return whatever comes back (for protocol tests)."""
        return await self.sio.call(event, payload, timeout=timeout)

    async def join(self, table: str) -> dict[str, Any]:
        """Watch a table; returns its snapshot and resets the feed to it."""
        reply = await self.call("join", {"table": table})
        snapshot: dict[str, Any] = reply["snapshot"]
        async with self._lock:
            feed = self.feeds.setdefault(table, TableFeed(table))
            feed.seq = snapshot["seq"]
            feed.pending = {s: e for s, e in feed.pending.items() if s > feed.seq}
            await self._drain(feed)
        await self.events.put({"kind": "snapshot", "table": table, "snapshot": snapshot})
        return snapshot

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

    async def _table_event(self, data: dict[str, Any]) -> None:
        table, seq = data.get("table"), data.get("seq")
        if not isinstance(table, str) or not isinstance(seq, int):
            return
        async with self._lock:
            feed = self.feeds.setdefault(table, TableFeed(table))
            if seq <= feed.seq:
                return
            feed.pending[seq] = {"kind": "table", "table": table, "seq": seq, "event": data.get("event")}
            await self._drain(feed)

    async def _drain(self, feed: TableFeed) -> None:
        while feed.seq + 1 in feed.pending:
            feed.seq += 1
            await self.events.put(feed.pending.pop(feed.seq))

    async def _private_event(self, data: dict[str, Any]) -> None:
        await self.events.put({"kind": "private", "table": data.get("table"), "seq": data.get("seq"),
                               "event": data.get("event")})

    async def _replaced(self, data: dict[str, Any]) -> None:
        self.replaced.set()
        await self.events.put({"kind": "replaced", "message": data.get("message")})

    async def _revoked(self, data: dict[str, Any]) -> None:
        """The session token was revoked (a logout, a password change): the server closes this connection."""
        self.replaced.set()
        await self.events.put({"kind": "revoked", "message": data.get("message")})

    async def _notice(self, data: dict[str, Any]) -> None:
        await self.events.put({"kind": "notice", **data})

    def gap(self, table: str) -> bool:
        """Whether events are waiting behind a missing one."""
        feed = self.feeds.get(table)
        return bool(feed and feed.pending)


async def http_json(method: str, url: str, body: dict[str, Any] | None = None,
                    token: str | None = None) -> dict[str, Any]:
    """One JSON request to the server's HTTP API; raises ServerRefused on ``ok: false``."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    timeout = aiohttp.ClientTimeout(total=CALL_TIMEOUT)
    async with aiohttp.ClientSession(timeout=timeout) as session, \
            session.request(method, url, json=body, headers=headers) as response:
        data: Any = await response.json(content_type=None)
    if not isinstance(data, dict):
        raise ServerRefused("request/internal", f"unexpected answer {data!r}")
    if data.get("ok") is False:
        err = data.get("error") or {}
        raise ServerRefused(str(err.get("code")), str(err.get("message")))
    return data
