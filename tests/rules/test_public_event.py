"""Every game's ``public_event`` gives a dict of its own each time (``Game.public_event``).

The table completes that dict where it is (the hand's id and number, a clock's deadline) and sends it as it
is (server/table/pipeline.py): a dict shared with the event, a cache or an earlier call would carry one
update's keys into another, or change what the game keeps.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.caribbean.view import public_event as caribbean_public
from server.rules.errors import Violation
from server.rules.game import Player
from server.rules.hcf.hand import new_hand, opening_events, step
from server.rules.hcf.messages import AcceptBank, CloseBets, Command, Event, Fold, PassBets, PlaceBets, Raise
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.view import public_event as hcf_public
from server.rules.sixcard.view import public_event as sixcard_public

from .caribbean.live import planted_hand, table_settings
from .sixcard.live import planned_hand

SLOW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _each_call_fresh(public_event: Callable[[Any], dict[str, Any]], events: Iterable[Any]) -> None:
    """Two calls give equal dicts that are not the same one; a dict completed and emptied changes no later call."""
    for event in events:
        first, second = public_event(event), public_event(event)
        assert first == second
        assert first is not second
        first["hand_id"], first["deadline"] = 99, 1.5
        first.setdefault("number", 7)
        assert public_event(event) == second
        first.clear()
        assert public_event(event) == second


def _hcf_hand(data: st.DataObject) -> list[Event]:
    """A High Card Flush hand with random bets and decisions: every event it records."""
    seats = (1, 2, 3, 4)
    state = new_hand(HcfSettings(), [Player(s, 1000) for s in seats], data.draw(st.binary(min_size=32, max_size=32)),
                     offer_from=1, arranged_deck=None)
    events = list(opening_events(state))  # the new hand holds them already; they are published all the same
    commands: list[Command] = [AcceptBank(1)]
    commands += [PlaceBets(s, data.draw(st.sampled_from((10, 20)))) if data.draw(st.booleans()) else PassBets(s)
                 for s in seats[1:]]
    for command in [*commands, CloseBets()]:
        with contextlib.suppress(Violation):
            state, new = step(state, command)
            events += new
    while state.turn is not None:
        seat = state.turn
        choice = data.draw(st.sampled_from(("fold", "raise")))
        command: Command = Fold(seat) if choice == "fold" else Raise(seat, data.draw(st.integers(1, 40)))
        try:
            state, new = step(state, command)
        except Violation:
            state, new = step(state, Fold(seat))
        events += new
    return events


@SLOW
@given(st.data())
def test_high_card_flushs_public_event_is_a_new_dict_each_time(data: st.DataObject) -> None:
    _each_call_fresh(hcf_public, _hcf_hand(data))


@SLOW
@given(st.data(), table_settings())
def test_caribbean_studs_public_event_is_a_new_dict_each_time(data: st.DataObject, table: Any) -> None:
    _each_call_fresh(caribbean_public, planted_hand(data, table, {}).events)


@SLOW
@given(st.data())
def test_six_card_pokers_public_event_is_a_new_dict_each_time(data: st.DataObject) -> None:
    _each_call_fresh(sixcard_public, planned_hand(data).events)
