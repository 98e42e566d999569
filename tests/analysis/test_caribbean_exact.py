"""Caribbean Stud's exact main bets: the counting against brute force, and its totals."""

from __future__ import annotations

import numpy as np
import pytest

from server.analysis import caribbean_exact as ce
from server.rules.cards import parse_cards
from server.rules.caribbean.settings import CaribbeanSettings
from server.simulation.sixcard import values5


def brute_force(hand: str) -> tuple[int, int, int]:
    """(dealer hands that do not qualify, are below, are not above) among the 47 cards left, one by one."""
    mine = parse_cards(hand)
    rest = np.array([c for c in range(52) if c not in mine], dtype=np.int64)
    dealer = rest[ce._combinations(47, 5)]
    values = np.concatenate([values5(dealer[i:i + 300_000]) for i in range(0, len(dealer), 300_000)])
    own = int(values5(np.array([mine], dtype=np.int64))[0])
    lowest = int(values5(np.array([parse_cards("Ac Kd 4h 3s 2c")], dtype=np.int64))[0])
    return int((values < lowest).sum()), int((values < own).sum()), int((values <= own).sum())


@pytest.mark.parametrize("hand", ["Ah Kd 7c 4s 2h", "9c 9d Ks 5h 2c", "Th Jh Qh Kh Ah"])
def test_inclusion_exclusion_matches_every_dealer_hand_counted_one_by_one(hand: str) -> None:
    distinct = ce._hands()[2]
    row = np.array([sorted(parse_cards(hand))], dtype=np.int8)
    own = np.searchsorted(distinct, values5(row.astype(np.int64)))
    q = np.searchsorted(distinct, values5(np.array([parse_cards("Ac Kd 4h 3s 2c")], dtype=np.int64)))
    tables = ce._tables()
    counted = tuple(int(ce._avoiding(tables, row, own, t)[0]) for t in (q, own, own + 1))
    assert counted == brute_force(hand)


def test_every_deal_is_counted_once(stud_counts: dict[str, int]) -> None:
    assert sum(stud_counts.values()) == 2_598_960 * ce.DEALER_HANDS
    assert stud_counts["fold"] == (2_598_960 - 1_463_700) * ce.DEALER_HANDS  # folds: every hand below A-K


def test_a_higher_royal_pay_moves_the_edge_by_the_royal_wins_alone(stud_counts: dict[str, int]) -> None:
    base = ce.main_bets(CaribbeanSettings(), stud_counts)
    richer = ce.main_bets(CaribbeanSettings.from_mapping({"bet_pays": {
        "royal": 200, "straight_flush": 50, "quads": 20, "full_house": 7, "flush": 5, "straight": 4, "trips": 3,
        "two_pair": 2, "pair": 1}}), stud_counts)
    royal_wins = stud_counts["win:royal"] / (2_598_960 * ce.DEALER_HANDS)
    # 100 more to 1 on a Back Bet of 2 Antes: 200 Antes more per royal that wins.
    assert richer["return_per_ante"] - base["return_per_ante"] == pytest.approx(200 * royal_wins, rel=1e-9)
