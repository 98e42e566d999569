"""What the table's desks decide before they record anything, on the pure cores: no table, no clock, no I/O.

Which seat a host command names and who ``remove_player`` stands up (server/table/floor.py), who may not rig
a table, which seat a player's move is for (server/table/course.py), and whether a hand command waits for a
live drill's trainee (server/table/drill_state.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.commands import Leave, Stay
from server.rules.drill.settings import DrillSettings
from server.rules.drill.steps import KeyStep
from server.rules.game import AccountId
from server.rules.hcf.messages import Fold
from server.table import course
from server.table.commands import Host, TableError
from server.table.drill_state import Hold, LiveDrill, Question, held_back
from server.table.floor import host_seat, may_rig, removed
from server.table.roster import NEXT_HAND, Roster, Seated

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")


@st.composite
def rosters(draw: st.DrawFn) -> Roster:
    """A table of 2 to 7 seats with some of them taken, each by its own account and name."""
    seats = draw(st.integers(2, 7))
    taken = draw(st.sets(st.integers(1, seats)))
    return Roster(seats, {seat: Seated(seat, AccountId(100 + seat), NAMES[seat - 1]) for seat in taken})


@given(seats=st.integers(1, 9), seat=st.one_of(st.none(), st.integers(-3, 12), st.text(max_size=3)))
def test_a_host_command_names_one_of_the_tables_seats_or_is_refused(seats: int, seat: object) -> None:
    cmd = Host("declare_dead", None, (("seat", seat),))
    if isinstance(seat, int) and 1 <= seat <= seats:
        assert host_seat("main", seats, cmd) == seat
        return
    with pytest.raises(TableError) as refused:
        host_seat("main", seats, cmd)
    assert refused.value.code == ("seat/invalid" if isinstance(seat, int) else "request/malformed")
    assert isinstance(seat, int) == (f"has seats 1 to {seats}" in refused.value.message)


@given(roster=rosters(), seat=st.integers(1, 7), upper=st.booleans())
def test_remove_player_stands_whoever_the_name_or_the_seat_names(roster: Roster, seat: int, upper: bool) -> None:
    name = NAMES[seat - 1].upper() if upper else NAMES[seat - 1]
    for args in ((("account", name),), (("seat", seat),)):
        cmd = Host("remove_player", None, args)
        if seat in roster.by_seat:
            assert removed("main", roster, roster.seats, cmd) == roster.by_seat[seat]
        elif args[0][0] == "account" or seat <= roster.seats:
            with pytest.raises(TableError) as refused:
                removed("main", roster, roster.seats, cmd)
            assert refused.value.code == "seat/not_seated"


@given(roster=rosters(), by=st.one_of(st.none(), st.integers(100, 108)), floor_link=st.booleans())
def test_nobody_who_could_profit_may_rig_a_table(roster: Roster, by: int | None, floor_link: bool) -> None:
    cmd = Host("arrange_deck", None if by is None else AccountId(by), floor_link=floor_link)
    seated = by is not None and roster.of_account(AccountId(by)) is not None
    if floor_link or seated:
        with pytest.raises(TableError) as refused:
            may_rig("main", roster, cmd, "arrange its deck")
        assert refused.value.code == "auth/not_host"
        assert ("floor link" in refused.value.message) == floor_link
    else:
        may_rig("main", roster, cmd, "arrange its deck")


@dataclass(frozen=True)
class _State:
    phase: str


@given(playing=st.booleans(), in_hand=st.booleans(), same=st.booleans(), sitting_out=st.booleans())
def test_a_move_is_for_the_seat_that_plays_the_hand_in_play(playing: bool, in_hand: bool, same: bool,
                                                           sitting_out: bool) -> None:
    seated = Seated(3, AccountId(7), "ann", sitting_out=sitting_out)
    accounts = {3: AccountId(7 if same else 8)} if in_hand else {1: AccountId(1)}
    played = course.Course(state=_State("decisions" if playing else "settled"), hand_accounts=accounts)
    if playing and in_hand and same:
        assert course.mover(played, frozenset({"settled"}), seated, AccountId(7)) == 3
        return
    with pytest.raises(TableError) as refused:
        course.mover(played, frozenset({"settled"}), seated, AccountId(7))
    assert refused.value.code == ("hand/none" if not playing else "seat/not_in_hand")
    if playing:
        assert (refused.value.message == NEXT_HAND) != sitting_out


def _drill(*, asked: bool) -> LiveDrill:
    question = Question(KeyStep("offer_bank", {"seat": 1}, "4.1", ""), None, 1)  # type: ignore[arg-type]
    drill = LiveDrill(DrillSettings("tina", ("offer_bank",), step_seconds=30))
    return replace(drill, held=Hold((question,))) if asked else drill


COMMANDS: list[Any] = [Leave(1), Stay(1), Fold(2)]


@given(command=st.sampled_from(COMMANDS), asked=st.booleans(), releasing=st.booleans(), drill_on=st.booleans())
def test_while_the_trainee_is_asked_a_leave_waits_and_any_other_move_is_refused(
        command: object, asked: bool, releasing: bool, drill_on: bool) -> None:
    drill = _drill(asked=asked) if drill_on else None
    holding = drill_on and asked and not releasing
    if holding and not isinstance(command, Leave | Stay):
        with pytest.raises(TableError) as refused:
            held_back(drill, command, releasing=releasing)
        assert refused.value.code == "drill/waiting"
        assert refused.value.message.endswith("(the bank offer): at most 30 s")
    else:
        assert held_back(drill, command, releasing=releasing) == holding
