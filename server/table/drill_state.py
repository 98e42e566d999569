"""A live drill's session as a value: its settings, the answers so far, the steps it waits for.

Like the rules, the drill is state and events: :func:`decide` reads a command against the
frozen :class:`LiveDrill` and says what happens (events, or a refusal); :func:`evolve`
applies one event. No asyncio, no clock, no I/O: every instant comes in with a command. The
table's part that runs the drill (:mod:`server.table.drill`) decides, records, evolves and
publishes; what the table does once a hold is released stays with it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from server.i18n import phrase, spec
from server.rules.commands import Leave, Stay
from server.rules.drill.explain import STEP_NAMES, feedback
from server.rules.drill.judge import judge_step
from server.rules.drill.settings import DrillSettings
from server.rules.drill.steps import QUESTIONS, KeyStep
from server.rules.vocabulary import JSON, Answer
from server.table.commands import TableError
from server.table.drill_events import (
    Answered,
    BeginHand,
    CommandKept,
    DrillCommand,
    DrillEvent,
    EndSession,
    GiveAnswer,
    HandBegan,
    HoldReleased,
    HoldSteps,
    KeepForAfter,
    Question,
    SessionEnded,
    StepAnswered,
    StepAsked,
    StepsHeld,
)

__all__ = ["Answered", "Hold", "LiveDrill", "Question", "decide", "evolve", "held_back", "restored_answers"]


@dataclass(frozen=True, slots=True)
class Hold:
    """Steps waiting for the trainee: the first is asked (since ``asked_at``); ``clock_left``: the seconds the hand's
    clock had when it stopped (None: none ran)."""

    questions: tuple[Question, ...]
    asked_at: float = 0.0
    clock_left: float | None = None


@dataclass(frozen=True, slots=True)
class LiveDrill:
    """A drill table's session: its settings, every answer so far, what the table waits for, and the leaves (or
    stays) that came while it waited."""

    settings: DrillSettings
    answers: tuple[Answered, ...] = ()
    held: Hold | None = None
    deferred: tuple[Leave | Stay, ...] = ()
    hand: int = 1  # the table's hand number now (the next one between hands): whose turn it is to deal

    def public(self) -> JSON:
        """What every viewer sees of the drill: the marker, and which step the table waits for."""
        held = self.held
        waiting = None
        if held is not None:
            q = held.questions[0]
            waiting = {"n": len(self.answers) + 1, "hand": q.hand, "step": q.step.step,
                       "question": QUESTIONS[q.step.step], "trainee": self.settings.trainee_at(q.hand)}
        return {"trainee": self.turn, "trainees": list(self.settings.names),
                "trainee_turn": self.settings.trainee_turn, "mode": self.settings.mode,
                "steps": list(self.settings.steps), "step_seconds": self.settings.step_seconds,
                "answered": len(self.answers), "waiting": waiting, "ended": self.settings.ended}

    @property
    def turn(self) -> str:
        """The trainee whose turn it is to deal: the hand in progress, or the next one."""
        return self.settings.trainee_at(self.hand)

    def answers_of(self, trainee: str | None) -> tuple[Answered, ...]:
        """The answers ``trainee`` gave, at the hands they dealt (None: every answer)."""
        if trainee is None:
            return self.answers
        return tuple(a for a in self.answers if self.settings.trainee_at(a.hand).lower() == trainee.lower())


def answer_json(answered: Answered) -> Answer:
    """The answer as the trainer's report lists it (and as it is recorded, apart from the public part);
    ``feedback`` says it in words: right, or what was wrong, the right answer and why (every client shows it)."""
    verdict, said = judge_step(answered.step, answered.given), feedback(answered.step, answered.given)
    return {"n": answered.n, "hand": answered.hand, "step": answered.step.step, "given": answered.given,
            "answer": answered.step.answer, "right": verdict.right, "mistake": verdict.mistake,
            "rule": answered.step.rule, "seconds": answered.seconds,
            "feedback": said, "say": {"feedback": spec(said)}}  # each client says it in its language


# ------------------------------------------------------------ decide

def decide(drill: LiveDrill, command: DrillCommand) -> tuple[DrillEvent, ...]:
    """What ``command`` does to the drill: its events, in order (raises TableError when it is refused)."""
    match command:
        case HoldSteps():
            return _hold(drill, command)
        case GiveAnswer():
            return _answer(drill, command)
        case KeepForAfter():
            return (CommandKept(command.command),) if drill.held is not None else ()
        case EndSession():
            return _end(drill)
        case BeginHand():
            return (HandBegan(command.number),) if command.number != drill.hand else ()


def _hold(drill: LiveDrill, command: HoldSteps) -> tuple[DrillEvent, ...]:
    if not command.questions:
        return ()
    if drill.held is not None:
        raise TableError("drill/not_now", phrase("the table already waits for the dealer: one step at a time"))
    first = StepAsked(len(drill.answers) + 1, command.questions[0], command.at,
                      command.at + drill.settings.step_seconds)
    return StepsHeld(command.questions, command.clock_left), first


def _answer(drill: LiveDrill, command: GiveAnswer) -> tuple[DrillEvent, ...]:
    held = drill.held
    if held is None:
        raise TableError("drill/no_step", phrase("no step is asked now: wait for the next one"))
    question, rest = held.questions[0], held.questions[1:]
    dealer = drill.settings.trainee_at(question.hand)
    if command.by is not None and command.by.lower() != dealer.lower():
        raise TableError("drill/not_trainee", phrase("hand {hand} is {dealer}'s to deal: each trainee answers the "
                                                     "steps of the hands they deal", hand=question.hand, dealer=dealer))
    seconds = None if command.given is None else round(command.at - held.asked_at, 3)
    answered = Answered(len(drill.answers) + 1, question.hand, question.step, command.given, seconds)
    if rest and not command.last:
        return StepAnswered(answered), StepAsked(answered.n + 1, rest[0], command.at,
                                                 command.at + drill.settings.step_seconds)
    return StepAnswered(answered), HoldReleased(held.clock_left, drill.deferred)


def _end(drill: LiveDrill) -> tuple[DrillEvent, ...]:
    if drill.settings.ended:
        raise TableError("drill/off", phrase("the drill has ended already"))
    if drill.held is not None:
        raise TableError("drill/not_now", phrase("a step is still asked: it is answered (or counted unanswered) "
                                                 "first"))
    return (SessionEnded(),)


# ------------------------------------------------------------ evolve

def evolve(drill: LiveDrill, event: DrillEvent) -> LiveDrill:
    """The drill once ``event`` has happened."""
    match event:
        case StepsHeld():
            return replace(drill, held=Hold(event.questions, clock_left=event.clock_left))
        case StepAsked():
            assert drill.held is not None
            return replace(drill, held=replace(drill.held, asked_at=event.at))
        case StepAnswered():
            assert drill.held is not None
            return replace(drill, answers=(*drill.answers, event.answered),
                           held=replace(drill.held, questions=drill.held.questions[1:]))
        case HoldReleased():
            return replace(drill, held=None, deferred=())
        case CommandKept():
            return replace(drill, deferred=(*drill.deferred, event.command))
        case SessionEnded():
            return replace(drill, settings=replace(drill.settings, ended=True))
        case HandBegan():
            return replace(drill, hand=event.number)


def held_back(drill: LiveDrill | None, command: object, *, releasing: bool = False) -> bool:
    """Whether a hand command waits while the table waits for the trainee: a leave or a stay is kept for after
    (True); any other is refused (``drill/waiting``); none waits when no step is asked, or the held events are
    being recorded (``releasing``: False)."""
    if drill is None or drill.held is None or releasing:
        return False
    if isinstance(command, Leave | Stay):
        return True
    step = drill.held.questions[0].step.step
    raise TableError("drill/waiting", phrase("the table waits for the dealer's answer ({step}): at most {seconds} s",
                                             step=STEP_NAMES.get(step, step), seconds=drill.settings.step_seconds))


def restored_answers(rows: list[JSON]) -> tuple[Answered, ...]:
    """The answers a drill recorded before a restart, from its ``drill_answered`` events (as the log holds them)."""
    return tuple(_restored(row) for row in rows)


def _restored(row: JSON) -> Answered:
    step = KeyStep(str(row["step"]), dict(row["_answer"]), str(row["_rule"]), str(row.get("_why") or ""),
                   tuple(int(c) for c in row.get("_in_play") or ()))
    return Answered(int(row["n"]), int(row["hand"]), step, row.get("_given"), row.get("_seconds"))

