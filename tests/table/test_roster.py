"""The roster's account lookup agrees with its seats through any run of sits and stands."""

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
                roster.remove(seat)
        elif seat not in roster.by_seat and roster.of_account(account) is None:  # as the table checks
            roster.add(Seated(seat, account, f"p{account}"))
        for candidate in range(1, 6):
            scanned = next((s for s in roster.by_seat.values() if s.account == candidate), None)
            assert roster.of_account(candidate) is scanned
