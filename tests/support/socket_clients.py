"""A real python-socketio client on a loopback server, for the tests of how frames reach a connection."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import socketio

WAIT = 10.0
"""How long a test waits for the network on loopback before it fails."""


async def settled(sio: socketio.AsyncServer, eio_sid: str) -> None:
    """Until the connection's writer task waits on its empty queue (a few turns of the loop)."""
    for _ in range(200):
        if sio.eio.sockets[eio_sid].queue.qsize() == 0:
            await asyncio.sleep(0)
            if any(not w.done() for w in sio.eio.sockets[eio_sid].queue._getters):
                return
        await asyncio.sleep(0.005)
    raise AssertionError("the connection's writer never went idle")


@asynccontextmanager
async def updates_client(sio: socketio.AsyncServer, port: int, arrived: asyncio.Queue[str],
                         on_update: Callable[[Any], Any]) -> AsyncIterator[str]:
    """A client connected over the websocket, ``on_update`` called with each ``table_update``; yields the engine.io
    sid the server gave it (``arrived`` says it), once the connection's writer is idle. Disconnected at the end."""
    client = socketio.AsyncClient()
    client.on("table_update", on_update)
    await client.connect(f"http://127.0.0.1:{port}", transports=["websocket"])
    try:
        eio_sid = await asyncio.wait_for(arrived.get(), WAIT)
        await settled(sio, eio_sid)
        yield eio_sid
    finally:
        await client.disconnect()


@dataclass(frozen=True, slots=True)
class Listeners:
    """Clients that each put every ``table_update`` they receive on a queue of their own, with the sids the server
    gave them (the Socket.IO ones to put in rooms, the engine.io ones a send loop names), in the same order."""

    clients: list[socketio.AsyncClient]
    updates: list[asyncio.Queue[Any]]
    sids: list[str]
    eio_sids: list[str]


@asynccontextmanager
async def listeners(sio: socketio.AsyncServer, port: int, arrived: asyncio.Queue[str],
                    count: int) -> AsyncIterator[Listeners]:
    """``count`` clients connected over the websocket (``arrived`` says each one's engine.io sid); disconnected at
    the end."""
    clients: list[socketio.AsyncClient] = []
    updates: list[asyncio.Queue[Any]] = []
    try:
        for _ in range(count):
            client, queue = socketio.AsyncClient(), asyncio.Queue[Any]()
            client.on("table_update", queue.put_nowait)
            await client.connect(f"http://127.0.0.1:{port}", transports=["websocket"])
            clients.append(client)
            updates.append(queue)
        eio_sids = [await asyncio.wait_for(arrived.get(), WAIT) for _ in clients]
        yield Listeners(clients, updates, [sio.manager.sid_from_eio_sid(e, "/") for e in eio_sids], eio_sids)
    finally:
        for client in clients:
            await client.disconnect()
