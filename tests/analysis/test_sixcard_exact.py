"""6 Card Poker's Ante and Bet counted exactly under the basic strategy, the dealer exchange included
(issue 27 item 8): the exchange counting against every dealer hand and new card, and the whole against the
simulator."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.analysis import caribbean_exact as ce
from server.analysis import sixcard, sixcard_exact
from server.rules.cards import parse_cards
from server.rules.sixcard.settings import SixcardSettings
from server.simulation.sixcard import values5

LOWEST_PAIR = "2c 2d 3h 4s 5c"


def every_exchange(hand: str) -> tuple[int, int, int, int, int]:
    """(dealer hands without a pair; then (dealer hand, new card) pairs won, tied, lost, still not qualifying),
    every dealer hand and every new card dealt one by one."""
    mine = np.array(sorted(parse_cards(hand)), dtype=np.int64)
    own = int(values5(mine[None])[0])
    rest = np.array([c for c in range(52) if c not in mine], dtype=np.int64)
    dealer = rest[ce._combinations(47, 5)]
    q = int(values5(np.array([parse_cards(LOWEST_PAIR)], dtype=np.int64))[0])
    dealer = dealer[values5(dealer) < q]
    lower = dealer[:, :4]  # increasing cards, distinct ranks: the last is the highest, the one replaced
    win = tie = lose = still = 0
    for card in rest.tolist():
        fresh = ~(dealer == card).any(axis=1)
        values = values5(np.concatenate([lower[fresh], np.full((int(fresh.sum()), 1), card)], axis=1))
        qualifies = values >= q
        win += int((qualifies & (values < own)).sum())
        tie += int((qualifies & (values == own)).sum())
        lose += int((qualifies & (values > own)).sum())
        still += int((~qualifies).sum())
    return len(dealer), win, tie, lose, still


@pytest.mark.slow
@pytest.mark.parametrize("hand", ["5c 5d 5h 8s 9c", "4c 5d 6h 7s 8c"])
def test_the_exchange_counts_match_every_dealer_hand_and_new_card(hand: str) -> None:
    mine = np.array(sorted(parse_cards(hand)), dtype=np.int64)
    counted = sixcard_exact.exchange_counts(mine, int(values5(mine[None])[0]), sixcard_exact._straights_and_flushes(),
                                            sixcard_exact._rank_sets()[0])
    assert counted == every_exchange(hand)


def test_every_deal_is_counted_once(six_counts: dict[str, Any]) -> None:
    w = six_counts["weight"]
    assert int(w.sum()) + six_counts["folded"] == 2_598_960
    assert int(w.sum()) == 1_296_420  # a box raises what would qualify as the dealer's: a pair or better
    assert (six_counts["no_pair"] + six_counts["win"] + six_counts["tie"] + six_counts["lose"]
            == sixcard_exact.DEALER_HANDS).all()
    ex = six_counts["exchange"]
    asks = six_counts["klass"] >= 3
    assert (ex[asks, 0] == six_counts["no_pair"][asks]).all()
    assert (ex[asks, 1:].sum(axis=1) == ex[asks, 0] * sixcard_exact.CARDS_LEFT).all()


def test_the_exact_edge_lies_inside_the_simulators_interval(six_counts: dict[str, Any]) -> None:
    exact = sixcard_exact.main_bets(SixcardSettings(), six_counts)["house_edge_per_ante"]
    low, high = sixcard.main_bets(SixcardSettings(), hands=100_000)["house_edge_per_ante"]["interval_95"]
    assert low < exact < high
    assert f"{exact:.4%}" == "13.1616%"


PAYS = st.fixed_dictionaries({name: st.integers(1, 300) for name in
                              ("royal", "straight_flush", "quads", "full_house", "flush", "straight", "trips",
                               "two_pair", "pair")})


@settings(max_examples=25, deadline=None)
@given(pays=PAYS, name=st.sampled_from(["pair", "trips", "flush", "royal"]), more=st.integers(1, 100),
       cap=st.integers(1, 20_000))
def test_a_higher_pay_or_a_higher_ceiling_never_returns_less(six_counts: dict[str, Any], pays: dict[str, int],
                                                             name: str, more: int, cap: int) -> None:
    def ret(bet_pays: dict[str, int], ceiling: int) -> float:
        table = SixcardSettings.from_mapping({"bet_pays": bet_pays, "max_payout": ceiling})
        return float(sixcard_exact.main_bets(table, six_counts)["return_per_ante"])

    assert ret({**pays, name: pays[name] + more}, cap) >= ret(pays, cap)
    assert ret(pays, cap + more) >= ret(pays, cap)
