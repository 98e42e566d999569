"""Each batch's updates to this process's connections at a table (the table's publisher port)."""

from __future__ import annotations

import socketio

from server import protocol as p
from server.clock import SYSTEM_CLOCK, Clock
from server.transport import edge
from server.transport.outlets import HOLD_FROM, HOLD_SECONDS, FrameHold


class SocketPublisher:
    """Sends each batch's updates to this process's connections at the table, each the one that is its own.

    A connection of an account with a personal update gets that one (found through the
    account's room); every other connection in the table's room gets the spectator's.
    Each payload is encoded once, however many connections receive it; the spectators'
    frame is built once and, at a table with ``hold_from`` spectators or more, held up to
    ``hold_seconds`` for each, so that a burst of updates goes out in one write
    (``server/transport/outlets.py``). Only this
    process's connections: with several processes, ``server/cluster`` carries the
    updates to the others, which call this too.

    ``table_update`` is the edge's send loop itself (``edge.TableSends``): a batch's updates
    go from the table to the socket library in one hop, not through a loop here and then
    the edge's (docs/server.md, "One raise, from a click to every viewer").
    """

    def __init__(self, sio: socketio.AsyncServer, *, clock: Clock = SYSTEM_CLOCK,
                 hold_seconds: float = HOLD_SECONDS, hold_from: int = HOLD_FROM) -> None:
        self.sio = sio
        self.hold = FrameHold(clock, hold_seconds)
        self.hold_from = hold_from
        edge.record_websockets(sio)  # so each update's frame can be written once per idle connection
        self.sends = edge.TableSends(sio, p.EV_UPDATE, self.hold, hold_from)
        self.table_update = self.sends.table_update
