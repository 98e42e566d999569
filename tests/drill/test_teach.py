"""Feedback that teaches (issue 27, item 3): every wrong answer says what was wrong and why, in this hand's
figures, quoting the rule's section in docs/rules; every quoted section is there."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from server.drill.play import dry_run, key_of
from server.drill.scenario import parse, shipped
from server.rules.drill.explain import feedback
from server.rules.drill.sections import FILES, TITLES, cite, sections
from server.rules.drill.steps import RULES

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "server" / "drill" / "scenarios"


def _section_in_docs(file: str, number: str) -> str:
    """The title docs/rules gives section ``number`` of ``file`` (a bold ``**3.7 Title.**`` or a ``## 5.`` heading)."""
    text = (ROOT / "docs" / "rules" / file).read_text(encoding="utf-8")
    bold = re.search(rf"^\*\*{re.escape(number)}\b(.*?)(\*\*|$)", text, re.MULTILINE)
    heading = re.search(rf"^## {re.escape(number)}\. (.+)$", text, re.MULTILINE)
    found = bold or heading
    assert found is not None, f"docs/rules/{file} has no section {number}"
    return found.group(1).strip(" .*")


@pytest.mark.parametrize(("file", "number"), sorted(TITLES))
def test_every_section_a_drill_quotes_is_in_docs_rules_with_its_title(file: str, number: str) -> None:
    title = _section_in_docs(file, number)
    assert title.startswith(TITLES[(file, number)].rstrip(".")), (file, number, title)


def test_every_rule_a_step_cites_names_sections_that_exist() -> None:
    for game_rules in RULES.values():
        for rule in game_rules.values():
            named = sections(rule)
            assert named, rule
            for file, number in named:
                assert file in FILES.values()
                assert (file, number) in TITLES, f"{rule}: section {number} of {file} has no title here"
                _section_in_docs(file, number)
                assert f"section {number}" in cite(rule) or f"sections {number}" in cite(rule) or \
                    f"and {number}" in cite(rule)


def _load(name: str, **table: Any) -> Any:
    data = json.loads((SHIPPED / f"{name}.json").read_text(encoding="utf-8"))
    data["table"] = data.get("table", {}) | table
    return parse(data)


def _wrong(answer: Any) -> Any:
    """An answer of the right shape, but wrong."""
    if not isinstance(answer, dict):
        return {"nothing": True}
    if "amount" in answer:
        return answer | {"amount": answer["amount"] + 1}
    for key in ("ante", "stack", "seat", "spot", "box"):
        if isinstance(answer.get(key), int):
            return answer | {key: answer[key] + 1}
    return {"nothing": True}


SCENARIOS = [(name, {}) for name in shipped()] + [
    ("caribbean-qualifier-jackpot", {"chips": [1, 5, 25, 100]}), ("sixcard-qualifier-exchange", {"chips": [1, 5]}),
    ("payouts", {})]


@pytest.mark.parametrize(("name", "table"), SCENARIOS, ids=[f"{n}-{bool(t)}" for n, t in SCENARIOS])
def test_every_wrong_answer_says_why_and_quotes_its_rules_section(name: str, table: dict[str, Any]) -> None:
    for asked in key_of(dry_run(_load(name, **table))):
        step = asked.step
        said = feedback(step, _wrong(step.answer))
        assert said.startswith("wrong: ") or said.startswith("no answer"), said
        assert ", because " in said
        assert said.endswith(f"({step.rule}: {cite(step.rule)}).")
        assert "docs/" not in said  # the rules named in words, no path


def _why(name: str, kind: str, **table: Any) -> list[str]:
    return [a.step.why for a in key_of(dry_run(_load(name, **table))) if a.step.step == kind]


def test_a_fee_answer_says_the_fee_mode() -> None:
    assert _why("fees-designated", "fees")[0].startswith("the fee mode here is designated: this table charges a "
                                                          "fee of 2 chips to the DP")


def test_a_settlement_says_this_hands_order() -> None:
    whys = _why("bank-runs-out", "settle_seat")
    assert all(w.startswith("settlement goes counter-clockwise from the right of the button, one place at a time: "
                            "seat 4, then 3, then 2") for w in whys)
    assert _why("caribbean-qualifier-jackpot", "settle_spot")[0].startswith(
        "settlement goes from the highest spot down, one place at a time: spot 3, then 2, then 1")


def test_a_seat_the_funds_cannot_cover_says_the_running_bank_at_that_seat() -> None:
    assert "the DP's running bank was 60 chips when seat 3's turn came, less than the 100 chips its bets won" in \
        _why("bank-runs-out", "settle_seat")[1]


def test_a_payout_says_its_pay_table_line() -> None:
    whys = _why("payouts", "payout")
    assert "seat 3's Straight Flush bonus of 5 chips is paid 60 to 1, the table's Straight Flush bonus line for a " \
           "4-card straight flush: 5 x 60 = 300 chips" in whys
    assert "seat 2's Flush bonus of 15 chips is paid 10 to 1, the table's Flush bonus line for a 5-card flush: " \
           "15 x 10 = 150 chips" in whys
    assert "seat 2's Ante of 50 chips is paid 1 to 1: 50 x 1 = 50 chips" in whys


def test_a_capped_payout_says_the_cap() -> None:
    whys = _why("payouts", "payout", max_bonus_win=100)
    assert "seat 3's Straight Flush bonus of 5 chips is paid 100 chips: the table's ceiling on what one bonus " \
           "bet can win in a hand is 100 chips, and it is paid that" in whys
    stud = _why("caribbean-qualifier-jackpot", "payout", max_payout=25, chips=[1, 5, 25])
    assert any("the table's ceiling of 25 chips on what the Ante and Bet win together is reached" in w for w in stud)
    assert any("the table's Bet line for two pair" in w for w in _why("caribbean-qualifier-jackpot", "payout",
                                                                      chips=[1, 5, 25]))


def test_the_pay_tables_line_names_its_hand_in_the_readers_language() -> None:
    """The hand a payout's reason names was left in English ("the table's Bet line for two pair")."""
    from server.i18n import render_text

    line = next(w for w in _why("caribbean-qualifier-jackpot", "payout", chips=[1, 5, 25]) if "Bet line for" in w)
    assert "la línea de la APUESTA de la mesa para dos pares:" in render_text(line, "es")
    assert "die BET-Zeile des Tisches für zwei Paare:" in render_text(line, "de")
