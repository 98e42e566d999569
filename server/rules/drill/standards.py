"""Speed standards (issue 27, item 2): a standard time for each step kind, and an exam's pass marks.

A step *beats the standard* when it was answered (no answer never does) in at most
its kind's standard seconds. The defaults and where each comes from are in
docs/drills.md ("Speed standards"); a drill sets its own with ``standards``, and an
exam its pass marks with ``pass`` (percent right, percent within the standard).

>>> standards_setting({"payout": 20})["payout"], standards_setting(None)["fees"]
(20, 10)
>>> pass_setting({"right": 95, "within": 90})
PassMarks(right=95, within=90)
>>> pass_setting({"right": 101})
Traceback (most recent call last):
...
server.rules.errors.SettingsError: pass.right: a whole percent from 0 to 100, got 101
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from server.i18n import phrase
from server.rules.drill.steps import QUESTIONS
from server.rules.errors import SettingsError

DEFAULT_STANDARDS: Final[Mapping[str, int]] = {
    "offer_bank": 5, "fees": 10, "first_card": 5, "irregularity": 15, "walk_away": 5, "qualify": 5,
    "settle_seat": 15, "settle_spot": 15, "settle_box": 15, "payout": 30, "bank_after": 20,
    "dealer_exchange": 10, "qualify_after": 5,
}
"""Each step kind's standard in seconds (docs/drills.md gives the source or the reasoning of each)."""

STANDARD_SECONDS: Final = (1, 600)


@dataclass(frozen=True, slots=True)
class PassMarks:
    """An exam passes with at least ``right`` percent of the steps right and ``within`` percent within the
    standard."""

    right: int
    within: int

    def as_dict(self) -> dict[str, int]:
        """As stored with the drill's settings."""
        return {"right": self.right, "within": self.within}


def standards_setting(value: Any) -> dict[str, int]:
    """The defaults with a drill's ``standards`` over them; SettingsError with a sentence naming the limits."""
    if value is None:
        return dict(DEFAULT_STANDARDS)
    if not isinstance(value, Mapping):
        raise SettingsError(phrase("standards: an object of step kinds and seconds, like {example}",
                                   example='{"payout": 20}'))
    low, high = STANDARD_SECONDS
    out = dict(DEFAULT_STANDARDS)
    for kind, seconds in value.items():
        if kind not in QUESTIONS:
            raise SettingsError(phrase("standards: no step {kind} (the steps: {known})", kind=repr(kind),
                                       known=", ".join(QUESTIONS)))
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high:
            raise SettingsError(phrase("standards.{kind}: a whole number of seconds from {low} to {high}, got {value}",
                                       kind=kind, low=low, high=high, value=repr(seconds)))
        out[kind] = seconds
    return out


def pass_setting(value: Any) -> PassMarks | None:
    """An exam's ``pass`` marks (None: the exam reports its figures without passing or failing)."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - {"right", "within"}:
        raise SettingsError(phrase("pass: an object of percents, like {example}",
                                   example='{"right": 95, "within": 90}'))
    marks = {}
    for name in ("right", "within"):
        mark = value.get(name, 0)
        if isinstance(mark, bool) or not isinstance(mark, int) or not 0 <= mark <= 100:
            raise SettingsError(phrase("pass.{name}: a whole percent from 0 to 100, got {value}", name=name,
                                       value=repr(mark)))
        marks[name] = mark
    return PassMarks(**marks)


def speed(kind: str, times: Sequence[float | None], answered: Sequence[bool],
          standards: Mapping[str, int]) -> dict[str, Any]:
    """One step kind's times: median and worst of the steps timed, its standard, and how many beat it."""
    timed = [t for t in times if t is not None]
    standard = standards.get(kind, DEFAULT_STANDARDS.get(kind, STANDARD_SECONDS[1]))
    within = sum(1 for t, a in zip(times, answered, strict=True) if t is not None and a and t <= standard)
    out: dict[str, Any] = {"standard_seconds": standard, "within_standard": within}
    if timed:
        out |= {"median_seconds": statistics.median(timed), "worst_seconds": max(timed)}
    return out


def exam_verdict(right: int, within: int, total: int, marks: PassMarks) -> dict[str, Any]:
    """Passed or not, with the session's percents and the marks they were held to (no steps: passed)."""
    right_percent = 100.0 if not total else 100.0 * right / total
    within_percent = 100.0 if not total else 100.0 * within / total
    return {"passed": right_percent >= marks.right and within_percent >= marks.within,
            "right_percent": right_percent, "within_percent": within_percent, "marks": marks.as_dict()}
