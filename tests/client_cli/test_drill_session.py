"""``hcf drill`` in-process: the dealer's view of each step, the feedback of each mode, the report and its times.

A fake terminal types the answers and moves a manual clock between question and
answer, so each step's time is known exactly (no test waits).
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from client_cli.cli import main
from client_cli.drill.grammar import FORMS, format_answer
from client_cli.drill.session import Terminal, rehearse
from server.drill.play import dry_run, key_of
from server.drill.scenario import load, shipped
from server.drill.views import Moment, moments
from server.rules.cards import format_cards
from tests.support.clock import ManualClock


@dataclass
class Typist:
    """Types each line after ``seconds`` on the clock; the input ends after the last one."""

    lines: list[tuple[str, float]]
    clock: ManualClock = field(default_factory=ManualClock)
    seen: list[str] = field(default_factory=list)

    def read(self, prompt: str) -> str:
        assert prompt == "> "
        if not self.lines:
            raise EOFError
        line, seconds = self.lines.pop(0)
        self.clock.advance(seconds)
        return line

    @property
    def terminal(self) -> Terminal:
        return Terminal(self.read, self.seen.append, self.clock.monotonic)

    def text(self) -> str:
        return "\n".join(self.seen)


def _steps(name: str) -> list[Moment]:
    scenario = load(name)
    return moments(scenario, dry_run(scenario))


def _key_lines(steps: Iterable[Moment], seconds: float = 1.0) -> list[tuple[str, float]]:
    return [(format_answer(m.asked.step.step, m.asked.step.answer), seconds) for m in steps]


@pytest.mark.parametrize("name", shipped())
def test_the_dealers_views_are_the_keys_steps_in_order(name: str) -> None:
    scenario = load(name)
    played = dry_run(scenario)
    assert [m.asked for m in moments(scenario, played)] == key_of(played)
    assert [m.n for m in moments(scenario, played)] == list(range(1, len(key_of(played)) + 1))


@pytest.mark.parametrize("name", shipped())
def test_the_key_answers_score_100_percent(name: str) -> None:
    steps = _steps(name)
    typist = Typist(_key_lines(steps))
    report = rehearse(load(name), steps, "training", typist.terminal)
    assert (report["right"], report["total"]) == (len(steps), len(steps))
    assert "wrong:" not in typist.text()
    assert "wrong (" not in typist.text()
    assert "No mistakes." in typist.text()


def test_the_dealer_sees_no_hole_cards_until_the_dps_hand_is_shown_then_each_settled_hand() -> None:
    by_step = {m.asked.step.step: m.view for m in _steps("bank-runs-out")}
    assert not by_step["first_card"].dealer_cards
    assert not by_step["first_card"].shown
    dp_hand = by_step["qualify"].dealer_cards
    assert format_cards(dp_hand) == "9h 5h 2h Kc Qd Js 3s"
    assert not by_step["qualify"].shown
    assert [place for place, _ in by_step["settle_seat"].shown] == ["seat 4", "seat 3", "seat 2"]
    assert by_step["bank_after"].button == 1
    assert by_step["fees"].table.endswith("fee mode players, fee 1; min bank 100")
    seat2 = next(s for s in by_step["fees"].seats if s.seat == 2)
    assert (seat2.name, seat2.stack, seat2.bets) == ("eli", 1000, "ante 50, flush bonus 5")


def test_a_miscount_is_announced_with_its_extra_card_and_the_walk_away_seat_is_to_act() -> None:
    irregular = next(m for m in _steps("miscount-seat") if m.asked.step.step == "irregularity")
    assert irregular.view.note.startswith("drill: seat 3 is dealt an extra card from the stub (")
    walk = next(m for m in _steps("walk-away") if m.asked.step.step == "walk_away")
    seat3 = next(s for s in walk.view.seats if s.seat == 3)
    assert seat3.status == "has left the table, to act"


def test_the_dealer_exchange_shows_the_hand_before_and_the_new_hand_after() -> None:
    steps = {m.asked.step.step: m for m in _steps("sixcard-qualifier-exchange")}
    before, after = steps["dealer_exchange"].view.dealer_cards, steps["qualify_after"].view.dealer_cards
    card = steps["dealer_exchange"].asked.step.answer["card"]
    assert card in format_cards(before).split()
    assert card not in format_cards(after).split()


def test_training_says_right_or_wrong_with_the_right_answer_and_its_rule_and_a_typo_is_asked_again() -> None:
    steps = _steps("walk-away")
    lines = _key_lines(steps)
    lines[3] = ("wait", 2.0)  # walk_away: wrong
    lines.insert(5, ("settle 4 +10 +20 0", 3.0))  # settle_seat: a typo, asked again, not scored
    lines.insert(0, ("?", 0.25))
    lines.insert(1, ("help", 0.25))
    typist = Typist(lines)
    report = rehearse(load("walk-away"), steps, "training", typist.terminal)
    text = typist.text()
    assert "wrong: the right answer is `fold` (RULES 3.5)" in text
    assert f"`settle 4 +10 +20 0` is no answer to settle_seat: the answer here is {FORMS['settle_seat']}. " \
           "Type ? for every form." in text
    assert text.count("right.") == len(steps) - 1
    assert text.count("The answers (type them at the > prompt):") == 3  # the opening, then ? and help
    assert (report["right"], report["total"]) == (len(steps) - 1, len(steps))
    assert [s["n"] for s in report["steps"] if not s["right"]] == [4]
    assert "  hand 1, step 4 (walk_away): you said `wait`, the right answer is `fold` (wrong; RULES 3.5)" in text
    assert report["by_step"]["walk_away"]["median_seconds"] == 2.0
    # The time runs from the question to the answer: the help and the typo count towards it.
    assert report["by_step"]["offer_bank"]["median_seconds"] == 1.5
    assert report["steps"][0]["given"] == {"seat": 1}


def test_an_amount_mistake_names_the_wrong_bets() -> None:
    steps = _steps("bank-runs-out")
    lines = _key_lines(steps)
    lines[4] = ("settle 4 +50 +40 0 0", 1.0)
    typist = Typist(lines)
    rehearse(load("bank-runs-out"), steps, "training", typist.terminal)
    assert "wrong (amount: raise): the right answer is `settle 4 +50 +50 0 0` (RULES 3.7)" in typist.text()


def test_exam_mode_says_nothing_until_the_report() -> None:
    steps = _steps("fees-all")
    lines = _key_lines(steps)
    lines[1] = ("fees none", 4.0)
    typist = Typist(lines)
    report = rehearse(load("fees-all"), steps, "exam", typist.terminal)
    before_report = typist.text().split("Report:")[0]
    assert "right." not in before_report
    assert "wrong:" not in before_report
    assert report["steps"][1]["mistake"] == "wrong"
    assert "Report: fees-all (exam): 6/7 right, 85.7%" in typist.text()
    assert re.search(r"^  fees +0/1 +4\.0 s$", typist.text(), re.MULTILINE)


def test_the_scenarios_about_comes_after_the_report_for_it_gives_the_rulings_away() -> None:
    scenario = load("miscount-seat")
    steps = _steps("miscount-seat")
    typist = Typist(_key_lines(steps))
    rehearse(scenario, steps, "training", typist.terminal)
    before_report, after_report = typist.text().split("Report:")
    assert scenario.about
    assert scenario.about not in before_report
    assert f"What this scenario rehearsed: {scenario.about}" in after_report


def test_when_the_input_ends_the_steps_left_are_no_answer_and_the_report_still_comes() -> None:
    steps = _steps("clean-deal")
    typist = Typist(_key_lines(steps)[:3])
    report = rehearse(load("clean-deal"), steps, "training", typist.terminal)
    assert f"(no more answers: the {len(steps) - 3} steps left count as no answer)" in typist.text()
    assert report["right"] == 3
    assert report["total"] == len(steps)
    assert {s["mistake"] for s in report["steps"][3:]} == {"no answer"}


def test_the_median_time_of_each_step_kind() -> None:
    steps = _steps("decline-passes-on")
    offers = [i for i, m in enumerate(steps) if m.asked.step.step == "offer_bank"]
    lines = _key_lines(steps)
    for k, i in enumerate(offers):
        lines[i] = (lines[i][0], float(k + 1))
    report = rehearse(load("decline-passes-on"), steps, "exam", Typist(lines).terminal)
    assert len(offers) >= 3
    assert report["by_step"]["offer_bank"]["median_seconds"] == statistics.median(range(1, len(offers) + 1))
    assert report["by_step"]["fees"]["median_seconds"] == 1.0


def test_the_command_refuses_a_scenario_it_cannot_use(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["drill", "no-such-scenario"]) == 2
    assert capsys.readouterr().err.startswith("error: no-such-scenario: no shipped scenario of that name")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad", "seats": [], "hands": []}))
    assert main(["drill", str(bad)]) == 2
    assert capsys.readouterr().err == "error: scenario bad: seats is a list of at least one player\n"
