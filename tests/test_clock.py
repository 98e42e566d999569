"""The server's clock (server/clock.py) and the manual one the tests move (tests/support/clock.py)."""

from __future__ import annotations

import asyncio
import functools
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.clock import SYSTEM_CLOCK, Clock, call_later
from tests.support.clock import ROUNDING, ManualClock


def test_a_manual_clock_stands_still_until_advanced_and_moves_both_times_together() -> None:
    clock: Clock = ManualClock(wall=5000.0, monotonic=10.0)
    assert (clock.now(), clock.monotonic()) == (5000.0, 10.0)
    assert isinstance(clock, ManualClock)
    clock.advance(2.5)
    assert (clock.now(), clock.monotonic()) == (5002.5, 12.5)
    with pytest.raises(ValueError, match="does not go back"):
        clock.advance(-1)


def test_due_calls_run_in_time_order_each_at_its_own_time_and_a_cancelled_one_never() -> None:
    clock = ManualClock(monotonic=0.0)
    ran: list[tuple[str, float]] = []

    def note(name: str) -> None:
        ran.append((name, clock.monotonic()))

    call_later(clock, 3.0, lambda: note("c"))
    call_later(clock, 1.0, lambda: note("a"))
    cancelled = call_later(clock, 2.0, lambda: note("never"))
    # a call scheduled by a call, within the same advance, runs in it
    call_later(clock, 1.5, lambda: call_later(clock, 0.5, lambda: note("b")))
    cancelled.cancel()
    assert clock.advance(2.9) == 3  # a, the scheduler, b
    assert ran == [("a", 1.0), ("b", 2.0)]
    assert clock.monotonic() == 2.9
    assert clock.advance(0.1) == 1
    assert ran[-1] == ("c", 3.0)
    assert clock.pending() == []


@given(st.lists(st.floats(0, 100, allow_nan=False), max_size=30), st.floats(0, 100, allow_nan=False))
def test_an_advance_runs_exactly_the_calls_due_by_then_sorted(delays: list[float], seconds: float) -> None:
    clock = ManualClock(monotonic=0.0)
    ran: list[float] = []
    for delay in delays:
        call_later(clock, delay, functools.partial(ran.append, delay))
    clock.advance(seconds)
    assert ran == sorted(d for d in delays if d <= seconds + ROUNDING)
    assert clock.pending() == sorted(d for d in delays if d > seconds + ROUNDING)


async def test_the_system_clock_calls_back_on_the_event_loop() -> None:
    fired = asyncio.Event()
    before = SYSTEM_CLOCK.monotonic()
    SYSTEM_CLOCK.call_at(before + 0.01, fired.set)
    late = call_later(SYSTEM_CLOCK, 60.0, fired.clear)
    await asyncio.wait_for(fired.wait(), 5)  # an event, not a sleep: the callback sets it
    late.cancel()
    assert SYSTEM_CLOCK.monotonic() >= before + 0.01
    assert abs(SYSTEM_CLOCK.now() - time.time()) < 1
