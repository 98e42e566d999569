"""A fake connection for the client's unit tests: a table model, an event queue, and the calls it was sent.

Only the part of :class:`client_cli.connection.Connection` the play loop and the bots read
(``models``, ``events``, ``call``, ``join``, ``close``); it never touches a socket.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from typing import Any

from client_cli.api import ServerRefused

Answer = Callable[[str, dict[str, Any]], dict[str, Any]]


class FakeConnection:
    """Answers every call with ``answer`` (default: ``{"ok": true}``) and records it."""

    def __init__(self, table: str, model: dict[str, Any], answer: Answer | None = None) -> None:
        self.models: dict[str, dict[str, Any]] = {table: model}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.answer = answer
        self.connected = True
        self.on_reconnect: Any = None
        self.on_disconnect: Any = None

    async def call(self, event: str, payload: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:  # noqa: ARG002
        """Record the call and answer it (a refusal raises as the real one does)."""
        self.sent.append((event, dict(payload)))
        reply: dict[str, Any] = self.answer(event, payload) if self.answer is not None else {"ok": True}
        if not reply.get("ok"):
            error = reply.get("error") or {}
            raise ServerRefused(str(error.get("code")), str(error.get("message")))
        return reply

    async def join(self, table: str) -> dict[str, Any]:
        """The model, as a join's snapshot."""
        snapshot = copy.deepcopy(self.models[table])
        await self.events.put({"kind": "snapshot", "table": table, "snapshot": snapshot})
        return snapshot

    async def close(self) -> None:
        """Nothing to close."""
