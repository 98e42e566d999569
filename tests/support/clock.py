"""A clock that moves only when a test says so (the server's ``Clock``, server/clock.py)."""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from server.clock import Callback

WALL_START = 1_764_625_000.0  # a fixed wall time: records and deadlines come out the same every run
MONOTONIC_START = 1_000.0
# A call due within this of the time advanced to runs: a delay worked out from wall times near 1.7e9
# (``at - now()``) carries some 2e-7 s of float rounding, and "advance by the delay" must reach it.
ROUNDING = 1e-6


@dataclass(order=True)
class ManualTimer:
    """A call waiting on a :class:`ManualClock`."""

    when: float
    order: int
    callback: Callback = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        """Do not run it."""
        self.cancelled = True


class ManualClock:
    """Time stands still until :meth:`advance`; due calls then run in time order, each at its own time."""

    def __init__(self, wall: float = WALL_START, monotonic: float = MONOTONIC_START) -> None:
        self._wall, self._monotonic = wall, monotonic
        self._elapsed = 0.0
        self._timers: list[ManualTimer] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The wall time: its start plus every second advanced."""
        return self._wall + self._elapsed

    def monotonic(self) -> float:
        """The monotonic time: its start plus every second advanced."""
        return self._monotonic + self._elapsed

    def call_at(self, when: float, callback: Callback) -> ManualTimer:
        """Run ``callback()`` once the clock is advanced to ``when`` (due already: at the next advance)."""
        timer = ManualTimer(when, next(self._order), callback)
        heapq.heappush(self._timers, timer)
        return timer

    def advance(self, seconds: float) -> int:
        """Move time forward; run every call that falls due, in order, calls scheduled meanwhile too.

        Each call sees the clock at its own time. Returns how many calls ran.
        """
        if seconds < 0:
            raise ValueError("a clock does not go back")
        target = self._elapsed + seconds
        due = self._monotonic + target + ROUNDING
        ran = 0
        while self._timers and self._timers[0].when <= due:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._elapsed = max(self._elapsed, timer.when - self._monotonic)
            timer.callback()
            ran += 1
        self._elapsed = target
        return ran

    def pending(self) -> list[float]:
        """When the calls still waiting are due (monotonic), soonest first."""
        return sorted(t.when for t in self._timers if not t.cancelled)
