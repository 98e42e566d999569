"""The one module that reaches past python-socketio's public API (PITFALLS 16: it ships no types).

The gateway and the publisher need four things the library does not offer as API: whether
a sid is a live connection, how many packets wait on a connection's queue, who is in a room
with their engine.io sids, and a packet encoded once for many connections and put straight
on each queue. Each is one short function here, so a new version of the library is checked
in one place.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import engineio
import socketio
import structlog

from server.protocol import NAMESPACE

log = structlog.get_logger("hcf.transport")

Frames = list[engineio.packet.Packet]
"""The engine.io packets of one Socket.IO event, encoded once."""


def is_connected(sio: socketio.AsyncServer, sid: str) -> bool:
    """Whether ``sid`` is a connection the manager knows (not during its own connect or disconnect)."""
    return bool(sio.manager.is_connected(sid, NAMESPACE))


def queued(sio: socketio.AsyncServer, sid: str) -> int:
    """How many packets wait on the connection's outgoing queue (0 if it is gone)."""
    eio_sid = sio.manager.eio_sid_from_sid(sid, NAMESPACE)
    socket = sio.eio.sockets.get(eio_sid) if eio_sid else None
    queue = getattr(socket, "queue", None)
    return queue.qsize() if queue is not None else 0


def participants(sio: socketio.AsyncServer, room: str) -> Iterable[tuple[str, str]]:
    """Each connection in ``room``: its sid and its engine.io sid."""
    found: Iterable[tuple[str, str]] = sio.manager.get_participants(NAMESPACE, room)
    return found


def encoded(sio: socketio.AsyncServer, event: str, data: Mapping[str, Any]) -> Frames:
    """The engine.io packets of one Socket.IO event, encoded once for any number of connections."""
    packet = sio.packet_class(socketio.packet.EVENT, namespace=NAMESPACE, data=[event, data])
    text = packet.encode()
    return [engineio.packet.Packet(engineio.packet.MESSAGE, part)
            for part in (text if isinstance(text, list) else [text])]


async def send(sio: socketio.AsyncServer, eio_sid: str, frames: Frames) -> None:
    """Put the packets on one connection's queue (engine.io's writer task for it does the writing).

    Not ``sio.emit``: its manager starts one task per recipient and waits for them all,
    for sends that only queue a packet; done here in turn, a connection closing
    meanwhile is skipped as before, without holding up the others.
    """
    for frame in frames:
        try:
            await sio.eio.send_packet(eio_sid, frame)
        except Exception as exc:  # a closed socket (SocketIsClosedError): the others still get theirs
            log.debug("send_skipped", error=type(exc).__name__)
            return


async def send_each(sio: socketio.AsyncServer, event: str, sends: list[tuple[str, Mapping[str, Any]]]) -> None:
    """Send ``event`` to each engine.io sid with its payload, in turn; a payload given to several is encoded once.

    Payloads are told apart by identity: the one update every spectator gets is one object.
    """
    frames: dict[int, Frames] = {}
    for eio_sid, data in sends:
        if id(data) not in frames:
            frames[id(data)] = encoded(sio, event, data)
        await send(sio, eio_sid, frames[id(data)])


EngineHandler = Callable[..., Awaitable[None]]


def wrap_engine_handlers(sio: socketio.AsyncServer,
                         wrap: Callable[[EngineHandler, EngineHandler], tuple[EngineHandler, EngineHandler]]) -> None:
    """Replace engine.io's ``message`` and ``disconnect`` handlers by what ``wrap`` makes of them."""
    handlers = sio.eio.handlers
    handlers["message"], handlers["disconnect"] = wrap(handlers["message"], handlers["disconnect"])


def request_of(sio: socketio.AsyncServer, eio_sid: str) -> Any:
    """The aiohttp request that opened an engine.io connection (None if it is gone)."""
    environ = sio.environ.get(eio_sid) or {}
    return environ.get("aiohttp.request")


async def close_engine(sio: socketio.AsyncServer, eio_sid: str) -> None:
    """Close an engine.io connection by its engine.io sid."""
    await sio.eio.disconnect(eio_sid)


def open_connections(sio: socketio.AsyncServer) -> int:
    """How many engine.io connections are still open."""
    return len(sio.eio.sockets)
