"""The certificate's digest (issue 27, item 7): one canonical encoding of the answer log, so the digest worked
out again from a kept report is the one kept with it, and any change to an answer changes it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.drill.certificate import answer_log, canonical, certificate, log_digest

SCALARS = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8) | st.floats(
    allow_nan=False, allow_infinity=False, width=32)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                          max_size=3), max_leaves=12)
LOGS = st.lists(st.dictionaries(st.sampled_from(["n", "step", "given", "answer", "right", "mistake", "rule"]), VALUES,
                                min_size=1), max_size=6)


def _shuffled(value: Any, seed: int) -> Any:
    """The same value with every object's keys in another order."""
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: hash((kv[0], seed)))
        return {k: _shuffled(v, seed) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, seed) for v in value]
    return value


@given(LOGS, st.integers())
def test_the_digest_is_the_same_whatever_the_order_of_the_keys(log: list[Any], seed: int) -> None:
    assert log_digest({"steps": log}) == log_digest({"steps": _shuffled(log, seed)})


@given(LOGS)
def test_the_digest_of_a_report_read_back_from_its_json_is_the_one_worked_out_when_kept(log: list[Any]) -> None:
    report = {"right": 0, "total": len(log), "steps": log}
    assert log_digest(json.loads(json.dumps(report))) == log_digest(report)


@given(LOGS.filter(bool), st.data())
def test_any_answer_changed_changes_the_digest(log: list[Any], data: st.DataObject) -> None:
    n = data.draw(st.integers(0, len(log) - 1))
    changed = [dict(s) for s in log]
    changed[n]["given"] = ["changed", log[n].get("given")]  # (never equal to what it wraps)
    assert canonical(changed) != canonical(log)
    assert log_digest({"steps": changed}) != log_digest({"steps": log})


def test_only_an_exam_passed_has_a_certificate() -> None:
    exam = {"passed": True, "right_percent": 100.0, "within_percent": 100.0, "marks": {"right": 95}}
    report = {"right": 1, "total": 1, "steps": [{"n": 1}], "by_step": {}, "exam": exam}
    cert = certificate(trainee="tina", session=2, at=1.0, source="live", scenario="s", report=report,
                       kept_digest=log_digest(report))
    assert (cert["checked"], cert["answers"], cert["marks"]) == (True, 1, {"right": 95})
    for not_passed in ({**report, "exam": {**exam, "passed": False}}, {k: v for k, v in report.items() if k != "exam"}):
        with pytest.raises(ValueError, match="session 2 of tina is not an exam passed"):
            certificate(trainee="tina", session=2, at=1.0, source="live", scenario="s", report=not_passed,
                        kept_digest="")
    assert answer_log({"steps": "not a list"}) == []
