"""A trainee's history (docs/drills.md, "Progress over sessions"): trends, weak items and certificates follow
the kept reports."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.drill.progress import WEAK_BELOW, WEAK_WINDOW, Kept, checked_report, history, overview

KINDS = ("fees", "qualify", "payout")
tally = st.integers(1, 4).flatmap(lambda total: st.tuples(st.integers(0, total), st.just(total)))


@st.composite
def kept_reports(draw: Any) -> list[Kept]:
    out = []
    for n in range(draw(st.integers(0, 8))):
        by_step = {k: {"right": r, "total": t} for k, (r, t) in
                   draw(st.dictionaries(st.sampled_from(KINDS), tally, max_size=3)).items()}
        right, total = sum(v["right"] for v in by_step.values()), sum(v["total"] for v in by_step.values())
        report: dict[str, Any] = {"scenario": "s", "right": right, "total": total, "by_step": by_step}
        if draw(st.booleans()):
            report["exam"] = {"passed": draw(st.booleans()), "right_percent": 90.0, "within_percent": 80.0}
        out.append(Kept(at=1_000_000 * (n + 1), source="offline", scenario="s", mode="exam", partial=False,
                        report=report))
    return out


@given(kept_reports())
def test_the_trend_weak_items_and_certificates_follow_the_reports(kept: list[Kept]) -> None:
    got = history("tina", kept)
    assert len(got["sessions"]) == len(kept)
    for kind in KINDS:
        asked = [(n, k.report["by_step"][kind]) for n, k in enumerate(kept, 1) if kind in k.report["by_step"]]
        assert [(p["session"], p["right"], p["total"]) for p in got["trend"].get(kind, [])] == \
            [(n, t["right"], t["total"]) for n, t in asked]
        recent = [t for _, t in asked][-WEAK_WINDOW:]
        right, total = sum(t["right"] for t in recent), sum(t["total"] for t in recent)
        weak = bool(total) and 100.0 * right / total < WEAK_BELOW
        assert weak == (kind in [w["step"] for w in got["weak"]])
    assert [c["session"] for c in got["certificates"]] == \
        [n for n, k in enumerate(kept, 1) if (k.report.get("exam") or {}).get("passed")]
    line = overview("tina", kept)
    assert (line["sessions"], line["certificates"]) == (len(kept), len(got["certificates"]))


@pytest.mark.parametrize("bad", [None, [], {"right": 1}, {"right": -1, "total": 2, "by_step": {}},
                                 {"right": True, "total": 2, "by_step": {}},
                                 {"right": 1, "total": 2, "by_step": {"fees": {"right": 3, "total": 2}}},
                                 {"right": 1, "total": 2, "by_step": []}])
def test_a_sent_report_the_history_cannot_fold_is_refused_with_a_sentence(bad: Any) -> None:
    with pytest.raises(ValueError, match="report") as refused:
        checked_report(bad)
    assert "_" not in str(refused.value).replace("by_step", "")
