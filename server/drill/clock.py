"""The drill table's clock: time stands still, and the runner fires the table's timers one at a time.

Scripted players never let a clock run out, so the only timers the runner fires
are between hands (the next hand, housekeeping). Wall time is fixed, so a drill's
records come out the same on every run.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from server.clock import Callback

WALL_START = 1_764_625_000.0
MONOTONIC_START = 1_000.0


@dataclass(order=True)
class DrillTimer:
    """A call waiting on the :class:`DrillClock`."""

    when: float
    order: int
    callback: Callback = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        """Do not run it."""
        self.cancelled = True


class DrillClock:
    """The server's ``Clock`` (server/clock.py), moved only by :meth:`fire_next`."""

    def __init__(self) -> None:
        self._elapsed = 0.0
        self._timers: list[DrillTimer] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The wall time."""
        return WALL_START + self._elapsed

    def monotonic(self) -> float:
        """The monotonic time."""
        return MONOTONIC_START + self._elapsed

    def call_at(self, when: float, callback: Callback) -> DrillTimer:
        """Keep ``callback`` until :meth:`fire_next` reaches it."""
        timer = DrillTimer(when, next(self._order), callback)
        heapq.heappush(self._timers, timer)
        return timer

    def fire_next(self) -> bool:
        """Move time to the soonest waiting call and run it; False when nothing waits."""
        while self._timers:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._elapsed = max(self._elapsed, timer.when - MONOTONIC_START)
            timer.callback()
            return True
        return False
