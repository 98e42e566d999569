"""An update's websocket frame is built once and written straight to each idle connection (issue 25).

A real python-socketio server on loopback and real clients: python-socketio's own client,
and a raw aiohttp websocket that negotiates permessage-deflate, as a browser does. These
tests fail if a library changes a shape ``server/transport/edge.py`` relies on (the
direct write would then not happen), or if a direct write ever overtakes a packet
queued before it.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import socketio
from aiohttp import web
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.transport import edge
from server.transport.outlets import FrameHold
from server.transport.packets import TextPacket
from tests.support.clock import ManualClock
from tests.support.socket_clients import WAIT, settled, updates_client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def serving() -> AsyncIterator[tuple[socketio.AsyncServer, int, asyncio.Queue[str]]]:
    """A server as build_app makes it (websocket only, text packets), its port, and each new engine.io sid."""
    sio = socketio.AsyncServer(async_mode="aiohttp", serializer=TextPacket, transports=["websocket"])
    edge.record_websockets(sio)
    arrived: asyncio.Queue[str] = asyncio.Queue()

    async def connect(sid: str, _environ: Any, _auth: Any = None) -> None:
        arrived.put_nowait(sio.manager.eio_sid_from_sid(sid, "/"))

    sio.on("connect", connect)
    app = web.Application()
    sio.attach(app)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield sio, port, arrived
    finally:
        await sio.shutdown()
        await runner.cleanup()


async def test_an_idle_connection_gets_the_frame_written_straight_to_its_socket() -> None:
    got: asyncio.Queue[Any] = asyncio.Queue()
    async with serving() as (sio, port, arrived), updates_client(sio, port, arrived, got.put_nowait) as eio_sid:
        update = {"table": "main", "seq": 7, "note": "é ♠ " + "x" * 200}  # past 125 bytes: a longer header
        wire = edge.websocket_frame(edge.encoded(sio, "table_update", update))
        assert wire is not None
        assert edge.write_direct(sio, eio_sid, wire), "the library's shape changed: see server/transport/edge.py"
        assert await asyncio.wait_for(got.get(), WAIT) == update


async def test_a_connection_with_packets_waiting_gets_the_frame_after_them() -> None:
    got: list[Any] = []
    async with serving() as (sio, port, arrived), updates_client(sio, port, arrived, got.append) as eio_sid:
        await edge.send(sio, eio_sid, edge.encoded(sio, "table_update", {"seq": 1}))  # queued, not yet written
        wire = edge.websocket_frame(edge.encoded(sio, "table_update", {"seq": 2}))
        assert wire is not None
        assert not edge.write_direct(sio, eio_sid, wire)
        await edge.send_each(sio, "table_update", [(eio_sid, {"seq": 2})])
        async with asyncio.timeout(WAIT):
            while len(got) < 2:
                await asyncio.sleep(0.01)
        assert got == [{"seq": 1}, {"seq": 2}]


async def deflate_client(port: int, session: aiohttp.ClientSession) -> aiohttp.ClientWebSocketResponse:
    """A raw websocket that asks for compression (as Chromium does) and joins the default namespace."""
    ws = await session.ws_connect(f"http://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", compress=15)
    opened = await ws.receive_str(timeout=WAIT)
    assert opened.startswith("0")
    await ws.send_str("40")
    joined = await ws.receive_str(timeout=WAIT)
    assert joined.startswith("40")
    return ws


async def read_updates(ws: aiohttp.ClientWebSocketResponse, count: int) -> list[Any]:
    seen: list[Any] = []
    while len(seen) < count:
        text = await ws.receive_str(timeout=WAIT)
        if text.startswith("42"):
            seen.append(json.loads(text[2:])[1])
    return seen


async def queued_send(sio: socketio.AsyncServer, eio_sid: str, n: int) -> None:
    await edge.send(sio, eio_sid, edge.encoded(sio, "table_update", {"n": n, "pad": "q" * (n % 7) * 40}))


async def shared_send(sio: socketio.AsyncServer, eio_sid: str, n: int) -> None:
    direct = edge.Held({}, FrameHold(ManualClock(), 0.0))  # a table many watch: idle connections written at once
    await edge.send_each(sio, "table_update", [(eio_sid, {"n": n, "pad": "d" * (n % 5) * 60})], direct)


def held_send(hold: FrameHold) -> Callable[[socketio.AsyncServer, str, int], Awaitable[None]]:
    async def send(sio: socketio.AsyncServer, eio_sid: str, n: int) -> None:
        payload = {"n": n, "pad": "h" * (n % 3) * 50}
        await edge.send_each(sio, "table_update", [(eio_sid, payload)], edge.Held(payload, hold))
    return send


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.tuples(st.sampled_from(["queued", "direct", "held"]), st.booleans(), st.booleans()),
                     min_size=1, max_size=30))
def test_direct_held_and_queued_packets_reach_a_compressing_client_in_the_order_sent(
        plan: list[tuple[str, bool, bool]]) -> None:
    """Whatever mix of queued, direct and held sends, pauses and hold ends: every packet arrives, in order."""

    async def scenario() -> None:
        async with serving() as (sio, port, arrived), aiohttp.ClientSession() as session:
            ws = await deflate_client(port, session)
            eio_sid = await asyncio.wait_for(arrived.get(), WAIT)
            clock = ManualClock()
            hold = FrameHold(clock, 0.05)
            sends = {"queued": queued_send, "direct": shared_send, "held": held_send(hold)}
            for n, (kind, pause, hold_ends) in enumerate(plan):
                await sends[kind](sio, eio_sid, n)
                if pause:
                    await asyncio.sleep(0.002)
                if hold_ends:
                    clock.advance(0.05)
            clock.advance(0.05)
            got = await read_updates(ws, len(plan))
            assert [update["n"] for update in got] == list(range(len(plan)))
            await ws.close()

    asyncio.run(scenario())


async def test_once_one_connection_of_a_batch_waits_in_its_queue_the_rest_go_through_theirs() -> None:
    got: asyncio.Queue[Any] = asyncio.Queue()
    async with serving() as (sio, port, arrived), updates_client(sio, port, arrived, got.put_nowait) as eio_sid:
        queue = sio.eio.sockets[eio_sid].queue
        held = edge.Held({}, FrameHold(ManualClock(), 0.05))  # a table many watch: direct writes on
        await edge.send_each(sio, "table_update", [(eio_sid, {"seq": 1})], held)
        assert queue.qsize() == 0, "an idle connection's frame is written at once"
        await settled(sio, eio_sid)
        await edge.send(sio, eio_sid, edge.encoded(sio, "chat", {"n": 0}))  # the connection is busy now
        await edge.send_each(sio, "table_update", [(eio_sid, {"seq": 2}), (eio_sid, {"seq": 3})], held)
        assert queue.qsize() == 3, "behind a queued frame of the batch, the rest wait in their queues"
        assert [await asyncio.wait_for(got.get(), WAIT) for _ in range(3)] == [{"seq": 1}, {"seq": 2}, {"seq": 3}]
