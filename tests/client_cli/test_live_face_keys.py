"""The live view's key reader never blocks the client (found by a pexpect run: 'f', Enter, then Ctrl-C froze it).

Ctrl-C makes the terminal drop the keys typed before it (ISIG without NOFLSH). The event loop had been told the
terminal was readable, so it called the reader, whose blocking read then waited for a next key: the clock stopped,
and so did Ctrl-C's own handler, until the person typed again.
"""

from __future__ import annotations

import asyncio
import io
import os
import pty
import sys

import pytest
from rich.console import Console

from client_cli.terminal import LiveFace


async def test_a_read_that_finds_no_key_returns_at_once_and_the_terminal_is_given_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    leader, follower = pty.openpty()
    stdin = os.fdopen(follower, "r", closefd=False)
    monkeypatch.setattr(sys, "stdin", stdin)
    face = LiveFace(Console(file=io.StringIO(), force_terminal=True, width=80, height=24))
    lines: list[str | None] = []
    face.start(lines.append)
    try:
        # The loop's reader called with no key waiting: what a flushed key leaves behind.
        reading = asyncio.get_running_loop().run_in_executor(None, face._read)
        done, _ = await asyncio.wait({reading}, timeout=5)
        if not done:
            os.write(leader, b"x")  # set the blocked read free before failing, or the thread lingers
            await reading
        assert done, "the key reader blocked the client"
        os.write(leader, b"fold\r")
        for _ in range(100):
            if lines:
                break
            await asyncio.sleep(0.01)  # the loop's reader takes the keys (a turn of the loop, not a clock)
        assert lines == ["fold"]
    finally:
        face.stop()
        assert os.get_blocking(follower), "the terminal is given back as it was"
        stdin.close()
        os.close(follower)
        os.close(leader)


async def test_the_screen_stays_blocking_while_keys_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal's stdin and stdout are one open file: stdin made non-blocking made stdout so too, and a redraw
    the terminal was slow to take was cut short in the middle of a character (a pexpect run on a loaded machine
    read 'erh\\xc3' and then the next frame)."""
    leader, follower = pty.openpty()
    screen = os.dup(follower)  # the shell opens the terminal once and hands it out as 0, 1 and 2
    stdin = os.fdopen(follower, "r", closefd=False)
    monkeypatch.setattr(sys, "stdin", stdin)
    face = LiveFace(Console(file=io.StringIO(), force_terminal=True, width=80, height=24))
    lines: list[str | None] = []
    face.start(lines.append)
    try:
        assert os.get_blocking(screen), "drawing while keys are read"
        os.write(leader, b"bet 10\r")
        for _ in range(100):
            if lines:
                break
            await asyncio.sleep(0.01)  # the loop's reader takes the keys (a turn of the loop, not a clock)
        assert lines == ["bet 10"]
        assert os.get_blocking(screen), "drawing after a key was read"
    finally:
        face.stop()
        stdin.close()
        os.close(screen)
        os.close(follower)
        os.close(leader)
