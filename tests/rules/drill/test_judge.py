"""Judging answers and reporting (DRILLS sections 3, 8, 9): right, and each kind of mistake."""

from __future__ import annotations

from server.rules.drill.judge import judge
from server.rules.drill.report import Asked, key_json, report
from server.rules.drill.steps import KeyStep

SETTLE = {"seat": 4, "ante": 10, "raise": 20, "straight_flush_bonus": 0, "flush_bonus": -5}


def test_an_answer_is_right_when_it_equals_the_key_as_json_key_order_aside() -> None:
    shuffled = dict(reversed(list(SETTLE.items())))
    assert judge("settle_seat", shuffled, SETTLE).right
    assert judge("fees", {"fees": {"5": 1, "3": 1}}, {"fees": {"3": 1, "5": 1}}).right


def test_settle_seat_judges_the_seat_first_then_names_each_wrong_bet() -> None:
    wrong_seat = judge("settle_seat", SETTLE | {"seat": 2, "ante": 99}, SETTLE)
    assert (wrong_seat.right, wrong_seat.mistake, wrong_seat.wrong_bets) == (False, "order", ())
    amounts = judge("settle_seat", SETTLE | {"raise": 10, "flush_bonus": 5}, SETTLE)
    assert (amounts.mistake, amounts.wrong_bets) == ("amount", ("flush_bonus", "raise"))
    dead = judge("settle_seat", {"seat": 4, "dead": True}, SETTLE)
    assert dead.mistake == "amount"


def test_fees_are_judged_as_a_whole() -> None:
    assert judge("fees", {"fees": {"3": 1}}, {"fees": {"3": 1, "5": 1}}).mistake == "wrong"


def test_no_answer_and_a_wrong_answer() -> None:
    assert judge("qualify", None, {"qualifies": True}).mistake == "no answer"
    assert judge("qualify", {"qualifies": 1}, {"qualifies": True}).mistake == "wrong"
    assert judge("offer_bank", "3", {"seat": 3}).mistake == "wrong"
    assert judge("settle_seat", [4], SETTLE).mistake == "wrong"


def test_the_report_counts_per_step_kind_and_steps_past_the_answers_are_no_answer() -> None:
    key = [Asked(1, KeyStep("offer_bank", {"seat": 1}, "RULES 3.1")),
           Asked(1, KeyStep("first_card", {"seat": 2}, "RULES 3.4")),
           Asked(2, KeyStep("offer_bank", {"seat": 2}, "RULES 3.1"))]
    r = report("demo", key, [{"seat": 1}, {"seat": 2}], ledger="ok", seconds=[1.0, 3.0])
    assert (r["right"], r["total"], r["ledger"]) == (2, 3, "ok")
    assert r["by_step"] == {
        "offer_bank": {"right": 1, "total": 2, "median_seconds": 1.0, "worst_seconds": 1.0, "accuracy": 50.0,
                       "standard_seconds": 5, "within_standard": 1},
        "first_card": {"right": 1, "total": 1, "median_seconds": 3.0, "worst_seconds": 3.0, "accuracy": 100.0,
                       "standard_seconds": 5, "within_standard": 1}}
    assert r["within_standard"] == 2
    assert r["steps"][2] == {"n": 3, "hand": 2, "step": "offer_bank", "given": None, "answer": {"seat": 2},
                             "right": False, "mistake": "no answer", "rule": "RULES 3.1"}
    assert [s["n"] for s in key_json("demo", key)["steps"]] == [1, 2, 3]


def test_every_step_of_every_game_has_a_rule_and_a_question() -> None:
    from server.rules.drill.steps import QUESTIONS, RULES

    assert {step for steps in RULES.values() for step in steps} == set(QUESTIONS)
