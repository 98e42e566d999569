"""The two faces of the screen: a rich Live view on a terminal, plain lines elsewhere.

On a terminal, keys are read one at a time (cbreak mode: no echo, Ctrl-C still
interrupts) and the line being typed is drawn inside the live view, so redraws
never tear the input. Elsewhere, lines are read from stdin by a thread and the
output is plain text without colour codes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import termios
import threading
import tty
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from rich.console import Console
from rich.live import Live
from rich.text import Text

from client_cli.screen import Screen, screen_group

LineHandler = Callable[[str | None], None]
"""Called with each typed line; None means the input ended (Ctrl-D or end of file)."""


class LiveFace:
    """A rich Live view that redraws the whole screen and holds the line being typed."""

    live_view = True

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console()
        self.live = Live(console=self.console, auto_refresh=False, transient=False,
                         vertical_overflow="crop", redirect_stdout=False, redirect_stderr=False)
        self.buffer = ""
        self._fd: int | None = None
        self._saved: list[Any] | None = None
        self._on_line: LineHandler | None = None
        self._on_edit: Callable[[], None] | None = None
        self._escape = False

    def start(self, on_line: LineHandler | None, on_edit: Callable[[], None] | None = None) -> None:
        """Start drawing (and reading keys when ``on_line`` is given; ``on_edit`` after each key)."""
        self.live.start()
        if on_line is None or not sys.stdin.isatty():
            return
        self._on_line, self._on_edit = on_line, on_edit
        self._fd = sys.stdin.fileno()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        asyncio.get_running_loop().add_reader(self._fd, self._read)

    def stop(self) -> None:
        """Stop drawing and give the terminal back as it was."""
        if self._fd is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._fd)
            if self._saved is not None:
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._fd = None
        self.live.stop()

    def draw(self, screen: Screen) -> None:
        """Redraw everything."""
        screen.prompt = self.buffer if self._on_line is not None else None
        width, height = self.console.size
        self.live.update(screen_group(screen, min(width, 200), max(6, height - 1)), refresh=True)

    def say(self, lines: Sequence[str | Text]) -> None:
        """Nothing to print: the live view shows the log."""

    def _read(self) -> None:
        assert self._fd is not None
        # Not blocking, for this read only: Ctrl-C makes the terminal drop the keys typed before it, so a read
        # the loop was told it could make may find nothing, and a blocking one froze the client (its clock, its
        # Ctrl-C) until the next key. Only for this read: a terminal's stdin and stdout are one open file, so
        # stdout left non-blocking cut a redraw short when the terminal was slow to take it, in the middle of
        # a character (found by a pexpect run on a loaded machine).
        blocking = os.get_blocking(self._fd)
        os.set_blocking(self._fd, False)
        try:
            data = os.read(self._fd, 1024).decode("utf-8", errors="ignore")
        except OSError:  # BlockingIOError among them: the keys went (Ctrl-C flushed them)
            return
        finally:
            os.set_blocking(self._fd, blocking)
        for ch in data:
            self._key(ch)

    def _key(self, ch: str) -> None:
        assert self._on_line is not None
        if self._escape:  # skip arrow keys and other escape sequences
            self._escape = not (ch.isalpha() or ch == "~")
            return
        if ch == "\x1b":
            self._escape = True
        elif ch in ("\r", "\n"):
            line, self.buffer = self.buffer, ""
            self._on_line(line)
        elif ch in ("\x7f", "\x08"):
            self.buffer = self.buffer[:-1]
        elif ch == "\x15":
            self.buffer = ""
        elif ch == "\x04":
            self._on_line(None)
        elif ch.isprintable() and len(self.buffer) < 210:  # room for "say" and a whole chat line
            self.buffer += ch
        if self._on_edit is not None:
            self._on_edit()


class PlainFace:
    """Plain lines on stdout, no colour codes; input lines read by a thread."""

    live_view = False

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.closed = False
        """The reader of the output went away (``hcf watch | head``): the session ends, quietly."""

    def start(self, on_line: LineHandler | None, on_edit: Callable[[], None] | None = None) -> None:  # noqa: ARG002
        """Start reading input lines, if asked to (there is no line being edited to redraw)."""
        if on_line is None:
            return
        loop = asyncio.get_running_loop()

        def reader() -> None:
            # os.read, not sys.stdin: a daemon thread must not hold the stdin buffer's lock at exit.
            pending = b""
            while chunk := _read_stdin():
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    loop.call_soon_threadsafe(on_line, line.decode("utf-8", errors="replace").rstrip("\r"))
            loop.call_soon_threadsafe(on_line, None)

        threading.Thread(target=reader, name="hcf-input", daemon=True).start()

    def stop(self) -> None:
        """Flush what was written."""
        with contextlib.suppress(Exception):
            self.out.flush()

    def draw(self, screen: Screen) -> None:
        """Plain output does not redraw."""

    def say(self, lines: Sequence[str | Text]) -> None:
        """Print lines as plain text (nothing, once the reader has gone)."""
        if self.closed:
            return
        try:
            for line in lines:
                print(line.plain if isinstance(line, Text) else line, file=self.out, flush=True)
        except BrokenPipeError:
            self.closed = True
            with contextlib.suppress(OSError):  # the interpreter's last flush must not fail again
                os.dup2(os.open(os.devnull, os.O_WRONLY), self.out.fileno())


def _read_stdin() -> bytes:
    try:
        return os.read(0, 4096)
    except OSError:
        return b""


Face = LiveFace | PlainFace


def choose_face(plain: bool = False) -> Face:
    """The live view when stdout is a terminal (and not asked for plain), else plain lines."""
    if not plain and sys.stdout.isatty() and os.environ.get("TERM") != "dumb":
        return LiveFace()
    return PlainFace()
