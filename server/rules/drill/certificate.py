"""A certificate for an exam passed (issue 27, item 7): its figures and the digest of its answer log. Pure.

The **answer log** is a report's ``steps``: each step asked, what the trainee said, the right answer, right or
not and the kind of mistake (:func:`server.rules.drill.report.report`). Its **digest** is the SHA-256 of its
canonical encoding: JSON with the keys sorted, no spaces, text as UTF-8 (Python's ``json.dumps(log,
sort_keys=True, separators=(",", ":"), ensure_ascii=False)``). It is worked out when the report is kept and
kept beside it; worked out again from the kept report, it must be the same, or the report changed since.

>>> log = [{"n": 1, "step": "fees", "given": {"fees": {}}, "right": True}]
>>> canonical(log)
b'[{"given":{"fees":{}},"n":1,"right":true,"step":"fees"}]'
>>> log_digest({"steps": log}) == log_digest({"steps": [dict(reversed(list(log[0].items())))]})
True
>>> len(log_digest({})), log_digest({}) == log_digest({"steps": []})
(64, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from server.i18n import phrase
from server.rules.drill.steps import JSON


def answer_log(report: Mapping[str, Any]) -> list[Any]:
    """The report's answer log (its ``steps``); empty for a report kept without one (``hcf drill`` sends its
    figures only)."""
    steps = report.get("steps")
    return list(steps) if isinstance(steps, list) else []


def canonical(log: Any) -> bytes:
    """The one encoding of ``log`` the digest is taken of: sorted keys, no spaces, UTF-8."""
    return json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def log_digest(report: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of the report's answer log in its canonical encoding."""
    return hashlib.sha256(canonical(answer_log(report))).hexdigest()


def passed(report: Mapping[str, Any]) -> bool:
    """Whether the report is an exam that passed: only those have a certificate."""
    exam = report.get("exam")
    return isinstance(exam, Mapping) and exam.get("passed") is True


def certificate(*, trainee: str, session: int, at: float, source: str, scenario: str,
                report: Mapping[str, Any], kept_digest: str) -> JSON:
    """The certificate of a passed exam's kept report: who, when, what, the scores and times, and the digest kept
    with it beside the one worked out again now (``checked``: whether they are the same).

    Raises ValueError (a sentence) for a report that is not a passed exam.
    """
    if not passed(report):
        raise ValueError(phrase("session {session} of {trainee} is not an exam passed: only an exam passed has a "
                                "certificate", session=session, trainee=trainee))
    exam = dict(report["exam"])
    digest = log_digest(report)
    return {"trainee": trainee, "session": session, "at": at, "source": source, "scenario": scenario,
            "right": int(report.get("right", 0)), "total": int(report.get("total", 0)),
            "within_standard": report.get("within_standard"),
            "right_percent": exam.get("right_percent"), "within_percent": exam.get("within_percent"),
            "marks": exam.get("marks") or {}, "by_step": dict(report.get("by_step") or {}),
            "answers": len(answer_log(report)), "digest": kept_digest, "recomputed": digest,
            "checked": bool(kept_digest) and digest == kept_digest}
