"""``hcf drill``'s two ways: a scenario rehearsed on this machine, or the trainee's seat at a live drill table.

The command line (``client_cli/cli.py``) parses the arguments; these run them. Ctrl-C in a
rehearsal keeps the report of the steps answered (issue 23, item 15).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from client_cli.drill.keeping import Keeper, keep
from client_cli.drill.practice import new_seed, pool, practice_session, tallies
from client_cli.drill.scenarios import load
from client_cli.drill.session import DrillStopped, Terminal, rehearse, report_json
from server.i18n import _, phrase, spoken
from server.rules.drill.play import dry_run
from server.rules.drill.scenario import Scenario, ScenarioError
from server.rules.drill.views import Moment, moments

MAX_PRACTICE_STEPS = 100
NOT_SENT = phrase("This report was sent nowhere (--keep-here): it is kept only on your screen.")


def offline_drill(scenario_name: str | None, mode: str, *, as_json: bool, keeper: Keeper | None = None) -> int:
    """Rehearse a scenario on this machine; the exit status (0 done, 2 no scenario it can use, 130 Ctrl-C).

    With a ``keeper``, the report (a stopped one too) is sent to the trainee's history on its server.
    """
    if scenario_name is None:
        print(_("error: give a scenario (hcf-server drill list names them), --practice, or --table for a live "
                "drill"), file=sys.stderr)
        return 2
    try:
        scenario = load(scenario_name)
        steps = moments(scenario, dry_run(scenario))
    except ScenarioError as exc:
        print(_("error: {message}", message=exc.args[0] if exc.args else exc), file=sys.stderr)  # (its phrase)
        return 2
    return _rehearsed(scenario, steps, mode, as_json, keeper, source="offline")


def practice_drill(keeper: Keeper | None, seed: int | None, steps: int, *, as_json: bool,
                   over: int | None = None) -> int:
    """``hcf drill --practice``: a session weighted to the trainee's weak step kinds; the exit status.

    ``seed`` and ``over`` (the number of kept sessions it was weighed by) replay a session.
    """
    if not 1 <= steps <= MAX_PRACTICE_STEPS:
        print(_("error: --steps is a whole number from 1 to {most}", most=MAX_PRACTICE_STEPS), file=sys.stderr)
        return 2
    history = None if keeper is None else keeper.history()
    past = tallies(history)
    if over is not None and not 0 <= over <= len(past):
        print(_("error: --over {over} replays a session weighed by your first {over} kept sessions, and {read} could "
                "be read", over=over, read=len(past)), file=sys.stderr)
        return 2
    past = past[:over] if over is not None else past
    seed = new_seed() if seed is None else seed
    where = _("your {sessions} kept on {url}", sessions=_sessions(len(past)), url=keeper.server.rstrip("/")) \
        if keeper and history else _("no history (none was read from a server), so every step kind weighs the same")
    print(_("Practice with seed {seed}, weighted by {where} (hcf drill --practice --seed {seed} --over {over} "
            "--steps {steps} replays this session).", seed=seed, where=where, over=len(past), steps=steps), flush=True)
    scenario, chosen = practice_session(pool(), past, seed, steps)
    return _rehearsed(scenario, chosen, "training", as_json, keeper, source="practice")


def _unanswered(result: dict[str, Any]) -> bool:
    """Whether the input ended before the last step (those steps count as no answer): a partial session."""
    return any(step["given"] is None for step in result["steps"])


def _sessions(n: int) -> str:
    return _("1 session") if n == 1 else _("{n} sessions", n=n)


def _rehearsed(scenario: Scenario, steps: list[Moment], mode: str, as_json: bool, keeper: Keeper | None, *,
               source: str) -> int:
    kept_mode = "practice" if source == "practice" else mode
    try:
        result = rehearse(scenario, steps, mode, Terminal(input, lambda line: print(line, flush=True)))
    except DrillStopped as stopped:  # the report of the steps answered was written
        if stopped.report["total"]:
            print(spoken(NOT_SENT) if keeper is None else
                  keep(keeper, stopped.report, source=source, mode=kept_mode, partial=True), flush=True)
        if as_json:
            print(report_json(stopped.report), flush=True)
        return 130
    except KeyboardInterrupt:
        print("\n" + _("drill stopped before its first step: nothing to report"), file=sys.stderr)
        return 130
    print(spoken(NOT_SENT) if keeper is None else
          keep(keeper, result, source=source, mode=kept_mode, partial=_unanswered(result)), flush=True)
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
