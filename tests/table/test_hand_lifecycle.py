"""The hand's lifecycle as a pure core (server/table/hand_lifecycle.py): start, after the hand, void.

Pure: the decisions read values and return events; the hand desk carries them out
(tests/table/test_runner.py and the real-server tests run them).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.rules.game import AfterHand
from server.rules.hcf.settings import HcfSettings
from server.table import hand_lifecycle as life
from server.table.floor_state import Floor
from server.table.hand_start import NewHand
from server.table.seats import Decision

SETTINGS = HcfSettings.from_mapping({})
ENDINGS = (life.Closed, life.GameEnded, life.NextHandIn)

afters = st.builds(AfterHand, pause=st.floats(0, 60), offer_from=st.integers(1, 6), carry=st.just({}),
                   waiting=st.none() | st.sampled_from(["players", "bank"]), message=st.sampled_from(["", "why"]),
                   retried=st.booleans(), ends_game=st.booleans(), notice=st.sampled_from(["", "a warning"]))


@given(paused=st.booleans(), closing=st.booleans(), closed=st.booleans(), stopping=st.booleans(),
       in_progress=st.booleans())
def test_a_hand_starts_only_at_a_table_open_idle_and_running(paused: bool, closing: bool, closed: bool,
                                                             stopping: bool, in_progress: bool) -> None:
    floor = Floor(posted=SETTINGS, paused=paused, closing=closing, closed=closed)
    first = life.may_start(floor, stopping=stopping, in_progress=in_progress)
    blocked = paused or closing or closed or stopping or in_progress
    assert first == (() if blocked else (life.PendingPosted(), life.ExpiredStood())), \
        "the settings waiting are posted and the expired seats stood before who plays is read"


def test_too_few_players_wait_and_enough_are_dealt() -> None:
    assert life.deal(None) == (life.Waiting("players"),)
    hand = NewHand(players=(), accounts={}, names={}, offer_from=1, number=1, hand_no=1)
    assert life.deal(hand) == (life.Deal(hand),)


@given(after=afters, closing=st.booleans())
def test_after_a_hand_the_leavers_stand_the_settings_post_and_exactly_one_thing_comes_next(
        after: AfterHand, closing: bool) -> None:
    events = life.hand_over(after, Decision(), closing=closing)
    assert events[:2] == (life.LeaversStood(Decision()), life.PendingPosted())
    assert [type(e) for e in events if isinstance(e, ENDINGS)] == [type(events[-1])], "one ending, the last"
    if closing:
        assert events[-1] == life.Closed(), "the host's close waited for the hand: nothing else is said"
        assert not any(isinstance(e, life.Told) for e in events)
    else:
        assert (life.Told(after.notice) in events) == bool(after.notice)
        assert events[-1] == (life.GameEnded(after.message) if after.ends_game else life.NextHandIn(after.pause))


@given(after=afters, reason=st.sampled_from(["nobody_banks", "not_dealt"]))
def test_a_hand_over_before_it_began_waits_and_retries_or_ends_the_game(after: AfterHand, reason: str) -> None:
    events = life.not_begun(after, reason)
    assert (life.Told(after.notice) in events) == bool(after.notice)
    if after.ends_game:
        assert events[-1] == life.GameEnded(after.message)
        assert not any(isinstance(e, life.NextHandIn) for e in events), "an ended game deals no more"
    else:
        assert events[-2:] == (life.Waiting(after.waiting or reason, after.message), life.NextHandIn(after.pause))


@given(in_progress=st.booleans())
def test_a_void_settles_the_drill_first_and_voids_only_a_hand_in_progress(in_progress: bool) -> None:
    events = life.void("interrupted", in_progress=in_progress)
    assert events == ((life.DrillSettled(), life.Voided("interrupted")) if in_progress else ())


def test_the_table_says_it_waits_once_for_each_reason() -> None:
    assert life.waits_anew(None, "players")
    assert not life.waits_anew("players", "players")
    assert life.waits_anew("players", "game_ended")
