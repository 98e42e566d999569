"""The rehearsal's words on the terminal: the dealer's view of a step, the feedback, the report. Pure.

>>> from server.rules.drill.steps import KeyStep
>>> print(feedback(KeyStep("first_card", {"seat": 2}, "RULES 3.4", "the deal starts at seat 2"), {"seat": 3}))
wrong: you said seat 3 gets the first card. The right answer: seat 2 gets the first card, because the deal starts \
at seat 2 (RULES 3.4: the High Card Flush rules, section 3.4, Deal). Typed: `first 2`.
"""

from __future__ import annotations

from typing import Any

from client_cli.drill.grammar import format_answer
from server.i18n import _, spoken
from server.rules.cards import format_cards
from server.rules.drill.explain import MISTAKE_NAMES, step_name
from server.rules.drill.explain import feedback as explained
from server.rules.drill.report import percent
from server.rules.drill.steps import QUESTIONS, KeyStep
from server.rules.drill.views import DealerView, Moment
from server.rules.vocabulary import JSON


def view_lines(moment: Moment, total: int) -> list[str]:
    """What the dealer sees when ``moment``'s step is asked, and the question."""
    return dealer_lines(moment.view, f"step {moment.n} of {total}", moment.asked.step.step)


def dealer_lines(view: DealerView, which: str, step: str) -> list[str]:
    """The dealer's view of the table at a step (``which``: "step 3 of 8", or a live drill's "step 3"), and the
    question."""
    lines = [f"--- hand {view.hand} · {which}: {step_name(step)} ---", view.table]
    if view.button is not None or view.dealer != "the house":
        button = "none yet" if view.button is None else f"seat {view.button}"
        lines.append(f"button: {button}; dealer: {view.dealer}")
    lines.append("seats (stacks as the hand began; bets, raises and fees on the felt):")
    width = max((len(s.name) for s in view.seats), default=0)
    for seat in view.seats:
        line = f"  seat {seat.seat}  {seat.name:<{width}}  stack {seat.stack:>5}"
        if seat.bets:
            line += f"   {seat.bets}"
        if seat.status:
            line += f"   [{seat.status}]"
        lines.append(line)
    lines += _cards(view)
    if view.note:
        lines.append(view.note)
    lines.append(QUESTIONS[step])
    return lines


def _cards(view: DealerView) -> list[str]:
    lines = []
    if view.dealer_cards:
        lines.append(f"dealer's hand ({view.dealer}): {format_cards(view.dealer_cards)}")
    lines += [f"{place}'s hand: {format_cards(cards)}" for place, cards in view.shown]
    return lines


def feedback(step: KeyStep, given: JSON) -> str:
    """Training mode's line after an answer: right, or the server's sentence (what was wrong, the right answer,
    why, the rule) and the right answer as it is typed."""
    said = explained(step, given)
    if said == "right.":
        return spoken(said)
    return _("{feedback} Typed: `{answer}`.", feedback=said, answer=format_answer(step.step, step.answer))


def report_lines(report: JSON, mode: str) -> list[str]:
    """The session's report: the score; each step kind's score, median and worst time, its standard and how many
    beat it; an exam's verdict against its pass marks; every mistake."""
    lines = [f"Report: {report['scenario']} ({mode}): {report['right']}/{report['total']} right, "
             f"{percent(report):.1f}%",
             f"  {'step':<33} {'right':>7}   {'median':>7}  {'worst':>7}  {'standard':>8}  beat it"]
    for kind, tally in report["by_step"].items():
        beat = f"{tally['within_standard']}/{tally['total']}" if "within_standard" in tally else "-"
        standard = f"{tally['standard_seconds']} s" if "standard_seconds" in tally else "-"
        lines.append(f"  {step_name(kind):<33} {tally['right']:>3}/{tally['total']:<3}   "
                     f"{_seconds(tally.get('median_seconds')):>7}  {_seconds(tally.get('worst_seconds')):>7}  "
                     f"{standard:>8}  {beat}")
    if "exam" in report:
        lines.append(exam_line(report["exam"]))
    mistakes = [s for s in report["steps"] if not s["right"]]
    lines.append("Mistakes:" if mistakes else "No mistakes.")
    lines += [_mistake(s) for s in mistakes]
    return lines


def _seconds(value: Any) -> str:
    return "-" if value is None else f"{float(value):.1f} s"


def exam_line(exam: JSON) -> str:
    """An exam's verdict in a sentence: passed or not, each figure against its mark.

    >>> exam_line({"passed": False, "right_percent": 96.0, "within_percent": 80.0,
    ...            "marks": {"right": 95, "within": 90}})
    'Exam: not passed: 96.0% right (95% needed), 80.0% within the standard times (90% needed).'
    """
    verdict = "passed" if exam["passed"] else "not passed"
    return (f"Exam: {verdict}: {exam['right_percent']:.1f}% right ({exam['marks']['right']}% needed), "
            f"{exam['within_percent']:.1f}% within the standard times ({exam['marks']['within']}% needed).")


def _mistake(step: JSON) -> str:
    given = format_answer(step["step"], step["given"])
    right = format_answer(step["step"], step["answer"])
    mistake = MISTAKE_NAMES.get(str(step["mistake"]), "wrong")
    return (f"  hand {step['hand']}, step {step['n']} ({step_name(step['step'])}): you said `{given}`, "
            f"the right answer is `{right}` ({mistake}; {step['rule']})")


def intro_lines(title: str, mode: str, total: int, forms: str) -> list[str]:
    """The session's opening: the scenario, the mode, how many steps, the answer forms.

    Not the scenario's ``about``: it tells what happens and the right rulings (it comes after the report).
    """
    tell = "after each answer you are told right or wrong" if mode == "training" else \
        "exam: nothing is said until the report at the end"
    return [f"Drill: {title}", f"{total} steps; {tell}.", forms]

