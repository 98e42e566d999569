"""Caribbean Stud and 6 Card Poker hand views share what every viewer sees alike (issue 25, tenth round).

A seat's view is the spectator's, built once per state, with its own spots (boxes) in place:
the update builder then diffs the shared part once a batch, and a spot's own cards are the same
object from batch to batch, so a diff of them ends at ``before is after``. What each viewer
sees is unchanged: the view equals one built for that viewer alone, key for key and byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.caribbean import view as caribbean
from server.rules.caribbean.hand import HandState as CaribbeanState
from server.rules.caribbean.messages import PlaySpot
from server.rules.sixcard import view as sixcard
from server.rules.sixcard.hand import HandState as SixcardState
from server.rules.sixcard.messages import RaiseBox
from tests.rules.caribbean.live import random_hand
from tests.rules.caribbean.live import run as caribbean_run
from tests.rules.sixcard.live import planned_hand
from tests.rules.sixcard.live import run as sixcard_run


def caribbean_alone(state: CaribbeanState, viewer: int | None) -> dict[str, Any]:
    """The view as the tree before built it: every part anew, for this viewer alone."""
    built: dict[str, Any] = dict(caribbean._public_view(state))
    built["spots"] = [caribbean._spot(state, b, viewer) for b in state.bets if b.spot in state.hands]
    return built


def sixcard_alone(state: SixcardState, viewer: int | None) -> dict[str, Any]:
    built: dict[str, Any] = dict(sixcard._public_view(state))
    built["boxes"] = [sixcard._box(state, b, viewer) for b in state.boxes]
    return built


def same(view: object, alone: object) -> None:
    assert view == alone
    assert json.dumps(view) == json.dumps(alone)  # the same bytes on the wire, key order included


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_caribbean_view_is_what_it_was_built_alone_for_every_viewer(data: st.DataObject) -> None:
    seats = data.draw(st.lists(st.integers(1, 7), min_size=1, max_size=4, unique=True))
    r = random_hand(data, caribbean_run([(s, 3000) for s in sorted(seats)]))
    for state in [before for before, _ in r.trace] + [r.state]:
        for viewer in (None, *seats, 9):
            same(caribbean.hand_view(state, viewer), caribbean_alone(state, viewer))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_sixcard_view_is_what_it_was_built_alone_for_every_viewer(data: st.DataObject) -> None:
    r = planned_hand(data)
    seats = [p.seat for p in r.state.players]
    for state in [before for before, _ in r.trace] + [r.state]:
        for viewer in (None, *seats, 9):
            same(sixcard.hand_view(state, viewer), sixcard_alone(state, viewer))


def test_a_caribbean_seat_shares_the_spectators_view_and_keeps_its_own_cards_from_state_to_state() -> None:
    r = caribbean_run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10))
    r.bet(2, (2, 10))
    dealt = r.state
    assert dealt.phase == "decisions"
    seat_view, public = caribbean.hand_view(dealt, 1), caribbean.hand_view(dealt, None)
    assert seat_view["dealer"] is public["dealer"], "built once per state for every viewer"
    assert seat_view["spots"][1] is public["spots"][1], "another seat's spot is the spectator's"
    assert "cards" in seat_view["spots"][0]
    turn = dealt.turn
    assert turn is not None
    r.do(PlaySpot(turn.seat, turn.spot))
    later = caribbean.hand_view(r.state, 1)
    assert later is not seat_view
    assert later["spots"][0]["cards"] is seat_view["spots"][0]["cards"], "a spot's own cards: one object a hand"


def test_a_sixcard_seat_shares_the_spectators_view_and_keeps_its_own_cards_from_state_to_state() -> None:
    r = sixcard_run()
    r.bet(1, (1, 10, 0), (2, 10, 0))
    shown = r.state
    assert shown.boxes
    public = sixcard.hand_view(shown, None)
    seat_view = sixcard.hand_view(shown, 1)
    assert seat_view["dealer"] is public["dealer"], "built once per state for every viewer"
    mine = next(i for i, box in enumerate(seat_view["boxes"]) if "cards" in box)
    r.do(RaiseBox(seat_view["boxes"][mine]["seat"], seat_view["boxes"][mine]["box"]))
    later = sixcard.hand_view(r.state, 1)
    assert later is not seat_view
    assert later["boxes"][mine]["cards"] is seat_view["boxes"][mine]["cards"], "a box's own cards: one object a hand"

