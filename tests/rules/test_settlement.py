"""docs/rules/hcf.md section 3.7 (settlement), section 5 (dead hands), section 7 (standard profile).

Every test checks conservation: ``sum(seat.net) + dealer_net + house == 0``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.cards import FULL_DECK, Card, parse_cards
from server.rules.hcf.evaluate import compare, evaluate
from server.rules.hcf.messages import SETTLEMENT
from server.rules.hcf.settings import FEE_MODES, HcfSettings
from server.rules.hcf.settlement import (
    DEAD_REASONS,
    SeatResult,
    SettleError,
    Settlement,
    Wager,
    deal_order,
    settle,
    settlement_order,
)

NO_FEE = HcfSettings.from_mapping({"fee_mode": "none"})
STANDARD = HcfSettings.from_mapping({"profile": "standard"})

# Hands used below (7 cards each); comments give what matters.
DP_QUALIFIES = "9h 5h 2h Kc Qd Js 3s"      # 3-card flush 9-5-2: qualifies, no run
DP_NOT_QUALIFYING = "8h 6h 4h 7c 5c 2d 3s"  # 3-card flush 8-6-4: does not qualify, no run
TWO_CARD = "Ks 9s Jd 7d Tc 8c Ah"           # best flush K-9: worse than any 3-card flush, no run
FOUR_CARD = "Ad Td 8d 6d 4s 7s Jc"          # 4-card flush A-T-8-6, no run
TIE_WITH_DP_QUALIFIES = "9c 5c 2c Kd Qs Jh 3d"  # flush 9-5-2 like DP_QUALIFIES


def hand(text: str) -> tuple[Card, ...]:
    return parse_cards(text, count=7)


def wager(seat: int, cards: str, ante: int, raise_amount: int = 0, sf: int = 0, fl: int = 0) -> Wager:
    return Wager(seat, parse_cards(cards), ante, straight_flush_bonus=sf, flush_bonus=fl,
                 raise_amount=raise_amount)


def run(settings: HcfSettings, dealer: str, wagers: Sequence[Wager], *, button: int | None = 1,
        stack: int | None = 100_000, dead: Collection[int] = ()) -> Settlement:
    banked = not settings.house_banked
    result = settle(settings, parse_cards(dealer), wagers, button=button if banked else None,
                    dealer_stack=stack if banked else None, dead_seats=dead)
    assert_conserves(result)
    return result


def assert_conserves(result: Settlement) -> None:
    assert sum(r.net for r in result.seats) + result.dealer_net + result.house == 0
    for r in result.seats:
        if r.dead:
            assert (r.ante, r.raise_amount, r.straight_flush_bonus, r.flush_bonus, r.fee) == (0, 0, 0, 0, 0)


def bets_of(r: SeatResult) -> tuple[int, int, int, int]:
    return r.ante, r.raise_amount, r.straight_flush_bonus, r.flush_bonus


# ---------------------------------------------------------------- order


def test_section3_step7_settlement_order_counter_clockwise_from_right_of_button() -> None:
    assert settlement_order(7, 3) == (2, 1, 7, 6, 5, 4)
    assert settlement_order(7, 1) == (7, 6, 5, 4, 3, 2)
    assert settlement_order(2, 2) == (1,)
    assert settlement_order(5, 5) == (4, 3, 2, 1)


def test_section3_step4_deal_order_is_the_reverse() -> None:
    for seats in range(2, 8):
        for button in range(1, seats + 1):
            assert deal_order(seats, button) == tuple(reversed(settlement_order(seats, button)))
            assert deal_order(seats, button)[0] == button % seats + 1
            assert button not in deal_order(seats, button)


def test_section3_step7_settlement_follows_that_order() -> None:
    result = run(NO_FEE, DP_QUALIFIES, [wager(4, FOUR_CARD, 10, 10), wager(2, TWO_CARD, 10, 10)], button=3)
    assert result.order == (2, 4)
    assert [r.seat for r in result.seats] == [2, 4]


# ---------------------------------------------------------------- ante and raise


def test_section3_step7_dp_not_qualifying_ante_wins_raise_pushes() -> None:
    result = run(NO_FEE, DP_NOT_QUALIFYING, [wager(2, TWO_CARD, 10, 10), wager(3, FOUR_CARD, 20, 20)])
    assert not result.dealer_qualifies
    assert bets_of(result.result(2)) == (10, 0, 0, 0)  # even a worse hand wins the Ante
    assert bets_of(result.result(3)) == (20, 0, 0, 0)
    assert result.dealer_net == -30


def test_section3_step7_dp_qualifies_player_better_ante_and_raise_win() -> None:
    result = run(NO_FEE, DP_QUALIFIES, [wager(2, FOUR_CARD, 10, 10)])
    assert result.dealer_qualifies
    assert bets_of(result.result(2)) == (10, 10, 0, 0)
    assert result.result(2).net == 20
    assert result.dealer_net == -20


def test_section3_step7_dp_qualifies_tie_both_push() -> None:
    assert compare(hand(DP_QUALIFIES), hand(TIE_WITH_DP_QUALIFIES)) == 0
    result = run(NO_FEE, DP_QUALIFIES, [wager(2, TIE_WITH_DP_QUALIFIES, 10, 10)])
    assert bets_of(result.result(2)) == (0, 0, 0, 0)
    assert result.dealer_net == 0


def test_section3_step7_dp_qualifies_player_worse_both_lose() -> None:
    result = run(NO_FEE, DP_QUALIFIES, [wager(2, TWO_CARD, 10, 10)])
    assert bets_of(result.result(2)) == (-10, -10, 0, 0)
    assert result.dealer_net == 20


def test_section3_step5_fold_loses_ante_and_bonuses_to_the_dp() -> None:
    # Even a 7-card flush with a run loses its bonuses when folded (California).
    result = run(NO_FEE, DP_NOT_QUALIFYING, [wager(2, "Ac Kc Qc Jc Tc 9c 8c", 10, 0, sf=5, fl=5)])
    r = result.result(2)
    assert r.folded
    assert bets_of(r) == (-10, 0, -5, -5)
    assert result.dealer_net == 20


# ---------------------------------------------------------------- straight flush bonus


def test_section3_step7_sf_bonus_dp_without_run_beaten_by_any_run_of_three() -> None:
    player = "2d 3d 4d Ks Qs 8c 7c"  # run 2-3-4 of diamonds, 3-card flush 4-3-2: worse than the DP
    result = run(NO_FEE, DP_QUALIFIES, [wager(2, player, 10, 10, sf=5, fl=5)])
    # The bonuses are judged independently of the Ante and of each other.
    assert bets_of(result.result(2)) == (-10, -10, 5 * 8, -5)


def test_section3_step7_sf_bonus_longer_run_beats_dp_run() -> None:
    dealer = "Jh Qh Kh 2c 5d 7s 9c"   # run J-Q-K
    player = "2s 3s 4s 5s 8d Td Ac"   # run 2-5: 4 cards, pays 60
    result = run(NO_FEE, dealer, [wager(2, player, 10, 10, sf=5)])
    assert result.result(2).straight_flush_bonus == 5 * 60
    assert result.result(2).ante == 10  # 4-card flush beats the DP's 3


def test_section3_step7_sf_bonus_equal_straight_flushes_push() -> None:
    dealer = "Th Jh Qh 2c 5d 7s 9c"
    player = "Tc Jc Qc 2d 5s 7h 9d"
    result = run(NO_FEE, dealer, [wager(2, player, 10, 10, sf=5)])
    assert bets_of(result.result(2)) == (0, 0, 0, 0)


def test_section3_step7_sf_bonus_lower_top_loses() -> None:
    dealer = "Jh Qh Kh 2c 5d 7s 9c"
    player = "Tc Jc Qc 2d 5s 7h 9d"
    result = run(NO_FEE, dealer, [wager(2, player, 10, 10, sf=5)])
    assert bets_of(result.result(2)) == (-10, -10, -5, 0)


def test_section3_step7_sf_bonus_needs_a_run_of_three_even_against_no_run() -> None:
    result = run(NO_FEE, DP_QUALIFIES, [wager(2, FOUR_CARD, 10, 10, sf=5)])
    assert result.result(2).straight_flush_bonus == -5


def test_section3_step7_sf_bonus_judged_even_when_dp_does_not_qualify() -> None:
    player = "Jd Qd Kd As 9s 3c Tc"  # run J-Q-K
    result = run(NO_FEE, DP_NOT_QUALIFYING, [wager(2, player, 10, 10, sf=5)])
    assert bets_of(result.result(2)) == (10, 0, 40, 0)


def test_section3_step7_sf_bonus_ace_low_run_loses_to_dp_higher_run() -> None:
    dealer = "2h 3h 4h Kc 8d 7s 9c"
    player = "As 2s 3s Kd 8c 7d Jc"  # A-2-3: top card 3 < 4
    result = run(NO_FEE, dealer, [wager(2, player, 10, 10, sf=5)])
    assert result.result(2).straight_flush_bonus == -5


# ---------------------------------------------------------------- flush bonus


def test_section3_step7_flush_bonus_needs_four_or_more() -> None:
    dealer = TWO_CARD  # K-9: does not qualify
    player = "Ac 6c 3c 2h 5d 7s 4h"  # 3-card flush A-6-3 beats K-9, yet the bonus needs 4
    result = run(NO_FEE, dealer, [wager(2, player, 10, 10, fl=5)])
    assert bets_of(result.result(2)) == (10, 0, 0, -5)


def test_section3_step7_flush_bonus_four_card_flush_beating_dp_wins() -> None:
    result = run(NO_FEE, DP_QUALIFIES, [wager(2, FOUR_CARD, 10, 10, fl=5)])
    assert bets_of(result.result(2)) == (10, 10, 0, 5 * 2)


def test_section3_step7_flush_bonus_judged_even_when_dp_does_not_qualify() -> None:
    result = run(NO_FEE, DP_NOT_QUALIFYING, [wager(2, FOUR_CARD.replace("7s", "9s"), 10, 10, fl=5)])
    assert bets_of(result.result(2)) == (10, 0, 0, 10)


def test_section3_step7_flush_bonus_identical_flushes_push() -> None:
    dealer = "Ah Th 8h 6h 2c 4d Qs"
    player = "Ad Td 8d 6d 3c 5s Js"
    result = run(NO_FEE, dealer, [wager(2, player, 10, 10, fl=5)])
    assert bets_of(result.result(2)) == (0, 0, 0, 0)


def test_section3_step7_flush_bonus_worse_flush_loses() -> None:
    dealer = "Ah Th 8h 6h 2h 4d Qs"   # 5-card flush
    player = "Ad Td 8d 6d 3c 5s Js"   # 4-card flush
    result = run(NO_FEE, dealer, [wager(2, player, 10, 10, fl=5)])
    assert bets_of(result.result(2)) == (-10, -10, 0, -5)


@pytest.mark.parametrize(
    ("player", "odds"),
    [
        ("Ac Qc Tc 8c 2d 5s Js", 2),
        ("Ac Qc Tc 8c 6c 5s Js", 10),
        ("Ac Qc Tc 8c 6c 4c Js", 50),
        ("Ac Qc Tc 8c 6c 4c 2c", 200),
    ],
)
def test_section3_step7_flush_bonus_pays_by_the_table(player: str, odds: int) -> None:
    result = run(NO_FEE, DP_NOT_QUALIFYING.replace("7c", "7d").replace("5c", "5d").replace("2d", "3d")
                 .replace("3s", "Kd"), [wager(2, player, 10, 10, fl=3)])
    assert result.result(2).flush_bonus == 3 * odds


# ---------------------------------------------------------------- the bonus cap


def test_section2_max_bonus_win_caps_each_bonus_win() -> None:
    settings = HcfSettings.from_mapping({"fee_mode": "none", "max_bonus_win": 500})
    player = "Ac Qc Tc 8c 6c 4c 2c"  # 7-card flush: 200 to 1
    result = run(settings, DP_NOT_QUALIFYING.replace("7c", "7d").replace("5c", "5d").replace("2d", "3d")
                 .replace("3s", "Kd"), [wager(2, player, 10, 10, fl=100)])
    assert result.result(2).flush_bonus == 500


def test_section2_max_bonus_win_does_not_cap_losses() -> None:
    settings = HcfSettings.from_mapping({"fee_mode": "none", "max_bonus_win": 1})
    result = run(settings, DP_QUALIFIES, [wager(2, TWO_CARD, 10, 10, sf=100, fl=100)])
    assert bets_of(result.result(2)) == (-10, -10, -100, -100)


# ---------------------------------------------------------------- the DP's funds cap

CAP_SEATS = {
    7: (TWO_CARD, 50),                 # loses 100: the bank grows before seat 6
    6: ("Ac Qc 9c 6c 2d 5d 8s", 60),   # wins 120
    5: ("Ad Kd 9d 6d 2s 5s Jc", 20),   # would win 40
    4: ("Kh Jh 8h 4h 2c 7s Ts", 15),   # wins 30
}


def cap_wagers(seats: Collection[int]) -> list[Wager]:
    return [wager(seat, cards, ante, ante) for seat, (cards, ante) in CAP_SEATS.items() if seat in seats]


def test_section3_step7_dp_funds_cap_in_settlement_order() -> None:
    result = run(NO_FEE, DP_QUALIFIES, cap_wagers({4, 5, 6, 7}), button=1, stack=50)
    assert result.order == (7, 6, 5, 4)
    # bank 50 -> seat 7 loses 100: 150 -> seat 6 wins 120: 30 -> seat 5 (40 > 30) dead -> seat 4 wins 30: 0
    assert bets_of(result.result(7)) == (-50, -50, 0, 0)
    assert bets_of(result.result(6)) == (60, 60, 0, 0)
    assert result.result(5).dead
    assert result.result(5).net == 0
    assert bets_of(result.result(4)) == (15, 15, 0, 0)
    assert not result.result(4).dead  # exactly the bank: not greater, so paid
    assert result.dealer_net == -50


def test_section3_step7_losing_seat_grows_the_bank_for_later_seats() -> None:
    without_loser = run(NO_FEE, DP_QUALIFIES, cap_wagers({6}), button=1, stack=50)
    assert without_loser.result(6).dead
    assert without_loser.dealer_net == 0
    with_loser = run(NO_FEE, DP_QUALIFIES, cap_wagers({6, 7}), button=1, stack=50)
    assert not with_loser.result(6).dead


def test_section3_step7_a_loser_after_the_winner_does_not_help_it() -> None:
    # Button 6: order 5, 4, ..., 7. Seat 7 now settles last.
    result = run(NO_FEE, DP_QUALIFIES, cap_wagers({4, 5, 7}), button=6, stack=10)
    assert result.order == (5, 4, 7)
    assert result.result(5).dead  # 40 > 10
    assert result.result(4).dead  # 30 > 10
    assert bets_of(result.result(7)) == (-50, -50, 0, 0)


def test_section3_step7_bank_starts_with_stack_after_dp_fee_plus_folded_stakes() -> None:
    settings = HcfSettings.from_mapping({"fee_mode": "designated", "fee": 1})
    folded = wager(2, TWO_CARD, 20, 0, sf=5)      # folded: 25 join the bank up front
    winner = wager(7, "Ac Qc 9c 6c 2d 5d 8s", 17, 17)  # settles first, wins 34 = 10 - 1 + 25
    result = run(settings, DP_QUALIFIES, [folded, winner], button=1, stack=10)
    assert result.order == (7, 2)
    assert not result.result(7).dead
    assert result.result(7).net == 34
    one_less = run(settings, DP_QUALIFIES, [folded, winner], button=1, stack=9)
    assert one_less.result(7).dead  # wins 34 > 9 - 1 + 25


def test_section3_step7_bonus_wins_count_against_the_bank() -> None:
    player = "Jd Qd Kd As 9s 3c Tc"  # wins the Ante (DP not qualifying) and 8:1 on the SF bonus
    result = run(NO_FEE, DP_NOT_QUALIFYING, [wager(2, player, 10, 10, sf=10)], stack=89)
    assert result.result(2).dead  # 10 + 80 = 90 > 89
    result = run(NO_FEE, DP_NOT_QUALIFYING, [wager(2, player, 10, 10, sf=10)], stack=90)
    assert result.result(2).net == 90


def test_section3_step7_dead_seat_by_funds_cap_gets_its_fee_back() -> None:
    settings = HcfSettings.from_mapping({"fee_mode": "players", "fee": 2})
    result = run(settings, DP_QUALIFIES, cap_wagers({6}), button=1, stack=50)
    r = result.result(6)
    assert r.dead
    assert (r.fee, r.net) == (0, 0)
    assert result.house == 0


# ---------------------------------------------------------------- fees


@pytest.mark.parametrize(
    ("fee_mode", "player_fee", "dealer_fee"),
    [("all", 3, 3), ("players", 3, 0), ("designated", 0, 3), ("none", 0, 0)],
)
def test_section3_step3_fee_modes(fee_mode: str, player_fee: int, dealer_fee: int) -> None:
    settings = HcfSettings.from_mapping({"fee_mode": fee_mode, "fee": 3})
    wagers = [wager(2, FOUR_CARD, 10, 10), wager(3, TWO_CARD, 10, 0), wager(4, TIE_WITH_DP_QUALIFIES, 10, 10)]
    result = run(settings, DP_QUALIFIES, wagers)
    assert [r.fee for r in result.seats] == [-player_fee] * 3  # a fold is action: it pays too
    assert result.dealer_fee == -dealer_fee
    assert result.house == 3 * player_fee + dealer_fee
    assert result.result(2).net == 20 - player_fee
    assert result.result(3).net == -10 - player_fee
    assert result.result(4).net == -player_fee
    assert result.dealer_net == -20 + 10 - dealer_fee


def test_section5_dead_seat_returns_everything_including_fee() -> None:
    settings = HcfSettings.from_mapping({"fee_mode": "all"})
    wagers = [wager(2, FOUR_CARD, 10, 10, sf=5, fl=5), wager(3, TWO_CARD, 10, 10)]
    result = run(settings, DP_QUALIFIES, wagers, dead={2})
    assert result.result(2).dead
    assert result.result(2).net == 0
    assert result.result(3).net == -21
    assert result.dealer_fee == -1  # seat 3 had action
    assert result.house == 2


def test_section5_dead_folded_seat_returns_everything() -> None:
    result = run(HcfSettings(), DP_QUALIFIES, [wager(2, TWO_CARD, 10, 0, fl=5)], dead={2})
    assert result.result(2).dead
    assert (result.result(2).net, result.dealer_net, result.house) == (0, 0, 0)


@pytest.mark.parametrize("fee_mode", ["all", "designated"])
def test_section5_dp_fee_returned_when_no_player_had_action(fee_mode: str) -> None:
    settings = HcfSettings.from_mapping({"fee_mode": fee_mode})
    result = run(settings, DP_QUALIFIES, [wager(2, FOUR_CARD, 10, 10), wager(3, TWO_CARD, 10, 10)],
                 dead={2, 3})
    assert result.dealer_fee == 0
    assert (result.dealer_net, result.house) == (0, 0)


@pytest.mark.parametrize("fee_mode", ["all", "designated"])
def test_section5_dp_fee_returned_when_every_hand_dies_at_the_funds_cap(fee_mode: str) -> None:
    settings = HcfSettings.from_mapping({"fee_mode": fee_mode})
    result = run(settings, DP_QUALIFIES, cap_wagers({6}), stack=50)
    assert result.result(6).dead
    assert (result.dealer_fee, result.dealer_net, result.house) == (0, 0, 0)


@pytest.mark.parametrize("fee_mode", ["all", "designated"])
def test_section5_a_fold_is_action_dp_fee_kept(fee_mode: str) -> None:
    settings = HcfSettings.from_mapping({"fee_mode": fee_mode})
    result = run(settings, DP_QUALIFIES, [wager(2, FOUR_CARD, 10, 10), wager(3, TWO_CARD, 10, 0)], dead={2})
    assert result.dealer_fee == -1
    assert result.dealer_net == 10 - 1


# ---------------------------------------------------------------- section 5: card counts


def test_section5_seat_with_wrong_card_count_is_dead() -> None:
    short = wager(2, "Ad Td 8d 6d 4s 7s", 10, 10, fl=5)
    long = wager(3, "Ac Kd Qc Jc 9c 6c 5d 4d", 10, 10)
    result = run(HcfSettings.from_mapping({"fee_mode": "all"}), DP_QUALIFIES,
                 [short, long, wager(4, TWO_CARD, 10, 10)])
    assert result.result(2).dead
    assert result.result(3).dead
    assert not result.result(4).dead
    assert result.result(4).net == -21


def test_section5_dealer_wrong_card_count_voids_the_whole_hand() -> None:
    settings = HcfSettings.from_mapping({"fee_mode": "all"})
    for dealer in ("9h 5h 2h Kc Qd Js", "9h 5h 2h Kc Qd Js 3s 4s"):
        result = run(settings, dealer, [wager(2, FOUR_CARD.replace("4s", "2s"), 10, 10, fl=5),
                                        wager(3, TWO_CARD, 10, 0)])
        assert result.void
        assert all(r.dead and r.net == 0 for r in result.seats)
        assert (result.dealer_fee, result.dealer_net, result.house) == (0, 0, 0)


# ---------------------------------------------------------------- refused scenarios


@pytest.mark.parametrize(
    ("wagers", "message"),
    [
        ([wager(2, DP_QUALIFIES, 10, 10)], "duplicate card"),
        ([wager(2, FOUR_CARD, 10, 10), wager(3, FOUR_CARD.replace("Ad", "Ac"), 10, 10)], "duplicate card"),
        ([wager(1, FOUR_CARD, 10, 10)], "button"),
        ([wager(8, FOUR_CARD, 10, 10)], "no such seat"),
        ([wager(2, FOUR_CARD, 10, 10), wager(2, TWO_CARD, 10, 10)], "listed twice"),
        ([wager(2, FOUR_CARD, 0, 0, fl=5)], "needs an Ante"),
        ([wager(2, FOUR_CARD, 10, 20)], "outside 1x to 1x"),
        ([wager(2, FOUR_CARD, 10, 5)], "outside"),
        ([wager(2, FOUR_CARD, -10, 0)], "negative"),
    ],
)
def test_section3_settle_refuses_impossible_scenarios(wagers: list[Wager], message: str) -> None:
    with pytest.raises(SettleError, match=message):
        settle(HcfSettings(), hand(DP_QUALIFIES), wagers, button=1, dealer_stack=1000)


# ---------------------------------------------------------------- section 7: standard profile


def test_section7_bonuses_paid_on_own_hand_whether_folded_or_not() -> None:
    dealer = "Ah Kh Qh Jh Th 2c 3d"   # the dealer's 5-card flush and run do not matter
    player = "2s 3s 4s 9s 8d 6c 5c"   # 4-card flush 9-4-3-2 (1 to 1) with run 2-3-4 (7 to 1)
    for raised in (0, 10):
        result = run(STANDARD, dealer, [wager(1, player, 10, raised, sf=5, fl=5)], button=None)
        r = result.result(1)
        assert r.folded is (raised == 0)
        assert (r.straight_flush_bonus, r.flush_bonus) == (35, 5)
        assert r.ante == -10
        assert r.raise_amount == -raised


def test_section7_hand_under_the_pay_table_loses_bonuses() -> None:
    dealer = "8h 6h 4h 7c 5c 2d 3s"   # does not qualify
    player = "Ad Kd Qs 9s 2c Jc Th"   # 2-card flushes, no run
    result = run(STANDARD, dealer, [wager(1, player, 10, 10, sf=5, fl=5)], button=None)
    assert bets_of(result.result(1)) == (10, 0, -5, -5)


def test_section7_no_funds_cap() -> None:
    dealer = "9h 5h 2h Kd Qd Js 3s"
    player = "Ac Kc Qc Jc Tc 9c 8c"   # 7-card flush with a 7-card run
    result = run(STANDARD, dealer, [wager(1, player, 500, 1500, sf=100, fl=100)], button=None)
    assert bets_of(result.result(1)) == (500, 1500, 800_000, 30_000)
    assert result.dealer_net == -832_000


def test_section7_main_bets_as_in_section3_and_no_dealer_fee() -> None:
    settings = HcfSettings.from_mapping({"profile": "standard", "fee_mode": "all"})
    result = run(settings, DP_QUALIFIES, [wager(1, FOUR_CARD, 10, 10), wager(2, TWO_CARD, 10, 10),
                                          wager(3, TIE_WITH_DP_QUALIFIES, 10, 10)], button=None)
    assert result.order == (3, 2, 1)
    assert [bets_of(result.result(s))[:2] for s in (1, 2, 3)] == [(10, 10), (-10, -10), (0, 0)]
    assert result.dealer_fee == 0
    assert result.house == 3


# ---------------------------------------------------------------- property: a reference settlement

@dataclass(frozen=True)
class Scenario:
    settings: HcfSettings
    dealer_cards: tuple[Card, ...]
    wagers: tuple[Wager, ...]
    button: int | None
    dealer_stack: int | None
    dead: frozenset[int]


def reference_order(settings: HcfSettings, button: int | None) -> list[int]:
    """Counter-clockwise from the right of the button; house-banked: the reverse of a deal from seat 1."""
    n = settings.seats
    if button is None:
        return list(range(n, 0, -1))
    seat, out = button, []
    for _ in range(n - 1):
        seat = n if seat == 1 else seat - 1
        out.append(seat)
    return out


def reference_bonus_win(settings: HcfSettings, stake: int, odds: int) -> int:
    cap = settings.max_bonus_win
    return stake * odds if cap is None else min(stake * odds, cap)


def reference_bets(s: HcfSettings, w: Wager, dealer_cards: Sequence[Card]) -> tuple[int, int, int, int]:
    """docs/rules/hcf.md section 3.7 and section 7, written plainly."""
    mine, theirs = evaluate(w.cards), evaluate(dealer_cards)
    folded = w.raise_amount == 0
    sf_odds = s.straight_flush_pay(mine.straight_flush_length)
    fl_odds = s.flush_pay(mine.flush_size)
    if s.house_banked:
        sf = 0 if not w.straight_flush_bonus else (
            reference_bonus_win(s, w.straight_flush_bonus, sf_odds) if sf_odds else -w.straight_flush_bonus)
        fl = 0 if not w.flush_bonus else (
            reference_bonus_win(s, w.flush_bonus, fl_odds) if fl_odds else -w.flush_bonus)
    elif folded:
        sf, fl = -w.straight_flush_bonus, -w.flush_bonus
    else:
        my_run = (mine.straight_flush_length, mine.run_key & 15)
        dp_run = (theirs.straight_flush_length, theirs.run_key & 15)
        if not w.straight_flush_bonus:
            sf = 0
        elif mine.straight_flush_length < 3 or my_run < dp_run:
            sf = -w.straight_flush_bonus
        else:
            sf = 0 if my_run == dp_run else reference_bonus_win(s, w.straight_flush_bonus, sf_odds)
        versus = compare(w.cards, dealer_cards)
        if not w.flush_bonus:
            fl = 0
        elif mine.flush_size < 4 or versus == 2:
            fl = -w.flush_bonus
        else:
            fl = 0 if versus == 0 else reference_bonus_win(s, w.flush_bonus, fl_odds)
    if folded:
        return -w.ante, 0, sf, fl
    if not theirs.qualifies:
        return w.ante, 0, sf, fl
    versus = compare(w.cards, dealer_cards)
    sign = {0: 0, 1: 1, 2: -1}[versus]
    return sign * w.ante, sign * w.raise_amount, sf, fl


def reference_settle(sc: Scenario) -> tuple[dict[int, tuple[bool, int, int, int, int, int]], int, int, bool]:
    """Seat -> (dead, ante, raise, sf, fl, fee); dealer fee; house; void."""
    s = sc.settings
    by_seat = {w.seat: w for w in sc.wagers}
    if len(sc.dealer_cards) != 7:
        return dict.fromkeys(by_seat, (True, 0, 0, 0, 0, 0)), 0, 0, True
    dead = {w.seat for w in sc.wagers if w.seat in sc.dead or len(w.cards) != 7}
    banked = s.profile == "california"
    dealer_fee = s.fee if banked and s.fee_mode in ("all", "designated") else 0
    player_fee = s.fee if s.fee_mode in ("all", "players") else 0
    bank = (sc.dealer_stack or 0) - dealer_fee + sum(
        w.ante + w.straight_flush_bonus + w.flush_bonus for w in sc.wagers
        if w.raise_amount == 0 and w.seat not in dead)
    out: dict[int, tuple[bool, int, int, int, int, int]] = {}
    for seat in reference_order(s, sc.button):
        if seat not in by_seat:
            continue
        w = by_seat[seat]
        if seat in dead:
            out[seat] = (True, 0, 0, 0, 0, 0)
            continue
        bets = reference_bets(s, w, sc.dealer_cards)
        if banked and w.raise_amount:
            if sum(bets) > bank:
                out[seat] = (True, 0, 0, 0, 0, 0)
                continue
            bank -= sum(bets)
        out[seat] = (False, *bets, -player_fee)
    if all(r[0] for r in out.values()):
        dealer_fee = 0
    house = dealer_fee - sum(r[5] for r in out.values())
    return out, -dealer_fee, house, False


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    profile = draw(st.sampled_from(["california", "standard"]))
    seats = draw(st.integers(2, 7) if profile == "california" else st.integers(2, 6))
    settings = HcfSettings.from_mapping({
        "profile": profile,
        "seats": seats,
        "fee_mode": draw(st.sampled_from(FEE_MODES)),
        "fee": draw(st.integers(0, 3)),
        "min_ante": 5,
        "max_ante": 100,
        "min_bonus": 1,
        "max_bonus": 50,
        "max_bonus_win": draw(st.none() | st.integers(1, 3000)),
    })
    button = draw(st.integers(1, seats)) if profile == "california" else None
    candidates = [s for s in range(1, seats + 1) if s != button]
    players = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=len(candidates), unique=True))
    deck = list(draw(st.permutations(FULL_DECK)))
    short_dealer = draw(st.sampled_from([False] * 19 + [True]))
    dealer_cards = tuple(deck[:6] if short_dealer else deck[:7])
    deck = deck[7:]
    wagers = []
    for seat in players:
        size = draw(st.sampled_from([7] * 12 + [5, 6, 8]))
        cards, deck = tuple(deck[:size]), deck[size:]
        ante = draw(st.integers(5, 100))
        sf = draw(st.just(0) | st.integers(1, 50))
        fl = draw(st.just(0) | st.integers(1, 50))
        limit = evaluate(cards).raise_limit if size == 7 else 1
        raised = draw(st.just(0) | st.integers(ante, limit * ante))
        wagers.append(Wager(seat, cards, ante, sf, fl, raised))
    dead = frozenset(draw(st.lists(st.sampled_from(players), unique=True, max_size=2)))
    stack = draw(st.integers(settings.fee, 3000)) if profile == "california" else None
    return Scenario(settings, dealer_cards, tuple(wagers), button, stack, dead)


@given(scenarios())
def test_section3_settlement_conserves_chips_and_matches_the_rules(sc: Scenario) -> None:
    result = settle(sc.settings, sc.dealer_cards, sc.wagers, button=sc.button,
                    dealer_stack=sc.dealer_stack, dead_seats=sc.dead)
    assert_conserves(result)
    expected, dealer_fee, house, void = reference_settle(sc)
    got = {r.seat: (r.dead, *bets_of(r), r.fee) for r in result.seats}
    assert got == expected
    assert (result.dealer_fee, result.house, result.void) == (dealer_fee, house, void)
    assert list(result.order) == [s for s in reference_order(sc.settings, sc.button)
                                  if s in {w.seat for w in sc.wagers}]
    # Every dead seat gets back exactly what it staked: all zeros.
    for w in sc.wagers:
        if w.seat in sc.dead or len(w.cards) != 7:
            assert result.result(w.seat).net == 0
    # No settled seat takes more than the DP's bank holds at its turn.
    if not sc.settings.house_banked and not result.void:
        bank = sc.dealer_stack + result.dealer_fee + sum(  # type: ignore[operator]
            w.staked for w in sc.wagers if w.folded and not result.result(w.seat).dead)
        for seat in result.order:
            r = result.result(seat)
            if r.dead or r.folded:
                continue
            assert r.bets <= bank
            bank -= r.bets
        assert bank >= 0


# ---------------------------------------------------------------- section 5: every dead seat says why


def reference_reasons(sc: Scenario) -> dict[int, tuple[str, int | None, int | None]]:
    """Seat -> (why it is dead, the DP's bank then, what it was owed), for the dead seats only."""
    if len(sc.dealer_cards) != 7:
        return {w.seat: ("void", None, None) for w in sc.wagers}
    out: dict[int, tuple[str, int | None, int | None]] = {
        w.seat: ("card_count" if len(w.cards) != 7 else "floor", None, None)
        for w in sc.wagers if w.seat in sc.dead or len(w.cards) != 7}
    if sc.settings.house_banked:
        return out
    by_seat = {w.seat: w for w in sc.wagers}
    dealer_fee = sc.settings.fee if sc.settings.fee_mode in ("all", "designated") else 0
    bank = (sc.dealer_stack or 0) - dealer_fee + sum(w.staked for w in sc.wagers if w.folded and w.seat not in out)
    for seat in reference_order(sc.settings, sc.button):
        w = by_seat.get(seat)
        if w is None or seat in out or not w.raise_amount:
            continue
        owed = sum(reference_bets(sc.settings, w, sc.dealer_cards))
        if owed > bank:
            out[seat] = ("funds", bank, owed)
        else:
            bank -= owed
    return out


@given(scenarios())
def test_section5_every_dead_seat_says_why_and_a_funds_kill_what_the_bank_could_not_cover(sc: Scenario) -> None:
    result = settle(sc.settings, sc.dealer_cards, sc.wagers, button=sc.button,
                    dealer_stack=sc.dealer_stack, dead_seats=sc.dead)
    got = {r.seat: (r.dead_reason, r.bank, r.owed) for r in result.seats if r.dead}
    assert got == reference_reasons(sc)
    for r in result.seats:
        if not r.dead:
            assert (r.dead_reason, r.bank, r.owed) == (None, None, None)
            continue
        assert r.dead_reason in DEAD_REASONS
        amounts = {k: v for k, v in r.as_json().items() if k in ("bank", "owed")}
        if r.dead_reason == "funds":
            assert amounts == {"bank": r.bank, "owed": r.owed}
            assert r.owed is not None
            assert r.bank is not None
            assert r.owed > r.bank >= 0
        else:
            assert amounts == {}, "only the funds cap has amounts"


def test_section5_the_reason_given_for_a_dead_seat_is_kept() -> None:
    wagers = [wager(2, FOUR_CARD, 10, 10), wager(3, TWO_CARD, 10, 10)]
    result = settle(NO_FEE, parse_cards(DP_QUALIFIES), wagers, button=1, dealer_stack=1000,
                    dead_seats={2: "card_count", 3: "floor"})
    assert [(r.seat, r.dead_reason) for r in result.seats] == [(3, "floor"), (2, "card_count")]
    assert result.result(3).as_json()["dead_reason"] == "floor"


def test_section3_step7_a_funds_kill_names_the_bank_at_its_turn_and_the_sum_owed() -> None:
    # bank 50 -> seat 7 loses 100: 150 -> seat 6 wins 120: 30 -> seat 5 would win 40: dead
    r = run(NO_FEE, DP_QUALIFIES, cap_wagers({4, 5, 6, 7}), button=1, stack=50).result(5)
    assert (r.dead, r.dead_reason, r.bank, r.owed) == (True, "funds", 30, 40)
    assert r.as_json() == {"seat": 5, "dead": True, "folded": False, "ante": 0, "raise": 0,
                           "straight_flush_bonus": 0, "flush_bonus": 0, "fee": 0, "net": 0,
                           "dead_reason": "funds", "bank": 30, "owed": 40}


def test_section5_a_settlement_logged_before_dead_seats_said_why_still_loads() -> None:
    result = run(NO_FEE, DP_QUALIFIES, cap_wagers({4, 5, 6, 7}), button=1, stack=50)
    logged = SETTLEMENT.write(result)
    assert SETTLEMENT.read(json.loads(json.dumps(logged))) == result
    old = {**logged, "seats": [{k: v for k, v in r.items() if k not in ("dead_reason", "bank", "owed")}
                               for r in logged["seats"]]}
    loaded = SETTLEMENT.read(old)
    assert (loaded.result(5).dead, loaded.result(5).dead_reason, loaded.result(5).bank) == (True, None, None)
    assert [r.net for r in loaded.seats] == [r.net for r in result.seats]
