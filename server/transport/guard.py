"""What stops idle and half-open connections from taking every descriptor.

* **Timeouts.** A new connection must send its first request's headers within
  ``header_timeout`` (a connection that sends nothing, or half a request, is
  closed then); a body must arrive within ``header_timeout`` too
  (``server/transport/http.py``). Between requests, a kept-alive connection is
  closed after ``idle_timeout`` (aiohttp's keep-alive timer, which a trickle of
  bytes does not reset). A websocket is then the heartbeat's business
  (``ping_timeout``).
* **A cap per address.** At most ``max_connections_per_address`` open
  connections from one address, *not counting* the Socket.IO connections that
  logged in to an account (or as the host). A connection over the cap closes
  the *oldest* counted connection of that address, not itself: an attacker
  sharing a player's address (a household, a campus) can hold at most the cap
  in descriptors, and a seated player who reconnects still gets in, displacing
  the attacker's oldest idle connection, and stops counting once logged in (one
  account has one live connection anyway, docs/protocol.md section 2). Trusted
  proxies are not capped (every player arrives through them; the proxy caps its
  own clients). All addresses together may hold ``max_pending_connections`` such
  connections (by default three quarters of the descriptor limit), the oldest
  going first in the same way: the last quarter stays for logged-in players.
* **A log that does not flood.** At the descriptor limit the event loop reports
  every failed ``accept()``; :class:`RepeatFilter` logs each kind once per
  interval with the number of repeats.
"""

from __future__ import annotations

import asyncio
import resource
from collections import Counter, OrderedDict
from collections.abc import Callable

import structlog
from aiohttp import web, web_protocol
from aiohttp.abc import AbstractStreamWriter
from aiohttp.http_parser import RawRequestMessage
from aiohttp.streams import StreamReader

from server.clock import SYSTEM_CLOCK, Clock, Timer, call_later
from server.rules.vocabulary import JSON
from server.transport.limits import Network, is_trusted

log = structlog.get_logger("hcf.guard")


class ConnectionGuard:
    """Counts each address's connections on aiohttp's server and closes those over the cap."""

    def __init__(self, cap: int, header_timeout: float, trusted: tuple[Network, ...] = (), *,
                 total: int = 0, clock: Clock = SYSTEM_CLOCK) -> None:
        self.cap, self.header_timeout, self.trusted, self.clock = cap, header_timeout, trusted, clock
        self.total = total or default_total()
        # address -> the connections that count against its cap, oldest first
        self.counted: dict[str, OrderedDict[web_protocol.RequestHandler, None]] = {}
        self._everyone: OrderedDict[web_protocol.RequestHandler, None] = OrderedDict()  # all counted, oldest first
        self._address: dict[web_protocol.RequestHandler, str | None] = {}  # None: not counted
        self._deadline: dict[web_protocol.RequestHandler, Timer] = {}
        self.evicted = 0
        self.timed_out = 0

    def install(self, server: web.Server) -> None:
        """Watch every connection ``server`` (an AppRunner's) makes and loses."""
        made, lost, factory = server.connection_made, server.connection_lost, server.request_factory

        def request_factory(message: RawRequestMessage, payload: StreamReader, protocol: web_protocol.RequestHandler,
                            writer: AbstractStreamWriter, task: asyncio.Task[None]) -> web.BaseRequest:
            deadline = self._deadline.pop(protocol, None)
            if deadline is not None:
                deadline.cancel()  # its first request's headers came in time
            return factory(message, payload, protocol, writer, task)

        # a handler reads its manager's request_factory when it is made: every connection from now on
        server.request_factory = request_factory

        def connection_made(handler: web_protocol.RequestHandler, transport: asyncio.Transport) -> None:
            made(handler, transport)
            self._made(handler, transport)

        def connection_lost(handler: web_protocol.RequestHandler, exc: BaseException | None = None) -> None:
            self._lost(handler)
            lost(handler, exc)

        # aiohttp's RequestHandler reports to its manager through these two calls
        server.connection_made = connection_made  # type: ignore[method-assign]  # wrapped on this one server object
        server.connection_lost = connection_lost  # type: ignore[method-assign]  # wrapped on this one server object

    def _made(self, handler: web_protocol.RequestHandler, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else None
        if address is None or is_trusted(address, self.trusted):
            self._address[handler] = None
            return
        counted = self.counted.setdefault(address, OrderedDict())
        # The oldest goes, not the newest: a player reconnecting from an address an attacker
        # fills (or while many addresses fill the server) still gets in, and stops counting once logged in.
        if len(counted) >= self.cap:
            self._evict(next(iter(counted)))
        if len(self._everyone) >= self.total:
            self._evict(next(iter(self._everyone)))
        counted = self.counted.setdefault(address, OrderedDict())
        counted[handler] = None
        self._everyone[handler] = None
        self._address[handler] = address
        self._deadline[handler] = call_later(self.clock, self.header_timeout, lambda: self._expire(handler))

    def _evict(self, handler: web_protocol.RequestHandler) -> None:
        self._uncount(handler)
        self.evicted += 1
        handler.force_close()

    def _expire(self, handler: web_protocol.RequestHandler) -> None:
        if self._deadline.pop(handler, None) is not None:
            self.timed_out += 1
            handler.force_close()

    def _lost(self, handler: web_protocol.RequestHandler) -> None:
        self._uncount(handler)
        self._address.pop(handler, None)

    def _uncount(self, handler: web_protocol.RequestHandler) -> None:
        address = self._address.get(handler)
        if address is not None:
            self._address[handler] = None
            self._everyone.pop(handler, None)
            counted = self.counted.get(address)
            if counted is not None:
                counted.pop(handler, None)
                if not counted:
                    del self.counted[address]
        deadline = self._deadline.pop(handler, None)
        if deadline is not None:
            deadline.cancel()

    def open_counted(self) -> int:
        """How many open connections count against a cap now."""
        return sum(len(c) for c in self.counted.values())

    def logged_in(self, request: object) -> None:
        """The connection of ``request`` (an aiohttp request) logged in to an account: it stops counting."""
        handler = getattr(request, "protocol", None)
        if isinstance(handler, web_protocol.RequestHandler):
            self._uncount(handler)


def default_total() -> int:
    """Three quarters of the process's descriptor limit: the last quarter stays for logged-in players."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return 100_000
    return max(16, soft * 3 // 4)


class RepeatFilter:
    """An event-loop exception handler that logs each kind of error once per ``interval`` seconds.

    The first occurrence is logged in full; later ones within the interval are
    only counted, and the next line that gets through says how many were not shown.
    """

    def __init__(self, interval: float, clock: Clock = SYSTEM_CLOCK,
                 emit: Callable[[str, JSON], None] | None = None) -> None:
        self.interval, self.clock = interval, clock
        self.emit = emit or _log_loop_error
        self._last: dict[str, float] = {}
        self._held: Counter[str] = Counter()

    def __call__(self, loop: asyncio.AbstractEventLoop, context: JSON) -> None:
        del loop
        message = str(context.get("message") or "event loop error")
        exception = context.get("exception")
        key = f"{message}|{type(exception).__name__}|{str(exception)[:200]}"  # distinct errors stay visible
        now = self.clock.monotonic()
        last = self._last.get(key)
        if last is not None and now - last < self.interval:
            self._held[key] += 1
            return
        self._last[key] = now
        self.emit(message, {"exception": exception, "repeats_not_shown": self._held.pop(key, 0),
                            "interval_seconds": self.interval})


def _log_loop_error(message: str, fields: JSON) -> None:
    exception = fields.pop("exception")
    if isinstance(exception, BaseException):
        fields["error"] = f"{type(exception).__name__}: {exception}"
        if not fields["repeats_not_shown"]:  # the first of its kind in a while: with its traceback
            fields["exc_info"] = exception
    log.error("event_loop_error", message=message, **fields)
