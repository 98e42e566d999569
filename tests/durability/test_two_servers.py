"""A second ``hcf-server serve`` on a database that a running server owns is refused and touches nothing.

The first server is a real process on a SQLite file with a hand waiting on a
decision. While it is frozen (SIGSTOP, so that nothing it does can change a byte),
a second server is started on the same file, once on the same port and once on
another: each exits nonzero at once with one sentence (the busy port; the
process that owns the database, by pid, host and port), no traceback, and the
database, its WAL and its shared memory are byte for byte what they were, with
no new file beside them. Then the first server goes on: the hand is played to
its end without a refusal, and its SIGTERM is quick and clean.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import socket
import sys
import time
from pathlib import Path

import pytest

from .helpers import ROOT, ServerProcess, free_port
from .people import Person, play_into_decisions, until

SLOW_TABLE = {"pause_seconds": 0, "offer_seconds": 30, "bet_seconds": 30, "action_seconds": 30, "min_bank": 500}
# The first server is frozen for a while: its clients must not be dropped for missing pings meanwhile.
PATIENT = {"HCF_PING_INTERVAL": "30", "HCF_PING_TIMEOUT": "30", "HCF_SHUTDOWN_GRACE": "1"}


def fingerprint(folder: Path) -> dict[str, str]:
    """Every file of the folder but the server's own output, by its SHA-256."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.startswith("server.")}


async def second_server(first: ServerProcess, port: int) -> tuple[int, str, float]:
    """``hcf-server serve`` on the first one's database: (exit status, what it printed, seconds it took)."""
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--web-port", "0", "--db", first.db_url,
        cwd=ROOT, env=first._env(), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), 30)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"the second server on port {port} was not refused: it still ran after 30 s") from None
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace"), time.monotonic() - started


@pytest.mark.slow
@pytest.mark.timeout(240)
async def test_a_second_server_on_the_same_database_is_refused_and_touches_nothing(tmp_path: Path) -> None:
    first = ServerProcess(tmp_path, table_defaults=SLOW_TABLE, env=PATIENT)
    people: list[Person] = []
    try:
        await first.start()
        assert first.proc is not None
        for name in ("alice", "bob"):
            person = Person(first.url, name, await first.register(name))
            await person.start()
            people.append(person)
        hand_id = await play_into_decisions(people)
        await asyncio.sleep(1.5)  # the first server's last checkpoint of the WAL (once a second) is done
        os.kill(first.proc.pid, signal.SIGSTOP)
        try:
            before = fingerprint(tmp_path)
            same_port = await second_server(first, first.port)
            other_port = await second_server(first, free_port())
            after = fingerprint(tmp_path)
        finally:
            os.kill(first.proc.pid, signal.SIGCONT)

        code, out, _ = same_port
        assert code != 0
        assert f"port {first.port} on 127.0.0.1 is already in use by hcf-server pid {first.proc.pid}" in out, out
        host = socket.gethostname()
        code, out, _ = other_port
        assert code != 0
        assert f"is in use by hcf-server pid {first.proc.pid} on {host}, port {first.port}, since " in out, out
        assert str(first.db_path) in out, out
        for _, printed, _ in (same_port, other_port):
            assert "Traceback" not in printed, printed
            assert len(printed.strip().splitlines()) == 1, f"one sentence, not a log: {printed}"
        assert after == before, "the refused server changed the database or left a file beside it"

        # The first server plays on: the hand ends, settled, and nobody was refused.
        deciding = [p for p in people if p.kind() == "decision"]
        assert deciding, "the hand is still waiting on a decision"
        for person in deciding:
            person.face.type("fold")
        await until(lambda: all(f"Hand #{hand_id}" in p.face.text or "folds" in p.face.text for p in people)
                    and (people[0].session.tracker.snapshot or {}).get("last_hand", {}) is not None
                    and ((people[0].session.tracker.snapshot or {}).get("last_hand") or {}).get("hand_id")
                    == hand_id, f"hand {hand_id} to end on the first server")
        last = (people[0].session.tracker.snapshot or {})["last_hand"]
        assert last["status"] == "settled", last
        for person in people:
            assert "refused" not in person.face.text, person.face.text

        started = time.monotonic()
        assert await first.stop() == 0
        assert time.monotonic() - started < 6, f"the SIGTERM took {time.monotonic() - started:.1f} s"
        assert "Traceback" not in first.stderr_path.read_text()
    finally:
        try:
            for person in people:
                await person.close()
        finally:
            first.close()
