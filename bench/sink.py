"""A spectator that reads every frame and does nothing else: the load generator's light watcher.

Two hundred spectators that each parse and apply every update (``loadgen``'s ``watch``)
need more CPU than the server they measure: at a table of bots acting at once, about
35,000 updates a second. Their load generator fell behind, missed the server's pings,
and the server dropped them mid-measure (the sixth round's spectator figures are of
fewer spectators than asked). This one speaks just enough websocket and Socket.IO to
log in and join a table (the same requests as a real client), then reads every frame
off its socket, counting them, and answers the server's pings; the server sends it
exactly what it sends any spectator.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import struct
from typing import Any

PING, PONG = b"2", b"3"
CLOSE_OPCODE = 0x8


class SinkError(Exception):
    """The server refused or closed the connection while it logged in or joined."""


def client_frame(text: str) -> bytes:
    """One masked text frame (a client's frames must be masked)."""
    payload = text.encode()
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, 0x80 | size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
    mask = os.urandom(4)
    keyed = (mask * (size // 4 + 1))[:size]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(keyed, "big")).to_bytes(size, "big") if size else b""
    return header + mask + masked


def split_frames(buffer: bytearray) -> list[tuple[int, bytes]]:
    """Every whole frame at the start of ``buffer`` (taken out of it): (opcode, payload)."""
    frames: list[tuple[int, bytes]] = []
    at = 0
    while len(buffer) - at >= 2:
        opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
        start = at + 2
        if size == 126:
            if len(buffer) - at < 4:
                break
            size, start = struct.unpack_from("!H", buffer, at + 2)[0], at + 4
        elif size == 127:
            if len(buffer) - at < 10:
                break
            size, start = struct.unpack_from("!Q", buffer, at + 2)[0], at + 10
        if len(buffer) < start + size:
            break
        frames.append((opcode, bytes(buffer[start:start + size])))
        at = start + size
    del buffer[:at]
    return frames


class Sink:
    """One spectator's raw connection: :meth:`join`, then :meth:`run` until closed."""

    def __init__(self, port: int, auth: dict[str, Any]) -> None:
        self.port, self.auth = port, auth
        self.frames = 0
        self.bytes = 0
        self.closed = asyncio.Event()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._buffer = bytearray()

    async def join(self, table: str, timeout: float = 10.0) -> None:
        """Open the websocket, log in, join ``table`` as a spectator (raises SinkError when refused)."""
        self._reader, self._writer = await asyncio.open_connection("127.0.0.1", self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        self._writer.write((f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                            "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await asyncio.wait_for(self._reader.readuntil(b"\r\n\r\n"), timeout)
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise SinkError(f"no websocket: {status!r}")
        await self._expect(lambda t: t.startswith("0"), timeout)
        self._writer.write(client_frame("40" + json.dumps(self.auth)))
        reply = await self._expect(lambda t: t.startswith(("40", "44")), timeout)
        if reply.startswith("44"):
            raise SinkError(f"connection refused: {reply[2:]}")
        self._writer.write(client_frame("420" + json.dumps(["join", {"table": table}])))
        answer = await self._expect(lambda t: t.startswith("430"), timeout)
        joined = json.loads(answer[3:])[0]
        if not joined.get("ok"):
            raise SinkError(f"join refused: {joined}")

    async def _expect(self, wanted: Any, timeout: float) -> str:
        """Frames until one whose text ``wanted`` accepts (pings answered, others counted)."""
        assert self._reader is not None
        async with asyncio.timeout(timeout):
            while True:
                for opcode, payload in split_frames(self._buffer):
                    if opcode == CLOSE_OPCODE:
                        raise SinkError("connection closed while joining")
                    text = payload.decode()
                    if wanted(text):
                        return text
                    self._take(payload)
                chunk = await self._reader.read(65536)
                if not chunk:
                    raise SinkError("connection closed while joining")
                self._buffer += chunk

    def _take(self, payload: bytes) -> None:
        self.frames += 1
        self.bytes += len(payload)
        if payload == PING and self._writer is not None:
            self._writer.write(client_frame(PONG.decode()))

    async def run(self) -> None:
        """Read every frame until the server closes the connection (or :meth:`close`)."""
        assert self._reader is not None
        try:
            while True:
                for opcode, payload in split_frames(self._buffer):
                    if opcode == CLOSE_OPCODE:
                        return
                    self._take(payload)
                chunk = await self._reader.read(65536)
                if not chunk:
                    return
                self._buffer += chunk
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        finally:
            self.closed.set()

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self._writer.wait_closed()
