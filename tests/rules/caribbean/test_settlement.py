"""docs/rules/caribbean.md section 3.5 (settlement), section 4 (the progressive jackpot), section 5 (dead hands).

Every settled hand is checked for conservation in hundredths of a chip:
``100 * sum(net) + house_net + (meter_after - meter_before) == 0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.cards import FULL_DECK, make_card, parse_cards
from server.rules.caribbean.messages import settlement_as_json, settlement_from_json
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import (
    CaribbeanSettlement,
    SettleError,
    SpotResult,
    SpotWager,
    capped,
    house_net,
    settle,
)
from server.rules.poker import class_name, rank5

PLAIN = CaribbeanSettings()
SEED = PLAIN.jackpot_seed * 100

D_NOT_QUALIFYING = "Ac Qd Jh Ts 9c"  # A-Q-J-T-9: the highest hand that does not qualify
D_AK = "Ac Kd 4h 3s 2c"              # A-K-4-3-2: the lowest that does
D_EIGHTS = "8c 8d Ah 5s 2c"          # a pair of eights

# Player hands sharing no card with D_AK, one per Back Bet row.
AGAINST_AK = {
    "royal": "Ah Kh Qh Jh Th",
    "straight_flush": "9s 8s 7s 6s 5s",
    "quads": "Qc Qd Qh Qs 5d",
    "full_house": "Jc Jd Jh 6s 6d",
    "flush": "Kh 9h 7h 5h 2h",
    "straight": "9c Td Jh Qs Kc",
    "trips": "7c 7d 7h 9s 5c",
    "two_pair": "9h 9s 4c 4d Jh",
    "pair": "2d 2h 6c 8d Tc",
    "high_card": "Ah Kc 5d 3c 2d",
}
BACK_BET_PAYS = {"royal": 100, "straight_flush": 50, "quads": 20, "full_house": 7, "flush": 5, "straight": 4,
                 "trips": 3, "two_pair": 2, "pair": 1, "high_card": 1}

# Straight flushes and royals for the jackpot tests, in every suit.
ROYAL = {s: f"A{s} K{s} Q{s} J{s} T{s}" for s in "cdhs"}
NINE_HIGH_SF = {s: f"9{s} 8{s} 7{s} 6{s} 5{s}" for s in "cdhs"}
DEALER_FOR_JACKPOTS = "2c 2d 3h 3s 4c"  # two pair: qualifies, shares no card with the hands above


def spot(number: int, cards: str, ante: int = 10, *, play: bool = True, jackpot: bool = False,
         dead: bool = False) -> SpotWager:
    return SpotWager(number, parse_cards(cards), ante, play=play, jackpot=jackpot, dead=dead)


def run(dealer: str, spots: Sequence[SpotWager], *, meter: int = SEED, table: CaribbeanSettings = PLAIN,
        **overrides: Any) -> CaribbeanSettlement:
    if overrides:
        table = CaribbeanSettings.from_mapping(overrides, base=table)
    result = settle(table, meter, parse_cards(dealer), spots)
    assert_conserves(result, table)
    return result


def assert_conserves(result: CaribbeanSettlement, table: CaribbeanSettings) -> None:
    total = sum(r.net for r in result.spots)
    assert 100 * total + house_net(result, table) + result.meter_after - result.meter_before == 0
    assert result.meter_after >= 0
    assert list(result.order) == sorted(result.order, reverse=True) == [r.spot for r in result.spots]
    for r in result.spots:
        assert r.net == r.ante + r.bet + r.jackpot
        assert 0 <= r.award_from_meter <= r.jackpot_award
        if r.dead:
            assert (r.ante, r.bet, r.jackpot, r.jackpot_award, r.net) == (0, 0, 0, 0, 0)
        if r.folded:
            assert r.bet == 0


def bets(r: SpotResult) -> tuple[int, int]:
    return r.ante, r.bet


# ---------------------------------------------------------------- step 5: the Ante and the Back Bet


def test_step5_dealer_does_not_qualify_ante_wins_back_bet_pushes() -> None:
    result = run(D_NOT_QUALIFYING, [spot(1, "Kh Kd 7c 7d 2h"), spot(2, "2s 3d 5c 6h 8h")])
    assert not result.dealer_qualifies
    assert bets(result.result(1)) == (10, 0)
    assert bets(result.result(2)) == (10, 0)  # even a hand the dealer's would beat


@pytest.mark.parametrize("cls", list(AGAINST_AK))
def test_step5_dealer_qualifies_player_higher_wins_the_pay_table(cls: str) -> None:
    result = run(D_AK, [spot(3, AGAINST_AK[cls])])
    assert result.dealer_qualifies
    r = result.result(3)
    assert r.cls == cls
    assert bets(r) == (10, 20 * BACK_BET_PAYS[cls])


def test_step5_pay_table_is_the_players_own_hand_as_set() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["flush"])], bet_pays={**dict(PLAIN.bet_pays), "flush": 6})
    assert bets(result.result(1)) == (10, 120)


def test_step5_dealer_qualifies_equal_hands_push() -> None:
    result = run(D_AK, [spot(1, "As Kh 4d 3c 2h")])
    assert bets(result.result(1)) == (0, 0)
    assert result.result(1).net == 0


def test_step5_dealer_qualifies_dealer_higher_both_lose() -> None:
    result = run(D_EIGHTS, [spot(1, "As Ks 6d 4c 3d", ante=7)])
    assert bets(result.result(1)) == (-7, -14)


def test_step5_folded_hand_has_lost_its_ante() -> None:
    for dealer in (D_NOT_QUALIFYING, D_EIGHTS):
        result = run(dealer, [spot(4, "Kh Kd 7c 7d 3h", play=False)])
        r = result.result(4)
        assert r.folded
        assert (r.ante, r.bet, r.net) == (-10, 0, -10)


def test_step5_settlement_runs_from_the_highest_spot_down() -> None:
    result = run(D_AK, [spot(2, AGAINST_AK["pair"]), spot(7, AGAINST_AK["trips"]), spot(4, AGAINST_AK["straight"])])
    assert result.order == (7, 4, 2)
    assert [r.spot for r in result.spots] == [7, 4, 2]


# ---------------------------------------------------------------- step 5: max_payout


def test_step5_max_payout_takes_the_excess_off_the_back_bet_first() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["two_pair"])], max_payout=25)
    assert bets(result.result(1)) == (10, 15)


def test_step5_max_payout_below_the_antes_win_leaves_the_ante_winning_the_cap() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["two_pair"])], max_payout=4)
    assert bets(result.result(1)) == (4, 0)
    unqualified = run(D_NOT_QUALIFYING, [spot(1, "Kh Kd 7c 7d 2h")], max_payout=4)
    assert bets(unqualified.result(1)) == (4, 0)


def test_step5_max_payout_at_the_exact_win_changes_nothing() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["two_pair"])], max_payout=50)
    assert bets(result.result(1)) == (10, 40)


def test_step5_max_payout_never_takes_stakes() -> None:
    lost = run(D_EIGHTS, [spot(1, "As Ks 6d 4c 3d")], max_payout=1)
    assert bets(lost.result(1)) == (-10, -20)
    folded = run(D_EIGHTS, [spot(1, "As Ks 6d 4c 3d", play=False)], max_payout=1)
    assert bets(folded.result(1)) == (-10, 0)


def test_step5_capped_helper_matches_the_rule() -> None:
    table = CaribbeanSettings(max_payout=100)
    assert capped(table, 10, 2000) == (10, 90)
    assert capped(table, 150, 0) == (100, 0)
    assert capped(PLAIN, 10, 2000) == (10, 2000)


def test_section4_jackpot_awards_are_not_capped_by_max_payout() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["quads"], jackpot=True)], max_payout=5)
    r = result.result(1)
    assert bets(r) == (5, 0)
    assert (r.jackpot_award, r.jackpot) == (500, 499)


# ---------------------------------------------------------------- section 5: dead hands


def test_section5_dead_hand_gets_every_bet_back_and_adds_nothing_to_the_meter() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["royal"], jackpot=True, dead=True), spot(2, AGAINST_AK["pair"])])
    r = result.result(1)
    assert r.dead
    assert not r.folded
    assert (r.ante, r.bet, r.jackpot, r.jackpot_award, r.net) == (0, 0, 0, 0, 0)
    assert result.contributions == 0
    assert result.meter_after == SEED  # a dead royal takes nothing either
    assert result.jackpot_wagers == 0


def test_section5_a_dead_spot_says_why_and_an_old_record_without_the_reason_still_loads() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["pair"], dead=True), spot(2, "9h 9s 4c 4d"), spot(3, AGAINST_AK["quads"])])
    assert [(r.spot, r.dead_reason) for r in result.spots] == [(3, None), (2, "card_count"), (1, "floor")]
    assert result.result(1).as_json()["dead_reason"] == "floor"
    assert "dead_reason" not in result.result(3).as_json(), "a live spot's result is as it always was"
    logged = settlement_as_json(result)
    assert settlement_from_json(logged) == result
    old = {**logged, "spots": [{k: v for k, v in r.items() if k != "dead_reason"} for r in logged["spots"]]}
    assert [r.dead_reason for r in settlement_from_json(old).spots] == [None, None, None]


def test_section5_a_hand_with_the_wrong_card_count_is_dead() -> None:
    result = run(D_AK, [spot(1, "9h 9s 4c 4d", jackpot=True), spot(2, AGAINST_AK["pair"])])
    assert result.result(1).dead
    assert result.result(1).cls == "none"
    assert bets(result.result(2)) == (10, 20)


def test_section5_a_dealer_without_five_cards_kills_the_whole_hand() -> None:
    result = run("Ac Kd 4h 3s", [spot(1, AGAINST_AK["quads"], jackpot=True)], meter=12_345)
    assert all(r.dead for r in result.spots)
    assert result.meter_after == 12_345
    assert not result.dealer_qualifies


# ---------------------------------------------------------------- section 4: the jackpot


@pytest.mark.parametrize(("cls", "award"), [("flush", 50), ("full_house", 100), ("quads", 500)])
def test_section4_fixed_awards_paid_for_one_by_the_house(cls: str, award: int) -> None:
    result = run(D_AK, [spot(1, AGAINST_AK[cls], jackpot=True)])
    r = result.result(1)
    assert (r.jackpot_award, r.award_from_meter, r.jackpot) == (award, 0, award - 1)
    assert result.meter_after == SEED + 50  # the meter only gains the contribution


@pytest.mark.parametrize("cls", ["straight", "trips", "two_pair", "pair", "high_card"])
def test_section4_below_a_flush_the_wager_is_lost(cls: str) -> None:
    r = run(D_AK, [spot(1, AGAINST_AK[cls], jackpot=True)]).result(1)
    assert (r.jackpot_award, r.jackpot) == (0, -1)


def test_section4_the_wager_is_the_tables_jackpot_wager() -> None:
    r = run(D_AK, [spot(1, AGAINST_AK["flush"], jackpot=True)], jackpot_wager=5).result(1)
    assert (r.jackpot_award, r.jackpot) == (50, 45)


def test_section4_judged_on_the_hands_own_cards_whatever_the_dealer_holds() -> None:
    dealer = "Ac Ad Ah 8s 8c"  # a full house beats the player's flush
    result = run(dealer, [spot(1, "Kh 9h 7h 5h 2h", jackpot=True)])
    r = result.result(1)
    assert bets(r) == (-10, -20)
    assert r.jackpot == 49
    not_qualifying = run(D_NOT_QUALIFYING, [spot(1, "Kh 9h 7h 5h 2h", jackpot=True)]).result(1)
    assert not_qualifying.jackpot == 49


def test_section4_a_folded_hand_keeps_its_jackpot_chance() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["full_house"], play=False, jackpot=True)])
    r = result.result(1)
    assert (r.ante, r.bet, r.jackpot, r.net) == (-10, 0, 99, 89)


def test_section4_straight_flush_takes_ten_percent_rounded_down_the_fraction_stays() -> None:
    result = run(DEALER_FOR_JACKPOTS, [spot(1, NINE_HIGH_SF["h"], jackpot=True)], meter=12_345)
    r = result.result(1)
    # 123.45 + 0.50 = 123.95 chips; 10% is 12.395: 12 whole chips, the rest stays.
    assert (r.jackpot_award, r.award_from_meter, r.jackpot) == (12, 12, 11)
    assert result.meter_after == 12_395 - 1_200


def test_section4_contributions_come_before_any_award() -> None:
    # 99.50 chips + 0.50 = 100.00: 10% is 10 chips (it would be 9 if the contribution came after).
    result = run(DEALER_FOR_JACKPOTS, [spot(1, NINE_HIGH_SF["h"], jackpot=True)], meter=9_950)
    assert result.result(1).jackpot_award == 10
    assert result.contributions == 50
    # The royal, too, takes its own hand's wagers: both of them.
    result = run(DEALER_FOR_JACKPOTS, [spot(1, ROYAL["h"], jackpot=True), spot(2, "6d 7d 9c Tc Qs", jackpot=True)],
                 meter=9_900)
    assert result.result(1).jackpot_award == 100
    assert result.meter_after == SEED


def test_section4_royal_takes_the_meter_which_resets_to_the_seed_plus_the_fraction() -> None:
    result = run(DEALER_FOR_JACKPOTS, [spot(1, ROYAL["s"], jackpot=True)], meter=1_234_567)
    r = result.result(1)
    assert (r.jackpot_award, r.award_from_meter) == (12_346, 12_346)
    assert result.meter_after == SEED + 17
    assert result.seed_funding == 10_000


def test_section4_reset_uses_the_current_seed_setting() -> None:
    result = run(DEALER_FOR_JACKPOTS, [spot(1, ROYAL["s"], jackpot=True)], meter=700_000, jackpot_seed=2_000)
    assert result.result(1).jackpot_award == 7_000
    assert result.meter_after == 200_050  # 2,000 chips and the 0.50 left over
    assert result.seed_funding == 2_000


def test_section4_awards_in_settlement_order_highest_spot_first() -> None:
    result = run(DEALER_FOR_JACKPOTS, [spot(2, NINE_HIGH_SF["h"], jackpot=True),
                                       spot(5, NINE_HIGH_SF["s"], jackpot=True)], meter=1_000_000 - 100)
    # Meter 10,000 chips after both contributions; spot 5 takes 1,000, spot 2 takes 10% of 9,000.
    assert result.result(5).jackpot_award == 1_000
    assert result.result(2).jackpot_award == 900
    assert result.meter_after == 810_000


def test_section4_straight_flush_before_a_royal_lowers_the_royal() -> None:
    result = run(DEALER_FOR_JACKPOTS, [spot(6, NINE_HIGH_SF["h"], jackpot=True), spot(3, ROYAL["s"], jackpot=True)],
                 meter=1_000_000 - 100)
    assert result.result(6).jackpot_award == 1_000
    assert result.result(3).jackpot_award == 9_000
    assert result.meter_after == SEED


def test_section4_straight_flush_after_a_royal_takes_ten_percent_of_the_new_meter() -> None:
    result = run(DEALER_FOR_JACKPOTS, [spot(6, ROYAL["s"], jackpot=True), spot(3, NINE_HIGH_SF["h"], jackpot=True)],
                 meter=5_000_000 - 100 + 37)
    assert result.result(6).jackpot_award == 50_000
    # Reset to 10,000.37 chips: 10% is 1,000.037, so 1,000 chips and 9,000.37 stay.
    assert result.result(3).jackpot_award == 1_000
    assert result.meter_after == 900_037


def test_section4_royals_of_one_hand_split_the_meter_equally() -> None:
    spots = [spot(5, ROYAL["s"], jackpot=True), spot(2, ROYAL["h"], jackpot=True),
             spot(4, ROYAL["d"]), spot(1, "6c 7c 9d Tc 8h", jackpot=True)]
    result = run(DEALER_FOR_JACKPOTS, spots, meter=2_000_051 - 150)
    # 20,000.51 chips after three contributions: 10,000 each for the two royals with a wager.
    assert result.result(5).jackpot_award == result.result(2).jackpot_award == 10_000
    assert result.result(4).jackpot_award == 0  # a royal without the wager takes no share
    assert result.meter_after == SEED + 51
    assert result.seed_funding == 10_000  # the seed is funded once


def test_section4_an_odd_split_leaves_the_remainder_on_the_meter() -> None:
    result = run(DEALER_FOR_JACKPOTS, [spot(5, ROYAL["s"], jackpot=True), spot(2, ROYAL["h"], jackpot=True)],
                 meter=1_000_101 - 100)
    assert result.result(5).jackpot_award == result.result(2).jackpot_award == 5_000
    assert result.meter_after == SEED + 101


def test_section4_straight_flush_between_split_royals_takes_from_the_new_meter() -> None:
    spots = [spot(6, ROYAL["s"], jackpot=True), spot(4, NINE_HIGH_SF["h"], jackpot=True),
             spot(2, ROYAL["d"], jackpot=True)]
    result = run(DEALER_FOR_JACKPOTS, spots, meter=3_000_000 - 150)
    assert result.result(6).jackpot_award == result.result(2).jackpot_award == 15_000
    assert result.result(4).jackpot_award == 1_000
    assert result.meter_after == 900_000


def test_section4_no_jackpot_table_refuses_the_wager_and_leaves_the_meter() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["quads"])], jackpot=False, meter=777)
    assert result.meter_after == 777
    assert result.contributions == 0
    assert result.result(1).jackpot == 0
    with pytest.raises(SettleError, match="spot 1: a jackpot wager on a table without the jackpot"):
        run(D_AK, [spot(1, AGAINST_AK["quads"], jackpot=True)], jackpot=False)


def test_section4_rate_sets_the_contribution() -> None:
    result = run(D_AK, [spot(1, AGAINST_AK["pair"], jackpot=True), spot(2, AGAINST_AK["trips"], jackpot=True)],
                 jackpot_rate=70, jackpot_wager=2)
    assert result.contributions == 280
    assert result.meter_after == SEED + 280


def test_section4_house_net_in_hundredths() -> None:
    table = PLAIN
    result = run(D_AK, [spot(2, AGAINST_AK["quads"], jackpot=True), spot(1, AGAINST_AK["pair"], jackpot=True)])
    # House: pays 10 + 400 and 10 + 20, pays 500, collects 2 wagers, gives 1.00 chip to the meter.
    assert house_net(result, table) == 100 * (-410 - 30 - 500 + 2) - 100


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("spots", "meter", "message"),
    [
        ([spot(0, AGAINST_AK["pair"])], SEED, "spot 0: no such spot at a 7-spot table"),
        ([spot(8, AGAINST_AK["pair"])], SEED, "spot 8: no such spot"),
        ([spot(1, AGAINST_AK["pair"]), spot(1, AGAINST_AK["trips"])], SEED, "spot 1: listed twice"),
        ([spot(1, AGAINST_AK["pair"], ante=0)], SEED, "spot 1: ante must be at least 1 chip"),
        ([spot(1, "Ac 2h 3h 4h 5h")], SEED, r"spot 1: duplicate card Ac \(also in the dealer's hand\)"),
        ([spot(2, "2d 2h 6c 8d Tc"), spot(1, "2d 3d 6s 8s Ts")], SEED, r"spot 1: duplicate card 2d \(also in spot 2"),
        ([spot(1, AGAINST_AK["pair"])], -1, "meter: must be a whole number"),
    ],
)
def test_unsettleable_hands_are_refused(spots: list[SpotWager], meter: int, message: str) -> None:
    with pytest.raises(SettleError, match=message) as caught:
        settle(PLAIN, meter, parse_cards(D_AK), spots)
    assert caught.value.code == "settle/invalid"


# ---------------------------------------------------------------- conservation


@st.composite
def deals(draw: st.DrawFn) -> tuple[CaribbeanSettings, int, tuple[int, ...], list[SpotWager]]:
    """A table, a meter and a deal in which some hands are straight flushes or royals on purpose."""
    table = CaribbeanSettings.from_mapping({
        "spots": 9, "max_hands": 9,
        "max_payout": draw(st.none() | st.integers(1, 3000)),
        "jackpot_rate": draw(st.integers(0, 100)),
        "jackpot_wager": draw(st.integers(1, 5)),
        "jackpot_seed": draw(st.integers(0, 20_000)),
    })
    count = draw(st.integers(1, 9))
    rigged: list[tuple[int, ...]] = []
    used: set[int] = set()
    for suit in draw(st.lists(st.integers(0, 3), unique=True, max_size=min(count, 4))):
        top = draw(st.integers(4, 12))
        ranks = [12, 0, 1, 2, 3] if top == 3 else range(top - 4, top + 1)
        hand = tuple(make_card(r, suit) for r in ranks)
        rigged.append(hand)
        used.update(hand)
    rest = draw(st.permutations([c for c in FULL_DECK if c not in used]))
    hands = [*rigged, *(tuple(rest[5 * i: 5 * i + 5]) for i in range(count + 1 - len(rigged)))]
    dealer, players = hands[-1], hands[:-1]
    numbers = draw(st.permutations(range(1, 10)))[:count]
    spots = [SpotWager(n, cards, draw(st.integers(1, 500)), play=draw(st.booleans()), dead=draw(st.booleans()),
                       jackpot=draw(st.booleans())) for n, cards in zip(numbers, players, strict=True)]
    return table, draw(st.integers(0, 10**8)), dealer, spots


@settings(max_examples=300, deadline=None)
@given(deals())
def test_section4_chips_are_conserved_in_hundredths_meter_included(
        deal: tuple[CaribbeanSettings, int, tuple[int, ...], list[SpotWager]]) -> None:
    table, meter, dealer, spots = deal
    result = settle(table, meter, dealer, spots)
    assert_conserves(result, table)
    live = [w for w in spots if not w.dead]
    assert result.contributions == sum(w.jackpot for w in live) * table.contribution
    royals = [w for w in live if w.jackpot and class_name(rank5(w.cards)) == "royal"]
    assert result.seed_funding == (table.jackpot_seed if royals else 0)
    for w in spots:
        r = result.result(w.spot)
        assert r.jackpot_award == 0 or (w.jackpot and not w.dead)
        if not w.dead and not w.play:
            assert r.ante == -w.ante
