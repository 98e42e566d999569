"""Frames the server cannot decode (issue 23, item 18): the connection is closed after a few, the log stays short.

Before: ``40`` and then ``42["join"`` 3,000 times on a raw websocket wrote 162,111 log
lines in 2 s, the connection stayed open, and the rate limit never saw a frame.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import structlog
from hypothesis import given, settings
from hypothesis import strategies as st

from server.transport.frames import FrameGuard
from tests.durability.test_abuse import RawSocket
from tests.support.clock import ManualClock

from .conftest import Server

T = {"table": "main"}
BAD = '42["join"'


def frame_lines(logs: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [entry for entry in logs if entry["event"] == "undecodable_frames"]


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_connection_is_closed_after_a_few_undecodable_frames_and_they_are_logged_once_per_interval(
        server: Server, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with structlog.testing.capture_logs() as logs:
        async with RawSocket(server.url) as flood:
            assert (await flood.connect({}) or "").startswith("40{")
            for _ in range(server.config.max_bad_frames):
                await flood.send(BAD)
            with pytest.raises(ConnectionError):  # closed by the server: no answer comes
                await flood.request(1, "snapshot", T)
        async with RawSocket(server.url) as careless:  # one frame short of the limit: still served
            await careless.connect({})
            for _ in range(server.config.max_bad_frames - 1):
                await careless.send(BAD)
            assert (await careless.request(1, "snapshot", T))["ok"] is True
            written = frame_lines(logs)
            assert [(e["frames"], e["connections_closed"]) for e in written] == [(1, 0)]  # the first, at once
            assert isinstance(server.clock, ManualClock)
            server.clock.advance(server.config.log_repeat_seconds)  # the interval ends: the rest in one line
            frames = 2 * server.config.max_bad_frames - 2
            assert [(e["frames"], e["connections_closed"]) for e in frame_lines(logs)[1:]] == [(frames, 1)]
    assert frame_lines(logs)[1]["errors"] == {"JSONDecodeError": frames}
    library = [r for r in caplog.records if r.name.startswith(("engineio", "socketio")) and r.levelno >= logging.ERROR]
    assert library == []  # no traceback per frame from the library
    assert all(BAD not in repr(entry) for entry in logs)  # a frame's content is never logged


class _FakeEngine:
    def __init__(self) -> None:
        self.handlers: dict[str, Any] = {}
        self.closed: list[str] = []

    async def disconnect(self, eio_sid: str) -> None:
        self.closed.append(eio_sid)


class _FakeTransport:
    def __init__(self, closed: list[str], eio_sid: str) -> None:
        self.closed, self.eio_sid = closed, eio_sid

    def close(self) -> None:
        self.closed.append(self.eio_sid)


class _FakeRequest:
    def __init__(self, transport: _FakeTransport) -> None:
        self.transport = transport


class _FakeSio:
    """Connections c0 and c2 came over aiohttp (their TCP stream is closed); c1 and c3 have no request."""

    def __init__(self) -> None:
        self.eio = _FakeEngine()
        self.environ = {f"c{n}": {"aiohttp.request": _FakeRequest(_FakeTransport(self.eio.closed, f"c{n}"))}
                        for n in (0, 2)}


async def _undecodable(_eio_sid: str, _data: Any) -> None:
    raise ValueError("not a frame")


async def _gone(_eio_sid: str, *_reason: Any) -> None:
    return None


@settings(max_examples=60, deadline=None)
@given(max_bad=st.integers(1, 6), interval=st.floats(0.5, 100),
       frames=st.lists(st.tuples(st.integers(0, 3), st.floats(0, 50)), max_size=60))
def test_every_frame_is_counted_in_a_bounded_number_of_lines_and_a_connection_closes_once_at_the_limit(
        max_bad: int, interval: float, frames: list[tuple[int, float]]) -> None:
    async def run() -> None:
        clock, sio = ManualClock(), _FakeSio()
        sio.eio.handlers.update(message=_undecodable, disconnect=_gone)
        guard = FrameGuard(sio, max_bad=max_bad, interval=interval, clock=clock)  # type: ignore[arg-type]
        guard.install()
        with structlog.testing.capture_logs() as logs:
            for connection, pause in frames:
                clock.advance(pause)
                await sio.eio.handlers["message"](f"c{connection}", BAD)
            await asyncio.sleep(0)  # the closing tasks run
            clock.advance(interval)  # the last interval ends
        lines = frame_lines(logs)
        assert sum(e["frames"] for e in lines) == len(frames)
        elapsed = sum(pause for _, pause in frames)
        assert len(lines) <= 2 + elapsed / interval * 2  # at most one at once and one at the end of each interval
        sent = {c: sum(1 for d, _ in frames if d == c) for c, _ in frames}
        assert sorted(sio.eio.closed) == sorted(f"c{c}" for c, n in sent.items() if n >= max_bad)
        assert sum(e["connections_closed"] for e in lines) == len(sio.eio.closed)
    asyncio.run(run())
