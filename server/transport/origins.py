"""Which browser pages may open the socket: the server's own origin, and a configured list.

A page on another site could otherwise open a Socket.IO connection to a player's
server from the player's own browser. Browsers always send ``Origin`` with a
websocket; the terminal client and bots send none, and are let in as before.
python-socketio's own checks offer "same origin" (``None``) or "these origins"
(a list), not both: this is the callable form that does both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from server.transport.limits import Network, is_trusted


def own_origins(environ: Mapping[str, object], trusted: tuple[Network, ...] = ()) -> set[str]:
    """The origins the request was addressed to: its Host, and, from a trusted proxy only, the host and
    scheme it forwarded (``X-Forwarded-Host``, ``X-Forwarded-Proto``).

    >>> sorted(own_origins({"wsgi.url_scheme": "http", "HTTP_HOST": "127.0.0.1:8080"}))
    ['http://127.0.0.1:8080']
    """
    request = environ.get("aiohttp.request")
    # Engine.IO's environ takes its scheme from X-Forwarded-Proto and names every peer 127.0.0.1:
    # the aiohttp request says what the connection itself is.
    peer = getattr(request, "remote", None) if request is not None else environ.get("REMOTE_ADDR")
    peer = peer if isinstance(peer, str) else None
    scheme = str(getattr(request, "scheme", None) or environ.get("wsgi.url_scheme", "http"))
    host = str(environ.get("HTTP_HOST", "")).strip()
    found = {f"{scheme}://{host}"} if host else set()
    if is_trusted(peer, trusted):
        forwarded_host = str(environ.get("HTTP_X_FORWARDED_HOST", host)).split(",")[0].strip()
        forwarded_scheme = str(environ.get("HTTP_X_FORWARDED_PROTO", scheme)).split(",")[0].strip()
        if forwarded_host:
            found.add(f"{forwarded_scheme}://{forwarded_host}")
    return {origin.lower() for origin in found}


class OriginCheck:
    """``cors_allowed_origins`` for python-socketio: same origin, or one of ``allowed``; a forwarded
    origin counts as the same only from one of the ``trusted`` proxies."""

    def __init__(self, allowed: Iterable[str] = (), trusted: tuple[Network, ...] = ()) -> None:
        self.allowed = frozenset(origin.lower().rstrip("/") for origin in allowed)
        self.trusted = trusted

    def __call__(self, origin: str | None, environ: Mapping[str, object] | None = None) -> bool:
        """Whether a connection with this ``Origin`` is accepted (python-socketio only asks when one was sent)."""
        if not origin:
            return True
        origin = origin.lower().rstrip("/")
        return origin in self.allowed or origin in own_origins(environ or {}, self.trusted)
