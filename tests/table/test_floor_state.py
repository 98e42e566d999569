"""The floor's pure core (server/table/floor_state.py): pause, settings posted and pending, closing."""

from __future__ import annotations

from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.hcf.settings import HcfSettings
from server.table import floor_state as fs
from server.table.commands import TableError

POSTED = HcfSettings.from_mapping({"seats": 5, "min_ante": 5})


def test_pausing_a_paused_table_says_nothing_and_resuming_says_so() -> None:
    floor = fs.Floor(posted=POSTED)
    paused = fs.pause(floor, True)
    assert [e.payload() for e in paused] == [{"type": "table_paused"}]
    after = reduce(fs.evolve, paused, floor)
    assert after.paused
    assert fs.pause(after, True) == ()
    assert [e.payload() for e in fs.pause(after, False)] == [{"type": "table_resumed"}]


def test_a_settings_change_waits_then_posts_what_changed_and_who_asked() -> None:
    new = HcfSettings.from_mapping({"seats": 5, "min_ante": 10})
    waiting = fs.ask_settings(fs.Floor(posted=POSTED), new, 42, seated_up_to=3)
    assert (waiting.posted, waiting.pending, waiting.pending_by) == (POSTED, new, 42)
    cleared, posted, by = fs.post_pending(waiting)
    assert cleared.pending is None
    assert by == 42
    assert posted is not None
    assert posted.payload()["changed"] == {"min_ante": 10}
    assert fs.evolve(cleared, posted).posted == new


def test_fewer_seats_than_a_player_sits_at_are_refused() -> None:
    with pytest.raises(TableError) as refused:
        fs.ask_settings(fs.Floor(posted=POSTED), HcfSettings.from_mapping({"seats": 3}), None, seated_up_to=4)
    assert refused.value.code == "settings/invalid"


def test_a_pending_change_to_what_is_posted_posts_nothing() -> None:
    floor = fs.Floor(posted=POSTED, pending=POSTED, pending_by=1)
    cleared, posted, by = fs.post_pending(floor, by=2)
    assert (cleared.pending, posted, by) == (None, None, 2)


def test_a_table_closes_at_once_between_hands_and_after_the_hand_during_one() -> None:
    floor = fs.Floor(posted=POSTED)
    closing, events = fs.close(floor, playing=True)
    assert closing.closing
    assert not closing.closed
    assert [e.payload()["type"] for e in events] == ["table_closing"]
    now, events = fs.close(floor, playing=False)
    assert events == ()
    assert fs.evolve(now, fs.Closed()).closed


@given(st.lists(st.one_of(st.booleans(), st.integers(2, 7)), max_size=20))
def test_the_floor_after_any_run_of_pauses_and_changes_is_what_the_last_of_each_said(steps: list[bool | int]) -> None:
    floor, paused, seats = fs.Floor(posted=POSTED), False, POSTED.seats
    for step in steps:
        if isinstance(step, bool):
            floor, paused = reduce(fs.evolve, fs.pause(floor, step), floor), step
            continue
        floor = fs.ask_settings(floor, HcfSettings.from_mapping({"seats": step}), None, seated_up_to=0)
        floor, posted, _ = fs.post_pending(floor)
        floor, seats = (floor if posted is None else fs.evolve(floor, posted)), step
    assert (floor.paused, floor.posted.seats, floor.pending) == (paused, seats, None)
