"""What a live drill table holds in memory: its settings, the answers so far, the steps it waits for.

The table's part that runs the drill is :mod:`server.table.drill`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from server.drill.views import DealerView, Seen
from server.rules.commands import Leave, Stay
from server.rules.drill.explain import feedback
from server.rules.drill.judge import judge_step
from server.rules.drill.settings import DrillSettings
from server.rules.drill.steps import QUESTIONS, KeyStep
from server.rules.game import JSON, HandLike
from server.table.commands import TableError

Reply = JSON


@dataclass(frozen=True, slots=True)
class Question:
    """One step asked of the trainee: the key's step, the dealer's view when it is asked, the hand's number."""

    step: KeyStep
    view: DealerView
    hand: int


@dataclass(frozen=True, slots=True)
class Answered:
    """One recorded answer: its number, hand and step, what was given (None: no answer) and the seconds taken."""

    n: int
    hand: int
    step: KeyStep
    given: JSON | None
    seconds: float | None

    def as_json(self) -> Reply:
        """The answer as the trainer's report lists it (and as it is recorded, apart from the public part);
        ``feedback`` says it in words: right, or what was wrong, the right answer and why (every client shows it)."""
        verdict = judge_step(self.step, self.given)
        return {"n": self.n, "hand": self.hand, "step": self.step.step, "given": self.given,
                "answer": self.step.answer, "right": verdict.right, "mistake": verdict.mistake,
                "rule": self.step.rule, "seconds": self.seconds, "feedback": feedback(self.step, self.given)}


@dataclass(slots=True)
class Held:
    """Steps waiting for the trainee, and what the table does once they are answered."""

    questions: list[Question]
    release: Callable[[], Awaitable[None]]
    asked_at: float = 0.0
    clock_left: float | None = None  # the hand's clock, stopped while the table waits: the seconds it had left


@dataclass(slots=True)
class LiveDrill:
    """A drill table's session: its settings, every answer so far, and what the table waits for."""

    settings: DrillSettings
    answers: list[Answered] = field(default_factory=list)
    held: Held | None = None
    seen: Seen = field(default_factory=Seen)
    dealt: HandLike | None = None  # the state as the deal left it: an irregularity may be injected while it is
    releasing: bool = False
    button: int | None = None  # where the last hand's player banker left the button (the dealer's view shows it)
    deferred: list[Leave | Stay] = field(default_factory=list)  # a leave (or stay) that came while the table waited

    def public(self) -> Reply:
        """What every viewer sees of the drill: the marker, and which step the table waits for."""
        held = self.held
        waiting = None
        if held is not None:
            q = held.questions[0]
            waiting = {"n": len(self.answers) + 1, "hand": q.hand, "step": q.step.step,
                       "question": QUESTIONS[q.step.step]}
        return {"trainee": self.settings.trainee, "mode": self.settings.mode, "steps": list(self.settings.steps),
                "step_seconds": self.settings.step_seconds, "answered": len(self.answers), "waiting": waiting,
                "ended": self.settings.ended}


def held_back(drill: LiveDrill | None, command: object) -> bool:
    """Whether a hand command waits while the table waits for the trainee: a leave or a stay is kept for after
    (True); any other is refused (``drill/waiting``); none waits when no step is asked, or the held events are
    being recorded (False)."""
    if drill is None or drill.held is None or drill.releasing:
        return False
    if isinstance(command, Leave | Stay):
        return True
    step = drill.held.questions[0].step.step
    raise TableError("drill/waiting", f"the table waits for the dealer's answer ({step}): "
                                      f"at most {drill.settings.step_seconds} s")


def restored_answers(rows: list[Reply]) -> list[Answered]:
    """The answers a drill recorded before a restart, from its ``drill_answered`` events (as the log holds them)."""
    out = []
    for row in rows:
        step = KeyStep(str(row["step"]), dict(row["_answer"]), str(row["_rule"]), str(row.get("_why") or ""),
                       tuple(int(c) for c in row.get("_in_play") or ()))
        out.append(Answered(int(row["n"]), int(row["hand"]), step, row.get("_given"), row.get("_seconds")))
    return out
