"""A connection's own way out past engine.io's queue, and frames held a moment to go out together (issue 25).

Every spectator at a table gets the same update, and at a table of bots acting at once
about ten a hand. Through engine.io each cost a queue, a task switch and a frame built
anew; written straight to the socket (``server/transport/edge.py`` finds an idle one),
each still costs one system call, about as much as all our own work for that spectator.
So a spectator's frames that come within ``HOLD_SECONDS`` of its last write wait and go
in one write: the first after a quiet spell goes at once, a burst waits at most that long.

Order is kept: held bytes go out before anything else is written to the connection (the
edge flushes it before engine.io's writer sends), and a frame is only
held or written here while that writer has nothing in hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from server.clock import Clock, Timer, call_later

HOLD_SECONDS = 0.05
"""How long a spectator's frame may wait for the next (the first after a quiet spell waits not at all)."""

GATHER_SECONDS = 0.2
"""How long the spectators' updates may be held to go out as one (``server/transport/edge.py``).

Each one held is a write to every spectator saved: about 10 us each on loopback (the kernel's
receive path runs in the sender's system call), 2 ms a batch with 200 of them. A spectator is
never more than this behind the table, and only while it moves faster than this (twelfth round)."""

HOLD_FROM = 16
"""Spectators at a table (in this process) from which their frames are held: below, each costs little."""


class Held(Protocol):
    """A connection a hold writes to (``server/transport/edge.py``'s ``Held``)."""

    pending: bytearray  # frames held for it, in order
    last_write: float  # when a hold last wrote to it (the hold's clock)

    def write(self, data: bytes) -> None:
        """Write what is held and then ``data``, in one write."""


class FrameHold:
    """Frames for one connection that come within ``seconds`` of its last write wait, and go out together."""

    def __init__(self, clock: Clock, seconds: float = HOLD_SECONDS) -> None:
        if seconds < 0:
            raise ValueError("a frame hold needs seconds >= 0")
        self.clock, self.seconds = clock, seconds
        self._waiting: dict[Held, None] = {}  # outlets with bytes held, in the order they were first held
        self._timer: Timer | None = None

    def put(self, outlet: Held, wire: bytes) -> None:
        """Write ``wire`` now if the connection was quiet for ``seconds``; else hold it for the next flush."""
        self.put_all([outlet], wire)

    def put_all(self, outlets: Iterable[Held], wire: bytes) -> None:
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
