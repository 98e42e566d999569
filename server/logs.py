"""Structured logs: JSON lines in production, readable console lines in development.

Secrets never reach a log line: a processor blanks any key that names one.
Context (table, hand, seat, account) is bound per handler with
``structlog.contextvars`` (PITFALLS 18).

Lines are written in runs, not one ``write`` each: a table logs every event it
publishes, and a line's own system call cost as much as rendering it
(docs/benchmarks.md, sixth round). A line at ``warning`` or above is written at
once with whatever waits before it; the rest wait at most
:data:`FLUSH_SECONDS` (a thread writes them out), and all of them are written
when the process exits normally. A ``SIGKILL`` loses at most that much.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import sys
import threading
from collections.abc import MutableMapping
from typing import Any, Final, TextIO

import orjson
import structlog

FLUSH_SECONDS: Final = 0.2  # the longest a line at info or below waits to be written
FLUSH_CHARS: Final = 64 * 1024  # lines waiting past this much are written at once
_URGENT: Final = frozenset({"warning", "warn", "error", "critical", "exception", "fatal"})

SECRET_KEYS = frozenset({"password", "token", "host_token", "new_password", "old_password",
                         "server_seed", "auth", "authorization", "secret"})


def redact_secrets(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """Replace the value of every secret-looking key with ``***``."""
    for key in list(event):
        if key.lower() in SECRET_KEYS:
            event[key] = "***"
    return event


class LossyStream:
    """A log stream that never raises: once its reader is gone, lines are dropped.

    Logging runs inside the table tasks and the shutdown: a ``BrokenPipeError`` from a
    line written to a closed pipe (``hcf-server serve 2>&1 | tee log`` after Ctrl-C
    killed ``tee``) ended a table's task mid-hand, and the stop then waited for it
    forever (issue 23). The descriptor is pointed at ``/dev/null`` so that no later
    write, nor the interpreter's last flush, fails on it either.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.lost = False

    def write(self, text: str) -> int:
        """Write ``text``, or drop it once the stream has failed."""
        if not self.lost:
            try:
                self._stream.write(text)
            except (OSError, ValueError):  # ValueError: the stream was closed
                self._give_up()
        return len(text)

    def flush(self) -> None:
        """Flush, or do nothing once the stream has failed."""
        if not self.lost:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._give_up()

    def _give_up(self) -> None:
        self.lost = True
        try:
            target = self._stream.fileno()
        except (OSError, ValueError):  # not a real descriptor (a test's StringIO): dropping lines is enough
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, target)
        finally:
            os.close(devnull)


class BufferedLines:
    """Lines kept and written in runs (see the module's docstring); ``urgent`` writes them now.

    ``write`` and ``flush`` come from the event loop's thread and the flushing thread: one lock.
    """

    def __init__(self, stream: Any, *, seconds: float = FLUSH_SECONDS) -> None:
        self._stream = stream
        self._lines: list[str] = []
        self._chars = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(seconds,), name="log-flush", daemon=True)
        self._thread.start()
        atexit.register(self.close)

    def write(self, text: str) -> int:
        """Keep ``text``; write everything kept once it passes :data:`FLUSH_CHARS`."""
        with self._lock:
            self._lines.append(text)
            self._chars += len(text)
            if self._chars >= FLUSH_CHARS:
                self._write_out()
        return len(text)

    def flush(self) -> None:
        """Called after every line (structlog's print): nothing here; the thread or ``urgent`` writes."""

    def urgent(self) -> None:
        """Write everything kept now (a warning or an error was just logged)."""
        with self._lock:
            self._write_out()

    def close(self) -> None:
        """Write what is left and stop the thread (at exit)."""
        self._stop.set()
        self.urgent()

    def _run(self, seconds: float) -> None:
        while not self._stop.wait(seconds):
            self.urgent()

    def _write_out(self) -> None:
        if self._lines:
            text, self._lines, self._chars = "".join(self._lines), [], 0
            self._stream.write(text)
            self._stream.flush()


def json_line(value: Any, **_options: Any) -> str:
    """One event as JSON, by orjson; never raises (a log line must not fail the code that logs it).

    Keys that are not strings (a seat number) are written as strings, values JSON cannot
    hold as their ``repr``; anything orjson still refuses goes through the standard library.
    """
    try:
        return orjson.dumps(value, default=repr, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, ValueError):
        return json.dumps(value, default=repr, skipkeys=True)


def configure_logging(fmt: str = "console", level: str = "info") -> None:
    """Set up structlog (and route stdlib logging, e.g. aiohttp's, through the same output)."""
    lossy = LossyStream(sys.stderr)
    stream: Any = BufferedLines(lossy)
    inner: Any = (structlog.processors.JSONRenderer(serializer=json_line) if fmt == "json"
                  else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()))

    def renderer(logger: Any, method: str, event: MutableMapping[str, Any]) -> Any:
        line = inner(logger, method, event)
        if method in _URGENT:
            stream.write(line + "\n")
            stream.urgent()  # written with what waits before it, in order
            raise structlog.DropEvent  # already written
        return line

    numeric = getattr(logging, level.upper(), logging.INFO)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            redact_secrets,
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        # One write a line (the line and its newline together), not print's two writes and a flush call.
        logger_factory=structlog.WriteLoggerFactory(file=stream),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=max(numeric, logging.WARNING), stream=stream, format="%(name)s %(message)s")
