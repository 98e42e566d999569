"""``hcf host drill-watch``: the trainer sees each of the trainee's answers as it is given (docs/drills.md).

The trainer connects with the host token and watches the drill table. Every
``drill_answered`` event (whose public part never holds the answer) is followed by
the host's ``drill_report``, and the answers not yet printed are printed with what
was right and the time taken. The session's end prints the report.
"""

from __future__ import annotations

from collections.abc import Callable

from client_cli.api import ServerRefused, UnreachableError
from client_cli.connection import Connection
from client_cli.drill.turns import turn_sentence
from client_cli.host import answer_line, trainer_lines


async def watch_drill(url: str, host_token: str, table: str, say: Callable[[str], None]) -> int:
    """Print the drill's answers as they come until the session ends (0), or the table runs none (2)."""
    conn = Connection(url, host_token=host_token)

    async def rejoin() -> None:  # back after a drop or a restart: watch the table again
        try:
            await conn.join(table)
        except (ServerRefused, OSError) as exc:
            say(f"could not watch table {table} again: {exc}")

    conn.on_reconnect = rejoin
    conn.on_disconnect = lambda: say("(the connection dropped: coming back...)")
    await conn.connect()
    try:
        snapshot = await conn.join(table)
        drill = snapshot.get("drill")
        if not drill:
            say(f"error: table {table} runs no drill")
            return 2
        say(f"watching the drill at table {table}: {turn_sentence(drill)}, {drill['mode']}")
        printed = 0
        while not drill.get("ended"):
            item = await conn.events.get()
            if item.get("kind") == "gone":
                say(f"the server would not take this client back: {item.get('message')}")
                return 1
            event = item.get("event") or {}
            if item.get("kind") != "table" or item.get("table") != table:
                continue
            kind = event.get("type")
            if kind in ("drill_step", "drill_irregularity"):
                say(str(event.get("message")))
            elif kind == "drill_answered":
                printed = await _new_answers(conn, table, printed, say)  # missed during a drop: printed next
            elif kind == "drill_ended":
                break
        reply = await conn.call("host", {"action": "drill_report", "table": table})
        for report in [reply["report"], *(reply.get("reports") or {}).values()]:  # with several: each one's own
            for line in trainer_lines(report, ended=True):
                say(line)
        return 0
    finally:
        await conn.close()


async def _new_answers(conn: Connection, table: str, printed: int, say: Callable[[str], None]) -> int:
    try:
        reply = await conn.call("host", {"action": "drill_report", "table": table})
    except UnreachableError:  # dropped between the event and the question: the next answer prints these too
        return printed
    steps = reply["report"]["steps"]
    for step in steps[printed:]:
        say(answer_line(step))
    return len(steps)
