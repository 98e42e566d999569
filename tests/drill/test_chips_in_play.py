"""The chips in play (issue 27): ``chips`` is a setting of every game's table, and a payout's make-up is judged
against it: a chip the table does not have is wrong, however few the chips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.drill.chips import chip_count, fewest_chips
from server.rules.drill.explain import feedback
from server.rules.drill.judge import judge_step
from server.rules.drill.payout import payout_answer
from server.rules.drill.steps import KeyStep, key_step
from server.rules.errors import SettingsError
from server.rules.games import game_named
from server.table.registry import drill_for

TABLES = [("hcf", {"profile": "california"}), ("hcf", {"profile": "standard"}), ("caribbean", {}),
          ("sixcard", {})]


@pytest.mark.parametrize(("game", "base"), TABLES)
def test_every_games_table_takes_the_chips_in_play_and_a_drill_there_asks_the_payouts(
        game: str, base: dict[str, Any]) -> None:
    rules = game_named(game)
    plain = rules.settings_from_mapping(base)
    assert (plain.chips, plain.as_dict()["chips"]) == ((), []), "no chips in play unless the table says them"
    assert "payout" not in drill_for({"trainee": "tina"}, plain).steps
    with_chips = rules.settings_from_mapping(base | {"chips": [25, 1, 5, 100]})
    assert with_chips.chips == (1, 5, 25, 100)
    assert with_chips.as_dict()["chips"] == [1, 5, 25, 100]
    assert rules.settings_from_mapping(with_chips.as_dict()) == with_chips, "it reads back as written"
    assert rules.settings_from_mapping({"chips": []}, base=with_chips).chips == ()
    assert "payout" in drill_for({"trainee": "tina"}, with_chips).steps
    with pytest.raises(SettingsError, match=r"^chips: a list of 1 to 10 different whole numbers of chips"):
        rules.settings_from_mapping(base | {"chips": [5, 5]})


def _payout(amount: int, in_play: tuple[int, ...]) -> KeyStep:
    return key_step("sixcard", "payout", payout_answer("sixcard", 1, "bonus", amount, in_play), in_play=in_play)


@given(st.lists(st.integers(1, 30), min_size=1, max_size=4, unique=True), st.integers(1, 90),
       st.dictionaries(st.integers(1, 40), st.integers(0, 6), max_size=5), st.booleans())
@settings(deadline=None)
def test_a_make_up_is_right_only_in_chips_in_play_summing_to_the_amount_in_the_fewest(
        chips: list[int], amount: int, make_up: dict[int, int], its_sum: bool) -> None:
    """Hypothesis: the judge accepts a make-up only if every chip is in play, it sums to the amount and it is as
    few as the fewest (``its_sum``: the payout is what the make-up sums to, so the chips decide)."""
    in_play = tuple(sorted(chips))
    given_chips = {c: n for c, n in make_up.items() if n}
    if its_sum and given_chips:
        amount = sum(c * n for c, n in given_chips.items())
    step = _payout(amount, in_play)
    verdict = judge_step(step, {"box": 1, "bet": "bonus", "amount": amount,
                                "chips": {str(c): n for c, n in given_chips.items()}})
    fewest = fewest_chips(amount, in_play)
    in_the_chips = set(given_chips) <= set(in_play)
    sums = sum(c * n for c, n in given_chips.items()) == amount
    assert verdict.right == (in_the_chips and sums and fewest is not None
                             and chip_count(given_chips) == chip_count(fewest))
    if sums and not in_the_chips:
        assert (verdict.mistake, verdict.not_in_play) == ("chips", tuple(sorted(set(given_chips) - set(in_play))))


def test_a_chip_not_in_play_is_wrong_however_few_and_the_feedback_names_the_chips_in_play() -> None:
    step = _payout(10, (1, 5, 25, 100, 500))
    as_few = {"box": 1, "bet": "bonus", "amount": 10, "chips": {"8": 1, "2": 1}}  # two chips, as the fewest (5 + 5)
    verdict = judge_step(step, as_few)
    assert (verdict.right, verdict.mistake, verdict.not_in_play) == (False, "chips", (2, 8))
    said = feedback(step, as_few)
    assert said.startswith("wrong: the amount is right, but this table has no chip of 2 and 8: box 1's bonus is "
                           "paid in the chips in play, 1, 5, 25, 100 and 500. The right answer: ")
    assert judge_step(step, as_few | {"chips": {"5": 2}}).right
    assert judge_step(_payout(3, (5, 25)), {"box": 1, "bet": "bonus", "amount": 3, "chips": [1, 1, 1]}).mistake \
        == "chips", "no chips in play make 3: the amount alone is right, not chips the table lacks"
