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
import time
from collections.abc import Callable
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
