"""The session's report (DRILLS sections 8 and 9): the score, per step kind, and every answer judged.

>>> from server.rules.drill.steps import KeyStep
>>> key = [Asked(1, KeyStep("first_card", {"seat": 2}, "RULES 3.4"))]
>>> r = report("demo", key, [{"seat": 3}], ledger="ok")
>>> r["right"], r["total"], r["by_step"], r["steps"][0]["mistake"]
(0, 1, {'first_card': {'right': 0, 'total': 1}}, 'wrong')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.rules.drill.judge import judge_step
from server.rules.drill.standards import PassMarks, exam_verdict, speed, standards_setting
from server.rules.drill.steps import JSON, KeyStep


@dataclass(frozen=True, slots=True)
class Asked:
    """One step of a session's key: the hand it came in (counting from 1) and the step."""

    hand: int
    step: KeyStep


def key_json(name: str, key: Sequence[Asked]) -> JSON:
    """``drill key``'s answer key: every step, ``n`` counting from 1 over the whole session."""
    return {"scenario": name, "steps": [
        {"n": n, "hand": a.hand, "step": a.step.step, "answer": a.step.answer, "rule": a.step.rule}
        for n, a in enumerate(key, 1)]}


def report(name: str, key: Sequence[Asked], answers: Sequence[Any], *, ledger: str,
           seconds: Sequence[float | None] = (), standards: Mapping[str, int] | None = None,
           marks: PassMarks | None = None) -> JSON:
    """Judge ``answers`` (one per step in key order; missing or None: no answer) and report.

    ``seconds``: each answer's time from question to answer (a live drill, a rehearsal); when given,
    each step kind also gets its accuracy (percent right), the median and worst time, its standard
    (``standards`` over the defaults) and how many of its steps beat it, and the session how many in all
    (``within_standard``). ``marks``: an exam's pass marks; the report then says whether it passed.
    """
    steps: list[JSON] = []
    by_step: dict[str, JSON] = {}
    for n, asked in enumerate(key, 1):
        given = answers[n - 1] if n - 1 < len(answers) else None
        verdict = judge_step(asked.step, given)
        tally = by_step.setdefault(asked.step.step, {"right": 0, "total": 0})
        tally["total"] += 1
        tally["right"] += verdict.right
        steps.append({"n": n, "hand": asked.hand, "step": asked.step.step, "given": given,
                      "answer": asked.step.answer, "right": verdict.right, "mistake": verdict.mistake,
                      "rule": asked.step.rule})
    right = sum(1 for s in steps if s["right"])
    out = {"scenario": name, "right": right, "total": len(steps), "by_step": by_step, "steps": steps,
           "ledger": ledger}
    within = 0
    if any(t is not None for t in seconds):
        within = out["within_standard"] = _timed(by_step, steps, seconds,
                                                 standards_setting(None) | dict(standards or {}))
    if marks is not None:
        out["exam"] = exam_verdict(right, within, len(steps), marks)
    return out


def _timed(by_step: dict[str, JSON], steps: Sequence[JSON], seconds: Sequence[float | None],
           standards: Mapping[str, int]) -> int:
    """Each kind's accuracy and speed added to its tally; how many steps beat their standard in all."""
    within = 0
    for kind, tally in by_step.items():
        mine = [(seconds[i] if i < len(seconds) else None, s["given"] is not None)
                for i, s in enumerate(steps) if s["step"] == kind]
        figures = speed(kind, [t for t, _ in mine], [a for _, a in mine], standards)
        tally |= {"accuracy": 100.0 * tally["right"] / tally["total"]} | figures
        within += figures["within_standard"]
    return within


def percent(report_json: JSON) -> float:
    """The overall score in percent (100 for a session of no steps)."""
    total = int(report_json["total"])
    return 100.0 if not total else 100.0 * int(report_json["right"]) / total
