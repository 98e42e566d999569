"""The spectators of a table many watch get the updates that come close together as one (``edge.TableSends``).

A real python-socketio server on loopback and real clients, time on a manual clock: each
connection's updates still follow on from one another (docs/protocol.md section 4), and the
players' own are never held (issue 25, eleventh round).
"""

from __future__ import annotations

import asyncio
from typing import Any

from server.table.ports import TableUpdates
from server.transport import edge
from server.transport.outlets import HOLD_FROM, FrameHold
from server.transport.rooms import account_room, table_room
from tests.server.conftest import Server
from tests.server.helpers import Policy, run_hands
from tests.server.test_direct_frames import WAIT, serving
from tests.support.clock import ManualClock
from tests.support.socket_clients import listeners

GATHER = 0.1


def _update(seq: int, who: str, view: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"table": "t", "from_seq": seq, "seq": seq, "server_time": float(seq), "who": who,
            "events": [{"seq": seq, "event": {"type": f"e{seq}"}}], "view": view or {}, "patch": [],
            "choices": {"seq": seq}}


def _batch(seq: int, *, snapshot: bool = False, seated: tuple[int, ...] = (7,)) -> TableUpdates:
    return TableUpdates(_update(seq, "spectator", {"status": f"s{seq}"}),
                        {account: _update(seq, f"p{account}") for account in seated}, snapshot=snapshot)


async def _next(queue: asyncio.Queue[Any]) -> tuple[int, int, list[int]]:
    got = await asyncio.wait_for(queue.get(), WAIT)
    return got["from_seq"], got["seq"], [e["seq"] for e in got["events"]]


async def test_updates_close_together_reach_the_spectators_as_one_and_the_player_at_once() -> None:
    async with serving() as (sio, port, arrived):
        clock = ManualClock()
        sends = edge.TableSends(sio, "table_update", FrameHold(clock, 0.05), hold_from=2, gather_seconds=GATHER)
        async with listeners(sio, port, arrived, 4) as at:
            got, sids = at.updates, at.sids
            await sio.enter_room(sids[0], account_room(7))
            await sio.enter_room(sids[3], account_room(8))
            for sid in sids:
                await sio.enter_room(sid, table_room("t"))
            player, watchers, sitter = got[0], got[1:3], got[3]  # account 8 watches, then sits down

            await sends.table_update("t", _batch(1))  # the first after a quiet spell goes at once
            for queue in (player, *watchers, sitter):
                assert (await _next(queue))[1] == 1
            await sends.table_update("t", _batch(2))
            await sends.table_update("t", _batch(3))
            assert [await _next(player), await _next(player)] == [(2, 2, [2]), (3, 3, [3])]  # never held
            clock.advance(GATHER)
            await asyncio.sleep(0)  # the held update's send is a task of its own
            for queue in (*watchers, sitter):
                assert await _next(queue) == (2, 3, [2, 3]), "two batches, one update"

            await sends.table_update("t", _batch(4))  # held: the last went out just now
            await sends.table_update("t", _batch(5, snapshot=True))  # a snapshot at 5: nothing held spans it
            for queue in (player, *watchers, sitter):
                assert [await _next(queue), await _next(queue)] == [(4, 4, [4]), (5, 5, [5])]

            clock.advance(GATHER)
            await sends.table_update("t", _batch(6))  # at once (quiet)
            await sends.table_update("t", _batch(7))  # held
            await sends.table_update("t", _batch(8, seated=(7, 8)))  # 8 sits down: what was held goes first
            assert [await _next(player) for _ in range(3)] == [(6, 6, [6]), (7, 7, [7]), (8, 8, [8])]
            assert [await _next(sitter) for _ in range(3)] == [(6, 6, [6]), (7, 7, [7]), (8, 8, [8])]
            clock.advance(GATHER)
            await asyncio.sleep(0)
            for queue in watchers:  # 7 went out as 8 sat down; 8 was held, for those who still watch
                assert [await _next(queue) for _ in range(3)] == [(6, 6, [6]), (7, 7, [7]), (8, 8, [8])]
            assert sitter.empty()
            assert player.empty()


async def test_at_a_table_many_watch_every_spectators_model_is_its_snapshot_after_the_hands(server: Server) -> None:
    """The real server and clients: 17 spectators (the host's connection is one more) watch three hands of bots."""
    host, players = await server.table(Policy(), Policy(), Policy())
    watchers = [await server.client(name=f"watcher{i}") for i in range(HOLD_FROM + 1)]
    for watcher in watchers:
        await watcher.join()
    marks = {id(client): client.mark() for client in (watchers[0], players[0])}
    await run_hands(host, 3)
    final = (await players[0].snapshot())["seq"]
    for watcher in (host, *watchers):
        # what was held comes within the gathering window (server/transport/outlets.py)
        await watcher.wait_for(lambda _e, w=watcher: w.model()["seq"] >= final)
        snapshot = await watcher.snapshot()
        assert _bare(watcher.model()) == _bare(snapshot)
        heard = [e["seq"] for e in watcher.log if e.get("kind") == "table"]
        assert heard == sorted(set(heard)), "every event once, in order"
    updates = [sum(1 for e in client.log[marks[id(client)]:] if e.get("kind") == "update")
               for client in (watchers[0], players[0])]  # each batch's update to the player, in an answer or not
    assert updates[0] < updates[1], "the spectators' updates went one by one: none was held"


def _bare(model: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in model.items() if k not in ("server_time", "seq")}
