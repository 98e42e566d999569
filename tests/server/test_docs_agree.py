"""What docs/server.md and docs/fairness.md say of close_table and of the commitment, against the real server."""

from __future__ import annotations

import asyncio
import hashlib
import os
import sys
from pathlib import Path

from server.persistence.database import open_database

from .conftest import Server
from .helpers import Policy

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:end if end > 0 else None]


async def test_close_table_during_a_hand_waits_for_it_to_end_as_server_md_says(server: Server) -> None:
    doc = section((DOCS / "server.md").read_text(encoding="utf-8"), "### close_table")
    assert '{"ok": true, "closed": "after_hand"}' in doc
    flat = " ".join(doc.split())
    assert "nobody is folded" in flat
    assert "who have not decided fold" not in flat, "the doc says players are folded"
    host, _ = await server.table(Policy(), Policy())
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    answer = await host.host("close_table")
    assert answer["closed"] == "after_hand"
    await host.event("table_closing", since=mark)
    _, revealed = await host.event("hand_revealed", since=mark, timeout=30)
    assert revealed["status"] in ("settled", "void")
    assert not any(s.get("folded") for s in (revealed.get("settlement") or {}).get("seats", [])), \
        "the players were folded"
    await host.event("table_closed", since=mark, timeout=10)


async def test_during_a_hand_the_database_holds_its_server_seed_as_fairness_md_says(server: Server) -> None:
    doc = (DOCS / "fairness.md").read_text(encoding="utf-8")
    assert "does not *hide* them from the database's owner" in doc
    host, _ = await server.table(Policy(ante=None), Policy(ante=None))
    mark = host.mark()
    await host.host("resume")
    _, opened = await host.event("betting_opened", since=mark)
    await host.host("pause")
    # anyone who opens the file, while the hand is in play
    database = await open_database(server.database_url)
    try:
        (hand,) = await database.hands_in_progress()
    finally:
        await database.close()
    assert hand.id == opened["hand_id"]
    assert hashlib.sha256(bytes.fromhex(hand.server_seed)).hexdigest() == opened["commitment"]


async def run(*args: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", *args, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_CONFIG_HOME": "/nonexistent"},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode()


async def test_history_and_export_of_a_table_nobody_created_fail_with_a_sentence(server: Server) -> None:
    status, out = await run("client_cli.cli", "history", "--server", server.url, "--table", "nosuch")
    assert status == 1, out
    assert "there is no table named 'nosuch'" in out
    assert "Traceback" not in out
    status, out = await run("server.cli", "export", "--table", "nosuch", "--db", server.database_url)
    assert status == 2, out
    assert out.strip() == "error: there is no table named 'nosuch'"
    status, out = await run("server.cli", "export", "--table", "main", "--db", server.database_url)
    assert (status, out) == (0, "")
