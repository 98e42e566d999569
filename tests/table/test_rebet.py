"""Re-Bet's last bets kept by player between hands (server/table/rebet.py; issue 23 item 1)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.table.rebet import BY_PLAYER, LAST_BETS, carry_for_hand, carry_kept

NAMES = st.sampled_from(["ann", "bob", "Cy", "dee", "robo"])
BETS = st.lists(st.lists(st.integers(0, 500), min_size=3, max_size=3), min_size=1, max_size=3)
SEATING = st.dictionaries(st.integers(1, 7), NAMES, max_size=5).map(
    lambda seats: {seat: name for seat, name in seats.items()
                   if list(seats.values()).count(name) == 1})  # one seat per player


@given(SEATING, SEATING, st.data())
def test_each_player_repeats_their_own_bets_wherever_they_sit_and_nobody_elses(
        first: dict[int, str], second: dict[int, str], data: st.DataObject) -> None:
    made = {seat: data.draw(BETS) for seat in first}
    kept = carry_kept({"meter": 7, LAST_BETS: {str(s): b for s, b in made.items()}}, first, {})
    given_next = carry_for_hand(kept, second)
    assert given_next["meter"] == 7, "the rest of the carry passes through"
    by_name = {name.lower(): made[seat] for seat, name in first.items()}
    assert given_next[LAST_BETS] == {str(seat): by_name[name.lower()] for seat, name in sorted(second.items())
                                     if name.lower() in by_name}


def test_a_new_player_in_an_old_chair_gets_nothing_and_the_others_are_kept() -> None:
    kept = carry_kept({LAST_BETS: {"3": [[3, 5, 1]]}}, {3: "robo"}, {BY_PLAYER: {"ann": [[1, 10, 0]]}})
    assert kept == {BY_PLAYER: {"ann": [[1, 10, 0]], "robo": [[3, 5, 1]]}}
    assert carry_for_hand(kept, {3: "dee"}) == {LAST_BETS: {}}


def test_seat_keyed_bets_of_an_older_record_are_dropped_and_games_without_rebet_pass() -> None:
    assert carry_for_hand({LAST_BETS: {"3": [[3, 5, 1]]}, "meter": 1}, {3: "ann"}) == {LAST_BETS: {}, "meter": 1}
    assert carry_for_hand({"meter": 1}, {3: "ann"}) == {"meter": 1}
    assert carry_kept({"meter": 2}, {3: "ann"}, {"meter": 1}) == {"meter": 2}
