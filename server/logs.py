"""Structured logs: JSON lines in production, readable console lines in development.

Secrets never reach a log line: a processor blanks any key that names one.
Context (table, hand, seat, account) is bound per handler with
``structlog.contextvars`` (PITFALLS 18).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog

SECRET_KEYS = frozenset({"password", "token", "host_token", "new_password", "old_password",
                         "server_seed", "auth", "authorization", "secret"})


def redact_secrets(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """Replace the value of every secret-looking key with ``***``."""
    for key in list(event):
        if key.lower() in SECRET_KEYS:
            event[key] = "***"
    return event


def configure_logging(fmt: str = "console", level: str = "info") -> None:
    """Set up structlog (and route stdlib logging, e.g. aiohttp's, through the same output)."""
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
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=max(numeric, logging.WARNING), stream=sys.stderr, format="%(name)s %(message)s")
