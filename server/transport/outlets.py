"""A connection's own way out past engine.io's queue, and frames held a moment to go out together (issue 25).

Every spectator at a table gets the same update, and at a table of bots acting at once
about ten a hand. Through engine.io each cost a queue, a task switch and a frame built
anew; written straight to the socket (``server/transport/edge.py`` finds an idle one),
each still costs one system call, about as much as all our own work for that spectator.
So a spectator's frames that come within ``HOLD_SECONDS`` of its last write wait and go
in one write: the first after a quiet spell goes at once, a burst waits at most that long.

Order is kept: held bytes go out before anything else is written to the connection (the
edge calls :meth:`Outlet.flush` before engine.io's writer sends), and a frame is only
held or written here while that writer has nothing in hand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from server.clock import Clock, Timer, call_later

HOLD_SECONDS = 0.05
"""How long a spectator's frame may wait for the next (the first after a quiet spell waits not at all)."""

HOLD_FROM = 16
"""Spectators at a table (in this process) from which their frames are held: below, each costs little."""


Transport = Callable[[], asyncio.WriteTransport | None]


def _never_idle() -> asyncio.WriteTransport | None:
    return None


class Outlet:
    """One websocket connection's socket, written to directly; bytes held for it go first.

    ``transport_of`` gives the open socket (None once it closes); ``idle`` gives it only
    while a frame may be written past the library's queue (``server/transport/edge.py``
    says when).
    """

    __slots__ = ("_transport_of", "idle", "last_write", "pending")

    def __init__(self, transport_of: Transport, idle: Transport = _never_idle) -> None:
        self._transport_of = transport_of
        self.idle = idle
        self.pending = bytearray()  # frames held for this connection, in order
        self.last_write = float("-inf")  # when a hold last wrote to it (the hold's clock)

    def transport(self) -> asyncio.WriteTransport | None:
        """The open socket (None once it is closing or gone)."""
        transport = self._transport_of()
        return None if transport is None or transport.is_closing() else transport

    def write(self, data: bytes) -> None:
        """Write what is held and then ``data``, in one write (nothing, and nothing held, if the socket is gone)."""
        transport = self.transport()
        if transport is None:
            self.pending.clear()
            return
        if self.pending:
            self.pending += data
            data = bytes(self.pending)
            self.pending.clear()
        transport.write(data)

    def flush(self) -> None:
        """Write what is held, if anything."""
        if self.pending:
            self.write(b"")


class FrameHold:
    """Frames for one connection that come within ``seconds`` of its last write wait, and go out together."""

    def __init__(self, clock: Clock, seconds: float = HOLD_SECONDS) -> None:
        if seconds < 0:
            raise ValueError("a frame hold needs seconds >= 0")
        self.clock, self.seconds = clock, seconds
        self._waiting: dict[Outlet, None] = {}  # outlets with bytes held, in the order they were first held
        self._timer: Timer | None = None

    def put(self, outlet: Outlet, wire: bytes) -> None:
        """Write ``wire`` now if the connection was quiet for ``seconds``; else hold it for the next flush."""
        self.put_all([outlet], wire)

    def put_all(self, outlets: Iterable[Outlet], wire: bytes) -> None:
        """:meth:`put` for each of ``outlets`` (one reading of the clock for all)."""
        now = self.clock.monotonic()
        quiet_since = now - self.seconds
        waiting = self._waiting
        for outlet in outlets:
            if not outlet.pending and outlet.last_write <= quiet_since:
                outlet.write(wire)
                outlet.last_write = now
            else:
                outlet.pending += wire
                waiting[outlet] = None
        if waiting and self._timer is None:
            self._timer = call_later(self.clock, self.seconds, self.flush)

    def flush(self) -> None:
        """Write everything held, each connection's in one write."""
        self._timer = None
        now = self.clock.monotonic()
        waiting, self._waiting = self._waiting, {}
        for outlet in waiting:
            if outlet.pending:  # not already written ahead of a packet of engine.io's
                outlet.write(b"")
                outlet.last_write = now
