"""The exact hand shares, and the simulator's frequencies against them."""

from __future__ import annotations

import math
from fractions import Fraction

from server.rules.hcf.settings import STANDARD_FLUSH_PAYS, STANDARD_STRAIGHT_FLUSH_PAYS
from server.simulation.exact import hand_shares
from server.simulation.scenario import Scenario
from server.simulation.simulate import simulate

HANDS_OF_7 = math.comb(52, 7)


def test_shares_are_probabilities_over_all_7_card_hands() -> None:
    shares = hand_shares()
    assert sum(shares.flush_size.values()) == 1
    assert sum(shares.straight_flush_length.values()) == 1
    assert set(shares.flush_size) == {2, 3, 4, 5, 6, 7}
    assert set(shares.straight_flush_length) == {0, 3, 4, 5, 6, 7}


def test_counts_that_can_be_checked_by_hand() -> None:
    shares = hand_shares()
    # 7 cards of one suit; a 7-card straight flush: 8 runs (A-7 .. 8-A) per suit.
    assert shares.flush_size[7] * HANDS_OF_7 == 4 * math.comb(13, 7)
    assert shares.straight_flush_length[7] * HANDS_OF_7 == 4 * 8
    # A flush of 2 means the suits split 2-2-2-1.
    assert shares.flush_size[2] * HANDS_OF_7 == 4 * math.comb(13, 2) ** 3 * 13


def test_standard_bonus_returns_are_exact_fractions() -> None:
    shares = hand_shares()
    flush = shares.own_hand_return(STANDARD_FLUSH_PAYS, runs=False)
    straight = shares.own_hand_return(STANDARD_STRAIGHT_FLUSH_PAYS, runs=True)
    assert isinstance(flush, Fraction)
    assert -0.079 < flush < -0.078
    assert -0.131 < straight < -0.130


def test_simulated_frequencies_match_the_exact_shares() -> None:
    scenario = Scenario.build("standard")
    tally = simulate(scenario, 40_000, "f00d")
    dealt = int(tally.flush_sizes.sum())
    shares = hand_shares()
    for size, share in shares.flush_size.items():
        sigma = math.sqrt(float(share) * (1 - float(share)) / dealt)
        assert abs(int(tally.flush_sizes[size]) / dealt - float(share)) < 5 * sigma + 1e-6, size
    for length, share in shares.straight_flush_length.items():
        sigma = math.sqrt(float(share) * (1 - float(share)) / dealt)
        assert abs(int(tally.run_lengths[length]) / dealt - float(share)) < 5 * sigma + 1e-6, length
    sigma = math.sqrt(0.25 / tally.hands)
    assert abs(tally.dealer_qualified / tally.hands - float(shares.qualifies)) < 5 * sigma
