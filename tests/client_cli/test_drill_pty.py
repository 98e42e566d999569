"""End to end: a trainee runs ``hcf drill walk-away`` in a terminal and rehearses the whole scenario.

The test reads the screen as the trainee would (a 24x80 pseudo-terminal) and
types the key's answers, except one wrong ruling and one typo: the typo is
explained and asked again, the wrong answer is corrected with the rule, and the
report at the end names the one mistake. Then ``--mode exam --json`` says nothing
until the report and prints the section 9 report as JSON.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pexpect

from client_cli.drill.grammar import FORMS, format_answer
from server.drill.play import dry_run, key_of
from server.drill.scenario import load
from server.rules.drill.explain import step_name
from tests.client_cli.conftest import ROOT, client_env

SCENARIO = "walk-away"
PROMPT = r"\r\n> "


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "client_cli.cli", "drill", SCENARIO, *args], cwd=str(ROOT),
                         env=client_env(tmp_path), encoding="utf-8", dimensions=(24, 80), timeout=60)


def _key() -> list[tuple[str, str]]:
    return [(a.step.step, format_answer(a.step.step, a.step.answer)) for a in key_of(dry_run(load(SCENARIO)))]


def test_a_trainee_rehearses_a_whole_scenario_in_a_terminal(tmp_path: Path) -> None:
    key = _key()
    child = _spawn(tmp_path)
    child.expect(r"Drill: A player walks away before their turn")
    child.expect(rf"{len(key)} steps; after each answer you are told right or wrong\.")
    for n, (step, answer) in enumerate(key, 1):
        child.expect(rf"--- hand 1 · step {n} of {len(key)}: {re.escape(step_name(step))} ---")
        child.expect(PROMPT)
        screen = child.before
        if step == "walk_away":
            assert "[has left the table, to act]" in screen
            child.sendline("wait")
            child.expect(r"wrong: you said the table waits for the player\. The right answer: the player's hand is "
                         r"folded, because .* \(RULES 3\.5: the High Card Flush rules, section 3\.5, Decisions\)\. "
                         r"Typed: `fold`\.")
            continue
        if step == "qualify":
            assert "dealer's hand (the DP, seat 1): " in screen
        if step == "settle_seat" and "settle 4" in answer:
            child.sendline("settle 4 +10 +20")  # one bet short: a typo, asked again
            child.expect(re.escape(f"`settle 4 +10 +20` is no answer to a seat's settlement: the answer here is "
                                   f"{FORMS['settle_seat']}. Type ? for every form."))
            child.expect(PROMPT)
        child.sendline(answer)
        child.expect(r"\r\nright\.\r\n")
    child.expect(rf"Report: {SCENARIO} \(training\): {len(key) - 1}/{len(key)} right, (\d+\.\d)%")
    assert float(child.match.group(1)) == round(100 * (len(key) - 1) / len(key), 1)
    child.expect(r"the walk-away +0/1 +\d+\.\d s")
    child.expect(r"Mistakes:\r\n  hand 1, step 4 \(the walk-away\): you said `wait`, the right answer is `fold` "
                 r"\(wrong; RULES 3\.5\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_an_exam_says_nothing_until_the_report_and_json_prints_it(tmp_path: Path) -> None:
    key = _key()
    child = _spawn(tmp_path, "--mode", "exam", "--json")
    child.expect(r"exam: nothing is said until the report at the end")
    for n, (_, answer) in enumerate(key, 1):
        child.expect(PROMPT)
        if n > 1:
            assert "right." not in child.before
            assert "wrong" not in child.before
        child.sendline("first 9" if n == 3 else answer)
    child.expect(rf"Report: {SCENARIO} \(exam\): {len(key) - 1}/{len(key)} right")
    child.expect(r"\r\n(\{.*\})\r\n")
    report = json.loads(child.match.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (report["scenario"], report["right"], report["total"]) == (SCENARIO, len(key) - 1, len(key))
    wrong = [s for s in report["steps"] if not s["right"]]
    assert [(s["n"], s["given"], s["answer"], s["mistake"], s["rule"]) for s in wrong] == \
        [(3, {"seat": 9}, {"seat": 2}, "wrong", "RULES 3.4")]
    assert set(report["by_step"]["first_card"]) == {"right", "total", "accuracy", "median_seconds", "worst_seconds",
                                                    "standard_seconds", "within_standard"}
    assert report["ledger"] == "none"


def test_ctrl_c_stops_the_rehearsal_with_the_report_of_the_steps_answered(tmp_path: Path) -> None:
    # Issue 23, item 15: Ctrl-C at step 4 said "drill stopped: no report".
    key = _key()
    child = _spawn(tmp_path, "--json")
    for _, answer in key[:3]:
        child.expect(PROMPT)
        child.sendline(answer)
    child.expect(PROMPT)
    child.sendintr()
    child.expect(rf"drill stopped at step 4 of {len(key)}: the report covers the 3 steps answered")
    child.expect(rf"Report: {SCENARIO} \(training\): 3/3 right, 100\.0%")
    child.expect(r"\r\n(\{.*\})\r\n")
    assert json.loads(child.match.group(1))["total"] == 3
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def test_ctrl_c_before_any_answer_says_there_is_nothing_to_report(tmp_path: Path) -> None:
    child = _spawn(tmp_path)
    child.expect(PROMPT)
    child.sendintr()
    child.expect(r"drill stopped at step 1 of \d+: no step was answered, so there is nothing to report")
    child.expect(pexpect.EOF)
    assert "Report:" not in child.before
    child.close()
    assert child.exitstatus == 130
