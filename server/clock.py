"""The server's one source of time, injected so that tests move it by hand.

Everything that reads the time or waits for it (the rate-limit buckets, the
reconnect limit, the presence grace, the header timeout, the tables' timers)
takes a :class:`Clock`. The server runs on :data:`SYSTEM_CLOCK`; tests give a
manual clock (``tests/support/clock.py``) and advance it instead of sleeping.

Two kinds of time, never mixed: ``now()`` is the wall clock (seconds since the
Unix epoch, what goes on the wire and into the records: deadlines,
``server_time``), ``monotonic()`` measures intervals and is what ``call_at``
takes (it never jumps when the system clock is set).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

Callback = Callable[[], object]


class Timer(Protocol):
    """A scheduled call that has not run yet."""

    def cancel(self) -> None:
        """Do not run it (a no-op once it ran or was cancelled)."""
        ...


class Clock(Protocol):
    """Wall time, monotonic time, and calls at a monotonic time."""

    def now(self) -> float:
        """Wall-clock seconds since the Unix epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that only goes forward (for intervals and ``call_at``)."""
        ...

    def call_at(self, when: float, callback: Callback) -> Timer:
        """Call ``callback()`` once ``monotonic()`` reaches ``when`` (at once if it has)."""
        ...


class SystemClock:
    """The real clocks; calls go through the running event loop's ``call_later``."""

    def now(self) -> float:
        """``time.time()``."""
        return time.time()

    def monotonic(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    def call_at(self, when: float, callback: Callback) -> Timer:
        """Schedule on the running loop (its own time base may differ from ours: go by the delay)."""
        return asyncio.get_running_loop().call_later(max(0.0, when - time.monotonic()), callback)


SYSTEM_CLOCK: Clock = SystemClock()


def call_later(clock: Clock, delay: float, callback: Callback) -> Timer:
    """Call ``callback()`` ``delay`` seconds from now on ``clock``."""
    return clock.call_at(clock.monotonic() + delay, callback)


# ------------------------------------------------------------ a clock moved by hand (tests, offline drills)

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

    def fire_next(self) -> bool:
        """Move time to the soonest waiting call and run it; False when nothing waits (the drills' runner)."""
        while self._timers:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._elapsed = max(self._elapsed, timer.when - self._monotonic)
            timer.callback()
            return True
        return False

    def pending(self) -> list[float]:
        """When the calls still waiting are due (monotonic), soonest first."""
        return sorted(t.when for t in self._timers if not t.cancelled)
