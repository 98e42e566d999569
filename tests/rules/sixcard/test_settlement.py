"""docs/rules/sixcard.md sections 3 to 7: roles, play order, draws, the dealer exchange, settlement, caps, dead boxes.

Amounts are the player's change in chips; A is the Ante (10 here), k the Bet's pay.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.rules.cards import Card, parse_cards
from server.rules.poker import best_five, class_name, qualifies_pair, rank5
from server.rules.sixcard.messages import settlement_as_json, settlement_from_json
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.settlement import (
    BoxWager,
    Draw,
    SettleError,
    SixcardSettlement,
    box_roles,
    capped,
    dealer_exchange,
    final_cards,
    play_order,
    ratio_ok,
    settle,
)

A = 10
QUALIFIER = "Kc Kd 7h 4s 2c"           # a pair of kings
NO_QUALIFIER = "Ad 9c 7h 4s 2d"        # ace high; the ace goes in an exchange
PAIRS_IT = "9d"                        # -> 9c 9d 7h 4s 2d, a pair of nines: qualifies
MISSES = "3c"                          # -> 9c 3c 7h 4s 2d: still no qualifier
TRIPS = "Qs Qh Qd 8c 3h"               # k = 3; beats both dealer hands
TIES_KINGS = "Kh Ks 7d 4d 2h"          # ties the qualifier
TIES_NINES = "9h 9s 7c 4c 2s"          # ties the dealer after PAIRS_IT
LOSER = "5c 5d 8h 6s 3s"               # loses to both dealer hands
HIGH = "Jc Td 8d 6c 3d"                # high card


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def card(text: str) -> Card:
    return parse_cards(text)[0]


def box(number: int, hand: str, *, ante: int = A, bonus: int = 0, player: str = "p", raised: bool = True,
        ask: bool = False, draw: Draw | None = None, dead: bool = False) -> BoxWager:
    return BoxWager(number, player, cards(hand), ante=ante, bonus=bonus, draw=draw, raised=raised,
                    exchange_request=ask, dead=dead)


def swap(old: str, new: str) -> Draw:
    """An exchange of one card for one of the same rank: the hand's value is unchanged."""
    return Draw("exchange", cards(old), cards(new))


def run(dealer: str, boxes: list[BoxWager], replacement: str | None = None, **table: Any) -> SixcardSettlement:
    return settle(SixcardSettings.from_mapping(table), cards(dealer),
                  None if replacement is None else card(replacement), boxes)


def parts(settlement: SixcardSettlement, number: int = 1) -> tuple[int, int]:
    result = settlement.result(number)
    return result.ante, result.bet


# ---------------------------------------------------------------- section 3: boxes, roles, order


def test_section3_first_two_played_boxes_open_the_rest_blind() -> None:
    roles = box_roles([box(n, "", player="p") for n in (1, 2, 3, 4)])
    assert roles == {1: "open", 2: "open", 3: "blind", 4: "blind"}


def test_section3_roles_are_counted_per_player() -> None:
    boxes = [box(1, "", player="x"), box(2, "", player="y"), box(3, "", player="x"), box(4, "", player="x")]
    assert box_roles(boxes) == {1: "open", 2: "open", 3: "open", 4: "blind"}


def test_section3_a_bonus_only_box_is_neither_open_nor_blind() -> None:
    boxes = [box(1, "", ante=0, bonus=5), box(2, ""), box(3, ""), box(4, "")]
    assert box_roles(boxes) == {1: "bonus_only", 2: "open", 3: "open", 4: "blind"}


def test_section3_ratio_rule_allows_exactly_the_ratio() -> None:
    assert ratio_ok([5, 25], 5)
    assert ratio_ok([25, 5, 10], 5)
    assert not ratio_ok([5, 26], 5)
    assert ratio_ok([7], 5)
    assert ratio_ok([0, 5, 25], 5)  # a bonus-only box has no Ante to compare


def test_section3_the_larger_bet_plays_first() -> None:
    boxes = [box(1, "", ante=5), box(2, "", ante=20)]
    assert play_order(boxes) == [2, 1]


def test_section3_equal_antes_play_in_box_order() -> None:
    assert play_order([box(1, ""), box(3, "")]) == [1, 3]


def test_section3_players_act_in_order_of_their_lowest_played_box() -> None:
    boxes = [box(1, "", player="y", ante=0, bonus=1), box(2, "", player="x", ante=5), box(3, "", player="y"),
             box(4, "", player="x", ante=50)]
    # y's lowest *played* box is 3, after x's 2; a bonus-only box takes no turn.
    assert play_order(boxes) == [4, 2, 3]


def test_section3_the_order_rule_never_makes_a_blind_box_open() -> None:
    boxes = [box(1, "", ante=5), box(2, "", ante=5), box(3, "", ante=25)]
    assert play_order(boxes) == [1, 2]
    assert box_roles(boxes)[3] == "blind"


def test_section3_blind_box_plays_whatever_its_raise_key_says() -> None:
    boxes = [box(1, HIGH, raised=False), box(2, LOSER, raised=False), box(3, TRIPS, raised=False)]
    result = run(QUALIFIER, boxes).result(3)
    assert result.blind
    assert (result.ante, result.bet, result.net) == (A, 6 * A, 7 * A)
    assert result.as_json()["blind"] is True


def test_section3_blind_box_cannot_draw() -> None:
    boxes = [box(1, HIGH, raised=False), box(2, LOSER, raised=False), box(3, TRIPS, draw=swap("3h", "3s"))]
    with pytest.raises(SettleError, match="box 3: a blind box cannot buy or exchange"):
        run(QUALIFIER, boxes)


def test_section3_blind_box_may_ask_for_the_dealer_exchange() -> None:
    boxes = [box(1, HIGH, raised=False), box(2, LOSER, raised=False), box(3, TRIPS, ask=True)]
    s = run(NO_QUALIFIER, boxes, PAIRS_IT)
    assert s.exchanged
    assert parts(s, 3) == (0, 6 * A)


def test_section3_bonus_only_box_settles_only_its_bonus() -> None:
    s = run(QUALIFIER, [box(1, TRIPS, ante=0, bonus=4)])
    assert s.boxes[0].as_json() == {"box": 1, "blind": False, "draw_fee": 0, "ante": 0, "bet": 0, "bonus": 100,
                                    "net": 100}
    assert s.boxes[0].role == "bonus_only"


def test_section3_bonus_only_box_cannot_draw() -> None:
    with pytest.raises(SettleError, match="box 1: a bonus-only box cannot buy or exchange"):
        run(QUALIFIER, [box(1, TRIPS, ante=0, bonus=4, draw=swap("3h", "3s"))])


# ---------------------------------------------------------------- section 4: draws


def test_section4_buy_adds_a_sixth_card_and_the_best_five_plays() -> None:
    bought = Draw("buy", new=cards("Qc"))
    assert final_cards(cards(TRIPS), bought) == (*cards(TRIPS), card("Qc"))
    result = run(QUALIFIER, [box(1, TRIPS, draw=bought)]).result(1)
    assert result.cls == "quads"
    assert (result.draw_fee, result.ante, result.bet) == (-A, A, 2 * 20 * A)


@pytest.mark.parametrize("discard", ["8c", "8c 3h", "Qs Qh Qd 8c 3h"])
def test_section4_exchange_of_1_2_or_5_cards(discard: str) -> None:
    new = ["As", "Ac", "Ah", "Kh", "Jh"][: len(discard.split())]
    draw = Draw("exchange", cards(discard), cards(" ".join(new)))
    final = final_cards(cards(TRIPS), draw)
    assert len(final) == 5
    assert not set(cards(discard)) & set(final)  # discards are dead
    assert run(QUALIFIER, [box(1, TRIPS, draw=draw)]).result(1).draw_fee == -A


@pytest.mark.parametrize("discard", ["8c 3h Qs", "8c 3h Qs Qh"])
def test_section4_exchange_of_3_or_4_cards_is_refused(discard: str) -> None:
    draw = Draw("exchange", cards(discard), cards("As Ac Ah Kh")[: len(discard.split())])
    with pytest.raises(SettleError, match="box 1: an exchange replaces 1, 2 or 5 cards"):
        run(QUALIFIER, [box(1, TRIPS, draw=draw)])


@pytest.mark.parametrize(
    ("draw", "message"),
    [
        (Draw("buy", new=cards("As Ac")), "a buy adds exactly one card"),
        (Draw("exchange", cards("9c"), cards("As")), "the discard 9c is not one of the box's cards"),
        (Draw("exchange", cards("8c"), cards("As Ac")), "takes 1 new ones"),
        (Draw("exchange", cards("8c"), cards("Qs")), "already in the hand"),
        (Draw("buy", new=cards("Kc")), "Kc is dealt twice"),
    ],
)
def test_section4_a_draw_must_fit_the_hand_and_the_deck(draw: Draw, message: str) -> None:
    with pytest.raises(SettleError, match=message):
        run(QUALIFIER, [box(1, TRIPS, draw=draw)])


def test_section4_draw_fee_is_kept_even_when_the_box_folds() -> None:
    result = run(QUALIFIER, [box(1, HIGH, raised=False, draw=Draw("buy", new=cards("Ah")))]).result(1)
    assert (result.draw_fee, result.ante, result.bet, result.net) == (-A, -A, 0, -2 * A)
    assert result.folded


# ---------------------------------------------------------------- section 5: the dealer exchange


def test_section5_highest_card_is_replaced_once_for_the_whole_table() -> None:
    boxes = [box(1, TRIPS, player="x", ask=True), box(2, LOSER, player="y", ask=True), box(3, TIES_NINES,
                                                                                            player="z")]
    s = run(NO_QUALIFIER, boxes, PAIRS_IT)
    assert s.exchanged
    assert s.dealer_after == cards("9d 9c 7h 4s 2d")
    assert s.as_json()["dealer"] == {"qualifies": False, "exchanged": True, "qualifies_after": True}
    assert [r.exchanged for r in s.boxes] == [True, True, False]
    assert parts(s, 1) == (0, 6 * A)
    assert parts(s, 2) == (-A, -2 * A)
    assert parts(s, 3) == (A, 0)  # it did not ask: Ante wins 1 to 1, Bet pushes


def test_section5_dealer_exchange_takes_out_the_highest_card() -> None:
    assert dealer_exchange(cards("9c Ad 7h 4s 2c"), card("Ks")) == cards("9c Ks 7h 4s 2c")
    assert dealer_exchange(cards("Tc 9d 7h 4s 2c"), card("Ts")) == cards("Ts 9d 7h 4s 2c")  # same rank: once


@pytest.mark.parametrize(
    ("hand", "replacement", "qualifies_after", "expected"),
    [
        (TRIPS, MISSES, False, (-A, 0)),              # still does not qualify: the fee is lost, Bet pushes
        (TRIPS, PAIRS_IT, True, (0, 2 * 3 * A)),      # box higher: Ante paid 1 to 1 on its amount, Bet wins
        (TIES_NINES, PAIRS_IT, True, (-A, 0)),        # equal hands: Ante lost, Bet pushes
        (LOSER, PAIRS_IT, True, (-A, -2 * A)),        # dealer higher: Ante lost, Bet loses
    ],
    ids=["still-no-qualifier", "box-higher", "equal", "dealer-higher"],
)
def test_section5_exchange_table(hand: str, replacement: str, qualifies_after: bool,
                                 expected: tuple[int, int]) -> None:
    s = run(NO_QUALIFIER, [box(1, hand, ask=True)], replacement)
    assert s.exchanged
    assert s.qualifies_after is qualifies_after
    assert parts(s) == expected


def test_section5_no_exchange_when_the_dealer_qualifies() -> None:
    s = run(QUALIFIER, [box(1, TRIPS, ask=True)], "9d")
    assert not s.exchanged
    assert s.as_json()["dealer"] == {"qualifies": True, "exchanged": False}
    assert parts(s) == (A, 6 * A)


def test_section5_no_request_means_no_exchange() -> None:
    s = run(NO_QUALIFIER, [box(1, TRIPS)], PAIRS_IT)
    assert not s.exchanged
    assert s.dealer_after is None
    assert parts(s) == (A, 0)


def test_section5_the_exchange_needs_the_next_stub_card() -> None:
    with pytest.raises(SettleError, match="dealer_replacement"):
        run(NO_QUALIFIER, [box(1, TRIPS, ask=True)])


def test_section5_a_folded_box_cannot_ask() -> None:
    with pytest.raises(SettleError, match="box 1: only a box still in play"):
        run(NO_QUALIFIER, [box(1, TRIPS, raised=False, ask=True)], PAIRS_IT)


def test_section5_a_dead_box_does_not_trigger_the_exchange() -> None:
    s = run(NO_QUALIFIER, [box(1, TRIPS, ask=True, dead=True), box(2, HIGH, raised=False)], PAIRS_IT)
    assert not s.exchanged


# ---------------------------------------------------------------- section 6: settlement


@pytest.mark.parametrize(
    ("hand", "raised", "expected"),
    [
        (HIGH, False, (-A, 0)),           # folded: Ante lost, no Bet
        (TRIPS, True, (A, 2 * 3 * A)),    # best five higher: 1 to 1 and bet_pays[trips] to 1
        (TIES_KINGS, True, (0, 0)),       # equal hands: both push
        (LOSER, True, (-A, -2 * A)),      # dealer higher: both lost
    ],
    ids=["folded", "higher", "equal", "dealer-higher"],
)
def test_section6_main_bets_against_a_qualifying_dealer(hand: str, raised: bool, expected: tuple[int, int]) -> None:
    assert parts(run(QUALIFIER, [box(1, hand, raised=raised)])) == expected


def test_section6_bet_pays_by_the_best_five_class() -> None:
    flush = Draw("exchange", cards("Qs Qh Qd 8c 3h"), cards("Ah Th 7c 5h 4h"))
    # A 5-card exchange: "Ah Th 7c 5h 4h" is only ace high, so no Bet win; buying the sixth makes the class.
    assert run(QUALIFIER, [box(1, TRIPS, draw=flush)]).result(1).cls == "high_card"
    bought = run(QUALIFIER, [box(1, "Ah Th 6h 5h 3c", draw=Draw("buy", new=cards("4h")))]).result(1)
    assert bought.cls == "flush"
    assert (bought.ante, bought.bet) == (A, 2 * 5 * A)


def test_section6_bonus_pays_on_the_original_five_whatever_happens_after() -> None:
    junk = Draw("exchange", cards(TRIPS), cards("Jd 9s 6d 4d 2s"))
    folded = run(QUALIFIER, [box(1, TRIPS, bonus=2, raised=False, draw=junk)]).result(1)
    assert folded.bonus == 2 * 25
    improved = run(QUALIFIER, [box(1, "Qs Qh 9d 8c 3h", bonus=2, draw=Draw("buy", new=cards("Qd")))]).result(1)
    assert improved.cls == "trips"
    assert improved.bonus == -2  # a draw never changes the bonus
    assert run(NO_QUALIFIER, [box(1, TRIPS, bonus=2)]).result(1).bonus == 50  # whatever the dealer holds


def test_section6_bonus_below_three_of_a_kind_is_lost() -> None:
    assert run(QUALIFIER, [box(1, LOSER, bonus=3)]).result(1).bonus == -3


def test_section6_caps_take_the_excess_off_the_bet_first() -> None:
    assert parts(run(QUALIFIER, [box(1, TRIPS)], max_payout=50)) == (A, 40)
    assert parts(run(QUALIFIER, [box(1, TRIPS)], max_payout=5)) == (5, 0)
    assert parts(run(NO_QUALIFIER, [box(1, TRIPS)], max_payout=5)) == (5, 0)


def test_section6_cap_counts_the_ante_payment_of_an_exchange_win() -> None:
    assert parts(run(NO_QUALIFIER, [box(1, TRIPS, ask=True)], PAIRS_IT, max_payout=50)) == (0, 40)
    assert parts(run(NO_QUALIFIER, [box(1, TRIPS, ask=True)], PAIRS_IT, max_payout=5)) == (5 - A, 0)


def test_section6_bonus_has_its_own_cap_and_draw_fees_do_not_count() -> None:
    result = run(QUALIFIER, [box(1, TRIPS, bonus=10, draw=swap("3h", "3s"))], max_payout=50).result(1)
    assert (result.draw_fee, result.ante, result.bet, result.bonus) == (-A, A, 40, 50)
    assert result.net == -A + 50 + 50
    assert capped(10, 2000, 10000) == (10, 2000)


NETS = [
    # (case, dealer, replacement, hand, raised, asks, the swap a drawing box makes, net without the bonus)
    ("fold", QUALIFIER, None, HIGH, False, False, ("3d", "3c"), -A),
    ("win", QUALIFIER, None, TRIPS, True, False, ("3h", "3s"), A + 2 * 3 * A),
    ("tie", QUALIFIER, None, TIES_KINGS, True, False, ("2h", "2s"), 0),
    ("loss", QUALIFIER, None, LOSER, True, False, ("3s", "3h"), -3 * A),
    ("no qualifier, no exchange", NO_QUALIFIER, PAIRS_IT, TRIPS, True, False, ("3h", "3s"), A),
    ("exchange, still no qualifier", NO_QUALIFIER, MISSES, TRIPS, True, True, ("3h", "3s"), -A),
    ("exchange and win", NO_QUALIFIER, PAIRS_IT, TRIPS, True, True, ("3h", "3s"), 2 * 3 * A),
    ("exchange and tie", NO_QUALIFIER, PAIRS_IT, TIES_NINES, True, True, ("2s", "2h"), -A),
    ("exchange and loss", NO_QUALIFIER, PAIRS_IT, LOSER, True, True, ("3s", "3h"), -3 * A),
]


@pytest.mark.parametrize("drew", [False, True], ids=["no-draw", "draw"])
@pytest.mark.parametrize(("case", "dealer", "replacement", "hand", "raised", "asks", "swapped", "net"), NETS,
                         ids=[row[0] for row in NETS])
def test_section6_nets(case: str, dealer: str, replacement: str | None, hand: str, raised: bool, asks: bool,
                       swapped: tuple[str, str], net: int, drew: bool) -> None:
    draw = swap(*swapped) if drew else None
    result = run(dealer, [box(1, hand, raised=raised, ask=asks, draw=draw)], replacement).result(1)
    assert result.net == net - (A if drew else 0), case  # a draw subtracts A more in every case
    assert result.net == result.draw_fee + result.ante + result.bet + result.bonus


def test_section6_results_come_in_box_order_with_exactly_the_contract_keys() -> None:
    s = run(QUALIFIER, [box(3, LOSER, player="y"), box(1, TRIPS, player="x")])
    assert [r.box for r in s.boxes] == [1, 3]
    assert all(list(r.as_json()) == ["box", "blind", "draw_fee", "ante", "bet", "bonus", "net"] for r in s.boxes)
    assert s.house_net == -(7 * A - 3 * A)


# ---------------------------------------------------------------- section 7: dead boxes; bad input


def test_section7_dead_box_gets_everything_back() -> None:
    result = run(QUALIFIER, [box(1, LOSER, bonus=5, draw=swap("3s", "3h"), dead=True)]).result(1)
    assert result.dead
    assert (result.draw_fee, result.ante, result.bet, result.bonus, result.net) == (0, 0, 0, 0, 0)


def test_section7_a_dead_box_says_why_and_an_old_record_without_the_reason_still_loads() -> None:
    s = run(QUALIFIER, [box(1, LOSER, dead=True), box(2, TRIPS)])
    assert [(r.box, r.dead_reason) for r in s.boxes] == [(1, "floor"), (2, None)]
    assert s.result(1).as_record()["dead_reason"] == "floor"
    assert "dead_reason" not in s.result(2).as_record(), "a live box's record is as it always was"
    logged = settlement_as_json(s)
    assert settlement_from_json(logged) == s
    old = {**logged, "boxes": [{k: v for k, v in r.items() if k != "dead_reason"} for r in logged["boxes"]]}
    assert [r.dead_reason for r in settlement_from_json(old).boxes] == [None, None]


@pytest.mark.parametrize(
    ("boxes", "message"),
    [
        ([box(1, TRIPS), box(1, LOSER)], "box 1: given twice"),
        ([box(5, TRIPS)], "box 5: the table has boxes 1 to 4"),
        ([box(1, TRIPS, ante=0)], "box 1: no bet"),
        ([box(1, "Qs Qh Qd 8c")], "box 1: a box is dealt 5 cards"),
        ([box(1, TRIPS), box(2, "Kc 2s 3s 4d 5d")], "box 2: Kc is dealt twice"),
    ],
)
def test_settle_refuses_what_cannot_be_dealt(boxes: list[BoxWager], message: str) -> None:
    with pytest.raises(SettleError, match=message):
        run(QUALIFIER, boxes)


# ---------------------------------------------------------------- identity, over random hands


def _expected_net(s: SixcardSettings, w: BoxWager, role: str, dealer: tuple[Card, ...],
                  after: tuple[Card, ...] | None) -> int:
    """Section 6's "Nets" list, uncapped, plus the bonus."""
    if w.dead:
        return 0
    a = w.ante
    pay = s.bonus_pay(class_name(rank5(w.cards)))
    net = (w.bonus * pay if pay else -w.bonus) - (a if w.draw else 0)
    if role == "bonus_only":
        return net
    if role == "open" and not w.raised:
        return net - a
    value = best_five(final_cards(w.cards, w.draw))[0]
    k = s.bet_pay(class_name(value))
    if qualifies_pair(rank5(dealer)):
        d = rank5(dealer)
        return net + (a + 2 * k * a if value > d else 0 if value == d else -3 * a)
    if after is None or not w.exchange_request:
        return net + a
    d = rank5(after)
    if not qualifies_pair(d):
        return net - a
    return net + (2 * k * a if value > d else -a if value == d else -3 * a)


@st.composite
def hands(draw: st.DrawFn) -> tuple[SixcardSettings, tuple[Card, ...], Card, list[BoxWager]]:
    deck = draw(st.permutations(range(52)))
    count = draw(st.integers(1, 4))
    owners = [draw(st.sampled_from("xy")) for _ in range(count)]
    antes = [draw(st.integers(0, 50)) for _ in range(count)]
    bare = [BoxWager(n + 1, owners[n], (), ante=antes[n]) for n in range(count)]
    roles = box_roles(bare)
    dealer, replacement = tuple(deck[:5]), deck[5]
    stub = iter(deck[6 + 5 * count:])
    boxes = []
    for n, wager in enumerate(bare):
        hand = tuple(deck[6 + 5 * n: 11 + 5 * n])
        bonus = draw(st.integers(0 if wager.ante else 1, 20))
        role = roles[wager.box]
        raised = draw(st.booleans())
        kind = draw(st.sampled_from(["none", "buy", "exchange"])) if role == "open" else "none"
        drawn = None
        if kind == "buy":
            drawn = Draw("buy", new=(next(stub),))
        elif kind == "exchange":
            size = draw(st.sampled_from([1, 2, 5]))
            discard = tuple(draw(st.permutations(hand))[:size])
            drawn = Draw("exchange", discard, tuple(next(stub) for _ in range(size)))
        playing = role == "blind" or (role == "open" and raised)
        boxes.append(BoxWager(wager.box, wager.player, hand, ante=wager.ante, bonus=bonus, draw=drawn,
                              raised=raised, exchange_request=playing and draw(st.booleans()),
                              dead=draw(st.booleans()) and draw(st.booleans())))
    table = SixcardSettings.from_mapping({"max_payout": draw(st.sampled_from([10**9, 10**9, 40, 200]))})
    return table, dealer, replacement, boxes


@settings(max_examples=150, deadline=None)
@given(hands())
def test_identity_chips_are_conserved_and_nets_follow_the_spec(
        hand: tuple[SixcardSettings, tuple[Card, ...], Card, list[BoxWager]]) -> None:
    table, dealer, replacement, boxes = hand
    s = settle(table, dealer, replacement, boxes)
    assert s.house_net + sum(r.net for r in s.boxes) == 0
    roles = box_roles(boxes)
    for wager, result in zip(boxes, s.boxes, strict=True):
        assert result.net == result.draw_fee + result.ante + result.bet + result.bonus
        staked = 4 * wager.ante + wager.bonus  # the covering rule's worst case
        assert result.net >= -staked
        if table.max_payout < 10**9:
            assert result.bonus <= table.max_payout
            assert result.ante + result.bet + (wager.ante if result.exchanged else 0) <= table.max_payout
        else:
            assert result.net == _expected_net(table, wager, roles[wager.box], dealer, s.dealer_after)
