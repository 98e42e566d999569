"""``hcf drill --table NAME``: the trainee at a live drill table (docs/drills.md, "A live drill").

The trainee joins the table as a viewer (they take no seat: the dealer's chair is
theirs). Whenever the table asks a step (a ``drill_step`` event, or a snapshot
whose ``drill.waiting`` names one, after a reconnect) the client asks the server
for the question and the dealer's view, shows them, and reads the answer in the
same short grammar as the offline rehearsal (:mod:`client_cli.drill.grammar`). A
typo gets the expected form and the step stays asked. The server judges; in
training the reply says right or wrong with the right answer and its rule. A step
whose time runs out is said so. When the trainer ends the session, the report.
Ctrl-D or Ctrl-C leaves (the table goes on: each step left counts as no answer).
When the account is opened elsewhere (the browser's drill page takes it over), the client
says so and stops, instead of waiting to come back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from client_cli.api import UnreachableError
from client_cli.connection import Connection, ServerRefused
from client_cli.drill.grammar import AnswerError, format_answer, help_text, parse_answer
from client_cli.drill.screen import dealer_lines, feedback, report_lines
from client_cli.drill.turns import names_words, step_owner, turn_sentence
from server.i18n import _, heard
from server.rules.drill.explain import step_name
from server.rules.drill.steps import KeyStep
from server.rules.drill.views import view_from_json
from server.rules.vocabulary import JSON

HELP = frozenset({"?", "help"})


@dataclass(slots=True)
class LiveTrainee:
    """One trainee's session at a live drill: what is asked now, and how to say things."""

    conn: Connection
    table: str
    say: Callable[[str], None]
    name: str | None = None  # this account's name, when known: the table's trainee must be it
    asked: JSON | None = None  # the step asked now, as the server sent it
    answered: set[int] = field(default_factory=set)
    mode: str = "training"
    watching: str | None = None  # with several trainees: why this one only watches now (another deals)

    async def start(self) -> int | None:
        """Join the table and show the step asked, if any; an exit status when there is nothing to do:
        2 for a table with no drill, 0 for a drill already over (its report is shown)."""
        snapshot = await self.conn.join(self.table)
        drill = snapshot.get("drill")
        if not drill:
            self.say(_("error: table {table} runs no drill (the host makes one: docs/drills.md)", table=self.table))
            return 2
        names = [str(n) for n in drill.get("trainees") or [drill["trainee"]]]
        if self.name is not None and self.name.lower() not in {n.lower() for n in names}:
            self.say(_("error: the trainee at table {table} is {names}, not {name} (players join with hcf play)",
                       table=self.table, names=names_words(names), name=self.name))
            return 2
        self.mode = str(drill["mode"])
        tell = _("after each answer you are told right or wrong") if self.mode == "training" else \
            _("exam: nothing is said until the report at the end")
        who = _("you deal, trainee {name}", name=drill["trainee"]) if len(names) == 1 else turn_sentence(drill)
        self.say(_("Live drill at table {table}: {who}; {tell}.", table=self.table, who=who, tell=tell))
        self.say(_("Each step waits {seconds} s for your answer. Type ? for the answer forms; Ctrl-D leaves.",
                   seconds=drill["step_seconds"]))
        if drill.get("ended"):
            await self.ended()
            return 0
        if drill.get("waiting"):
            await self.fetch()
        return None

    async def fetch(self) -> None:
        """Ask the server for the step asked now, and show it."""
        try:
            reply = await self.conn.call("drill", {"table": self.table, "action": "question"})
        except UnreachableError as exc:  # a restart: coming back, the table's snapshot asks again
            self.say(_("({problem}: the step is asked again when the table is back)", problem=exc))
            return
        step = reply.get("step")
        if step is None or (self.asked is not None and step["n"] == self.asked["n"]) or step["n"] in self.answered:
            return
        others = step_owner(step, self.name)
        if others is not None:  # another trainee's hand: theirs to answer, and never said as a time-out here
            self.answered.add(int(step["n"]))
            self.watching = others
            self.say(others)
            return
        self.watching = None
        self.asked = step
        view = view_from_json(step["view"])
        for line in dealer_lines(view, _("step {n}", n=step["n"]), step["step"]):
            self.say(line)

    async def line(self, text: str) -> None:
        """One typed line: help, an answer to the step asked, or a word that there is none now."""
        text = text.strip()
        if not text:
            return
        asked = self.asked
        if text.lower() in HELP:
            self.say(help_text((asked["step"],) if asked else ()) if asked else _("no step is asked now"))
            return
        if asked is None:
            self.say(self.watching or _("no step is asked now: wait for the table's next question"))
            return
        try:
            given = parse_answer(asked["step"], text)
        except AnswerError as exc:
            self.say(_("`{text}` is no answer to {step}: {problem}. Type ? for the form.", text=text,
                       step=step_name(asked["step"]), problem=exc.reason))
            return
        try:
            reply = await self.conn.call("drill", {"table": self.table, "action": "answer", "answer": given})
        except ServerRefused as exc:
            self.say(_("too late: that step's time ran out") if exc.code == "drill/no_step"
                     else _("refused: {problem}", problem=exc))
            self.asked = None
            return
        except UnreachableError as exc:
            self.say(_("({problem}: that answer is not recorded; give it again when the table is back)", problem=exc))
            return
        self.answered.add(int(asked["n"]))
        self.asked = None
        if self.mode == "training":
            self.say(_feedback(asked["step"], reply, given))
        else:
            self.say(_("recorded."))

    async def event(self, event: JSON) -> bool:
        """One table event; False once the session is over."""
        kind = event.get("type")
        if kind == "drill_step":
            await self.fetch()
        elif kind == "drill_answered" and int(event["n"]) not in self.answered:
            self.answered.add(int(event["n"]))
            if self.asked is not None and self.asked["n"] == event["n"]:
                self.asked = None
            late = _("step {n} ({step}): the time ran out, no answer", n=event["n"], step=step_name(str(event["step"])))
            if "correction" in event:
                late += _("; the right answer was `{answer}`", answer=format_answer(event["step"], event["correction"]))
            self.say(late)
        elif kind == "drill_irregularity":
            self.say(heard(event, "message"))
        elif kind == "drill_ended":
            await self.ended()
            return False
        return True

    async def ended(self) -> None:
        """The trainer ended the session: the report."""
        try:
            reply = await self.conn.call("drill", {"table": self.table, "action": "report"})
        except UnreachableError as exc:
            self.say(_("The session ended, but the report did not come ({problem}): the trainer sees it with hcf host "
                       "drill-report.", problem=exc))
            return
        self.say("")
        for text in report_lines(reply["report"], self.mode):
            self.say(text)


def _feedback(step: str, reply: JSON, given: JSON) -> str:
    """The server's sentence and the right answer as typed (a server without ``feedback``: this client's words)."""
    said = heard(reply, "feedback") if isinstance(reply.get("feedback"), str) else None
    if said is None:
        return feedback(KeyStep(step, reply["answer"], reply["rule"]), given)
    return said if reply.get("right") else _("{feedback} Typed: `{answer}`.", feedback=said,
                                             answer=format_answer(step, reply["answer"]))


def _taken_over(item: JSON) -> str:
    """Why this client stops: the account was opened elsewhere (the browser's drill page, another terminal), or
    its session was logged out."""
    if item.get("kind") == "revoked":
        return _("this session was logged out (a logout or a new password): log in again to go on with the drill")
    return _("this account was opened somewhere else (the browser or another terminal), and the drill goes on "
             "there: this client stops here")


async def run_live(conn: Connection, table: str, lines: asyncio.Queue[str | None],
                   say: Callable[[str], None], name: str | None = None) -> int:
    """The trainee's session until the drill ends (0) or the input does (0; the table goes on)."""
    trainee = LiveTrainee(conn, table, say, name)

    async def rejoin() -> None:  # back after a drop or a restart: join again; its snapshot says what is asked
        try:
            await conn.join(table)
        except (ServerRefused, OSError, TimeoutError) as exc:
            say(_("could not join table {table} again: {problem}", table=table, problem=exc))

    def dropped() -> None:
        if not conn.replaced.is_set():  # taken over: the loop below says so, and nothing comes back
            say(_("(the connection dropped: coming back...)"))

    conn.on_reconnect, conn.on_disconnect = rejoin, dropped
    status = await trainee.start()
    if status is not None:
        return status
    first_join = True  # the join start() made puts its snapshot on the queue too
    while True:
        typed = asyncio.ensure_future(lines.get())
        news = asyncio.ensure_future(conn.events.get())
        done, _pending = await asyncio.wait({typed, news}, return_when=asyncio.FIRST_COMPLETED)
        for task in (typed, news):
            if task not in done:
                task.cancel()
        if news in done:
            item = news.result()
            if item.get("kind") == "table" and item.get("table") == table:
                if not await trainee.event(item["event"]):
                    return 0
            elif item.get("kind") == "snapshot" and item.get("table") == table and first_join:
                first_join = False
            elif item.get("kind") == "snapshot" and item.get("table") == table:
                trainee.asked = None  # back after a drop: what was asked may have gone; ask again
                say(_("(back at the table)"))
                if (item["snapshot"].get("drill") or {}).get("waiting"):
                    await trainee.fetch()
            elif item.get("kind") in ("replaced", "revoked"):
                say(_taken_over(item))
                return 1
            elif item.get("kind") == "gone":
                say(_("the server would not take this client back: {reason}", reason=item.get("message")))
                return 1
        if typed in done:
            text = typed.result()
            if text is None:
                say(_("(input ended: you leave the drill; each step left counts as no answer)"))
                return 0
            await trainee.line(text)
