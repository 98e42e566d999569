"""The hand's running clock as a pure decision: which clock runs after an event, and when it runs out.

The game says what its state calls for (``Game.clock``: a :class:`~server.rules.game.ClockSpec`);
this decides whether that is the clock already running or a new one from ``now``. The
runner arms its ``clock`` timer for a new one (server/table/hands.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from server.rules.game import ClockSpec

CLOCK_RETRY_SECONDS = 1.0  # a clock whose command failed (a failed commit) is tried again this soon
CLOCK_ATTEMPTS = 3  # failed tries of one expiry before the hand is voided, every chip back

@dataclass(frozen=True, slots=True)
class HandClock:
    """The running clock: what it is for, whose it is, when it runs out."""

    kind: str  # offer, bets, decision, exchange...
    seat: int | None
    deadline: float
    spec: ClockSpec[object]


def next_clock(before: ClockSpec[object] | None, after: ClockSpec[object] | None, running: HandClock | None,
               now: float) -> HandClock | None:
    """The clock once the hand went from a state calling for ``before`` to one calling for ``after``: none,
    the ``running`` one when the same offer, round or turn goes on, else a new one from ``now``.

    >>> bets = ClockSpec("bets", None, 20.0)
    >>> first = next_clock(None, bets, None, 100.0)
    >>> first.deadline, next_clock(bets, bets, first, 105.0) is first
    (120.0, True)
    >>> next_clock(bets, ClockSpec("decision", 3, 15.0), first, 110.0).deadline
    125.0
    """
    if after is None:
        return None
    if before is not None and after.key == before.key and running is not None:
        return running
    return HandClock(after.kind, after.seat, now + after.seconds, after)
