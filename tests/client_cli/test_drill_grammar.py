"""The trainee's answer grammar (docs/drills.md, "hcf drill"): every form, the typos, and the formatter's round trip."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.drill.grammar import FORMS, SETTLE_BETS, AnswerError, format_answer, help_text, parse_answer
from server.drill.play import dry_run, key_of
from server.drill.scenario import load, shipped
from server.rules.cards import card_text
from server.rules.drill.steps import QUESTIONS

FORMS_AND_ANSWERS = [
    ("offer_bank", "offer 3", {"seat": 3}),
    ("offer_bank", "offer none", {"seat": None}),
    ("offer_bank", "  OFFER   None ", {"seat": None}),
    ("fees", "fees 1:1 4:1", {"fees": {"1": 1, "4": 1}}),
    ("fees", "fees 5:2", {"fees": {"5": 2}}),
    ("fees", "fees none", {"fees": {}}),
    ("first_card", "first 2", {"seat": 2}),
    ("irregularity", "dead 4", {"ruling": "dead_seat", "seat": 4}),
    ("irregularity", "dead hand", {"ruling": "dead_hand"}),
    ("irregularity", "play on", {"ruling": "play_on"}),
    ("irregularity", "Play On", {"ruling": "play_on"}),
    ("walk_away", "fold", {"ruling": "fold"}),
    ("walk_away", "wait", {"ruling": "wait"}),
    ("qualify", "q y", {"qualifies": True}),
    ("qualify", "q n", {"qualifies": False}),
    ("qualify_after", "q y", {"qualifies": True}),
    ("qualify_after", "Q N", {"qualifies": False}),
    ("settle_seat", "settle 5 +10 +20 0 -5",
     {"seat": 5, "ante": 10, "raise": 20, "straight_flush_bonus": 0, "flush_bonus": -5}),
    ("settle_seat", "settle 2 -10 -20 -1 -5",
     {"seat": 2, "ante": -10, "raise": -20, "straight_flush_bonus": -1, "flush_bonus": -5}),
    ("settle_seat", "settle 4 10 0 0 0", {"seat": 4, "ante": 10, "raise": 0, "straight_flush_bonus": 0,
                                          "flush_bonus": 0}),
    ("settle_seat", "settle 5 dead", {"seat": 5, "dead": True}),
    ("bank_after", "bank 1186", {"stack": 1186}),
    ("bank_after", "bank 0", {"stack": 0}),
    ("settle_spot", "spot 2 +5 +10 0", {"spot": 2, "ante": 5, "bet": 10, "jackpot": 0}),
    ("settle_spot", "spot 3 -10 0 +74", {"spot": 3, "ante": -10, "bet": 0, "jackpot": 74}),
    ("settle_box", "box 1 +5 +10 0", {"box": 1, "ante": 5, "bet": 10, "bonus": 0}),
    ("settle_box", "box 3 0 0 -5", {"box": 3, "ante": 0, "bet": 0, "bonus": -5}),
    ("dealer_exchange", "card Kd", {"card": "Kd"}),
    ("dealer_exchange", "card kd", {"card": "Kd"}),
    ("dealer_exchange", "card 10h", {"card": "Th"}),
    ("payout", "pay seat 3 flush 150 100 25x2", {"seat": 3, "bet": "flush_bonus", "amount": 150,
                                                 "chips": {"100": 1, "25": 2}}),
    ("payout", "pay seat 3 flush 150 25 100 25", {"seat": 3, "bet": "flush_bonus", "amount": 150,
                                                  "chips": {"100": 1, "25": 2}}),
    ("payout", "Pay Spot 2 jackpot 50", {"spot": 2, "bet": "jackpot", "amount": 50}),
    ("payout", "pay box 1 bonus 250 100x2 25x2", {"box": 1, "bet": "bonus", "amount": 250,
                                                  "chips": {"100": 2, "25": 2}}),
    ("payout", "pay seat 4 sf 60 25x2 5x2", {"seat": 4, "bet": "straight_flush_bonus", "amount": 60,
                                             "chips": {"25": 2, "5": 2}}),
]


@pytest.mark.parametrize(("step", "line", "answer"), FORMS_AND_ANSWERS)
def test_each_form_is_the_steps_exact_answer(step: str, line: str, answer: dict[str, Any]) -> None:
    assert parse_answer(step, line) == answer


def test_every_step_of_every_game_has_a_form_and_a_question() -> None:
    assert set(FORMS) == set(QUESTIONS)
    assert {step for step, _, _ in FORMS_AND_ANSWERS} == set(FORMS)


TYPOS = [
    ("offer_bank", "ofer 3"), ("offer_bank", "offer"), ("offer_bank", "offer 0"), ("offer_bank", "offer three"),
    ("offer_bank", "offer 3 4"), ("offer_bank", "first 3"),
    ("fees", "fees"), ("fees", "fees 1"), ("fees", "fees 1:"), ("fees", "fees 1:0"), ("fees", "fees 1:1 1:2"),
    ("fees", "fees 1;1"), ("fees", "fee 1:1"), ("fees", "fees -1:1"),
    ("first_card", "first"), ("first_card", "frist 2"), ("first_card", "first 2.0"),
    ("irregularity", "dead"), ("irregularity", "dead seat"), ("irregularity", "play"), ("irregularity", "misdeal"),
    ("walk_away", "folds"), ("walk_away", "fold 3"), ("walk_away", "q y"),
    ("qualify", "q"), ("qualify", "q yes"), ("qualify", "y"), ("qualify", "qualify y"),
    ("settle_seat", "settle 5 +10 +20 0"), ("settle_seat", "settle 5 +10 +20 0 -5 1"), ("settle_seat", "setle 5 dead"),
    ("settle_seat", "settle dead"), ("settle_seat", "settle 5 +10 +20 0 x"), ("settle_seat", "settle 5 1.5 0 0 0"),
    ("settle_seat", "settle 5 ++1 0 0 0"), ("settle_seat", "spot 5 1 0 0"),
    ("bank_after", "bank"), ("bank_after", "bank -3"), ("bank_after", "bank +3"), ("bank_after", "bank 1,186"),
    ("settle_spot", "spot 2 +5 +10"), ("settle_spot", "spot 2 dead"), ("settle_box", "box 1 +5 +10 0 0"),
    ("dealer_exchange", "card"), ("dealer_exchange", "card Zz"), ("dealer_exchange", "card Kd Qd"),
    ("dealer_exchange", "Kd"), ("offer_bank", ""),
    ("payout", "pay 3 flush 150"), ("payout", "pay seat 3 flush"), ("payout", "pay seat 3 flsh 150"),
    ("payout", "pay seat 3 flush 150 25x0"), ("payout", "pay seat 3 flush 150 0"), ("payout", "pay seat 3 flush -5"),
    ("payout", "pay table 3 ante 10"), ("payout", "pay seat 3 ante 10 25y2"),
]


@pytest.mark.parametrize(("step", "line"), TYPOS)
def test_a_typo_or_malformed_answer_is_refused_with_the_expected_form(step: str, line: str) -> None:
    with pytest.raises(AnswerError) as refused:
        parse_answer(step, line)
    assert str(refused.value) == f"the answer here is {FORMS[step]}"


def test_the_help_lists_each_steps_form() -> None:
    text = help_text(("offer_bank", "settle_seat"))
    assert FORMS["offer_bank"] in text
    assert FORMS["settle_seat"] in text
    assert "?" in text
    assert FORMS["fees"] not in text


def _every_key_step() -> list[tuple[str, int, str, dict[str, Any]]]:
    out = []
    for name in shipped():
        for n, asked in enumerate(key_of(dry_run(load(name))), 1):
            out.append((name, n, asked.step.step, asked.step.answer))
    return out


KEY_STEPS = _every_key_step()


@pytest.mark.parametrize(("name", "n", "step", "answer"), KEY_STEPS, ids=[f"{k[0]}-{k[1]}" for k in KEY_STEPS])
def test_every_key_answer_of_every_shipped_scenario_reads_back_from_its_words(
        name: str, n: int, step: str, answer: dict[str, Any]) -> None:  # noqa: ARG001 - the id names them
    assert parse_answer(step, format_answer(step, answer)) == answer


def test_the_key_steps_cover_every_step_kind_but_the_rarest() -> None:
    # dead settlements, declines, fees, exchanges: the shipped library exercises the forms the trainee types.
    kinds = {step for _, _, step, _ in KEY_STEPS}
    assert kinds >= {"offer_bank", "fees", "first_card", "irregularity", "walk_away", "qualify", "settle_seat",
                     "bank_after", "settle_spot", "settle_box", "dealer_exchange", "qualify_after"}


places = st.integers(1, 9)
results = st.integers(-10_000, 10_000)


def _settle(step: str) -> st.SearchStrategy[dict[str, Any]]:
    _, place, bets = SETTLE_BETS[step]
    amounts = st.fixed_dictionaries({place: places, **dict.fromkeys(bets, results)})
    if step == "settle_seat":
        return amounts | st.fixed_dictionaries({place: places, "dead": st.just(True)})
    return amounts


ANSWERS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "offer_bank": st.fixed_dictionaries({"seat": st.none() | places}),
    "fees": st.fixed_dictionaries({"fees": st.dictionaries(places.map(str), st.integers(1, 50), max_size=7)}),
    "first_card": st.fixed_dictionaries({"seat": places}),
    "irregularity": st.sampled_from([{"ruling": "dead_hand"}, {"ruling": "play_on"}])
    | st.fixed_dictionaries({"ruling": st.just("dead_seat"), "seat": places}),
    "walk_away": st.sampled_from([{"ruling": "fold"}, {"ruling": "wait"}]),
    "qualify": st.fixed_dictionaries({"qualifies": st.booleans()}),
    "qualify_after": st.fixed_dictionaries({"qualifies": st.booleans()}),
    "bank_after": st.fixed_dictionaries({"stack": st.integers(0, 10**7)}),
    "dealer_exchange": st.fixed_dictionaries({"card": st.integers(0, 51).map(card_text)}),
    **{step: _settle(step) for step in SETTLE_BETS},
    "payout": st.builds(lambda place, n, bet, amount, chips: {place: n, "bet": bet, "amount": amount} | (
        {"chips": {str(c): k for c, k in sorted(chips.items(), reverse=True)}} if chips else {}),
        st.sampled_from(["seat", "spot", "box"]), places,
        st.sampled_from(["ante", "raise", "bet", "bonus", "jackpot", "straight_flush_bonus", "flush_bonus"]),
        st.integers(0, 10**6), st.dictionaries(st.integers(1, 1000), st.integers(1, 30), max_size=5)),
}


@given(st.sampled_from(sorted(ANSWERS)).flatmap(lambda step: st.tuples(st.just(step), ANSWERS[step])))
def test_any_answer_formatted_in_the_grammar_parses_back_to_the_same_json(case: tuple[str, dict[str, Any]]) -> None:
    step, answer = case
    assert parse_answer(step, format_answer(step, answer)) == answer


def test_no_answer_and_an_unsayable_answer_are_still_shown() -> None:
    assert format_answer("qualify", None) == "-"
    assert format_answer("first_card", {"place": 2}) == "{'place': 2}"
