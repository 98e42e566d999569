"""The publisher's send loop (``edge.TableSends``) walks a table's room only after someone entered or left a room.

A real python-socketio server on loopback and real clients: each batch reaches exactly the
connections at the table when it is sent, each with its own update, although the viewers
are remembered from batch to batch (issue 25).
"""

from __future__ import annotations

import asyncio

from server.table.ports import TableUpdates
from server.transport import edge
from server.transport.outlets import FrameHold
from server.transport.rooms import account_room, table_room
from tests.server.test_direct_frames import WAIT, serving
from tests.support.clock import ManualClock
from tests.support.socket_clients import listeners


def _updates(seq: int, skip: frozenset[int] = frozenset()) -> TableUpdates:
    return TableUpdates({"seq": seq, "who": "spectator"}, {7: {"seq": seq, "who": "seven"}}, skip)


async def test_joins_and_leaves_change_who_gets_the_next_batch_and_nothing_else_walks_the_room() -> None:
    async with serving() as (sio, port, arrived):
        sends = edge.TableSends(sio, "table_update", FrameHold(ManualClock(), 0.05), hold_from=16)
        async with listeners(sio, port, arrived, 3) as at:
            clients, got, sids, eio_sids = at.clients, at.updates, at.sids, at.eio_sids
            await sio.enter_room(sids[0], account_room(7))
            for sid in sids[:2]:
                await sio.enter_room(sid, table_room("t"))
            await sends.table_update("t", _updates(1))
            assert await asyncio.wait_for(got[0].get(), WAIT) == {"seq": 1, "who": "seven"}
            assert await asyncio.wait_for(got[1].get(), WAIT) == {"seq": 1, "who": "spectator"}

            walked, _ = sends.viewers("t", frozenset({7}))
            assert sends.viewers("t", frozenset({7}))[0] is walked, "no room changed: the viewers are remembered"
            assert sends.viewers("t", frozenset()) == ([(eio_sids[0], None), (eio_sids[1], None)], 2), \
                "other accounts with updates: the connections are matched with them again"
            await sio.enter_room(sids[2], table_room("t"))
            await sio.leave_room(sids[1], table_room("t"))
            await sends.table_update("t", _updates(2, skip=frozenset({7})))
            assert await asyncio.wait_for(got[2].get(), WAIT) == {"seq": 2, "who": "spectator"}

            await clients[2].disconnect()
            for _ in range(400):  # until the server has heard of it
                if not edge.is_connected(sio, sids[2]):
                    break
                await asyncio.sleep(0.005)
            await sends.table_update("t", _updates(3))
            assert await asyncio.wait_for(got[0].get(), WAIT) == {"seq": 3, "who": "seven"}
            assert sends.viewers("t", frozenset({7})) == ([(eio_sids[0], 7)], 0)
            assert got[1].empty(), "it left the table before batch 2"
            assert got[2].empty(), "it was gone before batch 3"
