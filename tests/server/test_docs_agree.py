"""What docs/server.md, docs/fairness.md and docs/protocol.md say, against the real server."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from server import protocol as p
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
    using = f"Using the database at {server.database_url.removeprefix('sqlite:///')} (from --db).\n"
    assert status == 2, out
    assert out == using + "error: there is no table named 'nosuch'\n"
    status, out = await run("server.cli", "export", "--table", "main", "--db", server.database_url)
    assert (status, out) == (0, using)


# ---------------------------------------------------------------- protocol.md, version 2


def json_blocks(text: str) -> list[Any]:
    """Every ```json block of ``text`` that holds one JSON value."""
    found = []
    for block in re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL):
        with contextlib.suppress(ValueError):
            found.append(json.loads(block))
    return found


async def test_protocol_md_shows_updates_answers_and_snapshots_with_the_servers_keys(server: Server) -> None:
    doc = (DOCS / "protocol.md").read_text(encoding="utf-8")
    assert "Protocol version 2" in doc
    assert p.PROTOCOL_VERSION == 2
    (pushed,) = json_blocks(section(doc, "### table_update"))[:1]
    (snapshot,) = json_blocks(section(doc, "## 7. The snapshot"))[:1]
    (sat,) = [b for b in json_blocks(section(doc, "### sit")) if "update" in b]
    host, (alice, bob) = await server.table(Policy(), Policy(bank=False))
    spectator = await server.client(name="spectator")
    real_snapshot = await spectator.join()
    carol = await server.player("carol", sit=False)
    reply = await carol.sit()
    _, seen = await spectator.wait_for(lambda e: e.get("kind") == "update" and e["seq"] == reply["update"]["seq"])
    assert set(reply) == set(sat), "the sit answer's keys"
    assert set(reply["update"]) == set(pushed) == set(sat["update"]), "a table_update's keys"
    assert set(reply["update"]["choices"]) == set(pushed["choices"]) == {"seat", "deadline", "moves"}
    assert set(real_snapshot) == set(snapshot), "the snapshot's keys"
    assert set(real_snapshot["hand"] or snapshot["hand"]) == set(snapshot["hand"])
    assert seen["view"].keys() <= set(snapshot), "a view holds snapshot keys only"
    assert "you" not in seen["view"], "the spectator's update is the spectators'"
    answer = await alice.refused("bet", {"table": "main", "ante": 10})
    assert answer == "request/unknown", "protocol.md: version 1's requests are gone"
    assert "no request named 'bet'" in section(doc, "### move")
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    offered = [m["action"] for m in bob.moves()]
    assert offered == ["bet", "pass"], "protocol.md section 3: a bettor is offered bet and pass"
    (bet,) = [m for m in bob.moves() if m["action"] == "bet"]
    choices = section(doc, "### Choices")
    documented_bet = next(b for b in json_blocks_lines(choices) if b.get("action") == "bet")
    assert set(bet) == set(documented_bet), "the bet choice's keys"


def json_blocks_lines(text: str) -> list[dict[str, Any]]:
    """The JSON objects of a ```json block written one (or a few lines) per object."""
    found: list[dict[str, Any]] = []
    for block in re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL):
        buffer = ""
        for line in block.splitlines():
            buffer += line
            with contextlib.suppress(ValueError):
                found.append(json.loads(buffer))
                buffer = ""
    return found


def test_protocol_md_shows_the_house_games_bet_choices_as_the_games_build_them() -> None:
    from server.rules.caribbean.choices import choices as caribbean_choices
    from server.rules.caribbean.hand import new_hand as caribbean_hand
    from server.rules.caribbean.settings import CaribbeanSettings
    from server.rules.game import Player
    from server.rules.sixcard.choices import choices as sixcard_choices
    from server.rules.sixcard.hand import new_hand as sixcard_hand
    from server.rules.sixcard.settings import SixcardSettings

    shown = json_blocks_lines(section((DOCS / "protocol.md").read_text(encoding="utf-8"), "### Choices"))
    caribbean = caribbean_choices(caribbean_hand(CaribbeanSettings(), [Player(1, 1000)], bytes(32)), 1)
    sixcard = sixcard_choices(sixcard_hand(SixcardSettings(boxes=2), [Player(1, 1000)], bytes(32)), 1)
    for built in (caribbean, sixcard):
        assert built[0] in shown, f"protocol.md section 3 does not show {built[0]}"
