"""The hand's running clock as a pure decision: which clock runs after an event, and when it runs out.

The game says what its state calls for (``Game.clock``: a :class:`~server.rules.game.ClockSpec`);
this decides whether that is the clock already running or a new one from ``now``. The
runner arms its ``clock`` timer for a new one (server/table/hands.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from server.rules.game import ClockSpec
from server.rules.vocabulary import Seat

CLOCK_RETRY_SECONDS = 1.0  # a clock whose command failed (a failed commit) is tried again this soon
CLOCK_ATTEMPTS = 3  # failed tries of one expiry before the hand is voided, every chip back


@dataclass(frozen=True, slots=True)
class HandClock:
    """The running clock: what it is for, whose it is, when it runs out."""

    kind: str  # offer, bets, decision, exchange...
    seat: Seat | None
    deadline: float
    spec: ClockSpec[object]
    bank: float = 0.0  # the seat's time bank this clock draws on (0: it runs on its own time)
    bank_from: float = 0.0  # when it began to draw on the bank (the clock's own deadline)


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
    return HandClock(after.kind, None if after.seat is None else Seat(after.seat), now + after.seconds, after)


def banked(clock: HandClock) -> bool:
    """Whether ``clock`` runs on its seat's time bank."""
    return clock.bank > 0


def bank_seat(clock: HandClock) -> Seat | None:
    """The seat whose time bank ``clock`` may draw on: a clock of one player's own turn (never a round every seat
    bets in at once, nor a bank offer, whose running out only declines it)."""
    if clock.seat is None or clock.spec.late_seats != (clock.seat,):
        return None
    return clock.seat


def late_seats(spec: ClockSpec[object]) -> tuple[Seat, ...]:
    """The seats that let the clock ``spec`` run out, as the table numbers seats: where a clock's seats enter it
    from the rules, whose seats are plain numbers."""
    return tuple(Seat(seat) for seat in spec.late_seats)


def drawn(clock: HandClock, bank: float) -> HandClock | None:
    """The clock that runs on when ``clock`` ran out and its seat has ``bank`` seconds left in its time bank: the
    bank's seconds from the clock's own deadline. None when there is nothing to draw (no bank left, the clock
    already draws on it, or it is not one seat's turn): then the clock's running out acts as always.

    >>> turn = HandClock("decision", 3, 130.0, ClockSpec("decision", 3, 30.0))
    >>> on_bank = drawn(turn, 25.0)
    >>> on_bank.deadline, on_bank.bank, drawn(on_bank, 25.0)
    (155.0, 25.0, None)
    """
    if bank <= 0 or banked(clock) or bank_seat(clock) is None:
        return None
    return replace(clock, deadline=clock.deadline + bank, bank=bank, bank_from=clock.deadline)


def bank_left(clock: HandClock, now: float) -> float:
    """The seconds left in the seat's bank once the player of ``clock`` (on the bank) acted, or it ran out, at
    ``now``: what it had less what it used, never below nothing nor above what it had.

    >>> on_bank = HandClock("decision", 3, 155.0, ClockSpec("decision", 3, 30.0), bank=25.0, bank_from=130.0)
    >>> bank_left(on_bank, 140.0), bank_left(on_bank, 170.0), bank_left(on_bank, 120.0)
    (15.0, 0.0, 25.0)
    """
    used = min(clock.bank, max(0.0, now - clock.bank_from))
    return min(clock.bank, max(0.0, round(clock.bank - used, 2)))  # to the hundredth: no crumbs of a second left
