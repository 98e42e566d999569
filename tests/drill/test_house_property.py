"""Random Caribbean Stud and 6 Card Poker scenarios: the key's own answers score everything, at the table too,
and the dry run's key agrees with the one read off the table's log."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from server.drill.play import dry_run, key_of
from server.drill.scenario import ScenarioError, parse
from server.drill_runner import run
from server.rules.cards import cards_list
from server.rules.drill.report import report

SLOW = settings(max_examples=4, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def house_scenarios(draw: st.DrawFn, game: str) -> dict[str, Any]:
    """One random house-game table and hand: one spot or box per player, its bets and its moves."""
    seats = draw(st.lists(st.integers(1, 5), min_size=1, max_size=4, unique=True))
    hand: dict[str, Any] = {"deck": " ".join(cards_list(draw(st.permutations(range(52))))), "bets": {}, "decide": {}}
    for seat in seats:
        if not draw(st.booleans()) and seat != seats[0]:
            continue
        ante = draw(st.sampled_from([5, 10, 25]))
        if game == "caribbean":
            hand["bets"][str(seat)] = {"spots": [{"spot": seat, "ante": ante, "jackpot": draw(st.booleans())}]}
            hand["decide"][str(seat)] = draw(st.sampled_from(["play", "fold", "walk_away"]))
        else:
            hand["bets"][str(seat)] = {"boxes": [{"box": seat, "ante": ante, "bonus": draw(st.sampled_from([0, 5]))}]}
            plan = [*([{"buy": True}] if draw(st.booleans()) else []), draw(st.sampled_from(["raise", "fold"])),
                    *(["ask"] if draw(st.booleans()) else [])]
            hand["decide"][str(seat)] = plan
    kind = draw(st.sampled_from([None, "miscount", "shuffler_fault", "none"]))
    if kind == "miscount":
        hand["irregularity"] = {"kind": kind, "seat": draw(st.sampled_from([*seats, "dealer"]))}
    elif kind is not None:
        hand["irregularity"] = {"kind": kind}
    return {"name": "random", "game": game, "table": {},
            "seats": [{"seat": s, "name": f"p{s}", "stack": 1000} for s in seats], "hands": [hand]}


def key_or_skip(data: dict[str, Any]) -> tuple[Any, list[Any]]:
    try:
        scenario = parse(data)
        return scenario, key_of(dry_run(scenario))
    except ScenarioError:
        assume(False)
        raise


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.sampled_from(["caribbean", "sixcard"]).flatmap(house_scenarios))
def test_the_keys_answers_are_right_and_none_is_no_answer(data: dict[str, Any]) -> None:
    _scenario, key = key_or_skip(data)
    assert key, "a dealt house hand always shows the dealer's hand, or rules on an irregularity"
    answers = [a.step.answer for a in key]
    assert report("random", key, answers, ledger="ok")["right"] == len(key)
    blank = report("random", key, [], ledger="ok")
    assert {s["mistake"] for s in blank["steps"]} == {"no answer"}


@SLOW
@given(data=house_scenarios("caribbean"))
def test_random_caribbean_scenarios_play_the_same_at_the_table(data: dict[str, Any]) -> None:
    scenario, key = key_or_skip(data)
    judged = run(scenario, [a.step.answer for a in key])
    assert (judged["right"], judged["total"], judged["ledger"]) == (len(key), len(key), "ok")


@SLOW
@given(data=house_scenarios("sixcard"))
def test_random_sixcard_scenarios_play_the_same_at_the_table(data: dict[str, Any]) -> None:
    scenario, key = key_or_skip(data)
    judged = run(scenario, [a.step.answer for a in key])
    assert (judged["right"], judged["total"], judged["ledger"]) == (len(key), len(key), "ok")
