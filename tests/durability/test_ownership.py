"""One server per database (server/persistence/ownership.py), on SQLite and PostgreSQL.

A claim names its holder to whoever is refused; a holder killed with SIGKILL
blocks nobody (the lock goes with the process, there is no expiry to wait out);
the processes of the scaled setup share a claim with each other and with nobody
else; and a server that is refused has created, migrated and written nothing.
"""

from __future__ import annotations

import asyncio
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from aiohttp import web

from server.app import build_app
from server.config import ServerConfig
from server.persistence.ownership import DatabaseBusy, Holder, claim, where_is

from .helpers import ROOT

ME = Holder(os.getpid(), "here.example", 8765, time.time())


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/hcf.db"
    fresh: str = request.getfixturevalue("fresh_postgres_url")
    return fresh


async def test_a_second_claim_is_refused_with_the_holder_named_and_taken_once_released(url: str) -> None:
    first = await claim(url, ME)
    try:
        with pytest.raises(DatabaseBusy) as refused:
            await claim(url, Holder(1, "elsewhere", 9000, time.time()))
        assert refused.value.holder is not None
        assert (refused.value.holder.pid, refused.value.holder.host, refused.value.holder.port) == \
            (ME.pid, ME.host, ME.port)
        message = str(refused.value)
        assert f"in use by hcf-server pid {ME.pid} on here.example, port 8765, since " in message
        assert where_is(url) in message
        assert "secret" not in message
    finally:
        await first.release()
    again = await claim(url, ME)
    await again.release()


async def test_the_scaled_setup_shares_its_claim_and_excludes_a_lone_server(url: str) -> None:
    nodes = [await claim(url, ME, shared=True), await claim(url, ME, shared=True)]
    try:
        with pytest.raises(DatabaseBusy) as refused:
            await claim(url, ME)
        assert refused.value.scaled
        assert "the processes of a scaled setup (--redis)" in str(refused.value)
    finally:
        for node in nodes:
            await node.release()
    lone = await claim(url, ME)
    try:
        with pytest.raises(DatabaseBusy) as refused:
            await claim(url, ME, shared=True)
        assert not refused.value.scaled
        assert refused.value.holder is not None
    finally:
        await lone.release()


CLAIM_AND_WAIT = """
import asyncio, os, sys, time
from server.persistence.ownership import Holder, claim

async def main():
    await claim(sys.argv[1], Holder(os.getpid(), "victim", 1, time.time()))
    print("claimed", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def test_a_holder_killed_with_sigkill_blocks_nobody(url: str) -> None:
    victim = subprocess.Popen([sys.executable, "-c", CLAIM_AND_WAIT, url], cwd=ROOT, stdout=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert victim.stdout is not None
        assert await asyncio.to_thread(victim.stdout.readline) == b"claimed\n"
        with pytest.raises(DatabaseBusy) as refused:
            await claim(url, ME)
        assert refused.value.holder is not None
        assert refused.value.holder.pid == victim.pid
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        started = time.monotonic()
        while True:  # PostgreSQL notices the dead connection within moments; SQLite at once
            try:
                ownership = await claim(url, ME)
                break
            except DatabaseBusy:
                assert time.monotonic() - started < 5, "the killed holder still blocks the database"
                await asyncio.sleep(0.05)
        await ownership.release()
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait(10)
        if victim.stdout is not None:
            victim.stdout.close()


async def test_a_refused_server_creates_and_writes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "fresh.db"
    url = f"sqlite:///{database}"
    held = await claim(url, ME)
    try:
        app = build_app(ServerConfig(host="127.0.0.1", port=0, database_url=url), announce=io.StringIO())
        runner = web.AppRunner(app)
        with pytest.raises(DatabaseBusy):
            await runner.setup()
        await runner.cleanup()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.db.owner"], "no database was created"
    finally:
        await held.release()
