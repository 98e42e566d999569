"""The table's timers (server/table/scheduler.py) on a clock moved by hand: no table, no queue, no sleeping."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.clock import ManualClock
from server.table.commands import Tick
from server.table.scheduler import Scheduler


def scheduler() -> tuple[Scheduler, ManualClock, list[Tick]]:
    clock, delivered = ManualClock(), list[Tick]()
    return Scheduler(clock, delivered.append), clock, delivered


def test_a_timer_delivers_its_tick_when_due_and_not_before() -> None:
    timers, clock, delivered = scheduler()
    timers.at("next_hand", clock.now() + 2.0)
    clock.advance(1.9)
    assert delivered == []
    clock.advance(0.1)
    assert delivered == [Tick("next_hand", timers.token("next_hand"))]
    assert timers.take(delivered[0])
    assert "next_hand" not in timers.handles  # spent


def test_arming_a_kind_again_replaces_it_and_its_queued_tick_is_stale() -> None:
    timers, clock, delivered = scheduler()
    timers.at("clock", clock.now() + 1.0)
    clock.advance(1.0)
    stale = delivered[-1]
    timers.at("clock", clock.now() + 5.0)  # a new turn's clock, while the old tick waits on the queue
    assert not timers.take(stale)
    clock.advance(5.0)
    assert timers.take(delivered[-1])


def test_a_cancelled_timer_never_fires_and_a_stopped_table_has_none() -> None:
    timers, clock, delivered = scheduler()
    timers.at("clock", clock.now() + 1.0)
    timers.cancel("clock")
    timers.at("housekeeping", clock.now() + 1.0)
    timers.stop()
    clock.advance(10.0)
    assert delivered == []


@given(st.lists(st.tuples(st.sampled_from(["clock", "next_hand", "drill"]), st.booleans(),
                          st.floats(0.0, 5.0)), max_size=25))
def test_at_most_the_last_arming_of_each_kind_is_taken(steps: list[tuple[str, bool, float]]) -> None:
    """Whatever the order of armings, cancels and time: each kind yields at most one live tick, its last arming's."""
    timers, clock, delivered = scheduler()
    last: dict[str, bool] = {}
    for kind, arm, wait in steps:
        if arm:
            timers.at(kind, clock.now() + wait)
        else:
            timers.cancel(kind)
        last[kind] = arm
    clock.advance(10.0)
    taken = [tick.kind for tick in delivered if timers.take(tick)]
    assert sorted(taken) == sorted(kind for kind, armed in last.items() if armed)
