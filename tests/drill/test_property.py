"""Property: for random scenarios, answers that are the key's or a mutation of it are judged exactly:
every mutated step wrong with the mistake its mutation makes, every other step right (issue 16)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from server.drill.play import dry_run, key_of
from server.drill.scenario import ScenarioError, parse
from server.drill_runner import run
from server.rules.cards import cards_list
from server.rules.drill.report import Asked, report
from server.rules.drill.steps import SETTLE_PLACE


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """One random High Card Flush table and hand: stacks, switches, declines, bets, moves, an irregularity."""
    seats = draw(st.lists(st.integers(1, 7), min_size=2, max_size=5, unique=True))
    deck = cards_list(draw(st.permutations(range(52))))
    hand: dict[str, Any] = {"deck": " ".join(deck),
                            "bank": {str(s): draw(st.booleans()) for s in seats if draw(st.booleans())},
                            "bets": {}, "decide": {}}
    for seat in seats:
        if draw(st.booleans()) or seat == seats[-1]:
            ante = draw(st.sampled_from([5, 10, 25]))
            hand["bets"][str(seat)] = {"ante": ante, "flush_bonus": draw(st.sampled_from([0, 5])),
                                       "straight_flush_bonus": draw(st.sampled_from([0, 1]))}
            hand["decide"][str(seat)] = draw(st.sampled_from(["fold", "max", "walk_away", ante]))
    kind = draw(st.sampled_from([None, "miscount", "shuffler_fault", "none"]))
    if kind == "miscount":
        hand["irregularity"] = {"kind": kind, "seat": draw(st.sampled_from(seats))}
    elif kind is not None:
        hand["irregularity"] = {"kind": kind}
    return {"name": "random", "game": "hcf",
            "table": {"fee_mode": draw(st.sampled_from(["all", "players", "designated", "none"])),
                      "fee": draw(st.sampled_from([0, 1, 2])), "min_bank": 100},
            "button": draw(st.none() | st.sampled_from(seats)),
            "seats": [{"seat": s, "name": f"p{s}", "stack": draw(st.sampled_from([150, 400, 2000])),
                       "bank": draw(st.booleans())} for s in seats],
            "hands": [hand]}


def mutate(step: str, answer: dict[str, Any], how: str) -> tuple[Any, str]:
    """An answer changed so that it is wrong, and the mistake that makes it."""
    place = SETTLE_PLACE.get(step)
    if how == "none":
        return None, "no answer"
    if place is not None and how == "place":
        return answer | {place: int(answer[place]) + 1}, "order"
    if place is not None:
        bet = next((k for k in answer if k != place), None)
        if bet == "dead":
            return answer | {"dead": False}, "amount"
        return answer | {str(bet): int(answer[str(bet)]) + 1}, "amount"
    return answer | {"extra": 1}, "wrong"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenario=scenarios(), data=st.data())
def test_exactly_the_mutated_steps_are_wrong_with_the_right_mistake(scenario: dict[str, Any], data: st.DataObject
                                                                    ) -> None:
    try:
        key: list[Asked] = key_of(dry_run(parse(scenario)))
    except ScenarioError:
        assume(False)
        raise
    answers: list[Any] = []
    expected: dict[int, str] = {}
    for n, asked in enumerate(key, 1):
        how = data.draw(st.sampled_from(["keep", "keep", "none", "place", "amount"]))
        if how == "keep":
            answers.append(asked.step.answer)
            continue
        answer, mistake = mutate(asked.step.step, asked.step.answer, how)
        answers.append(answer)
        expected[n] = mistake
    judged = report("random", key, answers, ledger="ok")
    assert {s["n"]: s["mistake"] for s in judged["steps"] if not s["right"]} == expected
    assert judged["right"] == len(key) - len(expected)
    assert sum(t["total"] for t in judged["by_step"].values()) == len(key)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenario=scenarios())
def test_random_scenarios_play_the_same_at_the_table_and_the_ledger_is_ok(scenario: dict[str, Any]) -> None:
    try:
        parsed = parse(scenario)
        key = key_of(dry_run(parsed))
    except ScenarioError:
        assume(False)
        raise
    # run() raises DrillError if the steps read off the table's own log differ from the rules' dry run.
    judged = run(parsed, [a.step.answer for a in key])
    assert (judged["right"], judged["total"], judged["ledger"]) == (len(key), len(key), "ok")
