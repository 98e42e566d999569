"""A lean Socket.IO client for the load generators: Engine.IO 4 over one aiohttp websocket.

``socketio.AsyncClient`` costs the load generator far more CPU per message than the
server spends on it (a task per incoming event, reconnection machinery); on two shared
cores that would make the generator the bottleneck. This client speaks only what the
benchmark needs, in the order the frames arrive (one reader per connection):

- ``0{...}`` open, ``40{auth}`` connect to ``/``, ``40{sid}`` / ``44{error}`` answer;
- ``2`` ping from the server, answered ``3``;
- ``42[event, data]`` server events, ``42<id>[event, data]`` requests with an ack,
  ``43<id>[reply]`` acks.

Only for talking to a server on this machine (127.0.0.1).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import aiohttp

Handler = Callable[[str, Any], None]


class SioError(Exception):
    """The connection was refused or dropped."""


class RawClient:
    """One Socket.IO connection; ``on_event(name, data)`` is called for every server event, in order."""

    def __init__(self, session: aiohttp.ClientSession, port: int, auth: dict[str, str],
                 on_event: Handler | None = None) -> None:
        self.session, self.port, self.auth = session, port, auth
        self.on_event = on_event
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._acks: dict[int, asyncio.Future[Any]] = {}
        self._next = 0
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        self._pending: set[asyncio.Future[None]] = set()
        # Websocket frames this connection received and sent after connecting (the server's work is per frame).
        self.frames_in = 0
        self.frames_out = 0
        self.bytes_in = 0  # the frames' text, in characters (UTF-8 bytes for our ASCII-only JSON)
        self.bytes_out = 0

    async def connect(self, timeout: float = 10.0) -> None:
        """Open the websocket and join the default namespace (raises SioError when refused)."""
        url = f"ws://127.0.0.1:{self.port}/socket.io/?EIO=4&transport=websocket"
        self.ws = await self.session.ws_connect(url, timeout=aiohttp.ClientWSTimeout(ws_close=timeout),
                                                autoping=True, max_msg_size=0)
        opened = await asyncio.wait_for(self.ws.receive(), timeout)
        if opened.type != aiohttp.WSMsgType.TEXT or not opened.data.startswith("0"):
            raise SioError(f"no Engine.IO open packet: {opened!r}")
        await self.ws.send_str("40" + json.dumps(self.auth))
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), timeout)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise SioError(f"connection closed while connecting: {msg!r}")
            if msg.data == "2":
                await self.ws.send_str("3")
                continue
            if msg.data.startswith("40"):
                break
            if msg.data.startswith("44"):
                raise SioError(f"connection refused: {msg.data[2:]}")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for msg in self.ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                self._packet(msg.data)
        finally:
            self.closed.set()
            for future in self._acks.values():
                if not future.done():
                    future.set_exception(SioError("connection closed"))
            self._acks.clear()

    def _packet(self, data: str) -> None:
        self.frames_in += 1
        self.bytes_in += len(data)
        if data == "2":
            assert self.ws is not None
            self.frames_out += 1
            self.bytes_out += 1
            pong = asyncio.ensure_future(self.ws.send_str("3"))
            self._pending.add(pong)
            pong.add_done_callback(self._pending.discard)
            return
        if data.startswith("43"):
            body = data.index("[")
            future = self._acks.pop(int(data[2:body]), None)
            if future is not None and not future.done():
                args = json.loads(data[body:])
                future.set_result(args[0] if args else None)
            return
        if data.startswith("42") and self.on_event is not None:
            body = data.index("[")
            args = json.loads(data[body:])
            self.on_event(args[0], args[1] if len(args) > 1 else None)

    async def call(self, event: str, data: Any, timeout: float = 30.0) -> Any:
        """Emit with an acknowledgement and return the server's answer."""
        return (await self.timed_call(event, data, timeout))[1]

    async def timed_call(self, event: str, data: Any, timeout: float = 30.0) -> tuple[float, Any]:
        """Emit with an acknowledgement: ``(seconds until the ack, the ack)``."""
        if self.ws is None or self.ws.closed:
            raise SioError("not connected")
        self._next += 1
        ack = self._next
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._acks[ack] = future
        text = f"42{ack}" + json.dumps([event, data], separators=(",", ":"))
        started = time.perf_counter()
        self.frames_out += 1
        self.bytes_out += len(text)
        try:
            await self.ws.send_str(text)
            reply = await asyncio.wait_for(future, timeout)
        finally:
            self._acks.pop(ack, None)
        return time.perf_counter() - started, reply

    async def close(self) -> None:
        """Close the websocket and wait for the reader to end."""
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
