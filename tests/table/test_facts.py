"""The table's facts in a carry (server/table/facts.py): its clock and its players' names go in afresh with each
carry the table gives a game, and never stay in what a game hands back (issue 26; pure, Hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.rules.game import SEAT_NAMES, TABLE_CLOCK
from server.table import facts

KEYS = st.text(min_size=1, max_size=12)
VALUES = st.one_of(st.integers(), st.text(max_size=8), st.none())
CARRIES = st.dictionaries(st.one_of(KEYS, st.sampled_from(facts.FACTS)), VALUES, max_size=6)
NAMES = st.dictionaries(st.integers(1, 9), st.text(min_size=1, max_size=24), max_size=7)
CLOCKS = st.floats(min_value=0, max_value=4e9, allow_nan=False)


@given(CARRIES, CLOCKS, NAMES)
def test_the_game_is_given_the_clock_and_the_names_and_keeps_everything_else(
        carry: dict[str, Any], now: float, names: dict[int, str]) -> None:
    given_carry = facts.given(carry, now=now, names=names)
    assert given_carry[TABLE_CLOCK] == now
    assert given_carry[SEAT_NAMES] == {str(seat): name for seat, name in names.items()}
    assert facts.taken(given_carry) == facts.taken(carry)


@given(CARRIES, CLOCKS, NAMES, CLOCKS)
def test_the_clock_moves_and_the_hands_names_stay(carry: dict[str, Any], start: float, names: dict[int, str],
                                                  end: float) -> None:
    ended = facts.at_clock(facts.given(carry, now=start, names=names), end)
    assert ended[TABLE_CLOCK] == end
    assert ended[SEAT_NAMES] == facts.given(carry, now=start, names=names)[SEAT_NAMES]


@given(CARRIES)
def test_what_a_game_hands_back_never_keeps_the_tables_facts(carry: dict[str, Any]) -> None:
    kept = facts.taken(carry)
    assert not set(kept) & set(facts.FACTS)
    assert kept == {k: v for k, v in carry.items() if k not in facts.FACTS}
