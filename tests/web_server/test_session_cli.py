"""``hcf host session open|close`` and ``hcf host replays`` against the real server (issue 28, items 3 and 4)."""

from __future__ import annotations

import pytest

from tests.server.helpers import Policy, run_hands

from .conftest import Web
from .test_host_cli import hcf


async def test_a_session_opens_and_closing_it_prints_its_final_settle_up(
        web: Web, capsys: pytest.CaptureFixture[str]) -> None:
    host, _ = await web.server.table(Policy(), Policy(bank=False))
    code, out, _ = await hcf(capsys, web, "session", "open", "--table", "main")
    assert (code, out.strip()) == (0, "Session 1 at main is open: settle-up counts from now.")
    await run_hands(host, 2)
    code, out, _ = await hcf(capsys, web, "session", "close", "--table", "main")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "Session 1 at main is closed."
    assert lines[1].startswith("Settle-up at main in session 1, from ")
    assert [line.split(" ")[0] for line in lines[2:4]] == ["alice", "bob"]
    assert all(line.endswith(".") and "_" not in line for line in lines)
    code, again, _ = await hcf(capsys, web, "settle-up", "--table", "main", "--session", "1")
    assert (code, again.splitlines()) == (0, lines[1:])


async def test_replays_are_said_and_set_in_words(web: Web, capsys: pytest.CaptureFixture[str]) -> None:
    await web.server.table(Policy())
    code, out, _ = await hcf(capsys, web, "replays", "--table", "main")
    assert (code, out.strip()) == (0, "At main, anyone with a link may open this table's replays.")
    code, out, _ = await hcf(capsys, web, "replays", "--table", "main", "players")
    assert (code, out.strip()) == (
        0, "At main, only the people who played at this table (and the host) may open its replays.")
    code, out, _ = await hcf(capsys, web, "replays", "--table", "nowhere", "host")
    assert (code, out.strip()) == (1, "error: there is no table named 'nowhere'")


async def test_closing_the_table_closes_its_session_and_prints_the_final_settle_up(
        web: Web, capsys: pytest.CaptureFixture[str]) -> None:
    host, _ = await web.server.table(Policy(), Policy(bank=False))
    await hcf(capsys, web, "session", "open", "--table", "main")
    await run_hands(host, 1)
    code, out, _ = await hcf(capsys, web, "close", "--table", "main")
    lines = out.splitlines()
    assert (code, lines[0]) == (0, "the table is closed")
    assert lines[1].startswith("Settle-up at main in session 1, from "), lines
    assert [line.split(" ")[0] for line in lines[2:4]] == ["alice", "bob"]
    assert all("has nothing on the table" in line for line in lines[2:4]), lines  # cashed out, in the session
    code, again, _ = await hcf(capsys, web, "settle-up", "--table", "main", "--session", "1")
    assert (code, again.splitlines()) == (0, lines[1:])
