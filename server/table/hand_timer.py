"""The hand's running clock and its timer, a collaborator the runner composes.

Which clock runs after an event is the pure decision of server/table/hand_clock.py; this holds
the clock that runs, arms the table's ``clock`` timer (server/table/scheduler.py) for it, and
counts the failed tries of its expiry (a command that could not be recorded is tried again).
"""

from __future__ import annotations

from server.rules.game import ClockSpec
from server.table.hand_clock import CLOCK_ATTEMPTS, CLOCK_RETRY_SECONDS, HandClock, next_clock, resumed
from server.table.scheduler import Scheduler


class HandTimer:
    """The hand's clock (``running``) on ``timers``; a clock runs out ``grace`` seconds after its deadline."""

    def __init__(self, timers: Scheduler, grace: float) -> None:
        self._timers, self._grace = timers, grace
        self.running: HandClock | None = None
        self.failures = 0  # failed tries of the running clock's expiry

    def follow(self, before: ClockSpec[object] | None, after: ClockSpec[object] | None, now: float) -> None:
        """The hand went from a state calling for ``before`` to one calling for ``after``: restart the clock
        when the offer, the betting round or the turn changed, stop it when none is called for."""
        running = self.running
        self.running = next_clock(before, after, running, now)
        if self.running is None:
            self._timers.cancel("clock")
        elif self.running is not running:
            self.failures = 0
            self._arm(self.running.deadline)

    def stop(self) -> None:
        """The hand is over: no clock runs."""
        self.running = None
        self._timers.cancel("clock")

    def draw(self, clock: HandClock) -> None:
        """The clock that ran out runs on as ``clock``, on its seat's time bank (server/table/time_bank.py)."""
        self.running = clock
        self._arm(clock.deadline)

    def take(self) -> HandClock | None:
        """The clock that ran out, now stopped (None when none ran)."""
        clock, self.running = self.running, None
        return clock

    def exhausted(self) -> bool:
        """Whether the expiry failed so often that the hand is voided instead."""
        return self.failures >= CLOCK_ATTEMPTS

    def failed(self, clock: HandClock, now: float, *, retry: bool) -> None:
        """The expiry of ``clock`` could not be recorded: count it, and when ``retry`` keep the clock and try
        again soon (a hand still in play must keep a clock, or it waits for ever)."""
        self.failures += 1
        if retry:
            self.running = clock
            self._timers.at("clock", now + CLOCK_RETRY_SECONDS)

    def done(self) -> None:
        """The expiry was recorded."""
        self.failures = 0

    def hold(self, now: float) -> float | None:
        """Stop the timer (a drill's question); the seconds the clock had left, None when none ran."""
        if self.running is None:
            return None
        self._timers.cancel("clock")
        return max(0.0, self.running.deadline - now)

    def resume(self, left: float, now: float) -> None:
        """Run a held clock on with the ``left`` seconds it had."""
        if self.running is not None:
            self.running = resumed(self.running, left, now)
            self._arm(self.running.deadline)

    def _arm(self, deadline: float) -> None:
        self._timers.at("clock", deadline + self._grace)
