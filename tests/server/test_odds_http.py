"""``GET /api/tables/{name}/odds`` and the lobby's edge per bet, on the real server (docs/odds.md)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from server.analysis import service
from server.analysis.cache import cache_dir
from server.analysis.service import OddsService
from server.rules.caribbean.settings import CaribbeanSettings

from .conftest import Server
from .test_http import call, code


@pytest.fixture
def odds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> OddsService:
    """A fresh odds service with a cache of its own, in place of the server's: every count is made afresh."""
    fresh = OddsService(tmp_path / "odds")
    monkeypatch.setattr(service, "ODDS", fresh)
    return fresh


@pytest.fixture
def shared_odds(monkeypatch: pytest.MonkeyPatch) -> OddsService:
    """A fresh odds service on the run's cache, whose counts (a minute of CPU) are made once for the run."""
    fresh = OddsService(cache_dir())
    monkeypatch.setattr(service, "ODDS", fresh)
    return fresh


@pytest.mark.usefixtures("odds")
async def test_odds_are_worked_out_off_the_loop_and_then_shown_in_the_lobby(server: Server) -> None:
    status, created = await call(server, "POST", "/api/host", {
        "action": "create_table", "table": "six", "settings": {"game": "sixcard", "bonus_pays": {
            "royal": 800, "straight_flush": 400, "quads": 150, "full_house": 60, "flush": 45, "straight": 30,
            "trips": 20}}}, token=server.host_token)
    assert status == 200, created
    _, lobby = await call(server, "GET", "/api/tables")
    assert "odds" not in next(t for t in lobby["tables"] if t["name"] == "six")  # not known yet, not computed
    asked = asyncio.create_task(call(server, "GET", "/api/tables/six/odds"))
    # The server keeps answering while the analysis runs in the worker.
    status, health = await call(server, "GET", "/healthz")
    assert (status, health["ok"]) == (200, True)
    assert not asked.done()
    status, answer = await asked
    assert status == 200
    assert answer["table"] == "six"
    assert answer["report"]["settings"]["bonus_pays"]["royal"] == 800
    assert answer["odds"]["house_edge"]["bonus"] == answer["report"]["bonus"]["house_edge"]
    assert answer["odds"]["simulated"] == []  # the main bets are counted exactly (docs/odds.md)
    _, lobby = await call(server, "GET", "/api/tables")
    entry = next(t for t in lobby["tables"] if t["name"] == "six")
    assert entry["odds"] == answer["odds"]


@pytest.mark.usefixtures("shared_odds")
async def test_caribbean_odds_follow_the_meter_and_unknown_tables_are_404(server: Server) -> None:
    await call(server, "POST", "/api/host", {"action": "create_table", "table": "stud",
                                             "settings": {"game": "caribbean"}}, token=server.host_token)
    status, answer = await call(server, "GET", "/api/tables/stud/odds")
    assert status == 200
    jackpot = answer["report"]["jackpot"]
    assert (jackpot["meter"], jackpot["break_even_meter_chips"]) == (10000, 218047)
    runner = server.tables.runners["stud"]
    runner.carry["meter"] = 218_047_37 + 100  # one chip past break-even: the wager now favours the player
    _, answer = await call(server, "GET", "/api/tables/stud/odds")
    assert answer["report"]["jackpot"]["return_at_meter"] > 0
    assert answer["pending"] is False
    # A change waiting for the hand to end is the one the host asked about.
    runner.pending_settings = CaribbeanSettings.from_mapping({"jackpot_wager": 2}, base=runner.settings)
    _, answer = await call(server, "GET", "/api/tables/stud/odds")
    runner.pending_settings = None
    assert (answer["pending"], answer["report"]["settings"]["jackpot_wager"]) == (True, 2)
    status, missing = await call(server, "GET", "/api/tables/nope/odds")
    assert (status, code(missing)) == (404, "table/unknown")


@pytest.mark.usefixtures("shared_odds")
async def test_hcf_host_prints_the_odds_after_creating_and_changing_a_table(
        server: Server, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from client_cli import host
    from client_cli.host import run_host

    # These settings are analysed afresh, on counts that may still be in the making for the run: beside the
    # suite's other processes that may take longer than the 10 s a host waits, which is not what this test is about.
    monkeypatch.setattr(host, "ODDS_TIMEOUT", 120.0)

    settings = {"game": "sixcard", "bonus_pays": {"royal": 1000, "straight_flush": 500, "quads": 200,
                                                  "full_house": 70, "flush": 50, "straight": 40, "trips": 30}}
    assert await run_host(server.url, server.host_token, "create-table", {"table": "six", "settings": settings},
                          False) == 0
    lines = capsys.readouterr().out.splitlines()  # the in-process server logs there too
    printed = lines.index("created table six")
    assert lines[printed + 1].startswith("odds: house edge Ante+Bet ")  # the house banks 6 Card Poker
    assert "(basic strategy), bonus " in lines[printed + 1]
    assert await run_host(server.url, server.host_token, "change-settings",
                          {"table": "six", "settings": {"max_payout": 50}}, True) == 0
    lines = capsys.readouterr().out.splitlines()
    answer = json.loads("\n".join(lines[lines.index("{"):lines.index("}") + 1]))
    # A 50-chip cap on a 5-chip bonus stake: at most 10 to 1, so the bonus costs far more.
    assert answer["odds"]["house_edge"]["bonus"] > 0.5
