"""The rehearsal's words on the terminal: the dealer's view of a step, the feedback, the report. Pure.

>>> from server.rules.drill.steps import KeyStep
>>> print(feedback(KeyStep("first_card", {"seat": 2}, "RULES 3.4", "the deal starts at seat 2"), {"seat": 3}))
wrong: you said seat 3 gets the first card. The right answer: seat 2 gets the first card, because the deal starts \
at seat 2 (RULES 3.4: the High Card Flush rules, section 3.4, Deal). Typed: `first 2`.
"""

from __future__ import annotations

from typing import Any

from client_cli.drill.grammar import format_answer
from client_cli.numbers import percent_text, seconds_text
from server.i18n import Phrase, _, spoken
from server.rules.cards import format_cards
from server.rules.drill.explain import MISTAKE_NAMES, step_name
from server.rules.drill.explain import feedback as explained
from server.rules.drill.report import percent
from server.rules.drill.steps import QUESTIONS, KeyStep
from server.rules.drill.views import DealerView, Moment
from server.rules.vocabulary import JSON


def view_lines(moment: Moment, total: int) -> list[str]:
    """What the dealer sees when ``moment``'s step is asked, and the question."""
    return dealer_lines(moment.view, _("step {n} of {total}", n=moment.n, total=total), moment.asked.step.step)


def dealer_lines(view: DealerView, which: str, step: str) -> list[str]:
    """The dealer's view of the table at a step (``which``: "step 3 of 8", or a live drill's "step 3"), and the
    question."""
    lines = ["--- " + _("hand {hand} · {which}: {step}", hand=view.hand, which=which, step=step_name(step)) + " ---",
             spoken(view.table)]
    if view.button is not None or view.dealer != "the house":  # (a phrase reads as its English)
        button = _("none yet") if view.button is None else _("seat {seat}", seat=view.button)
        lines.append(_("button: {button}; dealer: {dealer}", button=button, dealer=spoken(view.dealer)))
    lines.append(_("seats (stacks as the hand began; bets, raises and fees on the felt):"))
    width = max((len(s.name) for s in view.seats), default=0)
    for seat in view.seats:
        line = "  " + _("seat {seat}", seat=seat.seat) + f"  {seat.name:<{width}}  " \
            + _("stack {stack}", stack=f"{seat.stack:>5}")
        if seat.bets:
            line += f"   {spoken(seat.bets)}"
        if seat.status:
            line += f"   [{spoken(seat.status)}]"
        lines.append(line)
    lines += _cards(view)
    if view.note:
        lines.append(spoken(view.note))
    lines.append(spoken(QUESTIONS[step]))
    return lines


def _cards(view: DealerView) -> list[str]:
    lines = []
    if view.dealer_cards:
        lines.append(_("dealer's hand ({dealer}): {cards}", dealer=spoken(view.dealer),
                       cards=format_cards(view.dealer_cards)))
    lines += [_("{place}'s hand: {cards}", place=spoken(place), cards=format_cards(cards))
              for place, cards in view.shown]
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
    lines = [_("Report: {scenario} ({mode}): {right}/{total} right, {percent}", scenario=report["scenario"],
               mode=mode, right=report["right"], total=report["total"], percent=percent_text(percent(report) / 100, 1))]
    rows = [[_("step"), _("right"), _("median"), _("worst"), _("standard"), _("beat it")]]
    for kind, tally in report["by_step"].items():
        beat = f"{tally['within_standard']}/{tally['total']}" if "within_standard" in tally else "-"
        rows.append([spoken(step_name(kind)), f"{tally['right']}/{tally['total']}",
                     _seconds(tally.get("median_seconds")), _seconds(tally.get("worst_seconds")),
                     _seconds(tally.get("standard_seconds"), whole=True), beat])
    lines += _columns(rows)
    if "exam" in report:
        lines.append(exam_line(report["exam"]))
    mistakes = [s for s in report["steps"] if not s["right"]]
    lines.append(_("Mistakes:") if mistakes else _("No mistakes."))
    lines += [_mistake(s) for s in mistakes]
    return lines


def _columns(rows: list[list[str]]) -> list[str]:
    """The report's table, each column as wide as its widest cell in this language: the first and the last (the
    step, how many beat the standard) to the left, the figures between them to the right.

    >>> _columns([["step", "right", "median", "beat it"], ["the first card", "1/2", "2.5 s", "1/2"]])
    ['  step            right  median  beat it', '  the first card    1/2   2.5 s  1/2']
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    last = len(widths) - 1
    return [("  " + "  ".join(cell.ljust(width) if i in (0, last) else cell.rjust(width)
                              for i, (cell, width) in enumerate(zip(row, widths, strict=True)))).rstrip()
            for row in rows]


def _seconds(value: Any, *, whole: bool = False) -> str:
    """A time of the report's table in the person's language (a standard as it was set: 8 s, or 2.5 s)."""
    if value is None:
        return "-"
    return seconds_text(float(value), 0 if whole and float(value).is_integer() else 1)


def exam_line(exam: JSON) -> str:
    """An exam's verdict in a sentence: passed or not, each figure against its mark.

    >>> exam_line({"passed": False, "right_percent": 96.0, "within_percent": 80.0,
    ...            "marks": {"right": 95, "within": 90}})
    'Exam: not passed: 96.0% right (95% needed), 80.0% within the standard times (90% needed).'
    """
    verdict = _("passed") if exam["passed"] else _("not passed")
    return _("Exam: {verdict}: {right} right ({right_mark} needed), {within} within the standard times "
             "({within_mark} needed).", verdict=verdict, right=percent_text(exam["right_percent"] / 100, 1),
             right_mark=_mark(exam["marks"]["right"]), within=percent_text(exam["within_percent"] / 100, 1),
             within_mark=_mark(exam["marks"]["within"]))


def _mark(value: float) -> str:
    """A pass mark as it was set (95%, or 92.5%), in the person's language."""
    return percent_text(float(value) / 100, 0 if float(value).is_integer() else 1)


def _mistake(step: JSON) -> str:
    given = format_answer(step["step"], step["given"])
    right = format_answer(step["step"], step["answer"])
    mistake = MISTAKE_NAMES.get(str(step["mistake"])) or MISTAKE_NAMES["wrong"]
    return "  " + _("hand {hand}, step {n} ({step}): you said `{given}`, the right answer is `{right}` ({mistake}; "
                    "{rule})", hand=step["hand"], n=step["n"], step=step_name(step["step"]), given=given,
                    right=right, mistake=spoken(mistake), rule=step["rule"])


def scenario_text(text: str) -> str:
    """A scenario's ``title`` or ``about`` in the trainee's language: a shipped scenario's text is a message id of
    the catalogs (tests/support/message_ids.py reads the files); a file of one's own stays as written."""
    return spoken(text) if isinstance(text, Phrase) else _(text)


def intro_lines(title: str, mode: str, total: int, forms: str) -> list[str]:
    """The session's opening: the scenario, the mode, how many steps, the answer forms.

    Not the scenario's ``about``: it tells what happens and the right rulings (it comes after the report).
    """
    tell = _("after each answer you are told right or wrong") if mode == "training" else \
        _("exam: nothing is said until the report at the end")
    return [_("Drill: {title}", title=scenario_text(title)), _("{total} steps; {tell}.", total=total, tell=tell), forms]

