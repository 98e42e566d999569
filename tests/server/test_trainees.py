"""Trainees' drill histories at the real server (issue 27, item 4): reports kept after a restart, and the
history API and ``hcf host trainee --csv`` agree."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import sys
from pathlib import Path
from typing import Any

from client_cli.drill.grammar import format_answer
from client_cli.drill.keeping import Keeper, keep
from client_cli.drill.scenarios import load
from client_cli.drill.session import Terminal, rehearse
from client_cli.store import TokenStore
from server.app import DATABASE
from server.rules.drill.explain import step_name
from server.rules.drill.play import dry_run
from server.rules.drill.views import moments
from server.storage.trainees import TraineeStore
from tests.support.clock import ManualClock

from .conftest import Server
from .test_http import call

PW = {"name": "Tina", "password": "password123"}


def _rehearsed(name: str, unanswered: int, mode: str = "training") -> dict[str, Any]:
    """A real rehearsal of a shipped scenario, every step answered right but the last ``unanswered``."""
    scenario = load(name)
    steps = moments(scenario, dry_run(scenario))
    lines = [format_answer(m.asked.step.step, m.asked.step.answer) for m in steps][:len(steps) - unanswered]
    clock, typed = ManualClock(), iter(lines)

    def read(_prompt: str) -> str:
        clock.advance(2.0)
        line = next(typed, None)
        if line is None:
            raise EOFError
        return line
    return rehearse(scenario, steps, mode, Terminal(read, lambda _line: None, clock.monotonic))


async def _host_csv(server: Server, name: str) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "client_cli.cli", "host", "trainee", name, "--csv", "--server", server.url,
        env={**os.environ, "HCF_HOST_TOKEN": server.host_token}, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    return out.decode()


async def test_reports_are_kept_after_a_restart_and_the_history_api_and_the_csv_agree(server: Server,
                                                                                      tmp_path: Path) -> None:
    status, registered = await call(server, "POST", "/api/register", PW)
    assert status == 200
    store = TokenStore(tmp_path)
    store.save(server.url, "Tina", registered["token"])
    keeper = Keeper(server.url, None, store)
    # an offline rehearsal and a stopped one, sent by the client as hcf drill does
    said = await asyncio.to_thread(keep, keeper, _rehearsed("bank-runs-out", 2), source="offline",
                                   mode="training", partial=False)
    assert said == f"This report is kept in Tina's drill history on {server.url}."
    await asyncio.to_thread(keep, keeper, _rehearsed("walk-away", 0, "exam"), source="practice", mode="practice",
                            partial=True)
    # a live drill table's report, through the call the table makes at the drill's end
    live = TraineeStore(server.app[DATABASE], server.config)
    exam = _rehearsed("bank-runs-out", 0, "exam") | {"exam": {"passed": True, "right_percent": 100.0,
                                                              "within_percent": 100.0, "marks": {}}}
    await live.keep_drill_report("tina", exam, source="live", mode="exam", partial=False)

    server = await server.restart()
    status, listed = await call(server, "GET", "/api/trainees", token=server.host_token)
    assert status == 200
    (line,) = listed["trainees"]
    assert (line["trainee"], line["sessions"], line["certificates"]) == ("tina", 3, 1)
    status, history = await call(server, "GET", "/api/trainees/TINA", token=server.host_token)
    assert status == 200
    assert [s["source"] for s in history["sessions"]] == ["offline", "practice", "live"]
    assert [s["partial"] for s in history["sessions"]] == [False, True, False]
    assert history["trainee"] == "tina"
    assert history["sessions"][0]["right"] < history["sessions"][0]["total"]
    assert [c["session"] for c in history["certificates"]] == [3]
    status, own = await call(server, "GET", "/api/drill-history", token=registered["token"])
    assert (status, own) == (200, history)

    rows = list(csv.DictReader(io.StringIO(await _host_csv(server, "tina"))))
    from_api = [(str(p["session"]), step_name(kind), str(p["right"]), str(p["total"]), f"{p['accuracy']:.1f}")
                for kind, points in history["trend"].items() for p in points]
    assert [(r["session"], r["step"], r["right"], r["total"], r["accuracy"]) for r in rows] == from_api
    assert rows


async def test_without_a_saved_session_the_report_is_said_to_be_kept_only_on_screen(server: Server,
                                                                                   tmp_path: Path) -> None:
    said = await asyncio.to_thread(keep, Keeper(server.url, None, TokenStore(tmp_path)),
                                   _rehearsed("walk-away", 0), source="offline", mode="training", partial=False)
    assert said.startswith("This report is kept only on your screen: no single saved session for")
    status, listed = await call(server, "GET", "/api/trainees", token=server.host_token)
    assert (status, listed["trainees"]) == (200, [])


def test_the_bindings_are_the_port_a_live_drill_table_keeps_its_reports_through(server: Server) -> None:
    from server.bindings import DatabaseBindings
    from server.table.ports import DrillReportKeeper

    keeper: DrillReportKeeper = DatabaseBindings(server.app[DATABASE], server.config)
    assert callable(keeper.keep_drill_report)


async def test_a_long_practice_session_is_kept_whole_in_its_figures(server: Server, tmp_path: Path) -> None:
    from client_cli.drill.practice import pool, practice_session

    status, registered = await call(server, "POST", "/api/register", PW)
    assert status == 200
    store = TokenStore(tmp_path)
    store.save(server.url, "Tina", registered["token"])
    scenario, steps = practice_session(pool(), [], seed=11, steps=100)
    clock = ManualClock()

    def read(_prompt: str) -> str:
        clock.advance(1.0)
        raise EOFError
    result = rehearse(scenario, steps, "training", Terminal(read, lambda _line: None, clock.monotonic))
    said = await asyncio.to_thread(keep, Keeper(server.url, "Tina", store), result, source="practice",
                                   mode="practice", partial=True)
    assert said == f"This report is kept in Tina's drill history on {server.url}."
    status, history = await call(server, "GET", "/api/drill-history", token=registered["token"])
    assert status == 200
    assert (history["sessions"][0]["total"], history["sessions"][0]["partial"]) == (100, True)
    assert sum(p["total"] for points in history["trend"].values() for p in points) == 100
