"""The live view's key reader never blocks the client (found by a pexpect run: 'f', Enter, then Ctrl-C froze it).

Ctrl-C makes the terminal drop the keys typed before it (ISIG without NOFLSH). The event loop had been told the
terminal was readable, so it called the reader, whose blocking read then waited for a next key: the clock stopped,
and so did Ctrl-C's own handler, until the person typed again.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import pty
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from rich.console import Console

from client_cli.terminal import LiveFace


@dataclass
class _Terminal:
    leader: int  # what the person types into
    follower: int  # the terminal the client has, as its stdin
    face: LiveFace
    lines: list[str | None]

    async def typed(self, keys: bytes) -> list[str | None]:
        """The lines the live view read once ``keys`` were typed."""
        os.write(self.leader, keys)
        for _ in range(100):
            if self.lines:
                break
            await asyncio.sleep(0.01)  # the loop's reader takes the keys (a turn of the loop, not a clock)
        return self.lines


@contextlib.contextmanager
def _live_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Terminal]:
    """A live view reading keys from a pty, stopped and closed afterwards."""
    leader, follower = pty.openpty()
    stdin = os.fdopen(follower, "r", closefd=False)
    monkeypatch.setattr(sys, "stdin", stdin)
    terminal = _Terminal(leader, follower, LiveFace(Console(file=io.StringIO(), force_terminal=True, width=80,
                                                            height=24)), [])
    terminal.face.start(terminal.lines.append)
    try:
        yield terminal
    finally:
        terminal.face.stop()
        stdin.close()
        os.close(follower)
        os.close(leader)


async def test_a_read_that_finds_no_key_returns_at_once_and_the_terminal_is_given_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    given_back: list[bool] = []
    with _live_terminal(monkeypatch) as terminal:
        # The loop's reader called with no key waiting: what a flushed key leaves behind.
        reading = asyncio.get_running_loop().run_in_executor(None, terminal.face._read)
        done, _ = await asyncio.wait({reading}, timeout=5)
        if not done:
            os.write(terminal.leader, b"x")  # set the blocked read free before failing, or the thread lingers
            await reading
        assert done, "the key reader blocked the client"
        assert await terminal.typed(b"fold\r") == ["fold"]
        terminal.face.stop()
        given_back.append(os.get_blocking(terminal.follower))
    assert given_back == [True], "the terminal is given back as it was"


async def test_the_screen_stays_blocking_while_keys_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal's stdin and stdout are one open file: stdin made non-blocking made stdout so too, and a redraw
    the terminal was slow to take was cut short in the middle of a character (a pexpect run on a loaded machine
    read 'erh\\xc3' and then the next frame)."""
    with _live_terminal(monkeypatch) as terminal:
        screen = os.dup(terminal.follower)  # the shell opens the terminal once and hands it out as 0, 1 and 2
        try:
            assert os.get_blocking(screen), "drawing while keys are read"
            assert await terminal.typed(b"bet 10\r") == ["bet 10"]
            assert os.get_blocking(screen), "drawing after a key was read"
        finally:
            os.close(screen)
