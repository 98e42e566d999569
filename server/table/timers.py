"""The table's timers, on the injected clock (server/clock.py): each feeds a ``Tick`` into the queue.

The hand's running clock (offer, bets, decision) and its expiry, the next hand, housekeeping.
"""

from __future__ import annotations

import structlog

from server.rules.commands import ClockExpired
from server.rules.game import HandLike
from server.table.base import RunnerBase
from server.table.commands import (
    Tick,
)
from server.table.hand_clock import next_clock
from server.table.ports import Reply

log = structlog.get_logger("hcf.table")


HOUSEKEEPING_SECONDS = 10.0
CLOCK_RETRY_SECONDS = 1.0  # a clock whose command failed (a failed commit) is tried again this soon
CLOCK_ATTEMPTS = 3  # failed tries of one expiry before the hand is voided, every chip back


class TimersMixin(RunnerBase):
    """The part of :class:`~server.table.runner.TableRunner` that owns the timers."""

    async def _tick(self, tick: Tick) -> Reply:
        if not self.timers.take(tick):
            return {}
        if tick.kind == "next_hand":
            await self._start_hand()
        elif tick.kind == "clock":
            await self._clock_ran_out()
        elif tick.kind == "drill":
            await self._drill_timeout()
        elif tick.kind == "housekeeping":
            await self._housekeeping()
            self.timers.at("housekeeping", self.now() + HOUSEKEEPING_SECONDS)
        return {}

    async def _clock_ran_out(self) -> None:
        if self.clock is None or not self.hand_in_progress():
            return
        clock, self.clock = self.clock, None
        spec = self.game.clock(self.course.state) or clock.spec  # as the hand is now: who is late, what ends it
        for seat in spec.late_seats:
            self._missed(seat)
        expire = spec.expire if spec.expire is not None else ClockExpired(spec.seat if spec.seat is not None else 0)
        try:
            if self._clock_failures >= CLOCK_ATTEMPTS:
                await self._void_hand("interrupted")
            else:
                await self._hand_command(expire)
        except Exception as exc:
            # Nothing was recorded, so the hand is as it was: it must keep a clock, or it waits forever
            # (issue 14, B.26). Try again soon; after CLOCK_ATTEMPTS failures void it (every chip back).
            self._clock_failures += 1
            log.error("clock_command_failed", kind=clock.kind, failures=self._clock_failures,
                      error=f"{type(exc).__name__}: {exc}")
            if self.hand_in_progress():
                self.clock = clock
                self.timers.at("clock", self.now() + CLOCK_RETRY_SECONDS)
            return
        self._clock_failures = 0

    def _missed(self, seat: int) -> None:
        self.roster = self.roster.changed(seat, missed_this_hand=True)

    def _update_clock(self, before: HandLike | None, after: HandLike) -> None:
        """Restart the clock when the offer, the betting round or the turn changes."""
        running = self.clock
        self.clock = next_clock(self.game.clock(before) if before is not None else None, self.game.clock(after),
                                running, self.now())
        if self.clock is None:
            self.timers.cancel("clock")
        elif self.clock is not running:
            self._clock_failures = 0
            self.timers.at("clock", self.clock.deadline + self.grace)

    def _soon(self) -> None:
        """A seat, stack or switch changed: if the table is waiting, try a hand now."""
        if not self.hand_in_progress() and self.course.waiting_reason is not None:
            self.timers.at("next_hand", self.now() + 0.05)
