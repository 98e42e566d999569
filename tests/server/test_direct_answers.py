"""Every update and every answer is written straight to an idle connection, not only a watched table's (issue 25).

Engine.IO's queue wakes the connection's writer task for each frame (a ``wait_for`` around the
queue, a task switch, aiohttp's frame built again): at a table with few watchers that was most of
what asyncio cost a burst hand. A real python-socketio server on loopback and raw websocket
clients (one asks for compression, as a browser does) check that the queue is skipped while the
connection is idle, and that nothing ever overtakes a packet queued before it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import socketio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.transport import edge
from tests.server.test_direct_frames import deflate_client, serving
from tests.support.socket_clients import WAIT, settled


def counting_puts(sio: socketio.AsyncServer, eio_sid: str) -> list[Any]:
    """Every packet put on the connection's engine.io queue from now on (the library's own way out)."""
    queue = sio.eio.sockets[eio_sid].queue
    put = queue.put
    seen: list[Any] = []

    async def counted(item: Any) -> None:
        seen.append(item)
        await put(item)

    queue.put = counted
    return seen


@asynccontextmanager
async def raw_client(port: int, arrived: asyncio.Queue[str],
                     sio: socketio.AsyncServer) -> AsyncIterator[tuple[aiohttp.ClientWebSocketResponse, str]]:
    """A compressing websocket client joined to the default namespace, and its engine.io sid, once idle."""
    async with aiohttp.ClientSession() as session:
        ws = await deflate_client(port, session)
        eio_sid = await asyncio.wait_for(arrived.get(), WAIT)
        await settled(sio, eio_sid)
        try:
            yield ws, eio_sid
        finally:
            await ws.close()


async def texts(ws: aiohttp.ClientWebSocketResponse, count: int) -> list[str]:
    """The next ``count`` Socket.IO packets' text (pings left out)."""
    seen: list[str] = []
    while len(seen) < count:
        text = await ws.receive_str(timeout=WAIT)
        if text.startswith("4"):
            seen.append(text)
    return seen


async def test_an_update_at_a_table_few_watch_skips_the_idle_connections_queue() -> None:
    async with serving() as (sio, port, arrived), raw_client(port, arrived, sio) as (ws, eio_sid):
        puts = counting_puts(sio, eio_sid)
        await edge.send_each(sio, "table_update", [(eio_sid, {"seq": 1})])  # no hold: a table with few watchers
        assert puts == [], "an idle connection's update is written straight to its socket"
        assert await texts(ws, 1) == ['42["table_update",{"seq":1}]']


async def test_an_answer_to_an_idle_connection_skips_its_queue() -> None:
    async with serving() as (sio, port, arrived), raw_client(port, arrived, sio) as (ws, eio_sid):

        async def ask(_sid: str, data: dict[str, Any]) -> dict[str, Any]:
            return {"answer": data["n"], "note": "é ♠"}

        sio.on("ask", ask)
        puts = counting_puts(sio, eio_sid)
        await ws.send_str('427["ask",{"n":3}]')
        answer = (await texts(ws, 1))[0]
        assert answer.startswith("437")
        assert json.loads(answer[3:]) == [{"answer": 3, "note": "é ♠"}]
        assert puts == [], "the answer was written straight to the idle connection's socket"


async def test_an_answer_given_after_a_queued_packet_arrives_after_it() -> None:
    async with serving() as (sio, port, arrived), raw_client(port, arrived, sio) as (ws, eio_sid):

        async def ask(_sid: str, data: dict[str, Any]) -> dict[str, Any]:
            await edge.send(sio, eio_sid, edge.encoded(sio, "chat", {"first": True}))  # queued: not yet written
            return {"answer": data["n"]}

        sio.on("ask", ask)
        puts = counting_puts(sio, eio_sid)
        await ws.send_str('421["ask",{"n":1}]')
        assert await texts(ws, 2) == ['42["chat",{"first":true}]', '431[{"answer":1}]']
        assert len(puts) == 2, "behind a queued packet the answer waits in the queue too"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.tuples(st.sampled_from(["queued", "update", "answer"]), st.booleans()),
                     min_size=1, max_size=25))
def test_queued_sends_updates_and_answers_reach_the_client_in_the_order_given(plan: list[tuple[str, bool]]) -> None:
    """Whatever mix of queued packets, updates and answers, with pauses or none: every one arrives, in order."""

    async def scenario() -> None:
        async with serving() as (sio, port, arrived), raw_client(port, arrived, sio) as (ws, eio_sid):
            asked: asyncio.Queue[int] = asyncio.Queue()

            async def ask(_sid: str, data: dict[str, Any]) -> dict[str, Any]:
                asked.put_nowait(data["n"])
                return {"n": data["n"]}

            sio.on("ask", ask)
            for n, (kind, pause) in enumerate(plan):
                if kind == "queued":
                    await edge.send(sio, eio_sid, edge.encoded(sio, "table_update", {"n": n, "pad": "q" * 90}))
                elif kind == "update":
                    await edge.send_each(sio, "table_update", [(eio_sid, {"n": n})])
                else:
                    await ws.send_str(f'42{n}["ask",{{"n":{n}}}]')
                    assert await asyncio.wait_for(asked.get(), WAIT) == n  # answered before the next send
                    await asyncio.sleep(0)  # the handler's answer is sent on the loop's next turn
                if pause:
                    await asyncio.sleep(0.002)
            got = []
            for text in await texts(ws, len(plan)):
                body = json.loads(text[text.index("["):])
                got.append(body[1]["n"] if text.startswith("42") else body[0]["n"])
            assert got == list(range(len(plan)))

    asyncio.run(scenario())
