"""The practice scheduler (docs/drills.md, "Practice on weak items"): intervals and weights follow the documented
rule, and a seed replays the same session."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from client_cli.drill.practice import pool, practice_session
from server.rules.drill.practice import DUE_FACTOR, INTERVALS, MAX_BOX, Item, plan, schedule, weight, weights

KINDS = ("fees", "qualify", "payout", "settle_seat")
tally = st.integers(0, 4).flatmap(lambda total: st.tuples(st.integers(0, total), st.just(total)))
sessions = st.lists(st.dictionaries(st.sampled_from(KINDS), tally, max_size=len(KINDS)), max_size=12)
POOL = pool()


def _expected(history: list[dict[str, tuple[int, int]]], kind: str) -> Item | None:
    """The rule said the other way round: the streak of all-right sessions since the last miss sets the box."""
    asked = [(n, t[kind]) for n, t in enumerate(history) if t.get(kind, (0, 0))[1]]
    if not asked:
        return None
    streak = 0
    for _, (right, total) in asked:
        streak = streak + 1 if right == total else 0
    box = min(streak, MAX_BOX)
    return Item(box=box, due=asked[-1][0] + INTERVALS[box], misses=sum(t - r for _, (r, t) in asked))


@given(sessions)
def test_a_right_session_moves_a_kind_to_a_longer_interval_and_a_miss_brings_it_back(
        history: list[dict[str, tuple[int, int]]]) -> None:
    state = schedule(history)
    for kind in KINDS:
        assert state.get(kind) == _expected(history, kind)


@given(sessions, st.integers(0, 40))
def test_the_weight_is_one_plus_the_misses_tripled_when_due(history: list[dict[str, tuple[int, int]]],
                                                             session: int) -> None:
    state = schedule(history)
    got = weights(state, KINDS, session)
    for kind in KINDS:
        item = state.get(kind, Item())
        assert got[kind] == (1 + item.misses) * (DUE_FACTOR if item.due <= session else 1) == weight(item, session)
        assert got[kind] >= 1


@given(sessions, st.integers(0, 2**64 - 1), st.integers(1, 30))
def test_a_seed_replays_the_same_plan(history: list[dict[str, tuple[int, int]]], seed: int, steps: int) -> None:
    candidates = {"fees": 3, "qualify": 5, "payout": 0, "settle_seat": 2}
    first = plan(schedule(history), candidates, len(history), seed, steps)
    assert first == plan(schedule(history), candidates, len(history), seed, steps)
    assert len(first) == steps
    assert all(kind != "payout" and 0 <= i < candidates[kind] for kind, i in first)


def test_a_kind_missed_most_is_drawn_most() -> None:
    history = [{"fees": (0, 4), "qualify": (4, 4)}] * 3
    picks = [kind for kind, _ in plan(schedule(history), {"fees": 1, "qualify": 1}, 3, seed=7, steps=400)]
    # fees: (1 + 12) * 3 = 39 against qualify's 1 (box 3, due at session 2 + 8)
    assert picks.count("fees") > 0.9 * len(picks)


@given(st.integers(0, 2**64 - 1), sessions)
def test_a_seed_replays_the_same_practice_session_from_the_engine(seed: int,
                                                                  history: list[dict[str, tuple[int, int]]]) -> None:
    scenario, steps = practice_session(POOL, history, seed, 12)
    again_scenario, again = practice_session(POOL, history, seed, 12)
    assert (scenario.name, [(m.n, m.asked, m.view) for m in steps]) == \
        (again_scenario.name, [(m.n, m.asked, m.view) for m in again])
    assert [m.n for m in steps] == list(range(1, 13))
