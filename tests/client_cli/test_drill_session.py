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
from client_cli.drill.session import DrillStopped, Terminal, rehearse
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
    assert ("wrong: you said the table waits for the player. The right answer: the player's hand is folded, "
            "because a player who has left the table folds when their turn comes: the table does not wait for them "
            "(RULES 3.5: the High Card Flush rules, section 3.5, Decisions). Typed: `fold`.") in text
    assert f"`settle 4 +10 +20 0` is no answer to a seat's settlement: the answer here is {FORMS['settle_seat']}. " \
           "Type ? for every form." in text
    assert text.count("right.") == len(steps) - 1
    assert text.count("The answers (type them at the > prompt):") == 3  # the opening, then ? and help
    assert (report["right"], report["total"]) == (len(steps) - 1, len(steps))
    assert [s["n"] for s in report["steps"] if not s["right"]] == [4]
    assert "  hand 1, step 4 (the walk-away): you said `wait`, the right answer is `fold` (wrong; RULES 3.5)" in text
    assert report["by_step"]["walk_away"]["median_seconds"] == 2.0
    # The time runs from the question to the answer: the help and the typo count towards it.
    assert report["by_step"]["offer_bank"]["median_seconds"] == 1.5
    assert report["steps"][0]["given"] == {"seat": 1}


def test_an_amount_mistake_names_only_the_wrong_bets_in_words_and_why() -> None:
    steps = _steps("bank-runs-out")
    lines = _key_lines(steps)
    lines[4] = ("settle 4 +50 +40 0 0", 1.0)
    typist = Typist(lines)
    rehearse(load("bank-runs-out"), steps, "training", typist.terminal)
    said = next(line for line in typist.seen if line.startswith("wrong"))
    assert said.startswith("wrong: the Raise wins 50 (you said it wins 40); the rest of seat 4 was right. "
                           "The right answer: seat 4: the Ante wins 50, the Raise wins 50,")
    assert "because settlement goes counter-clockwise from the right of the button, one place at a time: seat 4, " \
           "then 3, then 2; the DP's hand qualifies, so the hands are compared" in said
    assert said.endswith("(RULES 3.7: the High Card Flush rules, section 3.7, Settlement). "
                         "Typed: `settle 4 +50 +50 0 0`.")


def test_a_seat_the_dps_funds_cannot_cover_is_explained_with_the_bank_and_what_was_owed() -> None:
    # Issue 23, item 15: it said "wrong (amount: ante, dead, flush_bonus, raise, straight_flush_bonus)".
    steps = _steps("bank-runs-out")
    lines = _key_lines(steps)
    lines[5] = ("settle 3 +10 +10 0 +10", 1.0)
    typist = Typist(lines)
    rehearse(load("bank-runs-out"), steps, "training", typist.terminal)
    said = next(line for line in typist.seen if line.startswith("wrong"))
    assert said == ("wrong: you settled the bets of seat 3, but its hand is dead. The right answer: seat 3's hand "
                    "is dead: the DP's bank cannot cover it, because settlement goes counter-clockwise from the "
                    "right of the button, one place at a time: seat 4, then 3, then 2; the DP's running bank was 60 "
                    "chips when seat 3's turn came, less than the 100 chips its bets won: the hand is dead, and its "
                    "bets and fee go back (RULES 3.7: the High Card Flush rules, section 3.7, Settlement). Typed: "
                    "`settle 3 dead`.")


def test_a_wrong_fee_says_who_pays_at_this_table_and_that_the_dp_pays_none() -> None:
    # Issue 23, item 15: it said only "wrong: the right answer is `fees 2:1 3:1` (RULES 3.3)".
    steps = _steps("bank-runs-out")
    lines = _key_lines(steps)
    lines[1] = ("fees 1:1 2:1 3:1 4:1 5:1", 1.0)
    typist = Typist(lines)
    rehearse(load("bank-runs-out"), steps, "training", typist.terminal)
    said = next(line for line in typist.seen if line.startswith("wrong"))
    assert said.startswith("wrong: seat 1 pays no fee. The right answer: seats 2, 3, 4 and 5 pay 1 chip each")
    assert "because the fee mode here is players: this table charges a fee of 1 chip to each player with an Ante, " \
           "and the DP (seat 1) pays none (RULES 3.3: the High Card Flush rules, section 3.3, Fee)" in said


def test_ctrl_c_during_a_rehearsal_prints_the_report_of_the_steps_answered() -> None:
    # Issue 23, item 15: Ctrl-C at step 4 of 11 said "drill stopped: no report".
    steps = _steps("walk-away")
    lines = _key_lines(steps)[:3]
    lines[1] = ("fees none", 2.0)
    typist = Typist(lines)

    def read(prompt: str) -> str:
        if not typist.lines:
            raise KeyboardInterrupt
        return typist.read(prompt)

    with pytest.raises(DrillStopped) as stopped:
        rehearse(load("walk-away"), steps, "training", Terminal(read, typist.seen.append, typist.clock.monotonic))
    text = typist.text()
    assert f"(drill stopped at step 4 of {len(steps)}: the report covers the 3 steps answered)" in text
    assert "Report: walk-away (training): 2/3 right, 66.7%" in text
    assert (stopped.value.report["right"], stopped.value.report["total"]) == (2, 3)
    assert "What this scenario rehearsed" not in text  # the steps not asked may still be rehearsed


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
    assert re.search(r"^  the fees +0/1 +4\.0 s +4\.0 s +10 s  1/1$", typist.text(), re.MULTILINE)


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
