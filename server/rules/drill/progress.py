"""A trainee's progress over sessions (issue 27, item 4): every kept report folded into trends, weak items and
certificates. Pure: the reports come in, oldest first, as :func:`server.rules.drill.report.report` made them.

A **weak item** is a step kind whose accuracy over its last ``WEAK_WINDOW`` sessions (those that asked it) is
below ``WEAK_BELOW`` percent; a **certificate** is an exam that passed (its report says ``exam.passed``).

>>> kept = [Kept(1, "live", "s", "training", False, {"right": 1, "total": 2,
...          "by_step": {"fees": {"right": 0, "total": 1}, "qualify": {"right": 1, "total": 1}}})]
>>> summary = history("tina", kept)
>>> summary["accuracy"], summary["weak"][0]["step"], summary["trend"]["fees"][0]["accuracy"]
(50.0, 'fees', 0.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from server.i18n import phrase
from server.rules.drill.steps import JSON

WEAK_WINDOW: Final = 3
WEAK_BELOW: Final = 80.0
SOURCES: Final = ("live", "offline", "practice")
"""Where a kept report came from: a live drill table, ``hcf drill`` on the trainee's machine, or its practice."""


@dataclass(frozen=True, slots=True)
class Kept:
    """One kept report: when (microseconds since the epoch), from where, the scenario, the mode, whether it was
    stopped before its end, the report itself, and the digest of its answer log kept with it
    (:mod:`server.rules.drill.certificate`)."""

    at: int
    source: str
    scenario: str
    mode: str
    partial: bool
    report: Mapping[str, Any]
    digest: str = ""


def _percent(right: int, total: int) -> float:
    return 100.0 if not total else 100.0 * right / total


def sessions_json(kept: Sequence[Kept]) -> list[JSON]:
    """Each session in a line: when, from where, what, and its score."""
    return [{"n": n, "at": k.at / 1e6, "source": k.source, "scenario": k.scenario, "mode": k.mode,
             "partial": k.partial, "right": int(k.report.get("right", 0)), "total": int(k.report.get("total", 0)),
             "accuracy": _percent(int(k.report.get("right", 0)), int(k.report.get("total", 0)))}
            for n, k in enumerate(kept, 1)]


def trend(kept: Sequence[Kept]) -> dict[str, list[JSON]]:
    """Per step kind, its accuracy (and median time, where timed) in each session that asked it, oldest first."""
    out: dict[str, list[JSON]] = {}
    for n, k in enumerate(kept, 1):
        for kind, tally in dict(k.report.get("by_step") or {}).items():
            point: JSON = {"session": n, "at": k.at / 1e6, "right": int(tally["right"]),
                           "total": int(tally["total"]),
                           "accuracy": _percent(int(tally["right"]), int(tally["total"]))}
            if "median_seconds" in tally:
                point["median_seconds"] = tally["median_seconds"]
            out.setdefault(kind, []).append(point)
    return out


def weak_items(trends: Mapping[str, Sequence[JSON]]) -> list[JSON]:
    """The step kinds below ``WEAK_BELOW`` percent over their last ``WEAK_WINDOW`` sessions, weakest first."""
    weak = []
    for kind, points in trends.items():
        recent = points[-WEAK_WINDOW:]
        right, total = sum(p["right"] for p in recent), sum(p["total"] for p in recent)
        if total and _percent(right, total) < WEAK_BELOW:
            weak.append({"step": kind, "accuracy": _percent(right, total), "missed": total - right,
                         "sessions": len(recent)})
    return sorted(weak, key=lambda w: (w["accuracy"], w["step"]))


def certificates(kept: Sequence[Kept]) -> list[JSON]:
    """Every exam passed: when, the scenario, its percents right and within the standard."""
    out = []
    for n, k in enumerate(kept, 1):
        exam = k.report.get("exam") or {}
        if exam.get("passed") is True:
            out.append({"session": n, "at": k.at / 1e6, "scenario": k.scenario,
                        "right_percent": exam.get("right_percent"), "within_percent": exam.get("within_percent")})
    return out


def history(name: str, kept: Sequence[Kept]) -> JSON:
    """A trainee's whole history: sessions, the trend per step kind, weak items and certificates."""
    trends = trend(kept)
    right = sum(int(k.report.get("right", 0)) for k in kept)
    total = sum(int(k.report.get("total", 0)) for k in kept)
    return {"trainee": name, "accuracy": _percent(right, total), "sessions": sessions_json(kept),
            "trend": trends, "weak": weak_items(trends), "certificates": certificates(kept)}


def overview(name: str, kept: Sequence[Kept]) -> JSON:
    """A trainee's line in the list of trainees: sessions, last seen, overall accuracy, certificates."""
    right = sum(int(k.report.get("right", 0)) for k in kept)
    total = sum(int(k.report.get("total", 0)) for k in kept)
    return {"trainee": name, "sessions": len(kept), "last_seen": max((k.at for k in kept), default=0) / 1e6,
            "accuracy": _percent(right, total), "certificates": len(certificates(kept))}


def misses_by_kind(kept: Sequence[Kept]) -> list[dict[str, tuple[int, int]]]:
    """Each session's (right, total) per step kind, oldest first: what the practice scheduler folds."""
    return [{kind: (int(t["right"]), int(t["total"])) for kind, t in dict(k.report.get("by_step") or {}).items()}
            for k in kept]


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100_000


def checked_report(value: Any) -> JSON:
    """A report sent from a client, checked to be one the history can fold; ValueError with a sentence.

    >>> checked_report({"right": 1, "total": 1, "by_step": {"fees": {"right": 1, "total": 1}}})["total"]
    1
    >>> checked_report({"right": 2, "total": 1, "by_step": {}})
    Traceback (most recent call last):
    ...
    ValueError: a report counts its right answers and its steps, at most as many right as steps
    """
    if not isinstance(value, Mapping):
        raise ValueError(phrase("a report is the object hcf drill --json prints"))
    if not (_count(value.get("right")) and _count(value.get("total")) and value["right"] <= value["total"]):
        raise ValueError(phrase("a report counts its right answers and its steps, at most as many right as steps"))
    by_step = value.get("by_step")
    if not isinstance(by_step, Mapping) or not all(
            isinstance(k, str) and isinstance(t, Mapping) and _count(t.get("right")) and _count(t.get("total"))
            and t["right"] <= t["total"] for k, t in by_step.items()):
        raise ValueError(phrase("a report gives each step kind's right answers and steps (by_step)"))
    steps = value.get("steps", [])
    if not (isinstance(steps, list) and len(steps) <= MAX_SENT_STEPS and all(isinstance(s, Mapping) for s in steps)):
        raise ValueError(phrase("a report's answer log (steps) is a list of at most {most} answers",
                                most=MAX_SENT_STEPS))
    return dict(value)


MAX_SENT_STEPS: Final = 150  # an exam is tens of steps; 150 answers fit the server's 64 KB request body

SENT_KEYS: Final = ("scenario", "right", "total", "by_step", "within_standard", "exam", "ledger")


def compact(report: Mapping[str, Any]) -> JSON:
    """What a client sends of a report: every figure the history folds; the answer log (``steps``) only with an
    exam, whose certificate carries the log's digest (a practice session of any length still fits a request).

    >>> compact({"scenario": "s", "right": 0, "total": 1, "by_step": {}, "steps": [{"n": 1}]})
    {'scenario': 's', 'right': 0, 'total': 1, 'by_step': {}}
    >>> compact({"right": 1, "total": 1, "by_step": {}, "exam": {"passed": True}, "steps": [{"n": 1}]})["steps"]
    [{'n': 1}]
    """
    sent = {k: report[k] for k in SENT_KEYS if k in report}
    if isinstance(report.get("exam"), Mapping) and isinstance(report.get("steps"), list):
        sent["steps"] = report["steps"][:MAX_SENT_STEPS]
    return sent
