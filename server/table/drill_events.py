"""A live drill's commands and events (the pure core is :mod:`server.table.drill_state`).

Commands are what the table asks of the drill (imperative: hold these steps, take this
answer); events what happened (past tense), each small and frozen. Every instant is given
with the command (the table's injected clock), so deciding twice on the same command gives
the same events.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.drill.views import DealerView
from server.rules.commands import Leave, Stay
from server.rules.drill.steps import KeyStep
from server.rules.game import JSON


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


# ------------------------------------------------------------ commands

@dataclass(frozen=True, slots=True)
class HoldSteps:
    """Hold a batch of the hand's events and ask these steps, from ``at``; ``clock_left``: the stopped hand clock's
    seconds (None: none ran)."""

    questions: tuple[Question, ...]
    at: float
    clock_left: float | None = None


@dataclass(frozen=True, slots=True)
class GiveAnswer:
    """The answer to the step asked, at ``at`` (``given`` None: its time ran out, or it was settled); ``by``: the
    trainee who answers (None: the table itself, for a step whose time ran out)."""

    given: JSON | None
    at: float
    by: str | None = None
    last: bool = False  # a void, a stop or the end: the hold's later steps are never asked, and count for nothing


@dataclass(frozen=True, slots=True)
class KeepForAfter:
    """A leave (or a stay) that came while the table waits: carried out once the hold is released."""

    command: Leave | Stay


@dataclass(frozen=True, slots=True)
class EndSession:
    """The trainer ends the session."""


@dataclass(frozen=True, slots=True)
class BeginHand:
    """The table starts its hand number ``number``: the trainee whose turn it is deals it."""

    number: int


DrillCommand = HoldSteps | GiveAnswer | KeepForAfter | EndSession | BeginHand


# ------------------------------------------------------------ events

@dataclass(frozen=True, slots=True)
class StepsHeld:
    """The table holds a batch of events for these steps; the hand's clock stopped with ``clock_left``."""

    questions: tuple[Question, ...]
    clock_left: float | None


@dataclass(frozen=True, slots=True)
class StepAsked:
    """Step ``n`` is asked at ``at``; no answer by ``deadline`` counts as none."""

    n: int
    question: Question
    at: float
    deadline: float


@dataclass(frozen=True, slots=True)
class StepAnswered:
    """The step asked was answered (or its time ran out), and judged."""

    answered: Answered


@dataclass(frozen=True, slots=True)
class HoldReleased:
    """Every held step is answered: the table records what it held, its clock runs on, then the ``deferred``."""

    clock_left: float | None
    deferred: tuple[Leave | Stay, ...]


@dataclass(frozen=True, slots=True)
class CommandKept:
    """A leave (or stay) kept for after the hold."""

    command: Leave | Stay


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """The session is over: the table asks nothing more, the report stays."""


@dataclass(frozen=True, slots=True)
class HandBegan:
    """The table's hand number ``number`` began (with several trainees, the next one's turn may have come)."""

    number: int


DrillEvent = StepsHeld | StepAsked | StepAnswered | HoldReleased | CommandKept | SessionEnded | HandBegan
