"""A seat's hand patch, made from the public part's operations diffed once a batch, is its whole view's diff."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import parse_cards
from server.rules.hcf.view import own_cards_payload
from server.table.updates import PublicHand
from server.viewpatch import apply, diff

KEYS = ("phase", "turn", "seats", "clock", "dealer")
leaves = st.none() | st.integers(-3, 3) | st.sampled_from(["a", "b"])
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["x", "y", "z"]), inner, max_size=3), max_leaves=6)
public_parts = st.dictionaries(st.sampled_from(KEYS), values, max_size=len(KEYS))
own_parts = st.dictionaries(st.sampled_from(["your_cards", "seats"]), values, max_size=2)


def _seat_view(public: dict[str, Any], own: dict[str, Any], copy: bool) -> dict[str, Any]:
    """A seat's view: the public part (its objects, or equal copies as a game that builds anew gives) and its own."""
    shared = json.loads(json.dumps(public)) if copy else public
    return shared | own


@given(last=public_parts, built=public_parts, own_before=own_parts, own_after=own_parts,
       copies=st.tuples(st.booleans(), st.booleans()), hand=st.booleans())
def test_a_seats_patch_is_the_diff_of_its_whole_view(last: dict[str, Any], built: dict[str, Any],
                                                     own_before: dict[str, Any], own_after: dict[str, Any],
                                                     copies: tuple[bool, bool], hand: bool) -> None:
    before_batch = PublicHand(None, last)
    before = before_batch.held(_seat_view(last, own_before, copies[0]))  # what the seat was sent last batch
    public = PublicHand(before_batch.now, built)
    after = _seat_view(built, own_after, copies[1])
    held, ops = public.patch(before, after)
    assert held == after
    assert held == public.held(after)
    assert json.dumps(ops) == json.dumps(diff(before, after, ["hand"]))
    assert apply({"hand": before}, ops)["hand"] == after
    if hand:  # a spectator: the public part itself, every operation the one diffed for all
        _, spectator = public.patch(before_batch.held(last), built)
        assert json.dumps(spectator) == json.dumps(diff(last, built, ["hand"]))


def test_an_unchanged_public_value_is_last_batchs_object() -> None:
    seats = {"1": {"ante": 5}}
    first = PublicHand(None, {"seats": seats, "turn": 1})
    second = PublicHand(first.now, {"seats": {"1": {"ante": 5}}, "turn": 2})
    assert second.now["seats"] is seats
    held, ops = second.patch(first.held({"seats": seats, "turn": 1}), {"seats": {"1": {"ante": 5}}, "turn": 2})
    assert ops == [[["hand", "turn"], 2]]
    assert held["seats"] is seats


def test_a_seats_own_cards_are_one_object_for_the_hand() -> None:
    """Built once for the cards (issue 25): every batch's view of the hand holds the same, so its diff is ``is``."""
    cards = parse_cards("Ah Kh Qh Jh 9h 8h 5c")
    assert own_cards_payload(cards) is own_cards_payload(tuple(cards))
    assert own_cards_payload(cards)["flush"] == ["Ah", "Kh", "Qh", "Jh", "9h", "8h"]
