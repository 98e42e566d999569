"""A normal restart (SIGTERM, then start again) under three people and a bot: everyone comes back, told.

The server is a real ``hcf-server serve`` process on a SQLite file. The people are
the table sessions ``hcf play`` runs (``client_cli.play.TableSession``), each with a
plain face that records what it prints and takes typed lines; the bot is
``hcf bot``'s (``client_cli.bots.Bot``). A hand is stopped by a SIGTERM (or a SIGKILL) in the
middle of its decisions (voided: RULES, docs/rules/hcf.md section 5); the server
comes back on the same port and every one of them must be connected again within
5 s, each person's screen saying what happened to the hand, and the bot's own
connection seeing it in its snapshot. None of them is asked to act in it any more.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from client_cli.bots import Bot, BotOptions, Team
from client_cli.connection import Connection
from client_cli.play import PlayOptions, TableSession
from client_cli.store import TokenStore
from client_cli.terminal import PlainFace

from .helpers import ServerProcess

COMEBACK_SECONDS = 5.0
SLOW_TABLE = {"pause_seconds": 0, "offer_seconds": 30, "bet_seconds": 30, "action_seconds": 30, "min_bank": 500}


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
            await asyncio.wait_for(self.task, 10)
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


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.parametrize("stop", ["sigterm", "sigkill"])
async def test_a_restart_brings_back_three_people_and_a_bot_each_told_what_became_of_its_hand(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: str) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # the bot's sessions file
    server = ServerProcess(tmp_path, table_defaults=SLOW_TABLE, env={"HCF_SHUTDOWN_GRACE": "0.2"})
    people: list[Person] = []
    bot_task: asyncio.Task[Any] | None = None
    team = Team(["restart-bot"], 50)
    try:
        await server.start()
        for name in ("alice", "bob", "carol"):
            person = Person(server.url, name, await server.register(name))
            await person.start()
            people.append(person)
        bot = Bot("restart-bot", BotOptions(server.url, hands=50, fast=True), team, TokenStore(), random.Random(7))
        bot_task = asyncio.create_task(bot.run())
        await until(lambda: bot.seat is not None, "the bot to sit")
        hand_id = await play_into_decisions(people)

        if stop == "sigterm":
            assert await server.stop() == 0
        else:
            server.kill()
            await server.wait_exit()
        await server.start()
        restarted = time.monotonic()

        def back(conn: Connection | None) -> bool:
            return conn is not None and conn.connected

        told = re.compile(rf"Hand #{hand_id} was voided \({'shutdown' if stop == 'sigterm' else 'interrupted'}\)")
        for person in people:
            await until(lambda p=person: back(p.conn) and told.search(p.face.text) is not None,
                        f"{person.name} to come back and be told of hand {hand_id}",
                        timeout=COMEBACK_SECONDS - (time.monotonic() - restarted))
        await until(lambda: back(bot.conn), "the bot to come back",
                    timeout=COMEBACK_SECONDS - (time.monotonic() - restarted))
        assert bot.conn is not None
        snapshot = (await bot.conn.call("snapshot", {"table": "main"}))["snapshot"]
        last = snapshot["last_hand"]
        assert (last["hand_id"], last["status"]) == (hand_id, "void"), f"the bot is not told of {hand_id}: {last}"
        for person in people:
            assert "reconnected" in person.face.text
            assert person.kind() != "decision" or (person.session.tracker.snapshot or {}).get(
                "hand", {}).get("hand_id") != hand_id, f"{person.name} is still asked to act in hand {hand_id}"
    finally:
        team.all_done.set()
        if bot_task is not None:
            await asyncio.wait_for(asyncio.gather(bot_task, return_exceptions=True), 30)
        for person in people:
            await person.close()
        server.close()
