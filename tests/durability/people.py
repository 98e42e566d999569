"""People at the table as ``hcf play`` has them: its table session, with input typed by the test.

``Person`` runs ``client_cli.play.TableSession`` (what ``hcf play`` runs) on a real
connection, with a plain face that keeps what it prints and takes the lines the
test types, as a person at a terminal would.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable

from client_cli.connection import Connection
from client_cli.play import PlayOptions, TableSession
from client_cli.terminal import PlainFace


class TypedFace(PlainFace):
    """A plain face whose input lines come from the test, and whose output is kept."""

    def __init__(self) -> None:
        super().__init__(io.StringIO())
        self.on_line: Callable[[str | None], None] | None = None

    def start(self, on_line: Callable[[str | None], None] | None,
              on_edit: Callable[[], None] | None = None) -> None:  # noqa: ARG002
        self.on_line = on_line

    def type(self, line: str) -> None:
        assert self.on_line is not None, "the session has not started"
        self.on_line(line)

    @property
    def text(self) -> str:
        out = self.out
        assert isinstance(out, io.StringIO)
        return out.getvalue()


class Person:
    """One ``hcf play`` session at ``main``."""

    def __init__(self, url: str, name: str, token: str) -> None:
        self.name = name
        self.face = TypedFace()
        self.conn = Connection(url, token=token)
        self.session = TableSession(self.conn, PlayOptions(url=url), self.face)
        self.task: asyncio.Task[int] | None = None

    async def start(self) -> None:
        await self.conn.connect()
        self.task = asyncio.create_task(self.session.run())
        await until(lambda: self.face.on_line is not None, f"{self.name}'s session to start")

    def kind(self) -> str | None:
        kind: str | None = self.session.choices().kind
        return kind

    async def close(self) -> None:
        if self.task is not None:
            self.session.finish(0)
            try:
                await asyncio.wait_for(self.task, 10)
            finally:
                await self.conn.close()
        else:
            await self.conn.close()


async def until(check: Callable[[], bool], what: str, timeout: float = 30.0) -> float:
    """Wait for ``check()``; how long it took."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)
    return time.monotonic() - started


async def play_into_decisions(people: list[Person]) -> int:
    """Take the bank, bet, until someone must decide: the hand's id."""
    answered: set[tuple[str, int, str]] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for person in people:
            hand_id = ((person.session.tracker.snapshot or {}).get("hand") or {}).get("hand_id")
            kind = person.kind()
            if not isinstance(hand_id, int) or kind is None or (person.name, hand_id, kind) in answered:
                continue
            if kind == "decision":
                return hand_id
            answered.add((person.name, hand_id, kind))
            person.face.type("y" if kind == "bank" else "bet 5")
        await asyncio.sleep(0.05)
    raise AssertionError("no hand reached its decisions")
