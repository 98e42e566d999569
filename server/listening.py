"""The server's listening socket, taken before anything else (``hcf-server serve``).

Kept apart from ``server.app`` (and light: the standard library only) so that a busy
port or an owned database stops a start at once, before the whole server is imported.
"""

from __future__ import annotations

import errno
import socket
from typing import Final

MAX_PORT: Final = 65535


class PortUnavailable(Exception):  # noqa: N818 - reads as what happened
    """The address or port cannot be listened on; nothing else was tried."""


def listening_socket(host: str, port: int, *, database_url: str | None = None) -> socket.socket:
    """The server's listening socket, bound before anything else (so a busy port stops a start at once).

    ``database_url``: the database this server is for; when the port is busy because the
    server that owns that (SQLite) database listens there, the refusal names it.
    """
    where = f"port {port} on {host}"
    if not 0 <= port <= MAX_PORT:
        raise PortUnavailable(f"{port} is not a port number: choose one from 1 to {MAX_PORT} with --port")
    try:
        family, _, _, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                      flags=socket.AI_PASSIVE)[0]
    except socket.gaierror:
        raise PortUnavailable(f"cannot listen on {host!r}: it is not an address or a known host name") from None
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp does: no wait after a restart
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            _name_the_holder(host, port, database_url)
            raise PortUnavailable(f"{where} is already in use by another program (another hcf-server?); "
                                  "stop it or choose another port with --port") from None
        if exc.errno == errno.EACCES:
            raise PortUnavailable(f"not allowed to listen on {where} (ports below 1024 need privileges); "
                                  "choose another port with --port") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise PortUnavailable(f"cannot listen on {host}: it is not an address of this machine") from None
        raise PortUnavailable(f"cannot listen on {where}: {exc.strerror}") from None
    sock.setblocking(False)
    return sock


def _name_the_holder(host: str, port: int, database_url: str | None) -> None:
    """Raise PortUnavailable naming the server on ``port`` if it owns this server's database."""
    if database_url is None:
        return
    from server.persistence.ownership import peek

    holder = peek(database_url)
    if holder is not None and holder.port == port:  # most likely: this very server started twice
        raise PortUnavailable(f"port {port} on {host} is already in use by {holder.describe()}, "
                              f"which serves this database; stop it first (kill -TERM {holder.pid})")
