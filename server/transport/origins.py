"""Which browser pages may open the socket: the server's own origin, and a configured list.

A page on another site could otherwise open a Socket.IO connection to a player's
server from the player's own browser. Browsers always send ``Origin`` with a
websocket; the terminal client and bots send none, and are let in as before.
python-socketio's own checks offer "same origin" (``None``) or "these origins"
(a list), not both: this is the callable form that does both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def own_origins(environ: Mapping[str, Any]) -> set[str]:
    """The origins the request was addressed to: its Host, and a proxy's forwarded host and scheme.

    >>> sorted(own_origins({"wsgi.url_scheme": "http", "HTTP_HOST": "127.0.0.1:8080"}))
    ['http://127.0.0.1:8080']
    """
    host = str(environ.get("HTTP_HOST", "")).strip()
    scheme = str(environ.get("wsgi.url_scheme", "http"))
    found = {f"{scheme}://{host}"} if host else set()
    forwarded_host = str(environ.get("HTTP_X_FORWARDED_HOST", host)).split(",")[0].strip()
    forwarded_scheme = str(environ.get("HTTP_X_FORWARDED_PROTO", scheme)).split(",")[0].strip()
    if forwarded_host:
        found.add(f"{forwarded_scheme}://{forwarded_host}")
    return {origin.lower() for origin in found}


class OriginCheck:
    """``cors_allowed_origins`` for python-socketio: same origin, or one of ``allowed``."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.allowed = frozenset(origin.lower().rstrip("/") for origin in allowed)

    def __call__(self, origin: str | None, environ: Mapping[str, Any] | None = None) -> bool:
        """Whether a connection with this ``Origin`` is accepted (python-socketio only asks when one was sent)."""
        if not origin:
            return True
        origin = origin.lower().rstrip("/")
        return origin in self.allowed or origin in own_origins(environ or {})
