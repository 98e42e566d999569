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
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from client_cli.bots import Bot, BotOptions, Team
from client_cli.connection import Connection
from client_cli.reasons import void_reason
from client_cli.render import header_line
from client_cli.store import TokenStore

from .helpers import ServerProcess
from .people import Person, play_into_decisions, until

COMEBACK_SECONDS = 5.0
SLOW_TABLE = {"pause_seconds": 0, "offer_seconds": 30, "bet_seconds": 30, "action_seconds": 30, "min_bank": 500}


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
            # The hand was voided before the server went: nobody is still shown a turn in it meanwhile.
            for person in people:
                await until(lambda p=person: p.kind() != "decision", f"{person.name}'s prompt to give up the turn",
                            timeout=2)
                assert "to act" not in header_line(person.session.tracker.snapshot or {}, time.time()).plain
        else:
            server.kill()
            await server.wait_exit()
        await server.start()
        restarted = time.monotonic()

        def back(conn: Connection | None) -> bool:
            return conn is not None and conn.connected

        # the screen names the hand by the table's own number, and the reason in words (client_cli/reasons.py)
        reason = void_reason("shutdown" if stop == "sigterm" else "interrupted")
        told = re.compile(rf"Hand #\d+ was voided: {re.escape(reason)}")
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
        # What the operator reads at each start: where the database is; the host token on the first only.
        printed = server.stdout_path.read_text()
        assert printed.count(f"database: {server.db_path}\n") == 2, printed
        assert printed.count("host token (shown once): ") == 1, printed
        assert server.host_token is not None
        assert server.host_token not in server.stderr_path.read_text()
        for person in people:
            assert "reconnected" in person.face.text
            assert person.kind() != "decision" or (person.session.tracker.snapshot or {}).get(
                "hand", {}).get("hand_id") != hand_id, f"{person.name} is still asked to act in hand {hand_id}"
    finally:
        try:
            # The bot would wait for the stand-up after a hand in play (30 s clocks): it is stopped instead.
            team.all_done.set()
            if bot_task is not None:
                bot_task.cancel()
                await asyncio.gather(bot_task, return_exceptions=True)
            for person in people:
                await person.close()
        finally:
            server.close()
