"""The drill's feedback teaches (issue 23, item 15): what was wrong, in words, the right answer, why, the rule."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.drill.play import dry_run, key_of
from server.drill.scenario import load, shipped
from server.rules.drill.chips import fewest_chips, make_up_json
from server.rules.drill.explain import STEP_NAMES, WHY, answer_words, feedback, step_name
from server.rules.drill.judge import judge
from server.rules.drill.sections import cite
from server.rules.drill.steps import SETTLE_PLACE, STEP_KINDS, KeyStep, rule_of

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")
SLASH = re.compile(r"\b[a-z]+/[a-z]+\b")
KINDS = sorted({(game, step) for game, steps in STEP_KINDS.items() for step in steps})
BETS = {"settle_seat": ("ante", "raise", "straight_flush_bonus", "flush_bonus"),
        "settle_spot": ("ante", "bet", "jackpot"), "settle_box": ("ante", "bet", "bonus")}


def _plain(text: str) -> None:
    assert not CODE.findall(text), f"a code shows: {text}"
    assert not SLASH.findall(text), f"a code shows: {text}"
    assert "{" not in text, f"JSON shows: {text}"
    assert "}" not in text, f"JSON shows: {text}"


PAY_PLACE = {"hcf": "seat", "caribbean": "spot", "sixcard": "box"}
PAY_BETS = {"hcf": BETS["settle_seat"], "caribbean": BETS["settle_spot"], "sixcard": BETS["settle_box"]}


@st.composite
def _payouts(draw: st.DrawFn, game: str) -> dict[str, Any]:
    amount = draw(st.integers(1, 600))
    answer = {PAY_PLACE[game]: draw(st.integers(1, 7)), "bet": draw(st.sampled_from(PAY_BETS[game])),
              "amount": amount}
    if draw(st.booleans()):
        chips = draw(st.sampled_from([(1, 5, 25, 100), (1, 3, 4), (5, 25)]))
        make_up = fewest_chips(amount, chips) if draw(st.booleans()) else {1: amount}
        if make_up is not None:
            answer["chips"] = make_up_json(make_up)
    return answer


def _answers(step: str, game: str = "hcf") -> st.SearchStrategy[Any]:
    if step == "payout":
        return _payouts(game)
    seat = st.integers(1, 7)
    amount = st.integers(-100, 100)
    if step in SETTLE_PLACE:
        place = SETTLE_PLACE[step]
        amounts = st.fixed_dictionaries({place: seat, **dict.fromkeys(BETS[step], amount)})
        return amounts | st.fixed_dictionaries({place: seat, "dead": st.just(True)}) if step == "settle_seat" \
            else amounts
    return {
        "offer_bank": st.fixed_dictionaries({"seat": st.none() | seat}),
        "fees": st.fixed_dictionaries({"fees": st.dictionaries(seat.map(str), st.integers(1, 5), max_size=4)}),
        "first_card": st.fixed_dictionaries({"seat": seat}),
        "irregularity": st.sampled_from([{"ruling": "dead_hand"}, {"ruling": "play_on"}])
        | st.fixed_dictionaries({"ruling": st.just("dead_seat"), "seat": seat}),
        "walk_away": st.sampled_from([{"ruling": "fold"}, {"ruling": "wait"}]),
        "qualify": st.fixed_dictionaries({"qualifies": st.booleans()}),
        "qualify_after": st.fixed_dictionaries({"qualifies": st.booleans()}),
        "bank_after": st.fixed_dictionaries({"stack": st.integers(0, 5000)}),
        "dealer_exchange": st.sampled_from([{"card": "Kd"}, {"card": "As"}, {"card": "9h"}]),
    }[step]


@st.composite
def _cases(draw: st.DrawFn) -> tuple[KeyStep, Any]:
    game, step = draw(st.sampled_from(KINDS))
    right = draw(_answers(step, game))
    said = draw(st.none() | _answers(step, game) | st.just(right))
    return KeyStep(step, right, rule_of(game, step)), said


@given(_cases())
def test_every_feedback_is_a_sentence_with_the_rule_and_right_only_when_judged_right(case: tuple[KeyStep,
                                                                                                 Any]) -> None:
    step, said = case
    text = feedback(step, said)
    _plain(text)
    if judge(step.step, said, step.answer).right:
        assert text == "right."
    else:
        assert text.endswith(f"({step.rule}: {cite(step.rule)}).")
        assert f"The right answer: {answer_words(step.step, step.answer)}, because " in text


def test_every_step_kind_has_a_name_and_a_reason() -> None:
    for game, step in KINDS:
        assert step in STEP_NAMES
        assert f"{step}@{game}" in WHY or step in WHY
        _plain(step_name(step))


def test_a_settlement_names_only_the_bets_that_were_wrong_in_words() -> None:
    right = {"seat": 4, "ante": 10, "raise": 20, "straight_flush_bonus": 0, "flush_bonus": -5}
    text = feedback(KeyStep("settle_seat", right, "RULES 3.7"), right | {"raise": 10, "flush_bonus": 5})
    head = text.split(". The right answer")[0]
    assert head == ("wrong: the Raise wins 20 (you said it wins 10); the Flush bonus loses 5 (you said it wins 5); "
                    "the rest of seat 4 was right")


def test_the_wrong_seat_of_a_settlement_says_which_seat_comes_next() -> None:
    right = {"spot": 3, "ante": 5, "bet": 10, "jackpot": 0}
    text = feedback(KeyStep("settle_spot", right, "RULES-caribbean 3.5, 4"), right | {"spot": 1})
    assert text.startswith("wrong: spot 3 is settled next, not spot 1 (settlement goes in a fixed order).")
    assert "the dealer qualifies" not in text
    assert "a dealer who does not qualify pays the Ante" in text


def test_each_shipped_scenarios_key_has_this_hands_reason_for_fees_and_the_dps_stack() -> None:
    for name in shipped():
        for asked in key_of(dry_run(load(name))):
            if asked.step.step in ("fees", "first_card", "bank_after", "settle_seat"):
                assert asked.step.why, (name, asked.step)
                _plain(asked.step.why)


def test_the_fee_reason_follows_the_tables_fee_mode() -> None:
    whys = {asked.step.why for asked in key_of(dry_run(load("fees-all"))) if asked.step.step == "fees"}
    assert whys
    assert all("and to the DP (seat" in why and "as well" in why for why in whys)
