"""A spectator's frames that come within the hold of its last write go out together, in order (issue 25).

Pure: a manual clock and a fake socket that records each write (one write is one system call).
"""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from server.transport.edge import Outlet
from server.transport.outlets import FrameHold
from tests.support.clock import ManualClock


class FakeSocket(asyncio.WriteTransport):
    """Records each write; can be closed."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed


def outlet_on(sock: FakeSocket) -> Outlet:
    return Outlet(lambda: sock)


def test_the_first_frame_after_a_quiet_spell_goes_at_once() -> None:
    clock, sock = ManualClock(), FakeSocket()
    FrameHold(clock, 0.05).put(outlet_on(sock), b"a")
    assert sock.writes == [b"a"]


def test_frames_within_the_hold_wait_and_go_in_one_write_when_it_ends() -> None:
    clock, sock = ManualClock(), FakeSocket()
    hold, outlet = FrameHold(clock, 0.05), outlet_on(sock)
    hold.put(outlet, b"a")
    clock.advance(0.01)
    hold.put(outlet, b"b")
    hold.put(outlet, b"c")
    assert sock.writes == [b"a"]
    clock.advance(0.05)
    assert sock.writes == [b"a", b"bc"]


def test_held_frames_go_before_anything_else_written_to_the_connection() -> None:
    clock, sock = ManualClock(), FakeSocket()
    hold, outlet = FrameHold(clock, 0.05), outlet_on(sock)
    hold.put(outlet, b"a")
    hold.put(outlet, b"b")
    outlet.write(b"personal")  # a direct write, or (through flush) engine.io's writer
    assert sock.writes == [b"a", b"bpersonal"]
    clock.advance(0.1)
    assert sock.writes == [b"a", b"bpersonal"]  # nothing held is written twice


def test_frames_for_a_closed_connection_are_dropped() -> None:
    clock, sock = ManualClock(), FakeSocket()
    hold, outlet = FrameHold(clock, 0.05), outlet_on(sock)
    hold.put(outlet, b"a")
    hold.put(outlet, b"b")
    sock.closed = True
    clock.advance(0.1)
    assert sock.writes == [b"a"]
    assert not outlet.pending


@given(steps=st.lists(st.tuples(st.sampled_from(["held", "direct", "flush"]), st.floats(0, 0.2)), max_size=40),
       seconds=st.sampled_from([0.0, 0.01, 0.05]))
def test_every_frame_is_written_once_in_order_and_none_waits_longer_than_the_hold(
        steps: list[tuple[str, float]], seconds: float) -> None:
    clock, sock = ManualClock(), FakeSocket()
    hold, outlet = FrameHold(clock, seconds), outlet_on(sock)
    sent: list[bytes] = []
    for n, (kind, pause) in enumerate(steps):
        frame = b"<%d>" % n
        if kind == "held":
            hold.put(outlet, frame)
            sent.append(frame)
        elif kind == "direct":
            outlet.write(frame)
            sent.append(frame)
        else:
            outlet.flush()
        clock.advance(pause)
        if pause >= seconds:
            assert not outlet.pending, "a frame waited past the hold"
    clock.advance(seconds)
    assert b"".join(sock.writes) == b"".join(sent)
