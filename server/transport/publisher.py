"""Each batch's updates to this process's connections at a table (the table's publisher port)."""

from __future__ import annotations

from collections.abc import Mapping

import socketio

from server import protocol as p
from server.clock import SYSTEM_CLOCK, Clock
from server.rules.vocabulary import AccountId
from server.table.ports import TableUpdates
from server.transport import edge
from server.transport.outlets import HOLD_FROM, HOLD_SECONDS, FrameHold
from server.transport.rooms import account_room, table_room


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
    """

    def __init__(self, sio: socketio.AsyncServer, *, clock: Clock = SYSTEM_CLOCK,
                 hold_seconds: float = HOLD_SECONDS, hold_from: int = HOLD_FROM) -> None:
        self.sio = sio
        self.hold = FrameHold(clock, hold_seconds)
        self.hold_from = hold_from
        edge.record_websockets(sio)  # so each update's frame can be written once per idle connection

    async def table_update(self, table: str, updates: TableUpdates) -> None:
        """One ``table_update`` per connection at the table, but none to the accounts in ``updates.skip``."""
        viewers = list(edge.participants(self.sio, table_room(table)))
        if not viewers:
            return
        account_of: dict[str, AccountId] = {}
        for known in (*updates.accounts, *updates.skip):
            for sid, _eio in edge.participants(self.sio, account_room(known)):
                account_of[sid] = known
        sends: list[tuple[str, Mapping[str, object]]] = []
        spectators = 0
        for sid, eio_sid in viewers:
            account: AccountId | None = account_of.get(sid)
            if account in updates.skip:
                continue  # its update went with the answer to its own request
            personal = updates.accounts.get(account) if account is not None else None
            spectators += personal is None
            sends.append((eio_sid, personal if personal is not None else updates.spectator))
        held = edge.Held(updates.spectator, self.hold) if spectators >= self.hold_from else None
        await edge.send_each(self.sio, p.EV_UPDATE, sends, held)  # each payload encoded once, however many get it
