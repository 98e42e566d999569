"""The hand's course at the table: start a hand, run its commands, keep its clock, end it, void it.

The hand's clock is the runner's composed :class:`~server.table.hand_timer.HandTimer`; which clock
runs is a pure decision (server/table/hand_clock.py).
"""

from __future__ import annotations

from typing import Any

import structlog

from server.rules.commands import ClockExpired, Misdeal
from server.table import course, hand_start, seats
from server.table.base import RunnerBase
from server.table.commands import (
    Play,
    Stand,
    TableError,
)
from server.table.ports import Batch, Reply
from server.table.rebet import carry_for_hand
from server.table.roster import NEXT_HAND

log = structlog.get_logger("hcf.table")


class HandsMixin(RunnerBase):
    """The part of :class:`~server.table.runner.TableRunner` that owns the hand's course."""

    async def _start_hand(self) -> None:
        if self.paused or self.closed or self.closing or self.stopping or self.hand_in_progress():
            return
        await self._apply_pending_settings()
        await self._stand_up_expired()
        hand = hand_start.new_hand(self.roster, self.stacks, house_banked=self.settings.house_banked,
                                   offer_from=self.course.offer_from, hands_dealt=self.course.hands_dealt,
                                   hands_played=self.course.hands_played, arranged=self.course.arranged_next,
                                   arranged_by=self.course.arranged_by)
        if hand is None:
            await self._set_waiting("players")
            return
        seed = self.seed_source(32)
        carry = carry_for_hand(self.course.carry, hand.names)
        state = self.game.new_hand(self.settings, hand.players, seed, offer_from=hand.offer_from,
                                   arranged_deck=hand.arranged, carry=carry)
        if state.phase in self.game.terminal:  # over before it began (nobody to bank): nothing is recorded
            after = self.game.after_hand(state, carry)
            self.course = course.not_begun(self.course, state)
            await self._set_waiting(after.waiting or state.reason or state.phase, after.message)
            self.timers.at("next_hand", self.now() + after.pause)
            return
        self._idle.clear()
        if not self.course.hand_retried:  # an attempt nobody banked and its retry are one hand for who is absent
            self.roster = seats.hand_begins(self.roster)
        # A deck the host arranged is in play now (a hand never started keeps it waiting).
        self.course = course.begun(self.course, hand, state, carry)
        batch = Batch(start_hand=(seed.hex(), state.commitment, hand.arranged is not None))
        inputs = hand_start.inputs(hand, game=self.game.name, settings=self.settings.as_dict(), carry=carry)
        await self._record(state, self.game.opening_events(state), batch, lead=[hand_start.started(hand)],
                           inputs=inputs)

    async def _set_waiting(self, reason: str, message: str = "") -> None:
        if self.course.waiting_reason == reason:
            return
        self.course = course.waiting(self.course, reason)
        sentence = hand_start.waiting_sentence(reason, message, house_banked=self.settings.house_banked)
        await self._table_events([{"type": "table_waiting", "reason": reason, "message": sentence}])

    async def _hand_command(self, command: Any) -> Reply:
        if not self.hand_in_progress():
            raise TableError("hand/none", "no hand is in progress")
        if self._drill_holds(command):  # a leave while the table waits for the trainee: carried out after
            return {}
        events = self.game.decide(self.course.state, command)
        await self._record(self.course.state, events, Batch(), inputs=self.game.codec.command_as_json(command))
        return {}

    async def _after_hand(self, state: Any) -> None:
        self.hand_timer.stop()
        summary = self._summary(state, dealt=self.course.hand_numbered)
        after = self.game.after_hand(state, self.course.hand_carry)
        # An attempt nobody banked and its retry are one hand for who is absent (section 4).
        self.roster, absent = seats.absences(self._seating(), [] if after.retried else list(self.course.hand_accounts),
                                             self.now())
        # The last bets are kept by player (rebet.py); a deck arranged for a hand never dealt waits for the next;
        # why the next hand waits, when the game says (a seat change retries at once).
        self.course = course.ended(self.course, summary, after, not_dealt=state.phase == "not_dealt")
        self._idle.set()
        await self._stand_leavers(absent)
        await self._apply_pending_settings()  # between hands: what show_settings shows is what the next hand gets
        if self.closing:
            await self._close_now()
            return
        self.timers.at("next_hand", self.now() + after.pause)

    async def _void_hand(self, reason: str) -> Reply:
        if not self.hand_in_progress():
            return {}
        await self._drill_settle()  # a step still asked counts as no answer: its events are recorded first
        if self.hand_in_progress():
            await self._hand_command(Misdeal(reason))
        return {}

    async def _play(self, cmd: Play) -> Reply:
        seated = self._seated(cmd.account)
        if cmd.action == "leave":
            return await self._stand(Stand(cmd.account))
        if cmd.action == "stay":
            return await self._stay(seated)
        self.game.moves.check(cmd.action, dict(cmd.args))  # the game's own moves and their arguments' shapes
        if not self.hand_in_progress():
            raise TableError("hand/none", "no hand is in progress")
        if seated.seat not in self.course.hand_accounts or self.course.hand_accounts[seated.seat] != cmd.account:
            raise TableError("seat/not_in_hand", "you sit out: come back to play from the next hand"
                             if seated.sitting_out else NEXT_HAND)
        await self._hand_command(self.game.move(seated.seat, cmd.action, dict(cmd.args)))
        # Refused moves raise above: only a move the hand took counts.
        self.roster = self.roster.changed(seated.seat, moved_this_hand=True)
        return {}

    async def _clock_ran_out(self) -> None:
        if self.clock is None or not self.hand_in_progress():
            return
        clock = self.hand_timer.take()
        assert clock is not None
        spec = self.game.clock(self.course.state) or clock.spec  # as the hand is now: who is late, what ends it
        for seat in spec.late_seats:
            self._missed(seat)
        expire = spec.expire if spec.expire is not None else ClockExpired(spec.seat if spec.seat is not None else 0)
        try:
            if self.hand_timer.exhausted():
                await self._void_hand("interrupted")
            else:
                await self._hand_command(expire)
        except Exception as exc:
            # Nothing was recorded, so the hand is as it was: it must keep a clock, or it waits forever
            # (issue 14, B.26). Try again soon; after CLOCK_ATTEMPTS failures void it (every chip back).
            self.hand_timer.failed(clock, self.now(), retry=self.hand_in_progress())
            log.error("clock_command_failed", kind=clock.kind, failures=self.hand_timer.failures,
                      error=f"{type(exc).__name__}: {exc}")
            return
        self.hand_timer.done()

    def _missed(self, seat: int) -> None:
        self.roster = self.roster.changed(seat, missed_this_hand=True)
