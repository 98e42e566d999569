"""The session's report (DRILLS sections 8 and 9): the score, per step kind, and every answer judged.

>>> from server.rules.drill.steps import KeyStep
>>> key = [Asked(1, KeyStep("first_card", {"seat": 2}, "RULES 3.4"))]
>>> r = report("demo", key, [{"seat": 3}], ledger="ok")
>>> r["right"], r["total"], r["by_step"], r["steps"][0]["mistake"]
(0, 1, {'first_card': {'right': 0, 'total': 1}}, 'wrong')
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.rules.drill.judge import judge
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
           seconds: Sequence[float | None] = ()) -> JSON:
    """Judge ``answers`` (one per step in key order; missing or None: no answer) and report.

    ``seconds``: each answer's time from question to answer (a live drill); when given,
    each step kind also gets its ``median_seconds``.
    """
    steps: list[JSON] = []
    by_step: dict[str, JSON] = {}
    times: dict[str, list[float]] = {}
    for n, asked in enumerate(key, 1):
        given = answers[n - 1] if n - 1 < len(answers) else None
        verdict = judge(asked.step.step, given, asked.step.answer)
        tally = by_step.setdefault(asked.step.step, {"right": 0, "total": 0})
        tally["total"] += 1
        tally["right"] += verdict.right
        took = seconds[n - 1] if n - 1 < len(seconds) else None
        if took is not None:
            times.setdefault(asked.step.step, []).append(took)
        steps.append({"n": n, "hand": asked.hand, "step": asked.step.step, "given": given,
                      "answer": asked.step.answer, "right": verdict.right, "mistake": verdict.mistake,
                      "rule": asked.step.rule})
    for kind, spent in times.items():
        by_step[kind]["median_seconds"] = statistics.median(spent)
    right = sum(1 for s in steps if s["right"])
    return {"scenario": name, "right": right, "total": len(steps), "by_step": by_step, "steps": steps,
            "ledger": ledger}


def percent(report_json: JSON) -> float:
    """The overall score in percent (100 for a session of no steps)."""
    total = int(report_json["total"])
    return 100.0 if not total else 100.0 * int(report_json["right"]) / total
