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
from server.rules.drill.settings import DrillSettings, drill_settings
from server.rules.drill.steps import KeyStep
from server.rules.errors import SettingsError
from server.table.commands import TableError
from server.table.drill_events import (
    BeginHand,
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


# ------------------------------------------------------------ several trainees in turn (issue 27, item 6)

names = st.lists(st.sampled_from(["ana", "ben", "cy", "dee", "eve"]), min_size=1, max_size=5, unique=True)


@given(names, st.integers(1, 5), st.integers(1, 200))
def test_each_trainee_deals_a_turn_of_hands_then_the_next_one_does(trainees: list[str], turn: int,
                                                                   hand: int) -> None:
    settings = drill_settings({"trainees": trainees, "trainee_turn": turn}, "hcf", house_banked=False)
    dealer = settings.trainee_at(hand)
    first_of_turn = hand - (hand - 1) % turn
    assert all(settings.trainee_at(h) == dealer for h in range(first_of_turn, first_of_turn + turn))
    following = settings.trainee_at(first_of_turn + turn)
    assert following == trainees[(trainees.index(dealer) + 1) % len(trainees)], "then the next, in order"
    assert drill_settings(settings.as_dict(), "hcf", house_banked=False) == settings, "stored and read back"


@given(names, st.integers(1, 3), st.lists(st.integers(1, 12), max_size=20))
def test_every_answer_is_in_exactly_one_trainees_report(trainees: list[str], turn: int, hands: list[int]) -> None:
    settings = drill_settings({"trainees": trainees, "trainee_turn": turn}, "hcf",
                              house_banked=False)
    drill = Run(LiveDrill(settings), [])
    for hand in hands:
        drill.do(HoldSteps((_question(hand),), 0.0))
        drill.do(GiveAnswer({"seat": 1}, 1.0))
    own = [drill.drill.answers_of(name) for name in trainees]
    assert sorted(a.n for answers in own for a in answers) == [a.n for a in drill.drill.answers]
    for name, answers in zip(trainees, own, strict=True):
        assert all(settings.trainee_at(a.hand) == name for a in answers)


def test_the_single_trainee_form_stays_as_it_was() -> None:
    settings = drill_settings({"trainee": "tina"}, "hcf", house_banked=False)
    assert (settings.names, settings.trainee_at(7), settings.as_dict()["trainee"]) == (("tina",), "tina", "tina")
    assert "trainees" not in settings.as_dict()
    assert LiveDrill(settings).public()["trainees"] == ["tina"]


@pytest.mark.parametrize(("values", "says"), [
    ({"trainee": "tina", "trainees": ["ana"]}, "drill.trainee: the trainee's account name"),
    ({}, "or drill.trainees"),
    ({"trainees": []}, "drill.trainees: a list of 1 to 8 account names"),
    ({"trainees": ["ana", "ANA"]}, "each trainee is named once"),
    ({"trainees": ["ana", "ben"], "trainee_turn": 0}, "drill.trainee_turn: the hands each trainee deals"),
])
def test_a_wrong_trainees_setting_is_refused_with_a_sentence(values: dict[str, object], says: str) -> None:
    with pytest.raises(SettingsError) as refused:
        drill_settings(values, "hcf", house_banked=False)
    assert says in refused.value.message


def test_the_step_asked_and_the_turn_name_the_trainee_who_deals_the_hand() -> None:
    settings = drill_settings({"trainees": ["ana", "ben"]}, "hcf", house_banked=False)
    drill = Run(LiveDrill(settings), [])
    drill.do(HoldSteps((_question(2),), 0.0))
    assert drill.drill.public()["waiting"]["trainee"] == "ben"
    for event in decide(drill.drill, BeginHand(2)):
        drill.drill = evolve(drill.drill, event)
    assert drill.drill.public()["trainee"] == "ben", "whose turn it is: the hand in progress"
    assert decide(drill.drill, BeginHand(2)) == (), "the same hand again changes nothing"


@given(names.filter(lambda n: len(n) > 1), st.integers(1, 3), st.integers(1, 30), st.data())
def test_only_the_trainee_who_deals_the_hand_answers_its_step(trainees: list[str], turn: int, hand: int,
                                                            data: st.DataObject) -> None:
    settings = drill_settings({"trainees": trainees, "trainee_turn": turn}, "hcf", house_banked=False)
    drill = Run(LiveDrill(settings), [])
    drill.do(HoldSteps((_question(hand),), 0.0))
    by = data.draw(st.sampled_from(trainees))
    before = drill.drill
    if by == settings.trainee_at(hand):
        assert drill.do(GiveAnswer({"seat": 1}, 2.0, by.upper()))
        assert len(drill.drill.answers) == 1
    else:
        with pytest.raises(TableError) as refused:
            decide(drill.drill, GiveAnswer({"seat": 1}, 2.0, by))
        assert refused.value.code == "drill/not_trainee"
        assert refused.value.message == (f"hand {hand} is {settings.trainee_at(hand)}'s to deal: each trainee "
                                         "answers the steps of the hands they deal")
        assert drill.drill == before, "a refused answer changes nothing"
        assert drill.do(GiveAnswer(None, 30.0)), "the step's time runs out all the same"


@given(count=st.integers(min_value=1, max_value=5), at=st.floats(min_value=0, max_value=1e6))
def test_a_last_answer_counts_the_step_asked_and_releases_the_hold_without_asking_the_rest(
        count: int, at: float) -> None:
    """A void, a stop or the end counts only the step asked as unanswered; the hold's later steps were never
    shown to the trainee, so they are never asked and never counted."""
    run = Run(LiveDrill(SETTINGS), [])
    assert run.do(HoldSteps(tuple(_question(1, "fees") for _ in range(count)), at, None))
    assert run.do(GiveAnswer(None, at + 1, None, last=True))
    assert run.drill.held is None
    assert [a.given for a in run.drill.answers] == [None]
    assert isinstance(run.events[-1], HoldReleased)
    assert sum(isinstance(e, StepAsked) for e in run.events) == 1
