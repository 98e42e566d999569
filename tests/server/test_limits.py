"""The bounded bucket table, the client address behind proxies, and the log that does not flood.

On an injected clock: the tests move time by hand.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from server.transport.guard import RepeatFilter
from server.transport.limits import BucketTable, TokenBucket, client_address, parse_networks
from tests.support.clock import ManualClock


class Unbounded:
    """The model: one bucket per key, never forgotten."""

    def __init__(self, rate: float, burst: float, clock: ManualClock) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.levels: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> bool:
        now = self.clock.monotonic()
        tokens, at = self.levels.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        ok = tokens >= 1
        self.levels[key] = (tokens - 1 if ok else tokens, now)
        return ok


steps = st.lists(st.tuples(st.integers(0, 11), st.floats(0, 3, allow_nan=False)), max_size=300)


@settings(max_examples=200, deadline=None)
@given(steps=steps, capacity=st.integers(1, 6), burst=st.integers(1, 5))
@example(steps=[(1, 0.0), (0, 0.0), (1, 1.0), (1, 1.0)], capacity=1, burst=1)  # forgotten, served early, then waits
def test_the_table_stays_bounded_forgets_the_oldest_and_never_refuses_what_the_model_allows(
        steps: list[tuple[int, float]], capacity: int, burst: int) -> None:
    clock = ManualClock()
    table, model = BucketTable(0.5, burst, capacity, clock), Unbounded(0.5, burst, clock)
    recent: list[str] = []  # keys by last use, oldest first
    forgiven: set[str] = set()  # keys the table forgot at some point (then they came back full)
    for key_no, dt in steps:
        clock.advance(dt)
        key = f"k{key_no}"
        if key in recent and key not in recent[-capacity:]:
            forgiven.add(key)  # the capacity most recently used keys are the ones it holds
        allowed, modelled = table.take(key) == 0.0, model.take(key)
        # fairness: nobody is refused because of what other keys did. A forgotten key came back with a
        # full bucket: it may get its tokens sooner than the model, and then wait while the model does not.
        assert allowed or not modelled or key in forgiven, (key, steps)
        if allowed and not modelled:
            assert key in forgiven, "only a key that was forgotten gets more than its bucket"
        recent = [k for k in recent if k != key] + [key]
        assert len(table) <= capacity
        assert len(table) == min(capacity, len(set(recent)))


@given(st.lists(st.integers(0, 3), min_size=1, max_size=200))
def test_one_key_never_gets_more_than_its_burst_plus_its_rate(keys: list[int]) -> None:
    clock = ManualClock()
    table = BucketTable(1.0, 3, 100, clock)
    granted: dict[int, int] = {}
    for i, key in enumerate(keys):
        clock.advance(0.1 if i else 0.0)
        if table.take(str(key)) == 0.0:
            granted[key] = granted.get(key, 0) + 1
    for count in granted.values():
        assert count <= 3 + (len(keys) - 1) * 0.1 * 1.0 + 1e-9


def test_a_refusal_says_how_long_to_wait_and_a_refund_gives_the_attempt_back() -> None:
    clock = ManualClock()
    table = BucketTable(0.2, 2, 10, clock)
    assert table.take("alice") == table.take("alice") == 0.0
    assert table.take("alice") == 5.0
    table.refund("alice")
    assert table.take("alice") == 0.0
    clock.advance(2.5)
    assert table.take("alice") == 2.5


def test_a_connections_bucket_starts_full_says_how_long_to_wait_and_refills_with_its_clock() -> None:
    clock = ManualClock()
    bucket = TokenBucket(20.0, 3, clock)
    assert [bucket.take() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take() == 0.05  # a token every 1/20 s
    clock.advance(0.025)
    assert bucket.take() == pytest.approx(0.025)
    clock.advance(1.0)  # it refills to its burst, not beyond
    assert [bucket.take() for _ in range(4)][-2:] == [0.0, pytest.approx(0.05)]


def test_x_forwarded_for_counts_only_behind_a_trusted_proxy() -> None:
    proxies = parse_networks("127.0.0.1, 10.0.0.0/8")
    assert client_address("203.0.113.9", "1.2.3.4", proxies) == "203.0.113.9"
    assert client_address("127.0.0.1", "1.2.3.4", proxies) == "1.2.3.4"
    # the client wrote the left part itself: only the hop the trusted proxies appended counts
    assert client_address("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", proxies) == "198.51.100.7"
    assert client_address("127.0.0.1", None, proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", "1.2.3.4", ()) == "127.0.0.1"


def test_the_same_loop_error_is_logged_once_per_interval_with_a_count() -> None:
    clock, lines = ManualClock(), []

    def emit(message: str, fields: dict[str, Any]) -> None:
        lines.append((message, fields["repeats_not_shown"]))

    handler = RepeatFilter(60.0, clock, emit)
    loop = asyncio.new_event_loop()
    try:
        context = {"message": "socket.accept() out of system resource", "exception": OSError(24, "Too many")}
        for i in range(1000):
            clock.advance(0.05 if i else 0.0)
            handler(loop, context)
        handler(loop, {"message": "another", "exception": None})
        clock.advance(61.0 - 999 * 0.05)
        handler(loop, context)
    finally:
        loop.close()
    assert lines == [("socket.accept() out of system resource", 0), ("another", 0),
                     ("socket.accept() out of system resource", 999)]
