"""Frames that cannot be decoded: counted, logged once per interval, and their connection dropped.

python-socketio decodes each Socket.IO frame before any handler of ours sees it;
a frame it cannot read (``42["join"``, a packet type it does not know) raises in
the library, which logged a traceback per frame: 3,000 such frames on one
websocket wrote 162,111 lines in 2 s, and neither the connection nor the request
rate limit ever heard of them. This guard wraps the library's frame handler:

* a connection that sends ``max_bad_frames`` frames the server cannot handle is
  closed (a real client sends none: it encodes with the same protocol);
* such errors are logged once per ``interval`` seconds, with how many there were
  and how many connections were closed for them: the first one of a quiet spell at
  once, later ones in one line when the interval ends. No frame's content is
  logged (it may hold a token).

Time comes from an injected clock; nothing here sleeps.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from contextvars import ContextVar
from typing import Final

import socketio
import structlog

from server.clock import SYSTEM_CLOCK, Clock, Timer, call_later
from server.transport import edge

log = structlog.get_logger("hcf.frames")



FRAME_LENGTH: Final[ContextVar[int | None]] = ContextVar("frame_length", default=None)
"""The characters of the text frame being read (None: a binary one, or none known). python-socketio
runs the request the frame carries in a task it starts while reading it, so that task sees this too:
the gateway's size check reads it (:func:`surely_small`)."""

MOST_GROWTH: Final = 12
"""How many characters ``json.dumps`` (ASCII, with its spaces) writes at most for one character of the
frame a request came in: an astral character becomes two ``\\uXXXX`` escapes; a separator gains a space;
a number such as ``1e5`` is written ``100000.0``."""


def surely_small(limit: int) -> bool:
    """Whether the request being read is surely within ``limit`` bytes of JSON, from its frame's length alone.

    When it is not sure (a long frame, a binary one, none known), the caller measures the request itself.
    """
    length = FRAME_LENGTH.get()
    return length is not None and length * MOST_GROWTH <= limit


class FrameGuard:
    """Counts each connection's undecodable frames, closes it at ``max_bad``, logs them once per ``interval``."""

    def __init__(self, sio: socketio.AsyncServer, *, max_bad: int = 5, interval: float = 60.0,
                 clock: Clock = SYSTEM_CLOCK) -> None:
        if max_bad < 1 or interval <= 0:
            raise ValueError("a frame guard needs max_bad >= 1 and interval > 0")
        self.sio, self.max_bad, self.interval, self.clock = sio, max_bad, interval, clock
        self.bad: Counter[str] = Counter()  # engine.io sid -> undecodable frames so far
        self.dropped = 0  # connections closed for them, since the server started
        self.logged = 0  # log lines written about them, since the server started
        self._held: Counter[str] = Counter()  # kind of error -> frames not logged yet
        self._held_drops = 0
        self._quiet_until = float("-inf")
        self._flush: Timer | None = None
        self._closing: set[asyncio.Task[None]] = set()

    def install(self) -> None:
        """Put the guard around the library's Engine.IO message and disconnect handlers."""
        edge.wrap_engine_handlers(self.sio, self._wrap)

    def _wrap(self, message: edge.EngineHandler, disconnect: edge.EngineHandler,
              ) -> tuple[edge.EngineHandler, edge.EngineHandler]:
        async def on_message(eio_sid: str, data: str | bytes) -> None:
            length = FRAME_LENGTH.set(len(data) if isinstance(data, str) else None)
            try:
                await message(eio_sid, data)
            except Exception as exc:  # the library raises for a frame it cannot decode or place
                self.undecodable(eio_sid, exc)
            finally:
                FRAME_LENGTH.reset(length)

        async def on_disconnect(eio_sid: str, *reason: object) -> None:
            self.bad.pop(eio_sid, None)
            await disconnect(eio_sid, *reason)

        return on_message, on_disconnect

    def undecodable(self, eio_sid: str, exc: BaseException) -> None:
        """Count one frame the server could not handle; close its connection at the limit."""
        self.bad[eio_sid] += 1
        self._held[type(exc).__name__] += 1
        if self.bad[eio_sid] == self.max_bad:
            self._held_drops += 1
            self.dropped += 1
            self._close(eio_sid)
        now = self.clock.monotonic()
        if now >= self._quiet_until:
            self._quiet_until = now + self.interval
            self._write()
        elif self._flush is None:
            self._flush = call_later(self.clock, self._quiet_until - now, self._write)

    def _close(self, eio_sid: str) -> None:
        """Close the connection's TCP stream itself: Engine.IO's own close only sends a goodbye frame and
        goes on reading what the client sends until the client hangs up. The library then sees the
        websocket end, and the gateway its disconnect, as for any dropped connection."""
        transport = getattr(edge.request_of(self.sio, eio_sid), "transport", None)
        if transport is not None:
            transport.close()
            return
        task = asyncio.create_task(self._disconnect(eio_sid), name=f"undecodable:{eio_sid}")
        self._closing.add(task)  # not awaited here: the library is inside that connection's own read
        task.add_done_callback(self._closing.discard)

    async def _disconnect(self, eio_sid: str) -> None:
        try:
            await edge.close_engine(self.sio, eio_sid)
        except Exception as exc:  # already gone: nothing left to close
            log.debug("undecodable_close_skipped", error=type(exc).__name__)

    def _write(self) -> None:
        """One line for every frame held since the last one (none if there were none)."""
        self._flush = None
        if not self._held:
            return
        frames = sum(self._held.values())
        log.warning("undecodable_frames", frames=frames, errors=dict(self._held),
                    connections_closed=self._held_drops, interval_seconds=self.interval)
        self.logged += 1
        self._held.clear()
        self._held_drops = 0
