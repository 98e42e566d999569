"""The table's own timers, a collaborator the runner composes: each puts a :class:`Tick` on the table's queue.

A kind of timer (``next_hand``, ``clock``, ``drill``, ``housekeeping``) runs one at a
time: arming it again replaces it. Every arming or cancelling gives the kind a new
token, so a tick already on the queue from a timer replaced since is known as stale
(:meth:`Scheduler.take`) and does nothing. Time is the injected clock's (server/clock.py).
"""

from __future__ import annotations

from collections.abc import Callable

from server.clock import Clock, Timer, call_later
from server.table.commands import Tick

HOUSEKEEPING_SECONDS = 10.0  # how often the table looks for seats to stand up (server/table/seating.py)


class Scheduler:
    """One table's timers on ``clock``; ``deliver`` puts a due timer's tick on the table's queue."""

    def __init__(self, clock: Clock, deliver: Callable[[Tick], None]) -> None:
        self._clock, self._deliver = clock, deliver
        self.handles: dict[str, Timer] = {}  # the armed timers by kind (a shutdown cancels them all)
        self._tokens: dict[str, int] = {}

    def at(self, kind: str, when: float) -> None:
        """Arm the ``kind`` timer for ``when`` (the clock's wall time), replacing one armed before."""
        token = self._renew(kind)
        tick = Tick(kind, token)
        self.handles[kind] = call_later(self._clock, max(0.0, when - self._clock.now()), lambda: self._deliver(tick))

    def cancel(self, kind: str) -> None:
        """Disarm the ``kind`` timer; a tick of it already queued is stale from now."""
        self._renew(kind)

    def take(self, tick: Tick) -> bool:
        """Whether ``tick`` is its kind's live one (then the timer is spent), not one replaced or cancelled since."""
        if self._tokens.get(tick.kind) != tick.token:
            return False
        self.handles.pop(tick.kind, None)
        return True

    def token(self, kind: str) -> int:
        """The token a live tick of ``kind`` carries now."""
        return self._tokens.get(kind, 0)

    def stop(self) -> None:
        """Cancel every armed timer (the table stops)."""
        for handle in self.handles.values():
            handle.cancel()

    def _renew(self, kind: str) -> int:
        self._tokens[kind] = self._tokens.get(kind, 0) + 1
        handle = self.handles.pop(kind, None)
        if handle is not None:
            handle.cancel()
        return self._tokens[kind]
