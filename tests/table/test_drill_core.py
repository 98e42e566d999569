"""The live drill's pure core (server/table/drill_state.py): decide a command, evolve over its events.

No table, no clock, no I/O: each command carries its instant. The properties hold for any run
of holds, answers, time-outs and leaves kept for after.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.commands import Leave, Stay
from server.rules.drill.settings import DrillSettings
from server.rules.drill.steps import KeyStep
from server.table.commands import TableError
from server.table.drill_events import (
    DrillCommand,
    DrillEvent,
    EndSession,
    GiveAnswer,
    HoldReleased,
    HoldSteps,
    KeepForAfter,
    Question,
    StepAnswered,
    StepAsked,
)
from server.table.drill_state import LiveDrill, decide, evolve

SETTINGS = DrillSettings("tina", ("offer_bank", "fees"), step_seconds=30)


def _question(hand: int, step: str = "offer_bank") -> Question:
    return Question(KeyStep(step, {"seat": 1}, "4.1"), None, hand)  # type: ignore[arg-type]  # no view needed


@dataclass
class Run:
    """A drill driven through decide and evolve, keeping every event."""

    drill: LiveDrill
    events: list[DrillEvent]
    held: int = 0  # questions held so far

    def do(self, command: DrillCommand) -> bool:
        try:
            events = decide(self.drill, command)
        except TableError:
            return False
        for event in events:
            self.drill = evolve(self.drill, event)
        self.events += events
        if isinstance(command, HoldSteps) and events:
            self.held += len(command.questions)
        return True


hold = st.builds(lambda n, at: HoldSteps(tuple(_question(1) for _ in range(n)), at, None),
                 st.integers(0, 4), st.floats(0, 1e6))
answer = st.builds(GiveAnswer, st.none() | st.fixed_dictionaries({"seat": st.integers(1, 6)}), st.floats(0, 1e6))
keep = st.builds(KeepForAfter, st.sampled_from([Leave(1), Stay(2), Leave(3)]))
commands = st.lists(st.one_of(hold, answer, keep), max_size=40)


@given(commands)
def test_evolving_over_the_events_never_loses_an_answer_and_numbers_them_in_order(run: list[DrillCommand]) -> None:
    drill = Run(LiveDrill(SETTINGS), [])
    taken = sum(drill.do(command) for command in run if isinstance(command, GiveAnswer))
    assert len(drill.drill.answers) == taken == sum(isinstance(e, StepAnswered) for e in drill.events)
    assert [a.n for a in drill.drill.answers] == list(range(1, taken + 1))


@given(commands)
def test_every_step_held_is_asked_and_judged_once(run: list[DrillCommand]) -> None:
    drill = Run(LiveDrill(SETTINGS), [])
    for command in run:
        drill.do(command)
    waiting = len(drill.drill.held.questions) if drill.drill.held is not None else 0
    assert drill.held == len(drill.drill.answers) + waiting, "a step held is answered once, or still waits"
    asked = [e.n for e in drill.events if isinstance(e, StepAsked)]
    assert asked == sorted(set(asked)), "each step is asked once"
    assert len(asked) == len(drill.drill.answers) + (1 if waiting else 0)


@given(commands)
def test_a_hold_releases_exactly_once_with_every_leave_kept_meanwhile(run: list[DrillCommand]) -> None:
    drill = Run(LiveDrill(SETTINGS), [])
    kept: list[object] = []
    for command in run:
        held = drill.drill.held is not None
        if drill.do(command) and isinstance(command, KeepForAfter) and held:
            kept.append(command.command)
    released = [e for e in drill.events if isinstance(e, HoldReleased)]
    started = sum(type(e).__name__ == "StepsHeld" for e in drill.events)
    assert len(released) == started - (drill.drill.held is not None)
    out = [c for e in released for c in e.deferred] + list(drill.drill.deferred)
    assert out == kept, "every leave kept is released once, in order"


@given(st.floats(0, 1e5), st.floats(0, 600))
def test_an_answer_takes_the_seconds_since_its_step_was_asked(at: float, took: float) -> None:
    drill = Run(LiveDrill(SETTINGS), [])
    drill.do(HoldSteps((_question(1), _question(1, "fees")), at, 12.5))
    drill.do(GiveAnswer({"seat": 1}, at + took))
    assert drill.drill.answers[0].seconds == round(took, 3)
    asked = [e for e in drill.events if isinstance(e, StepAsked)]
    assert (asked[1].at, asked[1].deadline) == (at + took, at + took + 30)
    drill.do(GiveAnswer(None, at + took + 30))
    assert drill.drill.answers[1].seconds is None, "no answer: no time"
    assert drill.events[-1] == HoldReleased(12.5, ()), "the hand's clock runs on with what it had left"


def test_an_answer_with_no_step_asked_is_refused_and_changes_nothing() -> None:
    drill = LiveDrill(SETTINGS)
    with pytest.raises(TableError) as refused:
        decide(drill, GiveAnswer({"seat": 1}, 5.0))
    assert refused.value.code == "drill/no_step"
    assert decide(drill, KeepForAfter(Leave(1))) == (), "a leave with nothing held is not kept"


def test_a_session_ends_once_and_only_with_nothing_asked() -> None:
    held = Run(LiveDrill(SETTINGS), [])
    held.do(HoldSteps((_question(1),), 0.0))
    with pytest.raises(TableError) as refused:
        decide(held.drill, EndSession())
    assert refused.value.code == "drill/not_now"
    drill = LiveDrill(SETTINGS)
    for event in decide(drill, EndSession()):
        drill = evolve(drill, event)
    assert drill.settings.ended
    with pytest.raises(TableError):
        decide(drill, EndSession())
