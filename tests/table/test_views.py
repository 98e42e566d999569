"""What viewers see is a function of one frozen picture of the table (server/table/views.py): pure, no runner."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from server.rules.games import game_named
from server.rules.hcf.settings import HcfSettings
from server.table.course import Course
from server.table.floor_state import Floor
from server.table.roster import Roster, Seated
from server.table.views import TableView

SETTINGS = HcfSettings.from_mapping({})


def picture(seats: dict[int, int]) -> TableView:
    """A table between hands with ``seats`` (seat -> account), each player holding 500 chips."""
    roster = Roster(SETTINGS.seats, {seat: Seated(seat, account, f"p{account}") for seat, account in seats.items()})
    return TableView(name="t", game=game_named("hcf"), seq=0, now=0.0, floor=Floor(posted=SETTINGS),
                     course=Course(), roster=roster, stacks=dict.fromkeys(seats.values(), 500),
                     clock=None, drill=None)


seatings = st.lists(st.integers(1, SETTINGS.seats), unique=True).flatmap(
    lambda seats: st.fixed_dictionaries({seat: st.just(100 + seat) for seat in seats}))


@given(seats=seatings)
def test_an_account_without_a_seat_sees_what_a_spectator_sees_and_is_offered_every_free_seat(
        seats: dict[int, int]) -> None:
    view = picture(seats)
    spectator = view.choices(None)
    assert view.choices(1) == spectator
    free = [seat for seat in range(1, SETTINGS.seats + 1) if seat not in seats]
    assert spectator["moves"] == ([{"request": "sit", "seats": free,
                                    "buy_in": {"min": SETTINGS.min_buy_in, "max": SETTINGS.max_buy_in}}]
                                  if free else [])


@given(seats=seatings)
def test_every_seated_player_is_listed_once_in_seat_order_with_their_stack(seats: dict[int, int]) -> None:
    view = picture(seats)
    listed = view.shared_view()["seats"]
    assert [s["seat"] for s in listed] == sorted(seats)
    assert all(s["stack"] == 500 for s in listed)
    assert view.seated_accounts() == frozenset(seats.values())
    for seat, account in seats.items():
        assert view.you(account) == {"account": account, "seat": seat, "sitting_out": False}


flags = st.fixed_dictionaries({"sitting_out": st.booleans(), "willing_to_bank": st.booleans(),
                               "leaving": st.booleans(), "stack": st.sampled_from([0, 500, SETTINGS.max_buy_in])})


@given(seats=seatings, data=st.data())
def test_each_seats_choices_are_its_own_though_seats_alike_share_their_table_moves(
        seats: dict[int, int], data: st.DataObject) -> None:
    """The table-level moves are built once per picture for every seat they are the same for (issue 25)."""
    chosen = {seat: data.draw(flags) for seat in seats}
    roster = Roster(SETTINGS.seats, {seat: Seated(seat, account, f"p{account}", sitting_out=chosen[seat]["sitting_out"],
                                                  willing_to_bank=chosen[seat]["willing_to_bank"],
                                                  leaving=chosen[seat]["leaving"])
                                     for seat, account in seats.items()})
    view = replace(picture(seats), roster=roster,
                   stacks={account: chosen[seat]["stack"] for seat, account in seats.items()})
    shared = {account: view.choices(account) for account in seats.values()}
    for account, choices in shared.items():
        assert choices == replace(view).choices(account), "a fresh picture gives each seat the same choices"
    for seat, account in seats.items():
        for other_seat, other in seats.items():
            if chosen[seat] == chosen[other_seat]:  # seats alike: the very same table moves
                assert all(a is b for a, b in zip(shared[account]["moves"], shared[other]["moves"], strict=True))


def test_a_picture_says_what_the_table_was_when_it_was_taken() -> None:
    before = picture({1: 101})
    after = replace(before, floor=replace(before.floor, paused=True))
    assert before.status() == "waiting"
    assert after.status() == "paused"
    assert before.snapshot(101)["status"] == "waiting", "a later change makes a new picture, never changes this one"


def test_a_closed_table_offers_nothing_and_says_it_is_closed() -> None:
    view = picture({1: 101})
    closed = replace(view, floor=replace(view.floor, closed=True))
    assert closed.status() == "closed"
    assert closed.choices(101) == {"seat": 1, "deadline": None, "moves": []}
    assert closed.choices(None)["moves"] == []


@given(min_ante=st.integers(1, 50), seats=seatings)
def test_the_settings_shown_are_made_once_for_a_settings_object_and_anew_for_another(
        min_ante: int, seats: dict[int, int]) -> None:
    view = picture(seats)
    shown = view.shared_view()["settings"]
    assert shown == SETTINGS.as_dict()
    assert picture(seats).shared_view()["settings"] is shown  # the next batch's view: nothing to build or compare
    changed = HcfSettings.from_mapping({"min_ante": min_ante, "max_ante": 500})
    other = replace(view, floor=Floor(posted=changed)).shared_view()["settings"]
    assert other == changed.as_dict()
    assert other["min_ante"] == min_ante
