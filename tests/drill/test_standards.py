"""Speed standards (issue 27, item 2): per step kind accuracy, median and worst time, how many beat the standard;
an exam passes or fails on the trainer's marks. Time is injected: no test waits for a clock."""

from __future__ import annotations

import json
import statistics
from itertools import count
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.drill.grammar import format_answer
from client_cli.drill.session import Terminal, rehearse
from server.drill.play import dry_run
from server.drill.scenario import ScenarioError, parse
from server.drill.views import moments
from server.rules.drill.report import Asked, report
from server.rules.drill.settings import drill_settings
from server.rules.drill.standards import DEFAULT_STANDARDS, PassMarks, standards_setting
from server.rules.drill.steps import QUESTIONS, KeyStep
from server.rules.errors import SettingsError

SHIPPED = "server/drill/scenarios/{}.json"
KINDS = ("offer_bank", "first_card", "walk_away")


def test_every_step_kind_has_a_default_standard() -> None:
    assert set(DEFAULT_STANDARDS) == set(QUESTIONS)
    assert DEFAULT_STANDARDS["payout"] == 30  # the college program's: each bonus bet paid in under 30 seconds


@given(st.lists(st.tuples(st.sampled_from(KINDS), st.booleans(), st.none() | st.floats(0, 100),
                          st.booleans()), min_size=1, max_size=30),
       st.dictionaries(st.sampled_from(KINDS), st.integers(1, 60)))
def test_each_kind_reports_accuracy_median_worst_and_how_many_beat_its_standard(
        steps: list[tuple[str, bool, float | None, bool]], standards: dict[str, int]) -> None:
    key = [Asked(1, KeyStep(kind, {"seat": 1}, "RULES 3.1")) for kind, _, _, _ in steps]
    answers = [None if not answered else {"seat": 1 if right else 2} for _, right, _, answered in steps]
    seconds = [took for _, _, took, _ in steps]
    r = report("demo", key, answers, ledger="none", seconds=seconds, standards=standards)
    if all(t is None for t in seconds):
        assert "within_standard" not in r
        return
    mine = standards_setting(None) | standards
    for kind, tally in r["by_step"].items():
        rows = [(right, took, answered) for k, right, took, answered in steps if k == kind]
        times = [t for _, t, _ in rows if t is not None]
        assert tally["accuracy"] == 100.0 * sum(1 for right, _, a in rows if right and a) / len(rows)
        assert tally["standard_seconds"] == mine[kind]
        assert tally["within_standard"] == sum(1 for _, t, a in rows if a and t is not None and t <= mine[kind])
        if times:
            assert tally["median_seconds"] == statistics.median(times)
            assert tally["worst_seconds"] == max(times)
        else:
            assert "median_seconds" not in tally
    assert r["within_standard"] == sum(t["within_standard"] for t in r["by_step"].values())


@pytest.mark.parametrize(("right", "fast", "passed"), [(19, 18, True), (18, 20, False), (20, 17, False)])
def test_an_exam_passes_only_at_both_marks(right: int, fast: int, passed: bool) -> None:
    """20 steps, marks of 95% right and 90% within the standard: 19 right and 18 in time pass, 18 right or 17
    in time fail."""
    key = [Asked(1, KeyStep("first_card", {"seat": 2}, "RULES 3.4"))] * 20
    answers = [{"seat": 2}] * right + [{"seat": 3}] * (20 - right)
    seconds = [1.0] * fast + [60.0] * (20 - fast)
    r = report("exam", key, answers, ledger="none", seconds=seconds, marks=PassMarks(95, 90))
    assert r["exam"]["passed"] is passed
    assert r["exam"]["marks"] == {"right": 95, "within": 90}
    assert r["exam"]["right_percent"] == 5.0 * right


@pytest.mark.parametrize(("drill", "refusal"), [
    ({"standards": {"payout": 0}}, "drill.standards.payout: a whole number of seconds from 1 to 600, got 0"),
    ({"standards": {"shuffle": 10}}, "drill.standards: no step 'shuffle' (the steps: offer_bank"),
    ({"standards": [30]}, 'drill.standards: an object of step kinds and seconds, like {"payout": 20}'),
    ({"pass": {"right": 101}}, "drill.pass.right: a whole percent from 0 to 100, got 101"),
    ({"pass": {"fast": 90}}, 'drill.pass: an object of percents, like {"right": 95, "within": 90}'),
])
def test_standards_and_pass_marks_out_of_their_limits_are_refused_with_them(drill: dict[str, Any],
                                                                            refusal: str) -> None:
    with pytest.raises(SettingsError) as refused:
        drill_settings({"trainee": "tina"} | drill, "hcf", house_banked=False)
    assert refused.value.message.startswith(refusal)


def test_a_drills_standards_and_marks_are_kept_with_the_table_and_read_back() -> None:
    values = {"trainee": "tina", "mode": "exam", "standards": {"payout": 20}, "pass": {"right": 95, "within": 90}}
    settings = drill_settings(values, "hcf", house_banked=False)
    again = drill_settings(settings.as_dict(), "hcf", house_banked=False)
    assert again == settings
    assert again.report_options() == {"standards": {"payout": 20}, "marks": PassMarks(95, 90)}
    training = drill_settings(values | {"mode": "training"}, "hcf", house_banked=False)
    assert training.report_options()["marks"] is None  # only an exam passes or fails


def _walk_away(**extra: Any) -> dict[str, Any]:
    with open(SHIPPED.format("walk-away"), encoding="utf-8") as file:
        data: dict[str, Any] = json.load(file)
    return data | extra


def test_a_scenario_with_a_bad_standard_is_refused_naming_it() -> None:
    with pytest.raises(ScenarioError, match=r"scenario walk-away: standards\.fees: a whole number of seconds"):
        parse(_walk_away(standards={"fees": 1000}))


@pytest.mark.parametrize(("seconds", "verdict"), [(2, "Exam: passed: 100.0% right (95% needed), 100.0% within"),
                                                   (40, "Exam: not passed: 100.0% right (95% needed), 0.0% within")])
def test_a_rehearsed_exam_says_passed_or_not_against_its_marks(seconds: int, verdict: str) -> None:
    scenario = parse(_walk_away(standards=dict.fromkeys(DEFAULT_STANDARDS, 30),
                                **{"pass": {"right": 95, "within": 90}}))
    steps = moments(scenario, dry_run(scenario))
    typed = iter(format_answer(m.asked.step.step, m.asked.step.answer) for m in steps)
    ticks = count(0, seconds)  # each read of the clock is `seconds` later: every answer takes that long
    out: list[str] = []
    result = rehearse(scenario, steps, "exam", Terminal(lambda _prompt: next(typed), out.append,
                                                        lambda: float(next(ticks))))
    assert result["exam"]["passed"] is (seconds == 2)
    assert any(line.startswith(verdict) for line in out)
    again = iter(format_answer(m.asked.step.step, m.asked.step.answer) for m in steps)
    practice = rehearse(scenario, steps, "training", Terminal(lambda _prompt: next(again), out.append,
                                                              lambda: float(next(ticks))))
    assert "exam" not in practice  # training reports its figures, but passes nothing
