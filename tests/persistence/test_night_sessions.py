"""The host's sessions at a table (server/storage/nights.py; issue 28, item 3) on both databases: two opens at
once (two hosts, or a double click) and a table that closes while its session is open."""

from __future__ import annotations

import asyncio

from server.config import ServerConfig
from server.persistence import Database
from server.storage.nights import NightStore


async def _night(db: Database) -> NightStore:
    async with db.transaction() as tx:
        await tx.create_table("main", {})
    return NightStore(db, ServerConfig())


async def test_two_opens_at_once_open_one_session_and_both_hosts_are_told_so_in_words(db: Database) -> None:
    store = await _night(db)
    hosts = [NightStore(db, ServerConfig()) for _ in range(3)]
    answers = await asyncio.gather(*(host.open_session("main") for host in [store, *hosts]))
    assert sorted(answer["opened"] for answer in answers) == [False, False, False, True]
    assert {answer["session"]["number"] for answer in answers} == {1}
    since = next(answer for answer in answers if answer["opened"])["session"]["opened"]
    for answer in answers:
        if not answer["opened"]:
            assert answer["message"] == f"Session 1 at main is already open, since {since}."
    assert [s["closed"] for s in (await store.sessions("main"))["sessions"]] == [None]
