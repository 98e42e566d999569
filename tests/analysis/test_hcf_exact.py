"""The exact High Card Flush figures: the published casino ones (the issue's acceptance) and self-checks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from server.analysis import hcf
from server.analysis.hcf_counts import check_weights, pattern_classes, patterns
from server.rules.hcf.settings import HcfSettings
from server.simulation.exact import hand_shares

STANDARD = HcfSettings.from_mapping({"profile": "standard"})


@pytest.fixture(scope="module")
def standard(totals: hcf.Totals) -> dict[str, object]:
    return hcf.analyze(STANDARD, totals_cache=totals)


def test_every_player_hand_is_counted_once() -> None:
    assert check_weights() == 133_784_560
    assert len(patterns()) == 11


def test_a_class_weight_counts_its_suit_relabellings() -> None:
    masks, weights = pattern_classes((7, 0, 0, 0))
    assert len(masks) == 1716
    assert set(weights.tolist()) == {4}  # one 7-card suit: 4 choices of suit
    masks, weights = pattern_classes((2, 2, 2, 1))
    # Three equal 2-card masks are fixed by the 6 permutations among them: 24 / 6 = 4.
    same = (masks[:, 0] == masks[:, 1]) & (masks[:, 1] == masks[:, 2])
    assert set(weights[same].tolist()) == {4}


def test_casino_figures_to_the_published_digits(standard: dict[str, object]) -> None:
    r = standard
    assert f"{r['dealer_qualifies']:.7f}" == "0.7536373"
    assert f"{r['ante_raise']['basic']['house_edge_per_ante']:.4%}" == "2.7114%"  # type: ignore[index]
    assert f"{r['ante_raise']['optimal']['house_edge_per_ante']:.4%}" == "2.6645%"  # type: ignore[index]
    assert f"{r['flush_bonus']['house_edge']:.4%}" == "7.8072%"  # type: ignore[index]
    assert f"{r['straight_flush_bonus']['house_edge']:.4%}" == "13.0864%"  # type: ignore[index]


def test_dealer_and_own_hand_shares_agree_with_the_single_hand_count(totals: hcf.Totals) -> None:
    shares = hand_shares()
    assert 1 - Fraction(totals.unqualified, hcf.DEALS) == shares.qualifies
    assert {n: Fraction(c, hcf.PLAYER_HANDS) for n, c in totals.flush_size.items()} == shares.flush_size
    assert {n: Fraction(c, hcf.PLAYER_HANDS) for n, c in totals.run_length.items()} == shares.straight_flush_length
    assert Fraction(sum(n for r, n in totals.raised["basic"].items() if r), hcf.PLAYER_HANDS) == shares.basic_raises


def test_outcomes_cover_every_deal(totals: hcf.Totals) -> None:
    for name in ("basic", "optimal"):
        assert sum(totals.main[name].values()) == hcf.DEALS
        assert sum(totals.raised[name].values()) == hcf.PLAYER_HANDS


def test_the_optimal_strategy_is_never_worse_than_basic(standard: dict[str, object]) -> None:
    main = standard["ante_raise"]
    assert main["optimal"]["return_per_ante"] >= main["basic"]["return_per_ante"]  # type: ignore[index]


def test_a_pay_table_change_moves_only_its_bet(totals: hcf.Totals, standard: dict[str, object]) -> None:
    richer = HcfSettings.from_mapping({"profile": "standard", "flush_pays": {"7": 300, "6": 100, "5": 10, "4": 2}})
    r = hcf.analyze(richer, totals_cache=totals)
    four = Fraction(totals.flush_size[4], hcf.PLAYER_HANDS)
    # One more unit on every 4-card flush: the return rises by exactly the 4-card flush's share.
    assert r["flush_bonus"]["return"] == pytest.approx(standard["flush_bonus"]["return"] + float(four),  # type: ignore[index]
                                                       abs=1e-15)
    assert r["straight_flush_bonus"] == standard["straight_flush_bonus"]


def test_the_bonus_cap_is_applied(totals: hcf.Totals) -> None:
    capped = HcfSettings.from_mapping({"profile": "standard", "max_bonus_win": 50})  # 10 units at min_ante 5
    r = hcf.analyze(capped, totals_cache=totals)
    shares = {n: Fraction(c, hcf.PLAYER_HANDS) for n, c in totals.flush_size.items()}
    expected = shares[7] * 10 + shares[6] * 10 + shares[5] * 10 + shares[4] * 1 - (shares[2] + shares[3])
    assert r["flush_bonus"]["return"] == pytest.approx(float(expected), abs=1e-15)


def test_california_bonuses_are_judged_against_the_dp(totals: hcf.Totals) -> None:
    r = hcf.analyze(HcfSettings(), totals_cache=totals, bank_hands=2000)
    flush = r["flush_bonus"]
    assert "against the DP" in flush["judged"]
    assert sum(o["probability"] for o in flush["outcomes"]) == pytest.approx(1, abs=1e-12)
    push = next(o for o in flush["outcomes"] if o["outcome"].startswith("push"))
    assert push["probability"] > 0
    # Beating the DP is rarer than holding the flush at all.
    own = {n: Fraction(c, hcf.PLAYER_HANDS) for n, c in totals.flush_size.items()}
    for row in flush["outcomes"][:4]:
        assert row["probability"] < own[int(row["outcome"].split()[2])]
