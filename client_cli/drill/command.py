"""``hcf drill``'s two ways: a scenario rehearsed on this machine, or the trainee's seat at a live drill table.

The command line (``client_cli/cli.py``) parses the arguments; these run them. Ctrl-C in a
rehearsal keeps the report of the steps answered (issue 23, item 15).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable

from client_cli.drill.scenarios import load
from client_cli.drill.session import DrillStopped, Terminal, rehearse, report_json
from server.rules.drill.play import dry_run
from server.rules.drill.scenario import ScenarioError
from server.rules.drill.views import moments


def offline_drill(scenario_name: str | None, mode: str, *, as_json: bool) -> int:
    """Rehearse a scenario on this machine; the exit status (0 done, 2 no scenario it can use, 130 Ctrl-C)."""
    if scenario_name is None:
        print("error: give a scenario (hcf-server drill list names them), or --table for a live drill",
              file=sys.stderr)
        return 2
    try:
        scenario = load(scenario_name)
        steps = moments(scenario, dry_run(scenario))
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        result = rehearse(scenario, steps, mode, Terminal(input, lambda line: print(line, flush=True)))
    except DrillStopped as stopped:  # the report of the steps answered was written
        if as_json:
            print(report_json(stopped.report), flush=True)
        return 130
    except KeyboardInterrupt:
        print("\ndrill stopped before its first step: nothing to report", file=sys.stderr)
        return 130
    if as_json:
        print(report_json(result), flush=True)
    return 0


async def live_drill(server: str, table: str, name: str | None, ask: Callable[[str], str] | None) -> int:
    """The trainee at a live drill table, until the drill ends or the input does; the exit status."""
    from client_cli.connection import Connection
    from client_cli.drill.live import run_live
    from client_cli.session import ask_name, log_in
    from client_cli.store import TokenStore
    from client_cli.terminal import PlainFace

    url = server.rstrip("/")
    store = TokenStore()
    who = ask_name(store, url, name, ask)
    session = await log_in(url, who, store)
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    face = PlainFace()
    face.start(lines.put_nowait)
    conn = Connection(url, token=session.token)
    await conn.connect()
    try:
        return await run_live(conn, table, lines, lambda text: face.say([text]), who)
    finally:
        await conn.close()
