"""Structured logs: JSON lines in production, readable console lines in development.

Secrets never reach a log line: a processor blanks any key that names one.
Context (table, hand, seat, account) is bound per handler with
``structlog.contextvars`` (PITFALLS 18).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import MutableMapping
from typing import Any, TextIO

import structlog

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


def configure_logging(fmt: str = "console", level: str = "info") -> None:
    """Set up structlog (and route stdlib logging, e.g. aiohttp's, through the same output)."""
    stream: Any = LossyStream(sys.stderr)
    renderer: Any = (structlog.processors.JSONRenderer() if fmt == "json"
                     else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()))
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
        logger_factory=structlog.PrintLoggerFactory(file=stream),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=max(numeric, logging.WARNING), stream=stream, format="%(name)s %(message)s")
