"""``hcf drill SCENARIO``: a trainee rehearses a scenario on their own machine, no server.

The scenario is played through the rules core (:func:`server.rules.drill.play.dry_run`, the
same check and key as ``hcf-server drill``); each step of its key is shown as the dealer
would see it (:mod:`server.rules.drill.views`) and the trainee's line is read in the short
grammar (:mod:`client_cli.drill.grammar`). A line that is no answer is explained and
the step asked again; an answer is judged by the engine (:mod:`server.rules.drill.judge`),
and at the end the engine's report (:func:`server.rules.drill.report.report`) gives the
score, each step kind's median time and every mistake. Time is read from an injected
clock, from the question to the answer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from client_cli.drill.grammar import AnswerError, help_text, parse_answer
from client_cli.drill.screen import feedback, intro_lines, report_lines, scenario_text, view_lines
from server.i18n import _
from server.rules.drill.explain import step_name
from server.rules.drill.report import report
from server.rules.drill.scenario import Scenario
from server.rules.drill.views import Moment
from server.rules.vocabulary import JSON

MODES: Final = ("training", "exam")
LEDGER: Final = "none"
"""The report's ``ledger``: a rehearsal plays no table, so there is no database to check."""
HELP: Final = frozenset({"?", "help"})


@dataclass(frozen=True, slots=True)
class Terminal:
    """Where the rehearsal reads and writes, and its clock (tests give all three)."""

    read: Callable[[str], str]  # like ``input``: raises EOFError when the answers run out
    write: Callable[[str], None]
    clock: Callable[[], float] = field(default=time.monotonic)


class DrillStopped(KeyboardInterrupt):
    """Ctrl-C during a rehearsal: the report of the steps answered so far was written; it is ``report``."""

    def __init__(self, result: JSON) -> None:
        super().__init__("the drill was stopped")
        self.report = result


def rehearse(scenario: Scenario, moments: Sequence[Moment], mode: str, term: Terminal) -> JSON:
    """Ask every step, give the feedback of ``mode``, write the report; returns the report (JSON).

    Ctrl-C stops it: the report of the steps answered so far is written, and :class:`DrillStopped` carries it.
    """
    steps = tuple(dict.fromkeys(m.asked.step.step for m in moments))
    forms = help_text(steps)
    for line in intro_lines(scenario.title, mode, len(moments), forms):
        term.write(line)
    answers: list[JSON | None] = []
    seconds: list[float | None] = []
    asked = list(moments)
    try:
        for moment in moments:
            answer = _answer(moment, len(moments), forms, term)
            if answer is None:
                left = len(moments) - len(answers)
                term.write(_("(no more answers: the {left} steps left count as no answer)", left=left) if left > 1
                           else _("(no more answers: the last step counts as no answer)"))
                break
            given, took = answer
            answers.append(given)
            seconds.append(took)
            if mode == "training":
                term.write(feedback(moment.asked.step, given))
    except KeyboardInterrupt:
        asked = asked[:len(answers)]
        term.write("")
        stopped = report(scenario.name, [m.asked for m in asked], answers, ledger=LEDGER, seconds=seconds,
                         **_measures(scenario, mode))
        at, of = len(answers) + 1, len(moments)
        if not answers:
            term.write(_("(drill stopped at step {at} of {of}: no step was answered, so there is nothing to report)",
                         at=at, of=of))
        else:
            term.write(_("(drill stopped at step {at} of {of}: the report covers the {steps} answered)", at=at,
                         of=of, steps=_steps(len(answers))))
            _write_report(stopped, mode, None, term)
        raise DrillStopped(stopped) from None
    result = report(scenario.name, [m.asked for m in asked], answers, ledger=LEDGER, seconds=seconds,
                    **_measures(scenario, mode))
    _write_report(result, mode, scenario.about, term)
    return result


def _measures(scenario: Scenario, mode: str) -> dict[str, Any]:
    """The scenario's standards, and in an exam its pass marks."""
    return {"standards": scenario.standards, "marks": scenario.pass_marks if mode == "exam" else None}


def _steps(n: int) -> str:
    return _("1 step") if n == 1 else _("{n} steps", n=n)


def _write_report(result: JSON, mode: str, about: str | None, term: Terminal) -> None:
    term.write("")
    for line in report_lines(result, mode):
        term.write(line)
    if about:
        term.write(_("What this scenario rehearsed: {about}", about=scenario_text(about)))


def _answer(moment: Moment, total: int, forms: str, term: Terminal) -> tuple[JSON, float] | None:
    """The trainee's answer to one step and the seconds it took; None once the input ends."""
    term.write("")
    for line in view_lines(moment, total):
        term.write(line)
    step = moment.asked.step.step
    start = term.clock()
    while True:
        try:
            line = term.read("> ").strip()
        except EOFError:
            return None
        if not line:
            continue
        if line.lower() in HELP:
            term.write(forms)
            continue
        try:
            given = parse_answer(step, line)
        except AnswerError as exc:
            term.write(_("`{line}` is no answer to {step}: {problem}. Type ? for every form.", line=line,
                         step=step_name(step), problem=exc.reason))
            continue
        return given, term.clock() - start


def report_json(result: JSON) -> str:
    """The report as one line of JSON (``--json``)."""
    return json.dumps(result)
