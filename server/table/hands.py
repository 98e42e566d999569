"""The hand desk: start a hand, run its commands, keep its clock, end it, void it.

The hand's clock is the runner's composed :class:`~server.table.hand_timer.HandTimer`; which clock
runs is a pure decision (server/table/hand_clock.py). A hand's events are recorded through the
drill desk, which holds them for a live drill's trainee and otherwise hands them to the pipeline.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable

import structlog

from server.i18n import phrase, with_say
from server.rules.commands import ClockExpired, Misdeal
from server.rules.game import HandLike
from server.rules.machine import Dispatch
from server.table import course, facts, floor_state, hand_clock, hand_lifecycle, hand_start, seats
from server.table.commands import (
    Play,
    Stand,
    TableError,
)
from server.table.context import TableContext
from server.table.drill import DrillDesk
from server.table.floor_commands import FloorDesk
from server.table.hand_start import NewHand
from server.table.hand_timer import HandTimer
from server.table.pipeline import Pipeline
from server.table.ports import Answer, Batch
from server.table.rebet import carry_for_hand, carry_kept
from server.table.scheduler import Scheduler
from server.table.seating import SeatDesk
from server.table.time_bank import TimeBanks

log = structlog.get_logger("hcf.table")


class HandDesk:
    """Owns the hand's course: its start (``seed_source`` gives the seed), its commands, its clock, its end.

    ``idle`` is set while no hand is in progress (a stopping table waits for it).
    """

    def __init__(self, table: TableContext, pipeline: Pipeline, desks: tuple[SeatDesk, FloorDesk, DrillDesk],
                 timing: tuple[Scheduler, HandTimer], seed_source: Callable[[int], bytes],
                 banks: TimeBanks | None = None) -> None:
        self._table, self._pipeline, self._seed_source, self._banks = table, pipeline, seed_source, banks
        self._seats, self._floor, self._drill = desks
        self._timers, self._hand_timer = timing
        self.idle = asyncio.Event()
        self.idle.set()

    async def start(self) -> None:
        """Start the next hand, when the table may and enough players sit (server/table/hand_lifecycle.py)."""
        table = self._table
        first = hand_lifecycle.may_start(table.floor, stopping=table.stopping, in_progress=table.hand_in_progress())
        if not first:
            return
        await self._carry_out(first)  # the settings waiting and the expired seats, before who plays is read
        hand = hand_start.new_hand(table.roster, table.stacks, house_banked=table.settings.house_banked,
                                   offer_from=table.course.offer_from, hands_dealt=table.course.hands_dealt,
                                   hands_played=table.course.hands_played, arranged=table.course.arranged_next,
                                   arranged_by=table.course.arranged_by)
        await self._carry_out(hand_lifecycle.deal(hand))

    async def _carry_out(self, events: tuple[hand_lifecycle.LifeEvent, ...]) -> None:
        """Do what the lifecycle's decision says, in order."""
        for event in events:
            await self._step(event)

    async def _step(self, event: hand_lifecycle.LifeEvent) -> None:
        match event:
            case hand_lifecycle.PendingPosted():
                await self._floor.apply_pending_settings()
            case hand_lifecycle.ExpiredStood():
                await self._seats.stand_up_expired()
            case hand_lifecycle.Deal():
                await self._deal(event.hand)
            case hand_lifecycle.Waiting():
                await self._set_waiting(event.reason, event.message)
            case hand_lifecycle.Told():
                await self._tell(event.notice)
            case hand_lifecycle.GameEnded():
                await self._end_game(event.message)
            case hand_lifecycle.NextHandIn():
                self._timers.at("next_hand", self._table.now() + event.seconds)
            case hand_lifecycle.LeaversStood():
                await self._seats.stand_leavers(event.absent)
            case hand_lifecycle.Closed():
                await self._floor.close_now()
            case hand_lifecycle.DrillSettled():
                await self._drill.settle()  # a step still asked counts as no answer: its events are recorded first
            case hand_lifecycle.Voided():
                if self._table.hand_in_progress():
                    await self.command(Misdeal(event.reason))

    async def _deal(self, hand: NewHand) -> None:
        """Deal ``hand`` (``seed_source`` gives the seed) and record its start, unless it is over before it began."""
        table = self._table
        seed = self._seed_source(32)
        # The game is told the table's clock and who sits where with every carry (server/table/facts.py).
        carry = facts.given(carry_for_hand(table.course.carry, hand.names), now=table.now(), names=hand.names)
        state = table.game.new_hand(table.settings, hand.players, seed, offer_from=hand.offer_from,
                                    arranged_deck=hand.arranged, carry=carry)
        if state.phase in table.game.terminal:  # over before it began (nobody to bank): nothing is recorded
            after = table.game.after_hand(state, carry)
            # What the game keeps all the same (a reopened table must not end its game again at once).
            kept = carry_kept(facts.taken(after.carry), hand.names, table.course.carry)
            table.course = course.not_begun(table.course, state, kept)
            await self._carry_out(hand_lifecycle.not_begun(after, state.reason or state.phase))
            return
        self.idle.clear()
        if not table.course.hand_retried:  # an attempt nobody banked and its retry are one hand for who is absent
            table.roster = seats.hand_begins(table.roster)
        # A deck the host arranged is in play now (a hand never started keeps it waiting).
        table.course = course.begun(table.course, hand, state, carry)
        batch = Batch(start_hand=(seed.hex(), state.commitment, hand.arranged is not None))
        inputs = hand_start.inputs(hand, game=table.game.name, settings=table.settings.as_dict(), carry=carry)
        await self._drill.record(state, table.game.opening_events(state), batch, lead=[hand_start.started(hand)],
                                 inputs=inputs)

    async def _set_waiting(self, reason: str, message: str = "") -> None:
        table = self._table
        if not hand_lifecycle.waits_anew(table.course.waiting_reason, reason):
            return
        table.course = course.waiting(table.course, reason)
        sentence = hand_start.waiting_sentence(reason, message, house_banked=table.settings.house_banked)
        await self._pipeline.table_events([with_say({"type": "table_waiting", "reason": reason, "message": sentence})])

    async def _tell(self, notice: str) -> None:
        """Tell every seat the game's warning (``notice``), if it gives one: a ``table_notice`` event."""
        if notice:
            await self._pipeline.table_events([with_say({"type": "table_notice", "message": notice})])

    async def _end_game(self, message: str) -> None:
        """The game ended (the game says why in ``message``): the table says so, records it and deals no more
        until the host reopens it with ``resume`` (stacks stay; docs/server.md)."""
        table = self._table
        sentence = hand_start.waiting_sentence(course.GAME_ENDED, message, house_banked=table.settings.house_banked)
        stop = floor_state.pause(table.floor, True)  # nothing when the host paused it already

        def apply() -> None:
            table.course = course.waiting(table.course, course.GAME_ENDED)
            for event in stop:
                table.floor = floor_state.evolve(table.floor, event)

        # The table_waiting event says it all: no table_paused, which every client says as the host's doing.
        await self._pipeline.table_events([with_say({"type": "table_waiting", "reason": course.GAME_ENDED,
                                                          "message": sentence})],
                                          apply=apply)

    async def command(self, command: object) -> Answer:
        """Decide ``command`` on the hand in progress, record its events (through a live drill's holds)."""
        table = self._table
        if not table.hand_in_progress():
            raise TableError("hand/none", phrase("no hand is in progress"))
        # Without a live drill nothing is held or asked: the events go straight to the pipeline.
        drilled = table.drill is not None
        if drilled and self._drill.holds(command):  # a leave while the table waits for the trainee: done after
            return {}
        state = table.course.state
        assert state is not None  # a hand is in progress
        decide = table.game.decide  # a game's Dispatch gives the command's handler; the table calls it itself
        events = (decide.handler(state, type(command)) if isinstance(decide, Dispatch) else decide)(state, command)
        record = self._drill.record if drilled else self._pipeline.record
        clock = self._hand_timer.running
        await record(state, events, Batch(), inputs=table.game.codec.command_as_json(command))
        if self._banks is not None:
            await self._banks.settle(clock)  # a clock on a time bank that ran no more: what it used is spent
        return {}

    async def after_hand(self, state: HandLike) -> None:
        """The hand is over: absences, leavers, settings waiting, a close, and the next hand's timer."""
        table = self._table
        self._hand_timer.stop()
        carry = facts.at_clock(table.course.hand_carry, table.now())  # the game's answer on the clock it ended at
        summary = table.summary(state, dealt=table.course.hand_numbered, carry=carry)
        after = table.game.after_hand(state, carry)
        # An attempt nobody banked and its retry are one hand for who is absent (section 4).
        absentees = [] if after.retried else list(table.course.hand_accounts)
        table.roster, absent = seats.absences(table.seating(), absentees, table.now())
        # The last bets are kept by player (rebet.py); a deck arranged for a hand never dealt waits for the next;
        # why the next hand waits, when the game says (a seat change retries at once).
        table.course = course.ended(table.course, summary, after, not_dealt=state.phase == "not_dealt")
        self.idle.set()
        await self._carry_out(hand_lifecycle.hand_over(after, absent, closing=table.floor.closing))

    async def void(self, reason: str) -> Answer:
        """Void the hand in progress (every chip back), once a drill's held steps are settled."""
        await self._carry_out(hand_lifecycle.void(reason, in_progress=self._table.hand_in_progress()))
        return {}

    async def play(self, cmd: Play) -> Answer:
        """A seated player's move (or a leave, or a stay)."""
        table = self._table
        seated = table.seated(cmd.account)
        if cmd.action == "leave":
            return await self._seats.stand(Stand(cmd.account))
        if cmd.action == "stay":
            return await self._seats.stay(seated)
        # The mover's seat, as the hand is now: asked once the game found the move well formed.
        mover = functools.partial(course.mover, table.course, table.game.terminal, seated, cmd.account)
        moves, args = table.game.moves, cmd.named()
        record = moves.record(cmd.action, args.keys())  # by the move's name and its arguments' names only
        if record is None:  # the game builds it: one call checks the arguments and builds its command from them
            await self.command(moves.command(table.game, cmd.action, args, mover))
        else:  # a plain record (a raise): its values go to the rules once, judged with the move (docs/server.md)
            await self.command(record.of(mover(), **{**record.defaults, **args}))
        # Refused moves raise above: only a move the hand took counts.
        table.roster = table.roster.changed(mover(), moved_this_hand=True)
        return {}

    async def clock_ran_out(self) -> None:
        """The hand's clock ran out: the late seats miss, and the game's expiry is carried out (or, after too many
        failed tries, the hand is voided)."""
        table = self._table
        if self._hand_timer.running is None or not table.hand_in_progress():
            return
        clock = self._hand_timer.take()
        assert clock is not None
        try:
            if self._banks is not None and await self._banks.draw(clock):
                return  # the clock runs on with the player's time bank (server/table/time_bank.py)
        except Exception as exc:  # nothing recorded: the clock's running out acts as it would without a bank
            log.error("time_bank_failed", kind=clock.kind, error=f"{type(exc).__name__}: {exc}")
        spec = table.game.clock(table.course.state) or clock.spec  # as the hand is now: who is late, what ends it
        for seat in hand_clock.late_seats(spec):
            table.roster = table.roster.changed(seat, missed_this_hand=True)
        expire = spec.expire if spec.expire is not None else ClockExpired(spec.seat if spec.seat is not None else 0)
        try:
            if self._hand_timer.exhausted():
                await self.void("interrupted")
            else:
                await self.command(expire)
        except Exception as exc:
            # Nothing was recorded, so the hand is as it was: it must keep a clock, or it waits forever
            # (issue 14, B.26). Try again soon; after CLOCK_ATTEMPTS failures void it (every chip back).
            self._hand_timer.failed(clock, table.now(), retry=table.hand_in_progress())
            log.error("clock_command_failed", kind=clock.kind, failures=self._hand_timer.failures,
                      error=f"{type(exc).__name__}: {exc}")
            return
        self._hand_timer.done()
