"""The table's timers, on the injected clock (server/clock.py): each feeds a ``Tick`` into the queue.

The hand's running clock (offer, bets, decision) and its expiry, the next hand, housekeeping.
"""

from __future__ import annotations

import functools

import structlog

from server.clock import call_later
from server.rules.commands import ClockExpired
from server.rules.game import HandLike
from server.table.base import HandClock, RunnerBase, _QueueItem
from server.table.commands import (
    Tick,
)
from server.table.ports import Reply

log = structlog.get_logger("hcf.table")


HOUSEKEEPING_SECONDS = 10.0
CLOCK_RETRY_SECONDS = 1.0  # a clock whose command failed (a failed commit) is tried again this soon
CLOCK_ATTEMPTS = 3  # failed tries of one expiry before the hand is voided, every chip back


class TimersMixin(RunnerBase):
    """The part of :class:`~server.table.runner.TableRunner` that owns the timers."""

    def _schedule(self, kind: str, at: float) -> None:
        token = self._tokens.get(kind, 0) + 1
        self._tokens[kind] = token
        if kind in self._timers:
            self._timers[kind].cancel()
        delay = max(0.0, at - self.now())
        tick: _QueueItem = (Tick(kind, token), None)
        self._timers[kind] = call_later(self.time_source, delay, functools.partial(self._queue.put_nowait, tick))

    def _cancel(self, kind: str) -> None:
        self._tokens[kind] = self._tokens.get(kind, 0) + 1
        handle = self._timers.pop(kind, None)
        if handle is not None:
            handle.cancel()

    async def _tick(self, tick: Tick) -> Reply:
        if self._tokens.get(tick.kind) != tick.token:
            return {}
        self._timers.pop(tick.kind, None)
        if tick.kind == "next_hand":
            await self._start_hand()
        elif tick.kind == "clock":
            await self._clock_ran_out()
        elif tick.kind == "drill":
            await self._drill_timeout()
        elif tick.kind == "housekeeping":
            await self._housekeeping()
            self._schedule("housekeeping", self.now() + HOUSEKEEPING_SECONDS)
        return {}

    async def _clock_ran_out(self) -> None:
        if self.clock is None or not self.hand_in_progress():
            return
        clock, self.clock = self.clock, None
        spec = self.game.clock(self.state) or clock.spec  # as the hand is now: who is late, what ends it
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
                self._schedule("clock", self.now() + CLOCK_RETRY_SECONDS)
            return
        self._clock_failures = 0

    def _missed(self, seat: int) -> None:
        self.roster = self.roster.changed(seat, missed_this_hand=True)

    def _update_clock(self, before: HandLike | None, after: HandLike) -> None:
        """Restart the clock when the offer, the betting round or the turn changes."""
        spec_before = self.game.clock(before) if before is not None else None
        spec = self.game.clock(after)
        if spec is None:
            self.clock = None
            self._cancel("clock")
            return
        if spec_before is not None and spec.key == spec_before.key and self.clock is not None:
            return
        self.clock = HandClock(spec.kind, spec.seat, self.now() + spec.seconds, spec)
        self._clock_failures = 0
        self._schedule("clock", self.clock.deadline + self.grace)

    def _soon(self) -> None:
        """A seat, stack or switch changed: if the table is waiting, try a hand now."""
        if not self.hand_in_progress() and self.waiting_reason is not None:
            self._schedule("next_hand", self.now() + 0.05)
