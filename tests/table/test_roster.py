"""The roster: its account lookup agrees with its seats through any run of sits and stands; who was absent."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.table.roster import Roster, Seated

# (seat, account) to sit, or (seat, None) to stand whoever sits there
moves = st.lists(st.tuples(st.integers(1, 7), st.one_of(st.none(), st.integers(1, 5))), max_size=40)


@given(moves)
def test_of_account_is_the_seat_found_by_looking_at_every_seat(steps: list[tuple[int, int | None]]) -> None:
    roster = Roster(7)
    for seat, account in steps:
        if account is None:
            if seat in roster.by_seat:
                roster = roster.without(seat)
        elif seat not in roster.by_seat and roster.of_account(account) is None:  # as the table checks
            roster = roster.with_seated(Seated(seat, account, f"p{account}"))
        for candidate in range(1, 6):
            scanned = next((s for s in roster.by_seat.values() if s.account == candidate), None)
            assert roster.of_account(candidate) is scanned


@given(st.booleans(), st.booleans())
def test_a_player_is_absent_only_when_a_clock_ran_out_and_they_made_no_move(missed: bool, moved: bool) -> None:
    """docs/rules/hcf.md section 4 (issue 23 item 3): a move in the hand means the player was there."""
    seated = Seated(1, 7, "carol", missed_this_hand=missed, moved_this_hand=moved)
    assert seated.absent() == (missed and not moved)
