"""The one module that reaches past python-socketio's public API (PITFALLS 16: it ships no types).

The gateway and the publisher need seven things the library does not offer as API: whether
a sid is a live connection, how many packets wait on a connection's queue, who is in a room
with their engine.io sids, when anyone entered or left a room, a packet encoded once for
many connections and put straight on each queue, that packet's websocket frame built
once and written straight to each idle connection's socket, and the same for the library's
own packets (the answers to requests). Each is one short function
here, so a new version of the library is checked in one place (tests/test_socket_edge.py
fails if a shape relied on here changes). :class:`TableSends` is the publisher's send
loop: a batch's updates go from the table to the library through it alone.
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import engineio
import socketio
import structlog

from server.clock import Timer, call_later
from server.protocol import NAMESPACE
from server.rules.vocabulary import AccountId
from server.table.ports import TableUpdates, UpdatePayload
from server.table.updates import merged
from server.transport.outlets import GATHER_SECONDS, FrameHold
from server.transport.rooms import account_room, table_room

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


@dataclass(frozen=True, slots=True)
class Held:
    """The payload whose frames go through ``hold`` (the spectators', at a table many watch)."""

    payload: Mapping[str, Any]
    hold: FrameHold


def room_changes(sio: socketio.AsyncServer) -> list[int]:
    """A counter (its one item) that grows whenever a connection enters or leaves any room of this server.

    What is derived from rooms (a table's viewers and their accounts) is rebuilt only after a
    change: joins and leaves are rare next to a table's batches. Every way in or out of a room
    (connect, enter, leave, disconnect, a room closed, and the Redis manager's relayed ones) goes
    through the manager's ``basic_enter_room``, ``basic_leave_room`` or ``basic_close_room``.
    """
    manager = sio.manager
    counter: list[int] | None = getattr(manager, "hcf_room_changes", None)
    if counter is None:
        changes: list[int] = [0]
        for name in ("basic_enter_room", "basic_leave_room", "basic_close_room"):
            setattr(manager, name, _counted(getattr(manager, name), changes))
        manager.hcf_room_changes = counter = changes
    return counter


def _counted(method: Callable[..., Any], changes: list[int]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        changes[0] += 1
        return method(*args, **kwargs)

    return counted


Viewer = tuple[str, AccountId | None]
"""A connection at a table: its engine.io sid and its account when that account may have a personal update."""


@dataclass(slots=True, eq=False)
class _Gathered:
    """A table many watch: its spectators' updates held a moment, to go out to them as one."""

    viewers: list[Viewer]  # whom the held update is for: the table's connections when it was first held
    update: UpdatePayload | None = None
    last_sent: float = float("-inf")  # when the spectators last had an update (the clock's monotonic time)
    timer: Timer | None = None


class TableSends:
    """Each batch's updates to this process's connections at a table: the publisher's send loop (one hop).

    A connection of an account with a personal update gets that one; every other connection in
    the table's room gets the spectator's. Who is at a table, and whose account, is walked from
    the rooms once after any room changed (:func:`room_changes`), not on every batch.

    At a table with ``hold_from`` spectators or more, the spectators' updates that come within
    ``gather_seconds`` of the last one they had are held and go out as one (``merged``), when
    that time is up: each spectator costs a frame and a write for each update it gets, about as
    much as all of a hand's other work for it (docs/benchmarks.md, eleventh round). The first
    update after a quiet spell goes at once, so a spectator waits only while updates come faster
    than that. What is held goes out first, to those it was held for, whenever anyone enters or
    leaves the table's room or sits or stands (a connection's updates change from the
    spectators' to its own or back there) and before a batch that answered a snapshot (no held
    update spans the seq a snapshot was taken at): every connection's updates follow on from
    one another, as docs/protocol.md section 4 asks. The players' updates are never held.
    """

    def __init__(self, sio: socketio.AsyncServer, event: str, hold: FrameHold, hold_from: int,
                 gather_seconds: float = GATHER_SECONDS) -> None:
        self.sio, self.event, self.hold, self.hold_from = sio, event, hold, hold_from
        self.clock, self.gather_seconds = hold.clock, gather_seconds
        self._changes = room_changes(sio)
        self._seen = -1  # the room changes the cached viewers were walked at
        # Per table: the accounts its viewers were matched with, the viewers, how many are spectators
        self._viewers: dict[str, tuple[frozenset[AccountId], list[Viewer], int]] = {}
        self._gathered: dict[str, _Gathered] = {}
        self._sending: set[asyncio.Future[None]] = set()  # held updates on their way (kept from the collector)

    async def table_update(self, table: str, updates: TableUpdates) -> None:
        """One ``table_update`` per connection at the table, but none to the accounts in ``updates.skip``."""
        viewers, spectators = self.viewers(table, frozenset(updates.accounts) | updates.skip)
        gathered = self._gathered.get(table)
        if gathered is not None and gathered.update is not None and (
                updates.snapshot or (gathered.viewers is not viewers and gathered.viewers != viewers)):
            await self.send_gathered(table)  # what was held goes first, to those it was held for
        if not viewers:
            return
        spectator, accounts, skip = updates.spectator, updates.accounts, updates.skip
        gathering = spectators >= self.hold_from and not updates.snapshot and self._gather(table, updates, viewers)
        sends: list[tuple[str, Mapping[str, object]]] = []
        for eio_sid, account in viewers:
            if account is None:
                if not gathering:  # a held update goes out later, with the next ones (send_gathered)
                    sends.append((eio_sid, spectator))
            elif account not in skip:  # a skipped one had its update with the answer to its own request
                sends.append((eio_sid, accounts.get(account, spectator)))
        held = Held(spectator, self.hold) if spectators >= self.hold_from else None
        await send_each(self.sio, self.event, sends, held)  # each payload encoded once, however many get it

    def _gather(self, table: str, updates: TableUpdates, viewers: list[Viewer]) -> bool:
        """Whether the spectators' update of this batch is held (to go out with the next ones), not sent now."""
        now = self.clock.monotonic()
        gathered = self._gathered.get(table)
        if gathered is None:
            gathered = self._gathered[table] = _Gathered(viewers)
        if gathered.update is not None:  # an update is held already: this one goes with it
            gathered.update = merged(gathered.update, updates.spectator)
            return True
        wait = gathered.last_sent + self.gather_seconds - now
        if wait <= 0:  # the first after a quiet spell
            gathered.last_sent = now
            return False
        gathered.viewers, gathered.update = viewers, updates.spectator
        gathered.timer = call_later(self.clock, wait, lambda: self._send_soon(table))
        return True

    def _send_soon(self, table: str) -> None:
        task = asyncio.ensure_future(self.send_gathered(table))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def send_gathered(self, table: str) -> None:
        """Send the spectators' held update at ``table`` now, if one is held, to those it was held for that are
        still at the table (one who sat down since gets it too: its own updates then follow on from it)."""
        gathered = self._gathered.get(table)
        if gathered is None or gathered.update is None:
            return
        update, gathered.update, gathered.last_sent = gathered.update, None, self.clock.monotonic()
        if gathered.timer is not None:
            gathered.timer.cancel()
            gathered.timer = None
        here = {eio_sid for _sid, eio_sid in participants(self.sio, table_room(table))}  # not to one that left
        await send_each(self.sio, self.event, [(eio_sid, update) for eio_sid, account in gathered.viewers
                                               if account is None and eio_sid in here])

    def viewers(self, table: str, accounts: frozenset[AccountId]) -> tuple[list[Viewer], int]:
        """The connections at ``table`` in the room's order, each with its account if in ``accounts``, and how
        many have none of them (the spectators)."""
        if self._seen != self._changes[0]:
            self._seen, self._viewers = self._changes[0], {}
        found = self._viewers.get(table)
        if found is None or found[0] != accounts:  # the last walk only: a table's accounts change now and then
            account_of = {sid: known for known in accounts for sid, _eio in participants(self.sio, account_room(known))}
            viewers = [(eio_sid, account_of.get(sid)) for sid, eio_sid in participants(self.sio, table_room(table))]
            found = self._viewers[table] = accounts, viewers, sum(account is None for _, account in viewers)
        return found[1], found[2]


async def send_each(sio: socketio.AsyncServer, event: str, sends: list[tuple[str, Mapping[str, Any]]],
                    held: Held | None = None) -> None:
    """Send ``event`` to each engine.io sid with its payload, in the order given.

    A payload given to several is encoded once (told apart by identity: the one update every
    spectator gets is one object), and its websocket frame is built once too and written
    straight to each idle connection (``idle_outlet``): no queue, and no wake-up of
    engine.io's writer task, for each frame. A busy connection gets it through its queue,
    after what waits there, and from then on the rest go through their queues too, so
    that the connections hear of a batch in the order given, as engine.io's writers would
    have it. With ``held`` (a table many watch), ``held.payload``'s frame goes through
    ``held.hold`` instead, to go out with the next ones in one write.
    """
    built: dict[int, tuple[Frames, bytes | None]] = {}
    queued = False
    waiting: list[Outlet] = []  # idle connections for the held payload, given to the hold together
    sockets = sio.eio.sockets
    for eio_sid, data in sends:
        found = built.get(id(data))
        if found is None:
            frames = encoded(sio, event, data)
            found = built[id(data)] = frames, websocket_frame(frames)
        frames, wire = found
        outlet: Outlet | None = None
        if wire is not None and not queued:
            outlet = getattr(sockets.get(eio_sid), "hcf_outlet", None)
            if outlet is not None and outlet.idle() is None:
                outlet = None
        if outlet is None or wire is None:
            queued = True
            if waiting and held is not None:
                held.hold.put_all(waiting, built[id(held.payload)][1] or b"")
                waiting = []
            await send(sio, eio_sid, frames)
        elif held is not None and data is held.payload:
            waiting.append(outlet)
        else:
            outlet.write(wire)
    if waiting and held is not None:
        held.hold.put_all(waiting, built[id(held.payload)][1] or b"")


Transport = Callable[[], asyncio.WriteTransport | None]


def _never_idle() -> asyncio.WriteTransport | None:
    return None


class Outlet:
    """One websocket connection's socket, written to directly; bytes held for it go first.

    ``transport_of`` gives the open socket (None once it closes); ``idle`` gives it only
    while a frame may be written past the library's queue (``server/transport/edge.py``
    says when).
    """

    __slots__ = ("_transport_of", "idle", "last_write", "pending")

    def __init__(self, transport_of: Transport, idle: Transport = _never_idle) -> None:
        self._transport_of = transport_of
        self.idle = idle
        self.pending = bytearray()  # frames held for this connection, in order
        self.last_write = float("-inf")  # when a hold last wrote to it (the hold's clock)

    def transport(self) -> asyncio.WriteTransport | None:
        """The open socket (None once it is closing or gone)."""
        transport = self._transport_of()
        return None if transport is None or transport.is_closing() else transport

    def write(self, data: bytes) -> None:
        """Write what is held and then ``data``, in one write (nothing, and nothing held, if the socket is gone)."""
        transport = self.transport()
        if transport is None:
            self.pending.clear()
            return
        if self.pending:
            self.pending += data
            data = bytes(self.pending)
            self.pending.clear()
        transport.write(data)

    def flush(self) -> None:
        """Write what is held, if anything."""
        if self.pending:
            self.write(b"")


def websocket_frame(frames: Frames) -> bytes | None:
    """The whole websocket frame (unmasked text, as a server sends) of a one-packet text event; None otherwise.

    A spectator's update cost about 0.3 ms of server CPU a hand per spectator through
    engine.io's queue, its writer task and aiohttp's frame writer (PITFALLS 20): the same
    bytes, built again for every connection. Built here once, each connection costs one write.
    """
    if len(frames) != 1:
        return None
    text = frames[0].encode()
    if not isinstance(text, str):
        return None
    payload = text.encode()
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)  # FIN, text; no mask: a server's frames are not masked
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + payload


def record_websockets(sio: socketio.AsyncServer) -> None:
    """Give each engine.io socket an :class:`Outlet` to its websocket, for direct writes (once per server).

    The library makes the websocket inside the connection's handler and keeps it nowhere
    we can reach; its factory is wrapped in this server's own copy of the driver table
    (the table is the driver module's, shared by every server in the process). The
    websocket's ``send`` (what engine.io's writer task calls) first writes what the outlet holds.
    The server's own packets (the answers to requests above all) are written straight to an
    idle connection too, through the library's one way out for them (``_send_packet``).
    """
    drivers: dict[str, Any] = sio.eio._async
    if drivers.get("hcf_recorded"):
        return
    library = drivers["websocket"]

    def recording(handler: Any, server: Any) -> Any:
        websocket = library(handler, server)
        owner = getattr(handler, "__self__", None)  # the engine.io socket whose handler this is
        if owner is not None:
            outlet = Outlet(lambda: _transport_of(websocket), _idleness(owner, websocket))
            library_send = websocket.send

            async def send(message: Any) -> None:
                outlet.flush()  # frames held for this connection were given before this packet
                await library_send(message)

            websocket.send = send
            owner.hcf_outlet = outlet
        return websocket

    sio.eio._async = {**drivers, "websocket": recording, "hcf_recorded": True}
    library_send_packet = sio._send_packet

    async def send_packet(eio_sid: str, pkt: Any) -> None:
        # An answer (and any other packet of the library's own) written straight to an idle connection:
        # the acting player's answer skips the queue and its writer task's wake-up, as the updates do
        outlet = idle_outlet(sio, eio_sid)
        wire = socketio_frame(pkt) if outlet is not None else None
        if outlet is None or wire is None:
            await library_send_packet(eio_sid, pkt)
        else:
            outlet.write(wire)

    sio._send_packet = send_packet


def socketio_frame(pkt: Any) -> bytes | None:
    """The websocket frame of a Socket.IO packet that encodes as one text packet; None otherwise."""
    text = pkt.encode()
    if not isinstance(text, str):
        return None  # binary attachments: the library's queue sends them
    return websocket_frame([engineio.packet.Packet(engineio.packet.MESSAGE, text)])


def _transport_of(websocket: Any) -> asyncio.WriteTransport | None:
    """The socket under the library's websocket (None before its handshake or once it closes)."""
    writer = getattr(getattr(websocket, "_sock", None), "_writer", None)
    if writer is None or writer._closing:
        return None
    transport: asyncio.WriteTransport | None = getattr(writer, "transport", None)
    return transport


def _idleness(socket: Any, websocket: Any) -> Callable[[], asyncio.WriteTransport | None]:
    """The socket of an engine.io connection while a frame may be written to it past its queue, else None.

    Idle: an open websocket whose engine.io writer task is parked waiting for its queue,
    with nothing queued and the socket's send buffer under its high-water mark. Then no
    packet given before this one is still unwritten, so the order a client reads is the
    order sent; a slow reader's packets go through the queue, where the gateway sees them pile up.
    What does not change over a connection's life is looked up once: this runs for every
    spectator on every update.
    """
    queue: asyncio.Queue[Any] = socket.queue
    ping_timeout = socket.server.ping_timeout
    getters = queue._getters  # type: ignore[attr-defined]  # the writer's wait on the queue (no public API)
    found: list[Any] = []  # the aiohttp writer and its transport, once the handshake made them

    def idle() -> asyncio.WriteTransport | None:
        if not found:
            writer = getattr(getattr(websocket, "_sock", None), "_writer", None)
            if writer is None:
                return None
            found.extend((writer, writer.transport, writer.transport.get_write_buffer_limits()[1]))
        writer, transport, high = found
        if (socket.closed or socket.upgrading or not socket.upgraded or writer._closing or transport.is_closing()
                or queue.qsize()):
            return None  # closing, or the writer task holds packets sent before this one
        last_ping = socket.last_ping
        if last_ping and time.time() - last_ping > ping_timeout:
            return None  # the library's send closes a connection whose pong is overdue
        for waiter in getters:
            if not waiter.done():
                break
        else:
            return None  # the writer task is about to take packets sent before this one
        if transport.get_write_buffer_size() >= high:
            return None
        transport_: asyncio.WriteTransport = transport
        return transport_

    return idle


def idle_outlet(sio: socketio.AsyncServer, eio_sid: str) -> Outlet | None:
    """The connection's outlet if a frame may be written to it now (see ``_idleness``), else None."""
    outlet: Outlet | None = getattr(sio.eio.sockets.get(eio_sid), "hcf_outlet", None)
    return outlet if outlet is not None and outlet.idle() is not None else None


def write_direct(sio: socketio.AsyncServer, eio_sid: str, wire: bytes) -> bool:
    """Write a frame (after anything held) straight to an idle connection; False, nothing written, if not idle."""
    outlet = idle_outlet(sio, eio_sid)
    if outlet is None:
        return False
    outlet.write(wire)
    return True


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
