"""docs/rules/sixcard.md sections 3, 4, 5 and 7: one live hand as a state machine (``decide`` / ``evolve``).

Whole hands are driven through the real ``decide``/``evolve`` with arranged decks
(tests/rules/sixcard/live.py); each test is named after the clause it checks.
"""

from __future__ import annotations

import pytest

from server.rules.cards import parse_cards
from server.rules.errors import Violation
from server.rules.fairness import derive_deck_seed, player_seed_bytes, shuffled_deck
from server.rules.sixcard.hand import apply_events, cover_needed, decide
from server.rules.sixcard.messages import (
    BetsCleared,
    BetsClosed,
    BlindBetsPlaced,
    BlindBoxesShown,
    BoxBetsPlaced,
    BoxFolded,
    BoxRaised,
    BuyCard,
    CancelExchange,
    CardsDealt,
    CardsDrawn,
    ClearBets,
    ClockExpired,
    CloseBets,
    CloseExchange,
    ConfirmBets,
    ContinueExchange,
    DealerExchanged,
    DealerRevealed,
    DeckPrepared,
    DeclareDead,
    ExchangeCards,
    ExchangeClosed,
    ExchangeContinued,
    ExchangeOpened,
    FoldBox,
    HandNotDealt,
    HandSettled,
    HandVoided,
    Leave,
    Misdeal,
    PassBets,
    PlaceBoxBets,
    RaiseBox,
    RepeatBets,
    RequestExchange,
    SeatDead,
    TurnStarted,
)
from server.rules.sixcard.settings import SixcardSettings
from tests.rules.sixcard.live import SEED, Run, arranged, run

QUALIFIER = "Kc Kd 7h 4s 2c"  # a pair of kings: qualifies
NO_PAIR = "Ad Jc 8h 5s 3c"  # ace high: does not qualify; the ace goes in an exchange
TRIPS = "Qs Qh Qd 9c 3h"
SEVENS = "7c 7d 4h 3d 2s"
JACKS_TIE = "Jh Js 8d 5d 3s"  # ties the dealer's J-J-8-5-3 after an exchange bringing the Jd
HIGH = "Th 9s 6c 4d 2h"  # ten high


def code_of(r: Run, command: object) -> str:
    with pytest.raises(Violation) as info:
        r.do(command)  # type: ignore[arg-type]
    return info.value.code


def settled(r: Run) -> HandSettled:
    (event,) = r.of(HandSettled)
    return event


def net(r: Run, box: int) -> int:
    return settled(r).settlement.result(box).net


# ---------------------------------------------------------------- section 3: boxes, roles, order, covering


def test_box_with_only_a_bonus_is_bonus_only_dealt_and_settles_its_bonus_alone() -> None:
    r = run(deck=arranged({1: TRIPS}, QUALIFIER))
    r.bet(1, (1, 0, 4))
    assert r.state.box(1).role == "bonus_only"
    assert r.state.phase == "settled"  # no open box: nothing to decide
    assert "turn_started" not in r.types()
    result = settled(r).settlement.result(1)
    assert (result.ante, result.bet, result.bonus, result.net) == (0, 0, 100, 100)  # trips pay 25 to 1


def test_of_a_players_played_boxes_the_first_two_are_open_and_the_rest_blind() -> None:
    r = run()
    r.bet(1, (1, 10), (2, 0, 5), (3, 10), (4, 10))
    assert {b.box: b.role for b in r.state.boxes} == {1: "open", 2: "bonus_only", 3: "open", 4: "blind"}


def test_ratio_rule_allows_exactly_ante_ratio_times() -> None:
    r = run()
    r.bet(1, (1, 5), (2, 25))
    assert r.state.phase == "decisions"


def test_ratio_rule_refuses_a_larger_spread() -> None:
    r = run()
    assert code_of(r, PlaceBoxBets(1, ((1, 5, 0), (2, 30, 0)))) == "bet/ante_ratio"
    assert code_of(r, PlaceBoxBets(1, ((1, 5, 0), (2, 0, 1), (3, 26, 0)))) == "bet/ante_ratio"


@pytest.mark.parametrize(("bets", "code"), [
    (((1, 4, 0),), "bet/below_min"),
    (((1, 101, 0),), "bet/above_max"),
    (((1, 10, 1),), "bonus/below_min"),
    (((1, 10, 11),), "bonus/above_max"),
    (((1, 0, 0),), "bet/below_min"),
    (((0, 10, 0),), "box/invalid"),
    (((5, 10, 0),), "box/invalid"),
    (((1, 10, 0), (1, 20, 0)), "box/invalid"),
    (((1, -10, 0),), "request/malformed"),
    (((1, True, 0),), "request/malformed"),
])
def test_bets_outside_the_limits_are_refused(bets: tuple[tuple[int, int, int], ...], code: str) -> None:
    settings = SixcardSettings.from_mapping({"max_ante": 100, "min_bonus": 2, "max_bonus": 10})
    r = run(settings=settings)
    assert code_of(r, PlaceBoxBets(1, bets)) == code


def test_a_box_holds_one_players_bets() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (2, 10), confirm=False)
    assert code_of(r, PlaceBoxBets(2, ((2, 10, 0),))) == "box/taken"


def test_larger_ante_plays_first_equal_antes_in_box_order() -> None:
    r = run()
    r.bet(1, (1, 5), (2, 10))
    assert r.state.order == (2, 1)
    assert r.of(TurnStarted)[0].box == 2
    r2 = run()
    r2.bet(1, (1, 10), (3, 10))
    assert r2.state.order == (1, 3)


def test_larger_ante_first_orders_open_boxes_only_a_blind_box_stays_blind() -> None:
    r = run()
    r.bet(1, (1, 5), (2, 5), (3, 25))
    assert r.state.box(3).role == "blind"
    assert r.state.order == (1, 2)


def test_players_act_in_the_order_of_their_lowest_played_box() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 0, 5), (4, 10), confirm=False)  # a bonus-only box does not count
    r.bet(2, (2, 10), (3, 20))
    r.do(ConfirmBets(1))
    assert r.state.order == (3, 2, 4)
    assert r.state.box(r.state.order[0]).seat == 2


def test_a_player_finishes_every_open_box_then_sees_their_blind_boxes() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), (2, 10), (3, 10), confirm=False)
    r.bet(2, (4, 10))
    r.do(ConfirmBets(1))
    assert r.of(BlindBoxesShown) == []
    assert 3 not in r.state.seen
    r.do(RaiseBox(1))
    assert r.of(BlindBoxesShown) == []
    events = r.do(FoldBox(1))
    assert [e.type for e in events] == ["box_folded", "blind_boxes_shown", "turn_started"]
    assert events[1] == BlindBoxesShown(1, (3,))
    assert events[2] == TurnStarted(2, 4)


def test_blind_bets_are_placed_automatically_at_the_close() -> None:
    r = run()
    r.bet(1, (1, 10), (2, 10), (3, 20), (4, 25, 1))
    (closed,) = r.of(BetsClosed)
    assert closed.bets == ((1, 1, 10, 0), (2, 1, 10, 0), (3, 1, 20, 0), (4, 1, 25, 1))
    assert r.of(BlindBetsPlaced) == [BlindBetsPlaced(((3, 1, 40), (4, 1, 50)))]


def test_a_blind_box_cannot_fold_buy_or_exchange() -> None:
    r = run()
    r.bet(1, (1, 10), (2, 10), (3, 10))
    for command in (FoldBox(1, 3), RaiseBox(1, 3), BuyCard(1, 3), ExchangeCards(1, 3, (1,))):
        assert code_of(r, command) == "turn/not_yours"


def test_covering_rule_four_antes_open_three_blind_and_every_bonus() -> None:
    bets = ((1, 10, 1), (2, 10, 0), (3, 10, 0), (4, 0, 2))
    assert cover_needed(bets) == 41 + 40 + 30 + 2
    assert run([(1, 113)]).bet(1, *bets, confirm=False)
    assert code_of(run([(1, 112)]), PlaceBoxBets(1, bets)) == "bet/insufficient_stack"


# ---------------------------------------------------------------- section 4, step 1: bets


def test_placing_bets_replaces_the_unconfirmed_ones() -> None:
    r = run()
    r.bet(1, (1, 10), confirm=False)
    r.bet(1, (2, 20, 1), confirm=False)
    assert r.state.pending[1].bets == ((2, 20, 1),)


def test_an_empty_bet_takes_the_unconfirmed_bets_back() -> None:
    r = run()
    r.bet(1, (1, 10), confirm=False)
    r.do(PlaceBoxBets(1, ()))
    assert 1 not in r.state.pending
    assert code_of(r, PlaceBoxBets(1, ())) == "bet/none"


def test_deal_confirms_and_confirmed_bets_change_only_after_clear() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (2, 10), confirm=False)  # keeps the betting open
    r.bet(1, (1, 10))
    assert r.state.pending[1].confirmed
    assert code_of(r, PlaceBoxBets(1, ((1, 20, 0),))) == "bet/confirmed"
    assert code_of(r, ConfirmBets(1)) == "bet/confirmed"
    r.do(ClearBets(1))
    assert 1 not in r.state.pending
    r.bet(1, (1, 20), confirm=False)
    assert not r.state.pending[1].confirmed


def test_deal_with_nothing_placed_is_refused() -> None:
    assert code_of(run(), ConfirmBets(1)) == "bet/none"
    assert code_of(run(), ClearBets(1)) == "bet/none"


def test_betting_closes_when_everyone_has_confirmed_or_passed() -> None:
    r = run([(1, 1000), (2, 1000), (3, 1000)])
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    assert r.state.phase == "betting"
    r.do(ConfirmBets(1))
    assert r.state.phase == "betting"  # seat 3 has neither bet nor passed: the betting waits for it
    r.do(PassBets(3))
    assert r.state.phase == "decisions"  # seat 3 passed: betting is optional


def test_the_bets_clock_sends_unconfirmed_bets_back() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (2, 10), confirm=False)
    r.bet(1, (1, 10))
    events = r.do(CloseBets())
    assert events[0] == BetsCleared(2, "clock")
    assert r.of(BetsClosed)[0].bets == ((1, 1, 10, 0),)


def test_no_bet_at_all_deals_no_hand() -> None:
    r = run()
    r.bet(1, (1, 10), confirm=False)
    r.do(CloseBets())
    assert r.state.phase == "not_dealt"
    assert r.of(HandNotDealt) == [HandNotDealt("no_bets")]


def test_no_players_no_hand() -> None:
    r = run([])
    assert r.state.phase == "not_dealt"
    assert r.types() == ["hand_not_dealt"]


def test_rebet_places_the_last_hands_bets_unconfirmed() -> None:
    r = run(last_bets={1: ((2, 10, 1), (3, 20, 0))})
    events = r.do(RepeatBets(1, "s"))
    assert events == [BoxBetsPlaced(1, ((2, 10, 1), (3, 20, 0)), "s")]
    assert not r.state.pending[1].confirmed


@pytest.mark.parametrize(("players", "last", "code"), [
    ([(1, 1000)], {}, "bet/no_last_bets"),
    ([(1, 50)], {1: ((1, 20, 0),)}, "bet/insufficient_stack"),
    ([(1, 1000)], {1: ((1, 2, 0),)}, "bet/below_min"),
])
def test_rebet_is_refused_when_it_no_longer_fits(players: list[tuple[int, int]],
                                                 last: dict[int, tuple[tuple[int, int, int], ...]],
                                                 code: str) -> None:
    assert code_of(run(players, last_bets=last), RepeatBets(1)) == code


def test_rebet_is_refused_when_a_box_is_taken() -> None:
    r = run([(1, 1000), (2, 1000)], last_bets={1: ((2, 10, 0),)})
    r.bet(2, (2, 10), confirm=False)
    assert code_of(r, RepeatBets(1)) == "box/taken"


def test_a_player_seed_is_short_text() -> None:
    assert code_of(run(), PlaceBoxBets(1, ((1, 10, 0),), "x" * 129)) == "bet/bad_seed"


def test_leaving_while_betting_takes_the_bets_back() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (2, 10), confirm=False)
    r.bet(1, (1, 10))
    r.do(Leave(2))
    assert r.state.phase == "decisions"  # seat 1 was the only one left with a bet, and confirmed
    assert BetsCleared(2, "left") in r.events
    assert code_of(r, PlaceBoxBets(2, ((3, 10, 0),))) == "phase/wrong"


def test_betting_commands_outside_betting_are_refused() -> None:
    r = run()
    r.bet(1, (1, 10))
    assert code_of(r, PlaceBoxBets(1, ((2, 10, 0),))) == "phase/wrong"
    assert code_of(r, CloseBets()) == "phase/wrong"


# ---------------------------------------------------------------- section 4, step 2: the deal


def test_deal_one_card_at_a_time_to_each_box_in_box_order_the_dealer_last() -> None:
    deck = tuple(range(52))
    r = run([(1, 1000), (2, 1000)], deck=deck)
    r.bet(2, (4, 10), confirm=False)
    r.bet(1, (2, 10, 1))
    r.do(ConfirmBets(2))
    (dealt,) = r.of(CardsDealt)
    assert dealt.order == (2, 4, 0)
    assert dict(dealt.hands) == {2: (0, 3, 6, 9, 12), 4: (1, 4, 7, 10, 13)}
    assert dealt.dealer == (2, 5, 8, 11, 14)
    assert r.state.next_card == 15  # the stub starts after the dealt cards


def test_deck_derives_from_the_server_seed_and_confirmed_player_seeds_in_seat_order() -> None:
    r = run([(1, 1000), (2, 1000), (3, 1000)])
    r.bet(3, (1, 10), seed="three", confirm=False)
    r.bet(1, (2, 10), seed="one", confirm=False)
    r.bet(2, (3, 10), seed="two", confirm=False)
    r.do(ConfirmBets(3), ConfirmBets(1), CloseBets())  # seat 2's bet and seed go back
    (prepared,) = r.of(DeckPrepared)
    assert prepared == DeckPrepared(False, ((1, "one"), (3, "three")))
    deck = shuffled_deck(derive_deck_seed(SEED, [player_seed_bytes("one"), player_seed_bytes("three")]))
    (dealt,) = r.of(CardsDealt)
    assert dealt.order == (1, 2, 0)
    assert dict(dealt.hands)[1] == deck[0:15:3]
    assert r.state.deck == deck


def test_an_arranged_deck_too_short_to_deal_voids_the_hand() -> None:
    r = run(deck=parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s"))
    r.bet(1, (1, 10))
    assert r.state.phase == "void"
    assert r.of(HandVoided) == [HandVoided("card_count")]
    assert r.of(CardsDealt) == []


def test_open_boxes_are_shown_to_their_owner_only_when_their_turn_starts() -> None:
    r = run()
    r.bet(1, (1, 5), (2, 10))
    assert r.state.seen == {2}
    r.do(RaiseBox(1))
    assert r.state.seen == {1, 2}


def test_bonus_only_boxes_are_shown_to_their_owner_at_the_deal() -> None:
    r = run()
    r.bet(1, (1, 10), (2, 0, 5))
    assert r.state.seen == {1, 2}


# ---------------------------------------------------------------- section 4, steps 3-4: bonus and decisions


def test_raise_places_the_bet_of_exactly_twice_the_ante() -> None:
    r = run(deck=arranged({1: TRIPS}, QUALIFIER))
    r.bet(1, (1, 15))
    events = r.do(RaiseBox(1, 1))
    assert events[0] == BoxRaised(1, 1, 30)
    assert net(r, 1) == 15 + 30 * 3


def test_fold_loses_the_ante_and_the_bonus_still_stands() -> None:
    r = run(deck=arranged({1: TRIPS}, QUALIFIER))
    r.bet(1, (1, 10, 2))
    r.do(FoldBox(1))
    result = settled(r).settlement.result(1)
    assert result.folded
    assert (result.ante, result.bet, result.bonus, result.net) == (-10, 0, 50, 40)


def test_bonus_is_fixed_by_the_original_five_a_draw_never_changes_it() -> None:
    r = run(deck=arranged({1: TRIPS}, QUALIFIER, "Qc"))
    r.bet(1, (1, 10, 1))
    r.do(ExchangeCards(1, 1, (5,)))  # 3h -> Qc: four queens
    r.do(RaiseBox(1))
    result = settled(r).settlement.result(1)
    assert (result.cls, result.bonus) == ("quads", 25)  # bonus paid for trips, the original hand


def test_buy_takes_the_top_stub_card_for_a_fee_of_one_ante() -> None:
    r = run(deck=arranged({1: SEVENS}, QUALIFIER, "7s Ac"))
    r.bet(1, (1, 10))
    events = r.do(BuyCard(1))
    assert events == [CardsDrawn(1, 1, "buy", (), (), parse_cards("7s"), 10)]
    assert r.state.current_cards(1) == (*parse_cards(SEVENS), *parse_cards("7s"))
    assert r.state.turn == 1  # the box still has to raise or fold
    r.do(RaiseBox(1))
    result = settled(r).settlement.result(1)
    assert (result.cls, result.draw_fee, result.net) == ("trips", -10, -10 + 10 + 20 * 3)


@pytest.mark.parametrize("positions", [(3,), (2, 5), (1, 2, 3, 4, 5)])
def test_exchange_replaces_one_two_or_five_cards_in_their_places(positions: tuple[int, ...]) -> None:
    stub = parse_cards("As Ah Ac Kh Ks")
    r = run(deck=arranged({1: HIGH}, QUALIFIER, "As Ah Ac Kh Ks"))
    r.bet(1, (1, 10))
    (drawn,) = r.do(ExchangeCards(1, 1, positions))
    original = parse_cards(HIGH)
    assert drawn.discarded == tuple(original[p - 1] for p in positions)
    assert drawn.new == stub[:len(positions)]
    expected = list(original)
    for p, card in zip(positions, stub, strict=False):
        expected[p - 1] = card
    assert r.state.current_cards(1) == tuple(expected)


@pytest.mark.parametrize(("positions", "code"), [
    ((1, 2, 3), "draw/count"), ((1, 2, 3, 4), "draw/count"), ((), "draw/count"),
    ((0,), "draw/positions"), ((6,), "draw/positions"), ((2, 2), "draw/positions"),
])
def test_exchange_counts_other_than_one_two_five_are_refused(positions: tuple[int, ...], code: str) -> None:
    r = run()
    r.bet(1, (1, 10))
    assert code_of(r, ExchangeCards(1, 1, positions)) == code


def test_at_most_one_draw_per_box_then_only_raise_or_fold() -> None:
    r = run()
    r.bet(1, (1, 10))
    r.do(ExchangeCards(1, None, (1, 2)))
    assert code_of(r, BuyCard(1)) == "draw/done"
    assert code_of(r, ExchangeCards(1, 1, (3,))) == "draw/done"
    r.do(FoldBox(1))
    assert r.state.phase == "settled"


def test_draws_take_stub_cards_in_the_order_they_are_made() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: HIGH, 2: SEVENS}, QUALIFIER, "As Ah Ac"))
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1))
    r.do(ExchangeCards(1, 1, (1, 2)))
    r.do(RaiseBox(1))
    (_, drawn) = r.do(BuyCard(2)), r.of(CardsDrawn)
    assert [d.new for d in drawn] == [parse_cards("As Ah"), parse_cards("Ac")]


def test_a_draw_when_an_arranged_deck_has_run_out_voids_the_hand() -> None:
    r = run(deck=arranged({1: HIGH}, QUALIFIER, "As", full=False))
    r.bet(1, (1, 10))
    assert r.do(ExchangeCards(1, 1, (1, 2))) == [HandVoided("card_count")]
    assert r.state.phase == "void"


def test_decisions_on_another_box_or_out_of_turn_are_refused() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), (2, 10), confirm=False)
    r.bet(2, (3, 10))
    r.do(ConfirmBets(1))
    assert code_of(r, RaiseBox(2)) == "turn/not_yours"
    assert code_of(r, RaiseBox(1, 2)) == "turn/not_yours"  # box 2 waits for box 1
    assert code_of(r, RaiseBox(3, 1)) == "seat/not_in_hand"
    assert code_of(r, RequestExchange(1, 1)) == "phase/wrong"


def test_the_clock_folds_the_box_after_a_draw_too_and_the_fee_stays_paid() -> None:
    r = run(deck=arranged({1: HIGH}, QUALIFIER))
    r.bet(1, (1, 10))
    r.do(BuyCard(1))
    events = r.do(ClockExpired(1))
    assert events[0] == BoxFolded(1, 1, "clock")
    assert 1 in r.state.timed_out
    assert net(r, 1) == -20
    assert code_of(run(), ClockExpired(1)) == "clock/stale"


def test_a_player_who_left_folds_each_box_at_its_turn() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10), (3, 10))
    r.do(ConfirmBets(1))
    r.do(Leave(2))
    assert r.state.turn == 1
    events = r.do(RaiseBox(1))
    assert [e for e in events if isinstance(e, BoxFolded)] == [BoxFolded(2, 2, "left"), BoxFolded(2, 3, "left")]


def test_leaving_in_turn_folds_the_box_now() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (2, 10), confirm=False)
    r.bet(1, (1, 10))
    r.do(ConfirmBets(2))
    events = r.do(Leave(1))
    assert events[1] == BoxFolded(1, 1, "left")
    assert events[2] == TurnStarted(2, 2)
    assert r.do(Leave(1)) == []


# ---------------------------------------------------------------- section 4, step 5: the dealer's hand


def test_a_qualifying_dealer_settles_at_once() -> None:
    r = run(deck=arranged({1: SEVENS}, QUALIFIER))
    r.bet(1, (1, 10))
    events = r.do(RaiseBox(1))
    assert [e.type for e in events] == ["box_raised", "dealer_revealed", "hand_settled"]
    assert events[1] == DealerRevealed(parse_cards(QUALIFIER), True)
    assert net(r, 1) == -30


def test_a_dealer_who_does_not_qualify_with_no_box_in_play_settles_at_once() -> None:
    r = run(deck=arranged({1: SEVENS}, NO_PAIR))
    r.bet(1, (1, 10, 1))
    r.do(FoldBox(1))
    assert r.of(ExchangeOpened) == []
    assert r.state.phase == "settled"


def test_a_dealer_who_does_not_qualify_opens_the_exchange_choice_for_boxes_in_play() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: SEVENS, 2: HIGH, 3: TRIPS, 4: JACKS_TIE}, NO_PAIR))
    r.bet(1, (1, 10), (2, 10), (3, 10), confirm=False)
    r.bet(2, (4, 10))
    r.do(ConfirmBets(1))
    r.do(RaiseBox(1), FoldBox(1), FoldBox(2))
    assert r.state.phase == "exchange"
    assert r.of(ExchangeOpened) == [ExchangeOpened(((1, 1), (3, 1)))]  # raised and blind; folded ones not


# ---------------------------------------------------------------- section 5: the dealer exchange


def exchange_hand(box_cards: str, replacement: str, ante: int = 10) -> Run:
    r = run(deck=arranged({1: box_cards}, NO_PAIR, replacement))
    r.bet(1, (1, ante))
    r.do(RaiseBox(1))
    assert r.state.phase == "exchange"
    return r


def test_requests_can_be_toggled_until_continue() -> None:
    r = exchange_hand(TRIPS, "Jd")
    r.do(RequestExchange(1, 1))
    assert code_of(r, RequestExchange(1, 1)) == "exchange/requested"
    r.do(CancelExchange(1, 1))
    assert code_of(r, CancelExchange(1, 1)) == "exchange/not_requested"
    r.do(RequestExchange(1, 1))
    events = r.do(ContinueExchange(1))
    assert events[0] == ExchangeContinued(1, (1,), "continue")
    assert isinstance(events[2], DealerExchanged)


def test_continue_is_binding() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS}, NO_PAIR, "Jd"))
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1), RaiseBox(1), RaiseBox(2))
    r.do(RequestExchange(1, 1), ContinueExchange(1))
    assert r.state.phase == "exchange"  # seat 2 still chooses
    for command in (CancelExchange(1, 1), RequestExchange(1, 1), ContinueExchange(1)):
        assert code_of(r, command) == "exchange/continued"
    assert code_of(r, RequestExchange(2, 1)) == "turn/not_yours"
    assert code_of(r, RequestExchange(1, 2)) == "exchange/continued"


def test_the_clock_drops_unconfirmed_requests_and_keeps_the_sure_win() -> None:
    r = exchange_hand(TRIPS, "Jd")
    r.do(RequestExchange(1, 1))
    events = r.do(CloseExchange())
    assert events[0] == ExchangeClosed("clock", (1,))
    assert r.of(DealerExchanged) == []
    result = settled(r).settlement.result(1)
    assert (result.ante, result.bet, result.net) == (10, 0, 10)


def test_boxes_without_a_request_win_the_ante_and_push_the_bet() -> None:
    r = exchange_hand(SEVENS, "Jd")
    r.do(ContinueExchange(1))
    result = settled(r).settlement.result(1)
    assert (result.ante, result.bet, result.net, result.exchanged) == (10, 0, 10, False)


@pytest.mark.parametrize(("box_cards", "replacement", "ante", "bet"), [
    (TRIPS, "Kh", -10, 0),        # still no qualifier: the fee is lost, the Bet pushes
    (TRIPS, "Jd", 0, 60),         # qualifies, box higher: Ante paid 1 to 1 (the fee back), Bet 3 to 1
    (JACKS_TIE, "Jd", -10, 0),    # qualifies, equal hands: Ante lost, Bet pushes
    (SEVENS, "Jd", -10, -20),     # qualifies, dealer higher: both lost
])
def test_dealer_exchange_table(box_cards: str, replacement: str, ante: int, bet: int) -> None:
    r = exchange_hand(box_cards, replacement)
    r.do(RequestExchange(1, 1), ContinueExchange(1))
    (exchanged,) = r.of(DealerExchanged)
    assert exchanged.discarded == parse_cards("Ad")[0]  # the highest card, ace high
    assert exchanged.replacement == parse_cards(replacement)[0]
    result = settled(r).settlement.result(1)
    assert (result.ante, result.bet, result.net, result.exchanged) == (ante, bet, ante + bet, True)


def test_the_exchange_happens_once_for_the_whole_table_with_the_next_stub_card() -> None:
    deck = arranged({1: TRIPS, 2: SEVENS, 3: JACKS_TIE}, NO_PAIR, "Qc Jd 9d")
    r = run([(1, 1000), (2, 1000)], deck=deck)
    r.bet(1, (1, 10), (2, 10), confirm=False)
    r.bet(2, (3, 10))
    r.do(ConfirmBets(1))
    r.do(BuyCard(1), RaiseBox(1), RaiseBox(1), RaiseBox(2))  # box 1 bought the Qc: the stub moved on
    r.do(RequestExchange(1, 1), RequestExchange(1, 2), ContinueExchange(1), ContinueExchange(2))
    assert r.of(DealerExchanged) == [DealerExchanged((1, 2), parse_cards("Ad")[0], parse_cards("Jd")[0],
                                                     parse_cards("Jd Jc 8h 5s 3c"), True)]
    s = settled(r).settlement
    assert s.exchanged
    assert s.qualifies_after
    assert [(b.net, b.exchanged) for b in s.boxes] == [(-10 + 20 * 20, True), (-30, True), (10, False)]


def test_an_exchange_when_an_arranged_deck_has_run_out_voids_the_hand() -> None:
    r = run(deck=arranged({1: TRIPS}, NO_PAIR, full=False))
    r.bet(1, (1, 10))
    r.do(RaiseBox(1), RequestExchange(1, 1))
    assert r.do(ContinueExchange(1))[-1] == HandVoided("card_count")


def test_a_blind_box_may_ask_for_the_exchange() -> None:
    r = run(deck=arranged({1: SEVENS, 2: HIGH, 3: TRIPS}, NO_PAIR, "Jd"))
    r.bet(1, (1, 10), (2, 10), (3, 10))
    r.do(FoldBox(1), FoldBox(1))
    assert r.of(ExchangeOpened) == [ExchangeOpened(((3, 1),))]
    r.do(RequestExchange(1, 3), ContinueExchange(1))
    assert settled(r).settlement.result(3).net == 60


def test_a_leaving_owner_takes_the_sure_win() -> None:
    r = exchange_hand(TRIPS, "Jd")
    r.do(RequestExchange(1, 1))
    events = r.do(Leave(1))
    assert events[1] == ExchangeContinued(1, (), "left")
    assert r.state.phase == "settled"
    assert net(r, 1) == 10


def test_an_owner_who_left_before_the_exchange_opens_continues_at_once() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS}, NO_PAIR, "Jd"))
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1), RaiseBox(1), Leave(1))
    r.do(RaiseBox(2))
    assert ExchangeContinued(1, (), "left") in r.events
    assert r.state.exchange_owners == (1, 2)
    r.do(ContinueExchange(2))
    assert r.state.phase == "settled"


# ---------------------------------------------------------------- section 7: dead boxes, void hands


def test_declaring_a_seat_dead_kills_all_its_boxes_and_the_turn_moves_on() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS, 3: HIGH}, QUALIFIER, "As"))
    r.bet(1, (1, 10), (3, 10, 1), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1), BuyCard(1), RaiseBox(1))
    events = r.do(DeclareDead(1))
    assert events[0] == SeatDead(1, (1, 3), "floor")
    assert r.state.turn == 2
    r.do(RaiseBox(2))
    s = settled(r).settlement
    assert [(b.box, b.dead, b.net, b.draw_fee) for b in s.boxes] == [(1, True, 0, 0), (2, False, -30, 0),
                                                                     (3, True, 0, 0)]
    assert code_of(r, DeclareDead(1)) == "hand/over"


def test_a_dead_seat_leaves_the_exchange_choice() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS}, NO_PAIR, "Jd"))
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1), RaiseBox(1), RaiseBox(2), ContinueExchange(1))
    r.do(DeclareDead(2))
    assert r.state.phase == "settled"
    assert code_of(run(), DeclareDead(1)) == "phase/wrong"


def test_declaring_dead_a_seat_without_a_live_box_is_refused() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10))
    r.do(PassBets(2))
    assert code_of(r, DeclareDead(2)) == "seat/not_in_hand"
    assert code_of(r, DeclareDead(7)) == "seat/not_in_hand"


@pytest.mark.parametrize("when", ["betting", "decisions", "exchange"])
def test_a_misdeal_voids_the_whole_hand(when: str) -> None:
    r = exchange_hand(TRIPS, "Jd") if when == "exchange" else run()
    if when == "decisions":
        r.bet(1, (1, 10))
    assert r.state.phase == when
    assert r.do(Misdeal("shuffler_fault")) == [HandVoided("shuffler_fault")]
    assert r.state.phase == "void"
    assert code_of(r, Misdeal()) == "hand/over"


def test_replaying_the_events_rebuilds_the_state_deck_included() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), (2, 10), seed="a", confirm=False)
    r.bet(2, (3, 10), seed="b")
    r.do(ConfirmBets(1), BuyCard(1), RaiseBox(1), ExchangeCards(1, 2, (1, 2, 3, 4, 5)), RaiseBox(1), FoldBox(2))
    first = r.trace[0][0]
    assert apply_events(first, r.events) == r.state
    assert r.state.deck == shuffled_deck(derive_deck_seed(SEED, [b"a", b"b"]))


def test_decide_never_changes_the_state() -> None:
    r = run()
    before = r.state
    decide(before, PlaceBoxBets(1, ((1, 10, 0),)))
    assert r.state is before
    assert not before.pending
