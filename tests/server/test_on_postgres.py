"""A representative part of the server suite again, on a real PostgreSQL server (issue 5).

The tests are the SQLite ones, imported here so that pytest runs them with this module's
``database_url``: full hands with the bank rotating, a settlement where the DP cannot
cover a seat, the fee modes, floor voids, a reconnect mid-decision, and hands of
Caribbean Stud (the jackpot meter's place) and 6 Card Poker (draws, the dealer exchange). The fixture
finalizer checks the ledger on PostgreSQL after each. The server comes from Debian's
``postgresql`` package (tests/support/postgres.py) and the tests fail without it.
"""

from __future__ import annotations

import pytest

from .test_caribbean_table import (
    test_players_bet_spots_play_and_the_meter_grows_into_the_ledger as test_pg_caribbean_meter,
)
from .test_floor import (
    test_a_misdeal_or_shuffler_fault_voids_the_hand_and_the_button_stays as test_pg_misdeal_voids_the_hand,
)
from .test_hands import test_three_players_the_button_moves_clockwise as test_pg_three_players
from .test_presence import (
    test_reconnecting_in_the_middle_of_a_decision_shows_the_hand_and_play_carries_on as test_pg_reconnect,
)
from .test_settlement import (
    test_a_dp_who_cannot_cover_a_seat_makes_it_dead_and_its_bets_and_fee_go_back as test_pg_dp_cannot_cover,
)
from .test_settlement import test_fee_modes_take_the_fee_from_the_right_payers as test_pg_fee_modes
from .test_sixcard_table import (
    test_full_hands_with_draws_blind_boxes_and_the_dealer_exchange as test_pg_sixcard_hands,
)


@pytest.fixture
def database_url(fresh_postgres_url: str) -> str:
    """This module's server keeps its books on PostgreSQL."""
    return fresh_postgres_url


__all__ = ["test_pg_caribbean_meter", "test_pg_dp_cannot_cover", "test_pg_fee_modes", "test_pg_misdeal_voids_the_hand",
           "test_pg_reconnect", "test_pg_sixcard_hands", "test_pg_three_players"]
