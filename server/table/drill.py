"""A live drill at the table (docs/drills.md): the table waits for the trainee at each step, judges, goes on.

Every batch of a hand's events goes through :meth:`DrillDesk.record`. The
steps those events bring are read off them by the drill engine
(:mod:`server.rules.drill`), exactly as the offline runner's key is. When one of
the drill's steps comes, nothing is recorded yet: the table *holds* the events,
asks the trainee (a ``drill_step`` table event, the question and the dealer's view
on request), and waits up to ``step_seconds`` with the hand's clock stopped. Each
answer (or its absence) is judged and recorded as a ``drill_answered`` table event
whose given answer is never published; then the next step, and at the last the
held events are recorded and published as at any table. So whatever the trainee
answers, the table does the right thing (DRILLS section 1): the events were the
rules' before anybody answered.

An irregularity is the trainer's (host) ``inject``: between the deal and the first
decision, the table announces it, asks for the ruling, and then carries out the
right one with the floor's own commands.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from server.drill.moves import SCRIPTS, floor_for
from server.drill.play import command_of
from server.drill.scenario import ScenarioError
from server.drill.views import Seen, Where, event_questions, irregularity_question, view_json
from server.i18n import phrase, told, with_say
from server.rules.cards import Card
from server.rules.commands import Leave, Stay
from server.rules.drill.explain import answer_words, step_name
from server.rules.drill.irregularity import DEALER, KINDS, Irregularity, injected
from server.rules.drill.judge import judge_step
from server.rules.drill.key import READERS
from server.rules.drill.report import Asked, report
from server.rules.drill.steps import QUESTIONS
from server.rules.events import Event
from server.rules.game import JSON, HandLike, TableSettings
from server.table.commands import DrillRequest, Host, TableError
from server.table.context import HandCommand, TableContext
from server.table.drill_events import (
    Answered,
    BeginHand,
    CommandKept,
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
from server.table.drill_state import LiveDrill, answer_json, decide, evolve, held_back
from server.table.hand_timer import HandTimer
from server.table.pipeline import Pipeline
from server.table.ports import Answer, Batch, DrillReportKeeper
from server.table.scheduler import Scheduler

Release = Callable[[], Awaitable[None]]
"""What the table does once a hold's steps are answered: record the held events (or carry out a ruling)."""

NOT_CHECKED: Final = "not checked"
"""A report's ``ledger`` before the server's ledger check fills it in (the table cannot reach the books)."""


class DrillDesk:
    """Runs a live drill at the table: holds a hand's events for the trainee, judges, then records them through
    ``pipeline``; what the drill does to the hand goes through ``hand_command`` (the hand desk's).

    The drill itself is a value (server/table/drill_state.py): the desk decides each command on it, records the
    events, evolves it and publishes. What the dealer has seen of the hand, and what the table does once a hold
    is released, stay here with the desk."""

    def __init__(self, table: TableContext, pipeline: Pipeline, timers: Scheduler, hand_timer: HandTimer,
                 hand_command: HandCommand, keeper: DrillReportKeeper | None = None) -> None:
        self._table, self._pipeline, self._timers = table, pipeline, timers
        self._hand_timer, self._hand_command, self._keeper = hand_timer, hand_command, keeper
        self._release: Release | None = None  # what the table does once the held steps are answered
        self._releasing = False  # the held events are being recorded: nothing is held meanwhile
        self._settling = False  # a void, a stop or the end counts the held steps: no later step is asked
        self._seen = Seen()  # what the dealer has seen of the hand
        self._dealt: HandLike | None = None  # the state as the deal left it: an irregularity may be injected
        self._button: int | None = None  # where the last hand's player banker left the button

    # ------------------------------------------------------------ the drill's commands: decide, record, evolve

    async def _run(self, command: DrillCommand) -> Answered | None:
        """Decide ``command`` on the drill, then carry out its events in order; the answer it recorded, if any."""
        drill = self._table.drill
        assert drill is not None
        answered = None
        for event in decide(drill, command):
            answered = event.answered if isinstance(event, StepAnswered) else answered
            await self._carry_out(event)
        return answered

    def _evolve(self, event: DrillEvent) -> None:
        assert self._table.drill is not None
        self._table.drill = evolve(self._table.drill, event)

    async def _carry_out(self, event: DrillEvent) -> None:
        if isinstance(event, StepAsked):
            self._evolve(event)
            await self._ask(event)
        elif isinstance(event, StepAnswered):
            self._timers.cancel("drill")
            await self._pipeline.table_events([self._answered_event(event.answered)],
                                              apply=lambda: self._evolve(event))
        elif isinstance(event, HoldReleased):
            self._evolve(event)
            await self._released(event)
        else:
            self._evolve(event)

    # ------------------------------------------------------------ the hand's events, through the drill

    async def record(self, before: HandLike, events: Sequence[Event], batch: Batch,
                     lead: list[JSON] | None = None, inputs: JSON | None = None) -> None:
        """Record a batch of hand events, at a live drill first asking the trainee every drill step they bring."""
        drill = self._table.drill
        if drill is None or self._releasing or self._settling or drill.settings.ended:
            await self._pipeline.record(before, events, batch, lead, inputs)
            return
        if lead:  # a new hand: the dealer has seen nothing of it yet, and it may be the next trainee's turn
            self._seen, self._dealt = Seen(), None
            await self._run(BeginHand(int(lead[0]["number"])))
        asked = self._questions(drill, before, events)

        async def release() -> None:
            await self._record_for_drill(before, events, batch, lead, inputs)

        if not asked:
            await release()
            return
        await self._hold(asked, release)

    def _questions(self, drill: LiveDrill, before: HandLike, events: Sequence[Event]) -> tuple[Question, ...]:
        where = self._where()
        state, out = before, []
        for event in events:
            after = self._table.game.evolve(state, event)
            for step, view in event_questions(self._table.game.name, state, event, after, self._seen, where):
                if step.step in drill.settings.steps:
                    out.append(Question(step, view, where.hand))
            state = after
        return tuple(out)

    def _where(self) -> Where:
        names = {seat: s.name for seat, s in self._table.roster.by_seat.items()}
        # A new hand's state has no player banker yet: the button stays where the last one left it.
        button = self._table.view().button()
        self._button = button = self._button if button is None else button
        return Where(self._table.course.hand_number or self._table.course.hands_dealt + 1, button, names,
                     self._table.settings.chips)

    async def _record_for_drill(self, before: HandLike, events: Sequence[Event], batch: Batch,
                                lead: list[JSON] | None, inputs: JSON | None) -> None:
        deals = any(READERS[self._table.game.name].dealt(e) for e in events)
        self._releasing = True
        try:
            await self._pipeline.record(before, events, batch, lead, inputs)
        finally:
            self._releasing = False
        if deals and self._table.hand_in_progress():
            self._dealt = self._table.course.state

    async def _hold(self, questions: tuple[Question, ...], release: Release) -> None:
        """Stop the hand's clock and ask the first of ``questions``; ``release`` runs once all are answered."""
        now = self._table.now()
        command = HoldSteps(questions, now, self._hand_timer.hold(now))
        self._release = release
        await self._run(command)

    async def _ask(self, asked: StepAsked) -> None:
        self._timers.at("drill", asked.deadline)
        step, hand = asked.question.step.step, asked.question.hand
        settings = self._drill_on(ended_too=True).settings
        dealer = told("{name}, the dealer", name=settings.trainee_at(hand)) if settings.trainees \
            else told("the dealer")
        await self._pipeline.table_events([with_say({
            "type": "drill_step", "n": asked.n, "hand": hand, "step": step, "question": QUESTIONS[step],
            "deadline": asked.deadline, "trainee": settings.trainee_at(hand),
            "message": told("drill: the table waits for {dealer} ({step})", dealer=dealer, step=step_name(step))})])

    async def _drill_answer(self, given: JSON | None, by: str | None = None, *, last: bool = False) -> Answer:
        """Judge and record ``by``'s answer to the step asked (``given`` None: its time ran out), then go on."""
        mode = self._drill_on(ended_too=True).settings.mode
        answered = await self._run(GiveAnswer(given, self._table.now(), by, last))
        assert answered is not None
        return answer_json(answered) if mode == "training" else {"n": answered.n, "recorded": True}

    def _answered_event(self, answered: Answered) -> JSON:
        """The public part says which step was answered (and, in training, the table's correction);
        the ``_`` keys, recorded and never published, keep the answer for the report."""
        assert self._table.drill is not None
        verdict = judge_step(answered.step, answered.given)
        event: JSON = {"type": "drill_answered", "n": answered.n, "hand": answered.hand,
                        "step": answered.step.step, "_given": answered.given, "_answer": answered.step.answer,
                        "_rule": answered.step.rule, "_why": answered.step.why, "_seconds": answered.seconds}
        if answered.step.in_play:  # a payout's chips in play, so a restarted table judges it the same
            event["_in_play"] = list(answered.step.in_play)
        if self._table.drill.settings.mode == "training":
            event |= {"right": verdict.right, "rule": answered.step.rule}
            if not verdict.right:
                event |= with_say({"correction": answered.step.answer, "message": told(
                    "drill: the table corrects the dealer ({step}): {answer} ({rule})",
                    step=step_name(answered.step.step), rule=answered.step.rule,
                    answer=answer_words(answered.step.step, answered.step.answer))})
        return event

    async def _released(self, released: HoldReleased) -> None:
        """The held steps are answered: the hand's clock runs on, the held events are recorded, then the leaves
        (or stays) kept meanwhile are carried out (kept again if the release brought a new hold)."""
        release, self._release = self._release, None
        if released.clock_left is not None:  # the hand's clock runs on from where it stopped
            self._hand_timer.resume(released.clock_left, self._table.now())
        if release is not None:
            await release()
        for command in released.deferred:
            drill = self._table.drill
            if drill is not None and drill.held is not None:
                await self._run(KeepForAfter(command))
            elif self._table.hand_in_progress():
                await self._hand_command(command)

    def holds(self, command: object) -> bool:
        """Whether a hand command must wait for the trainee; a leave or a stay is kept for after (True)."""
        drill = self._table.drill
        if not held_back(drill, command, releasing=self._releasing) or drill is None \
                or not isinstance(command, Leave | Stay):
            return False  # (held back: only a leave or a stay, at a drill)
        self._evolve(CommandKept(command))
        return True

    async def settle(self) -> None:
        """Count the step asked now as no answer, so the held events are recorded (a void, a stop, the end); the
        hand's later steps are never asked: the trainee never saw them, so they count for nothing."""
        self._settling = True
        try:
            if self._table.drill is not None and self._table.drill.held is not None:
                await self._drill_answer(None, last=True)
        finally:
            self._settling = False

    async def timeout(self) -> None:
        if self._table.drill is not None and self._table.drill.held is not None:
            await self._drill_answer(None)

    # ------------------------------------------------------------ the trainee's requests

    async def request(self, cmd: DrillRequest) -> Answer:
        drill = self._drill_on(ended_too=cmd.action != "answer")
        if not drill.settings.is_trainee(cmd.name):
            raise TableError("drill/not_trainee", phrase("only the trainee ({names}) answers the steps",
                                                         names=_names(drill.settings.names)))
        if cmd.action == "question":
            return {"step": self._question_json(drill)}
        if cmd.action == "report":
            if drill.settings.mode == "exam" and not drill.settings.ended:
                raise TableError("drill/not_now", phrase("an exam's report comes when the trainer ends the session"))
            own = cmd.name if drill.settings.trainees else None  # with several trainees, each sees their own
            return {"report": self._report(drill, own), "ended": drill.settings.ended}
        if drill.held is None:
            raise TableError("drill/no_step", phrase("no step is asked now: wait for the next one"))
        if cmd.answer is None:
            raise TableError("request/malformed", phrase("an answer is an object, like {example}",
                                                         example='{"seat": 3}'))
        return await self._drill_answer(cmd.answer, cmd.name)

    def _question_json(self, drill: LiveDrill) -> JSON | None:
        if drill.held is None:
            return None
        question = drill.held.questions[0]
        asked: JSON = {"n": len(drill.answers) + 1, "hand": question.hand, "step": question.step.step,
                        "question": QUESTIONS[question.step.step], "mode": drill.settings.mode,
                        "deadline": drill.held.asked_at + drill.settings.step_seconds, "view": view_json(question.view),
                        "trainee": drill.settings.trainee_at(question.hand)}
        if question.step.in_play:  # a payout's chips in play: a client offers those to count out
            asked["chips"] = list(question.step.in_play)
        return asked

    # ------------------------------------------------------------ the trainer's (host's) commands

    async def host_inject(self, cmd: Host) -> Answer:
        """Inject an irregularity into the hand in progress (between the deal and the first decision)."""
        drill = self._drill_on()
        if "irregularity" not in drill.settings.steps:
            raise TableError("drill/not_now", phrase("this drill does not ask the irregularity step"))
        if drill.held is not None or self._dealt is None or self._table.course.state is not self._dealt:
            raise TableError("drill/not_now", phrase("an irregularity is injected after the deal, before the first "
                                                      "decision"))
        irregularity = self._irregularity(cmd)
        script, state = SCRIPTS[self._table.game.name], self._table.course.state
        notice = injected(irregularity, self._deck(), script.cards_dealt(state), self._table.game.words.place)
        self._dealt = None  # one per hand
        await self._pipeline.table_events([notice])
        step, view = irregularity_question(self._table.game.name, state, irregularity, str(notice["message"]),
                                           self._seen, self._where())

        async def rule() -> None:
            floor = floor_for(script, self._table.course.state, irregularity, f"table {self._table.name}")
            if floor is not None and self._table.hand_in_progress():
                await self._hand_command(command_of(self._table.game, floor))

        await self._hold((Question(step, view, self._where().hand),), rule)
        return {"injected": irregularity.kind, "seat": irregularity.seat}

    def _irregularity(self, cmd: Host) -> Irregularity:
        kind = cmd.arg("kind")
        if kind not in KINDS:
            raise TableError("request/malformed", phrase("inject takes a kind: {kinds}", kinds=", ".join(KINDS)))
        if kind != "miscount":
            return Irregularity(kind)
        seat = cmd.arg("seat")
        script, state = SCRIPTS[self._table.game.name], self._table.course.state
        places, dealer = script.places_dealt(state), script.dealer(state)
        if not isinstance(seat, int) or (seat != DEALER and seat not in places):
            where = f"seat {seat}" if isinstance(seat, int) else "no seat"
            hands = ", ".join(str(p) for p in sorted(places))
            raise TableError("seat/invalid", phrase("a miscount is at a hand dealt ({hands}) or at the dealer (0), "
                                                    "not {where}", hands=hands, where=where))
        try:
            script.floor_seat(state, seat, f"table {self._table.name}") if seat not in (DEALER, dealer) else None
        except ScenarioError as exc:
            raise TableError("seat/invalid", exc.args[0]) from None
        return Irregularity("miscount", seat)

    def _deck(self) -> tuple[Card, ...] | None:
        """The deck in dealing order when it is known (an arranged one); else the stub's card is not named."""
        arranged = self._table.course.arranged_in_play
        return arranged if isinstance(arranged, tuple) else None

    async def host_report(self, _cmd: Host) -> Answer:
        """The session's report so far: the score, each step kind, every answer (DRILLS section 8)."""
        drill = self._drill_on(ended_too=True)
        return {"report": self._report(drill), "waiting": drill.public()["waiting"], "ended": drill.settings.ended,
                **self._reports(drill)}

    def _report(self, drill: LiveDrill, trainee: str | None = None) -> JSON:
        """The report of ``trainee``'s answers (None: every answer, the table's session)."""
        answers = drill.answers_of(trainee)
        result = report(self._table.name, [Asked(a.hand, a.step) for a in answers], [a.given for a in answers],
                        ledger=NOT_CHECKED, seconds=[a.seconds for a in answers], **drill.settings.report_options())
        for step, answered in zip(result["steps"], answers, strict=True):
            step["seconds"] = answered.seconds
        several = bool(drill.settings.trainees) and trainee is None  # the table's report of several names them all
        who = trainee if trainee is not None else _names(drill.settings.names)
        return result | {"mode": drill.settings.mode, "trainee": who} | (
            {"trainees": list(drill.settings.names)} if several else {})

    def _reports(self, drill: LiveDrill) -> Answer:
        """With several trainees, each one's own report by name (``reports``); else nothing more."""
        if not drill.settings.trainees:
            return {}
        return {"reports": {name: self._report(drill, name) for name in drill.settings.names}}

    async def host_end(self, cmd: Host) -> Answer:
        """End the session: a step still asked counts as no answer, the report is recorded, the drill is off;
        each trainee's report is kept in their own history."""
        held = self._drill_on().held
        short = None if held is None else self._drill_on().settings.trainee_at(held.questions[0].hand)
        await self.settle()
        drill = self._drill_on()
        result, reports = self._report(drill), self._reports(drill)
        (ended,) = decide(drill, EndSession())
        before = self.stored_settings()
        after = self._table.settings.as_dict() | {"drill": evolve(drill, ended).settings.as_dict()}
        await self._pipeline.table_events([with_say({"type": "drill_ended", "right": result["right"],
                                                     "total": result["total"], "_report": result,
                                                     "message": told("drill over: {right} of {total} right",
                                                                     right=result["right"], total=result["total"])})
                                           | _hidden(reports)],
                                          Batch(settings=(before, after, cmd.by)), lambda: self._evolve(ended))
        kept = reports.get("reports") or {drill.settings.trainee: result}
        for name, own in kept.items():
            if own["total"] or not drill.settings.trainees:  # a trainee whose turn never came has no session
                self._keep(name, own, drill.settings.mode, partial=name == short)
        return {"report": result, **reports}

    def _keep(self, trainee: str, result: JSON, mode: str, *, partial: bool) -> None:
        """Keep ``trainee``'s report in their history once the end is committed (issue 27, items 4 and 6)."""
        keeper = self._keeper
        if keeper is not None:  # recorded and committed first (inside the batch SQLite's write lock is held)
            self._pipeline.after_commit(lambda: keeper.keep_drill_report(trainee, result, source="live", mode=mode,
                                                                         partial=partial))

    def _drill_on(self, *, ended_too: bool = False) -> LiveDrill:
        """The drill in progress (or, for ``ended_too``, one that ended); else ``drill/off``."""
        drill = self._table.drill
        if drill is None or (drill.settings.ended and not ended_too):
            raise TableError("drill/off", phrase("no drill runs at table {table}", table=self._table.name))
        return drill

    def stored_settings(self, settings: TableSettings | None = None) -> JSON:
        """The settings as the table's row keeps them: the game's, and the drill's while one runs."""
        stored: JSON = (settings or self._table.settings).as_dict()
        if self._table.drill is not None:
            stored["drill"] = self._table.drill.settings.as_dict()
        return stored


def _names(names: tuple[str, ...]) -> str:
    """The trainees in words: ``tina``; ``ana and ben``; ``ana, ben and cy``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _hidden(reports: Answer) -> JSON:
    """Each trainee's report with the ``drill_ended`` event, recorded and never published."""
    return {"_reports": reports["reports"]} if reports else {}
