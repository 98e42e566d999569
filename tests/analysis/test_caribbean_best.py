"""Caribbean Stud's best strategy with the dealer's up card (issue 27 item 8): the counting against every
dealer completion, the published optimal figures, and the best strategy never below the simple one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.analysis import caribbean_best as cb
from server.analysis import caribbean_exact as ce
from server.analysis import caribbean_upcard as cu
from server.rules.cards import parse_cards
from server.rules.caribbean.settings import CaribbeanSettings
from server.simulation.sixcard import values5


def every_completion(hand: str, up: str) -> tuple[int, int, int]:
    """(dealer hands that do not qualify, are below, are not above), each of the 163,185 other fours valued."""
    mine, card = sorted(parse_cards(hand)), parse_cards(up)[0]
    rest = np.array([c for c in range(52) if c not in mine and c != card], dtype=np.int64)
    four = rest[ce._combinations(46, 4)]
    values = values5(np.concatenate([four, np.full((len(four), 1), card)], axis=1))
    own = int(values5(np.array([mine], dtype=np.int64))[0])
    lowest = int(values5(np.array([parse_cards("Ac Kd 4h 3s 2c")], dtype=np.int64))[0])
    return int((values < lowest).sum()), int((values < own).sum()), int((values <= own).sum())


@pytest.mark.parametrize(("hand", "up"), [("Ah Kd 7c 4s 2h", "Kc"), ("Ah Kd 7c 4s 2h", "3s"),
                                          ("9c 9d Ks 5h 2c", "9h"), ("Th Jh Qh Kh Ah", "2h"),
                                          ("5c 6c 7c 8c 9d", "Tc")])
def test_inclusion_exclusion_with_the_up_card_matches_every_completion_counted(hand: str, up: str) -> None:
    distinct = ce._hands()[2]
    row = np.array([sorted(parse_cards(hand))], dtype=np.int64)
    own = np.searchsorted(distinct, values5(row))
    q = np.searchsorted(distinct, values5(np.array([parse_cards("Ac Kd 4h 3s 2c")], dtype=np.int64)))
    counted = cu._UpTables(parse_cards(up)[0]).counts(row, [q, own, own + 1])
    assert tuple(int(c[0]) for c in counted) == every_completion(hand, up)


def test_every_hand_meets_every_up_card_it_leaves(up_rows: dict[str, Any]) -> None:
    assert int(up_rows["weight"].sum()) == 2_598_960 * 47
    assert set(np.unique(up_rows["unqualified"] + up_rows["win"] + up_rows["tie"] + up_rows["lose"]).tolist()) \
        == {cu.OTHER_FOUR}


def test_the_best_strategy_loses_what_the_wizard_of_odds_publishes(up_rows: dict[str, Any]) -> None:
    # wizardofodds.com/games/caribbean-stud-poker/ (appendix, "Strategy Statistics"): perfect strategy, total
    # loss 1,041,372,912,372 Antes over 19,933,230,517,200 combinations, house edge 5.224%, element of risk
    # 2.555%; raising A-K or better 5.682%, 2.672%.
    best = cb.main_bets(CaribbeanSettings(), up_rows)
    assert cu.DEALS == 19_933_230_517_200
    assert -cb.best_return(CaribbeanSettings(), up_rows) * cu.DEALS == 1_041_372_912_372
    assert (f"{best['house_edge_per_ante']:.3%}", f"{best['element_of_risk']:.3%}") == ("5.224%", "2.555%")


def test_the_card_at_the_default_pays(up_rows: dict[str, Any]) -> None:
    card = {row["hand"]: row["play"] for row in cb.strategy_card(CaribbeanSettings(), up_rows)}
    assert card["any pair"] == card["royal flush"] == "Raise."
    assert card["no pair, below ace-king"] == "Fold."
    matches_ak = "no pair, the up card matches your ace or king"
    assert card[f"ace-king-queen down to ace-king-jack, {matches_ak}"] == "Raise."
    assert card[f"ace-king-ten down to ace-king-4, {matches_ak}"] == "Fold."
    assert card["ace-king-ten, no pair, the up card matches one of your three lower cards"].startswith(
        "Usually raise: the best strategy raises 99.4% of these hands")


def test_a_richer_one_pair_line_raises_more_ace_kings(up_rows: dict[str, Any]) -> None:
    # The "one pair or less" line also pays a winning ace-king: at 3 to 1 ace-king-ten raises on a matched
    # ace or king too, where the default pays fold it.
    rich = CaribbeanSettings.from_mapping({"bet_pays": {"royal": 100, "straight_flush": 50, "quads": 20,
                                                         "full_house": 7, "flush": 5, "straight": 4, "trips": 3,
                                                         "two_pair": 2, "pair": 3}})
    card = {row["hand"]: row["play"] for row in cb.strategy_card(rich, up_rows)}
    assert card["ace-king-queen down to ace-king-ten, no pair, the up card matches your ace or king"] == "Raise."


@given(klass=st.integers(0, 9), ranks=st.lists(st.integers(0, 12), min_size=5, max_size=5), up=st.integers(0, 12))
def test_the_groups_of_many_rows_are_those_of_one(klass: int, ranks: list[int], up: int) -> None:
    ordered = sorted(ranks, reverse=True)
    many = cu._groups(np.array([klass]), np.array([ordered]), up)
    assert int(many[0]) == cu.group_of(klass, tuple(ordered), up)
    assert int(cu._class_of(many)[0]) == klass


PAYS = st.fixed_dictionaries({name: st.integers(1, 300) for name in
                              ("royal", "straight_flush", "quads", "full_house", "flush", "straight", "trips",
                               "two_pair", "pair")})


@settings(max_examples=25, deadline=None)
@given(pays=PAYS, cap=st.none() | st.integers(1, 5000), ante=st.integers(1, 50))
def test_the_best_strategy_never_does_worse_than_the_simple_one(up_rows: dict[str, Any], stud_counts: dict[str, int],
                                                                pays: dict[str, int], cap: int | None,
                                                                ante: int) -> None:
    table = CaribbeanSettings.from_mapping({"bet_pays": pays, "max_payout": cap, "min_ante": ante,
                                            "max_ante": max(ante, 500)})
    best = cb.main_bets(table, up_rows)["return_per_ante"]
    simple = ce.main_bets(table, stud_counts)["return_per_ante"]
    assert best >= simple - 1e-12


@settings(max_examples=25, deadline=None)
@given(pays=PAYS, name=st.sampled_from(["pair", "two_pair", "flush", "royal"]), more=st.integers(1, 100))
def test_a_higher_pay_never_turns_a_raise_into_a_fold(up_rows: dict[str, Any], pays: dict[str, int], name: str,
                                                       more: int) -> None:
    lower = cb.raises(CaribbeanSettings.from_mapping({"bet_pays": pays}), up_rows)
    higher = cb.raises(CaribbeanSettings.from_mapping({"bet_pays": {**pays, name: pays[name] + more}}), up_rows)
    assert not (lower & ~higher).any()


def test_the_host_reads_the_best_strategys_edge_beside_the_simple_one() -> None:
    from client_cli.host import describe_odds

    line = describe_odds({"game": "caribbean", "house_edge": {"ante_bet": 0.05682, "ante_bet_best": 0.052243,
                                                              "jackpot": 0.6}})
    assert "Ante+Bet 5.682% (playing A-K or better; 5.224% with the best play, by the up card)" in line
