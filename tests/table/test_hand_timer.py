"""The hand's running clock and its timer (server/table/hand_timer.py) on a clock moved by hand: no table."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.clock import ManualClock
from server.rules.game import ClockSpec
from server.table.commands import Tick
from server.table.hand_clock import CLOCK_ATTEMPTS, CLOCK_RETRY_SECONDS, bank_left, drawn
from server.table.hand_timer import HandTimer
from server.table.scheduler import Scheduler

GRACE = 0.5
BETS: ClockSpec[object] = ClockSpec("bets", None, 20.0)
DECISION: ClockSpec[object] = ClockSpec("decision", 2, 15.0, turn=2)


def hand_timer() -> tuple[HandTimer, Scheduler, ManualClock, list[Tick]]:
    clock, delivered = ManualClock(), list[Tick]()
    timers = Scheduler(clock, delivered.append)
    return HandTimer(timers, GRACE), timers, clock, delivered


def test_a_new_clock_arms_the_timer_for_its_deadline_and_its_grace() -> None:
    timer, timers, clock, delivered = hand_timer()
    timer.follow(None, BETS, clock.now())
    assert timer.running is not None
    assert timer.running.deadline == clock.now() + 20.0
    clock.advance(20.0 + GRACE - 0.01)
    assert delivered == []
    clock.advance(0.01)
    assert timers.take(delivered[-1])


def test_the_same_round_keeps_its_clock_and_none_called_for_stops_it() -> None:
    timer, timers, clock, delivered = hand_timer()
    timer.follow(None, BETS, clock.now())
    first = timer.running
    clock.advance(5.0)
    timer.follow(BETS, BETS, clock.now())
    assert timer.running is first
    timer.follow(BETS, None, clock.now())
    assert timer.running is None
    clock.advance(60.0)
    assert not any(timers.take(tick) for tick in delivered)


def test_a_failed_expiry_is_tried_again_soon_and_counted_until_the_hand_is_voided() -> None:
    timer, timers, clock, delivered = hand_timer()
    timer.follow(None, DECISION, clock.now())
    for _ in range(CLOCK_ATTEMPTS):
        assert not timer.exhausted()
        ran_out = timer.take()
        assert ran_out is not None
        assert timer.running is None
        timer.failed(ran_out, clock.now(), retry=True)
        assert timer.running is ran_out
        clock.advance(CLOCK_RETRY_SECONDS)
        assert timers.take(delivered[-1])
    assert timer.exhausted()
    timer.follow(DECISION, BETS, clock.now())  # a new clock: its expiry has not failed yet
    assert not timer.exhausted()


def test_a_failure_after_the_hand_ended_keeps_no_clock() -> None:
    timer, _, clock, _ = hand_timer()
    timer.follow(None, BETS, clock.now())
    ran_out = timer.take()
    assert ran_out is not None
    timer.failed(ran_out, clock.now(), retry=False)
    assert timer.running is None
    assert timer.failures == 1


@given(st.floats(min_value=0.0, max_value=19.0), st.floats(min_value=0.0, max_value=300.0))
def test_a_held_clock_runs_on_with_the_seconds_it_had_left(before_hold: float, held_for: float) -> None:
    timer, timers, clock, delivered = hand_timer()
    timer.follow(None, BETS, clock.now())
    assert timer.running is not None
    deadline = timer.running.deadline
    clock.advance(before_hold)
    left = timer.hold(clock.now())
    assert left is not None
    assert abs(left - (deadline - clock.now())) < 1e-6
    clock.advance(held_for)
    assert not any(timers.take(tick) for tick in delivered), "a held clock does not run out"
    timer.resume(left, clock.now())
    assert timer.running is not None
    assert abs(timer.running.deadline - (clock.now() + left)) < 1e-6


def test_holding_without_a_clock_holds_nothing() -> None:
    timer, _, clock, _ = hand_timer()
    assert timer.hold(clock.now()) is None
    timer.resume(3.0, clock.now())
    assert timer.running is None


@given(bank=st.floats(1.0, 120.0), before=st.floats(0.0, 1.0), held=st.floats(0.0, 600.0), after=st.floats(0.0, 200.0))
def test_a_drills_hold_is_never_charged_to_the_time_bank(bank: float, before: float, held: float,
                                                         after: float) -> None:
    """A player on their time bank when a live drill holds the hand: the bank pays for the time they took before
    and after the hold, never for the hold itself (``before`` is a share of the bank used before it)."""
    timer, _timers, clock, _delivered = hand_timer()
    timer.follow(None, DECISION, clock.now())
    clock.advance(15.0)
    ran_out = timer.take()
    assert ran_out is not None
    on_bank = drawn(ran_out, bank)
    assert on_bank is not None
    timer.draw(on_bank)
    clock.advance(before * bank)
    left = timer.hold(clock.now())
    assert left is not None
    clock.advance(held)
    timer.resume(left, clock.now())
    clock.advance(after)
    assert timer.running is not None
    used = before * bank + after  # to the hundredth, as the bank keeps it
    assert abs(bank_left(timer.running, clock.now()) - max(0.0, bank - used)) <= 0.006
