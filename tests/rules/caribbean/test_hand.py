"""docs/rules/caribbean.md sections 2, 3 and 5: the live hand, driven whole through decide/evolve."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.cards import parse_cards
from server.rules.caribbean.hand import HandState, deal_hands, decide, new_hand, opening_events
from server.rules.caribbean.messages import (
    HOUSE,
    BetsCleared,
    BetsClosed,
    BetsConfirmed,
    BettingOpened,
    CardsDealt,
    ClearBets,
    ClockExpired,
    CloseBets,
    ClosedBet,
    Command,
    ConfirmBets,
    DealerRevealed,
    DeckPrepared,
    DeclareDead,
    FoldSpot,
    HandNotDealt,
    HandSettled,
    HandVoided,
    Leave,
    Misdeal,
    PassBets,
    PlaceSpotBets,
    PlayerLeaving,
    PlaySpot,
    RepeatBets,
    SpotBet,
    SpotBetsPlaced,
    SpotDead,
    SpotFolded,
    SpotPlayed,
    TurnStarted,
)
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import Violation
from server.rules.fairness import derive_deck_seed, player_seed_bytes, shuffled_deck
from server.rules.game import Player
from tests.rules.caribbean.live import SEED, Run, arranged, run

PAIR_OF_ACES = "Ah Ad 9c 5s 2h"
PAIR_OF_KINGS = "Kc Kd 7h 4s 3c"
TWO_PAIR = "9h 9s 4c 4d Jh"
NO_QUALIFY = "Ac Qd Jh Ts 8c"  # A-Q high: the dealer does not qualify
BUSTED = "Qs Jc 8d 6h 3d"


def refused(state: HandState, command: Command) -> str:
    """The code of the Violation ``command`` meets."""
    with pytest.raises(Violation) as info:
        decide(state, command)
    return info.value.code


def settlement_of(r: Run) -> HandSettled:
    return next(e for e in r.events if isinstance(e, HandSettled))


def one_spot_hand(player: str, dealer: str, *, ante: int = 10, jackpot: bool = False, **kwargs: Any) -> Run:
    """Seat 1 bets on spot 1 and the cards are dealt."""
    r = run(deck=arranged([player], dealer), **kwargs)
    r.bet(1, (1, ante, jackpot))
    return r


# ---------------------------------------------------------------- section 2: the table


def test_house_banked_hand_opens_straight_into_betting_with_the_commitment() -> None:
    state = new_hand(CaribbeanSettings(), [Player(2, 500), Player(1, 500)], SEED)
    assert state.phase == "betting"
    assert opening_events(state) == [BettingOpened(state.commitment, (1, 2), 1_000_000)]


def test_no_players_no_hand() -> None:
    state = new_hand(CaribbeanSettings(), [], SEED)
    assert state.phase == "not_dealt"
    assert opening_events(state) == [HandNotDealt("no_players")]


def test_a_player_bets_on_up_to_max_hands_spots() -> None:
    r = run(settings=CaribbeanSettings(max_hands=3))
    four = PlaceSpotBets(1, tuple(SpotBet(s, 10) for s in (1, 2, 3, 4)))
    assert refused(r.state, four) == "bet/too_many"
    r.do(PlaceSpotBets(1, tuple(SpotBet(s, 10) for s in (1, 2, 3))))
    assert sorted(r.state.placed[1]) == [SpotBet(1, 10), SpotBet(2, 10), SpotBet(3, 10)]


def test_a_player_bets_on_any_free_spot_not_only_their_chair() -> None:
    r = run([(1, 1000)])
    r.bet(1, (7, 10))
    assert r.state.bets == (ClosedBet(7, 1, 10, False),)


def test_a_spot_holds_one_players_hand() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (3, 10), confirm=False)
    assert refused(r.state, PlaceSpotBets(2, (SpotBet(3, 10),))) == "spot/taken"
    r.do(PlaceSpotBets(1, (SpotBet(3, 10),)))  # the owner may restate it


@pytest.mark.parametrize("spot", [0, 8, -1])
def test_spots_are_numbered_1_to_spots(spot: int) -> None:
    r = run(settings=CaribbeanSettings(spots=7))
    assert refused(r.state, PlaceSpotBets(1, (SpotBet(spot, 10),))) == "spot/invalid"


# ---------------------------------------------------------------- section 3 step 1: bets


@pytest.mark.parametrize(("ante", "code"), [(4, "bet/below_min"), (501, "bet/above_max")])
def test_the_ante_is_within_the_limits(ante: int, code: str) -> None:
    r = run([(1, 2000)])
    assert refused(r.state, PlaceSpotBets(1, (SpotBet(1, ante),))) == code
    r.do(PlaceSpotBets(1, (SpotBet(1, 5), SpotBet(2, 500))))


def test_the_jackpot_wager_only_where_the_table_offers_it() -> None:
    r = run(settings=CaribbeanSettings(jackpot=False))
    assert refused(r.state, PlaceSpotBets(1, (SpotBet(1, 10, True),))) == "bet/no_jackpot"


def test_the_stack_covers_three_antes_plus_the_jackpot_wagers_of_every_spot() -> None:
    needed = 3 * 10 + 1 + 3 * 20
    short = run([(1, needed - 1)])
    assert refused(short.state, PlaceSpotBets(1, (SpotBet(1, 10, True), SpotBet(2, 20)))) == "bet/insufficient_stack"
    enough = run([(1, needed)])
    enough.bet(1, (1, 10, True), (2, 20))
    enough.do(PlaySpot(1), PlaySpot(1))  # so a Play is never refused
    assert enough.state.phase == "settled"


def test_malformed_bets_are_refused() -> None:
    r = run()
    assert refused(r.state, PlaceSpotBets(1, (SpotBet(1, 10), SpotBet(1, 20)))) == "request/malformed"
    assert refused(r.state, PlaceSpotBets(1, ((1, "10", False),))) == "request/malformed"  # type: ignore[arg-type]
    assert refused(r.state, PlaceSpotBets(1, ((1, 10, 1),))) == "request/malformed"  # type: ignore[arg-type]


def test_a_player_seed_is_text_of_at_most_128_characters() -> None:
    r = run()
    assert refused(r.state, PlaceSpotBets(1, (SpotBet(1, 10),), "x" * 129)) == "bet/bad_seed"
    r.do(PlaceSpotBets(1, (SpotBet(1, 10),), "x" * 128))


def test_a_seat_not_in_the_hand_cannot_bet() -> None:
    r = run([(1, 1000)])
    assert refused(r.state, PlaceSpotBets(4, (SpotBet(1, 10),))) == "seat/not_in_hand"


def test_placing_replaces_the_players_unconfirmed_bets() -> None:
    r = run()
    r.do(PlaceSpotBets(1, (SpotBet(1, 10), SpotBet(2, 10))))
    r.do(PlaceSpotBets(1, (SpotBet(4, 25, True),)))
    assert r.state.placed == {1: (SpotBet(4, 25, True),)}
    r.do(PlaceSpotBets(1, ()))
    assert r.state.placed == {}


def test_deal_confirms_the_players_bets() -> None:
    r = run([(1, 1000), (2, 1000)])
    assert refused(r.state, ConfirmBets(1)) == "bet/none"
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10), confirm=False)
    r.do(ConfirmBets(1))
    assert r.state.confirmed == {1}
    assert refused(r.state, ConfirmBets(1)) == "bet/confirmed"
    assert refused(r.state, PlaceSpotBets(1, (SpotBet(3, 10),))) == "bet/confirmed"
    assert refused(r.state, RepeatBets(1)) == "bet/confirmed"


def test_clear_takes_every_bet_back_and_unconfirms() -> None:
    r = run([(1, 1000), (2, 1000)])
    assert refused(r.state, ClearBets(1)) == "bet/none"
    r.bet(2, (3, 10), confirm=False)
    r.bet(1, (1, 10), (2, 10), seed="mine")
    assert r.do(ClearBets(1)) == [BetsCleared(1, "clear")]
    assert 1 not in r.state.placed
    assert 1 not in r.state.confirmed
    assert 1 not in r.state.seeds
    r.bet(1, (1, 20), confirm=False)  # free to bet again
    assert r.state.placed[1] == (SpotBet(1, 20),)


def test_rebet_places_the_last_hands_bets_on_the_same_spots() -> None:
    carry = {"last_bets": {"1": [[2, 10, True], [5, 25, False]]}}
    r = run(carry=carry)
    assert r.do(RepeatBets(1)) == [SpotBetsPlaced(1, (SpotBet(2, 10, True), SpotBet(5, 25, False)), None)]
    assert not r.state.confirmed  # Re-Bet places; Deal still confirms


def test_rebet_is_refused_with_a_reason() -> None:
    carry = {"last_bets": {"1": [[2, 10, True]], "3": [[4, 10, False]]}}
    assert refused(run(carry={}).state, RepeatBets(1)) == "bet/no_last_bets"
    taken = run([(1, 1000), (2, 1000)], carry=carry)
    taken.bet(2, (2, 10), confirm=False)
    assert refused(taken.state, RepeatBets(1)) == "spot/taken"
    assert refused(run(carry=carry, settings=CaribbeanSettings(min_ante=25)).state, RepeatBets(1)) == "bet/below_min"
    assert refused(run([(1, 30)], carry=carry).state, RepeatBets(1)) == "bet/insufficient_stack"
    assert refused(run(carry=carry, settings=CaribbeanSettings(jackpot=False)).state, RepeatBets(1)) \
        == "bet/no_jackpot"
    assert refused(run([(3, 1000)], carry=carry, settings=CaribbeanSettings(spots=3)).state, RepeatBets(3)) \
        == "spot/invalid"


def test_betting_closes_when_every_player_has_confirmed_or_passed() -> None:
    r = run([(1, 1000), (2, 1000), (3, 1000)])
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    assert r.state.phase == "betting"  # seat 1 has an unconfirmed bet
    assert r.do(ConfirmBets(1)) == [BetsConfirmed(1)]
    assert r.state.phase == "betting"  # seat 3 has neither bet nor passed: the betting waits for it
    events = r.do(PassBets(3))
    assert isinstance(events[1], BetsClosed)
    assert [b.seat for b in events[1].bets] == [1, 2]  # seat 3 passed: betting is optional


def test_a_pass_or_a_leave_can_close_the_betting_and_a_clear_waits_for_the_player() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (2, 10), confirm=False)
    r.bet(1, (1, 10))
    assert r.do(ClearBets(2)) == [BetsCleared(2, "clear")]  # seat 2 may still bet again or pass
    events = r.do(PassBets(2))
    assert [e.type for e in events[:2]] == ["bets_passed", "bets_closed"]
    left = run([(1, 1000), (2, 1000)])
    left.bet(2, (2, 10), confirm=False)
    left.bet(1, (1, 10))
    events = left.do(Leave(2))
    assert events[:3] == [PlayerLeaving(2), BetsCleared(2, "left"), BetsClosed((ClosedBet(1, 1, 10, False),))]


def test_the_betting_clock_sends_unconfirmed_bets_back() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    assert r.state.phase == "betting"
    events = r.do(CloseBets())
    assert events[:2] == [BetsCleared(1, "clock"), BetsClosed((ClosedBet(2, 2, 10, False),))]


def test_no_ante_no_hand() -> None:
    r = run([(1, 1000)])
    r.bet(1, (1, 10), confirm=False)
    assert r.do(CloseBets()) == [BetsCleared(1, "clock"), BetsClosed(()), HandNotDealt("no_ante")]
    assert r.state.reason == "no_ante"
    assert refused(run().state, PlaySpot(1)) == "phase/wrong"


def test_leaving_during_betting_removes_the_seats_bets_and_stops_its_betting() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), confirm=False)
    assert r.do(Leave(1)) == [PlayerLeaving(1), BetsCleared(1, "left")]
    assert refused(r.state, PlaceSpotBets(1, (SpotBet(1, 10),))) == "seat/leaving"
    assert r.do(Leave(1)) == []


# ---------------------------------------------------------------- section 3 step 2: the deal


def test_the_deck_is_derived_from_the_server_seed_and_confirmed_players_seeds_in_seat_order() -> None:
    r = run([(1, 1000), (2, 1000), (3, 1000)])
    r.bet(2, (3, 10), seed="second", confirm=False)
    r.bet(1, (2, 10), seed="first", confirm=False)
    r.bet(3, (1, 10), seed="third")
    r.do(ConfirmBets(1))  # seat 2 never confirms: its seed is not mixed in
    r.do(CloseBets())
    prepared = next(e for e in r.events if isinstance(e, DeckPrepared))
    assert prepared == DeckPrepared(False, ((1, "first"), (3, "third")))
    deck = shuffled_deck(derive_deck_seed(SEED, [player_seed_bytes("first"), player_seed_bytes("third")]))
    dealt = next(e for e in r.events if isinstance(e, CardsDealt))
    expected = deal_hands(deck, (1, 2, HOUSE))
    assert (*dealt.hands, (HOUSE, dealt.dealer)) == tuple(expected)


def test_one_card_at_a_time_to_each_spot_in_spot_order_the_dealer_last_five_rounds() -> None:
    r = run([(1, 1000), (2, 1000)], deck=tuple(range(52)))
    r.bet(2, (5, 10), confirm=False)
    r.bet(1, (2, 10))
    r.do(ConfirmBets(2))
    dealt = next(e for e in r.events if isinstance(e, CardsDealt))
    assert dealt.order == (2, 5, HOUSE)
    assert dealt.hands == ((2, (0, 3, 6, 9, 12)), (5, (1, 4, 7, 10, 13)))
    assert dealt.dealer == (2, 5, 8, 11, 14)


def test_an_arranged_deck_is_marked_arranged() -> None:
    r = one_spot_hand(PAIR_OF_ACES, PAIR_OF_KINGS)
    assert next(e for e in r.events if isinstance(e, DeckPrepared)) == DeckPrepared(True, ())


def test_an_arranged_deck_too_short_voids_the_hand() -> None:
    deck = arranged([PAIR_OF_ACES], PAIR_OF_KINGS)[:9]
    r = run(deck=deck)
    events = r.bet(1, (1, 10))
    assert events[-1] == HandVoided("card_count")


def test_the_first_turn_starts_with_the_deal() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (1, 10), confirm=False)
    r.bet(1, (4, 10))
    r.do(ConfirmBets(2))
    assert r.types()[-4:] == ["bets_closed", "deck_prepared", "cards_dealt", "turn_started"]
    assert r.events[-1] == TurnStarted(2, 1)


# ---------------------------------------------------------------- section 3 step 3: decisions


def test_decisions_run_in_spot_order_one_spot_at_a_time() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (6, 10), (2, 10), confirm=False)
    r.bet(2, (4, 10))
    r.do(ConfirmBets(1))
    turns = []
    while r.state.phase == "decisions":
        turn = r.state.turn
        assert turn is not None
        turns.append((turn.seat, turn.spot))
        r.do(PlaySpot(turn.seat))
    assert turns == [(1, 2), (2, 4), (1, 6)]
    assert [(e.seat, e.spot) for e in r.events if isinstance(e, TurnStarted)] == turns


def test_play_places_a_back_bet_of_exactly_twice_the_ante() -> None:
    r = one_spot_hand(PAIR_OF_ACES, PAIR_OF_KINGS, ante=15)
    assert r.do(PlaySpot(1))[0] == SpotPlayed(1, 1, 30)


def test_only_the_spot_in_turn_may_be_decided_by_its_owner() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), (3, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1))
    assert refused(r.state, PlaySpot(2)) == "turn/not_yours"
    assert refused(r.state, FoldSpot(1, 3)) == "turn/not_yours"
    assert refused(r.state, PlaySpot(1, 2)) == "turn/not_yours"
    assert r.do(FoldSpot(1, 1))[0] == SpotFolded(1, 1, "fold")


def test_a_fold_loses_the_ante() -> None:
    r = one_spot_hand(PAIR_OF_ACES, PAIR_OF_KINGS, jackpot=True)
    r.do(FoldSpot(1))
    result = settlement_of(r).settlement.result(1)
    assert (result.folded, result.ante, result.bet, result.net) == (True, -10, 0, -11)


def test_the_clock_folds_the_spot_in_turn_only() -> None:
    r = run()
    r.bet(1, (1, 10), (2, 10))
    assert refused(r.state, ClockExpired(2)) == "clock/stale"
    assert r.do(ClockExpired(1)) == [SpotFolded(1, 1, "clock"), TurnStarted(1, 2)]
    assert r.state.turn == ClosedBet(2, 1, 10, False)


def test_a_player_who_left_folds_each_undecided_spot_at_its_turn() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), (3, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1))
    assert r.do(Leave(1)) == [PlayerLeaving(1), SpotFolded(1, 1, "left"), TurnStarted(2, 2)]
    events = r.do(PlaySpot(2))
    assert events[:2] == [SpotPlayed(2, 2, 20), SpotFolded(1, 3, "left")]
    assert r.state.phase == "settled"


def test_leaving_out_of_turn_folds_nothing_until_the_turn_comes() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1))
    assert r.do(Leave(2)) == [PlayerLeaving(2)]
    assert r.do(PlaySpot(1))[:2] == [SpotPlayed(1, 1, 20), SpotFolded(2, 2, "left")]


def test_a_dropped_connection_alone_folds_nothing() -> None:
    state = new_hand(CaribbeanSettings(), [Player(1, 1000, present=False)], SEED)
    r = Run(state)
    r.do(PlaceSpotBets(1, (SpotBet(1, 10),)), ConfirmBets(1))
    assert r.state.turn == ClosedBet(1, 1, 10, False)
    assert "spot_folded" not in r.types()
    r.do(PlaySpot(1))
    assert r.state.phase == "settled"


# ---------------------------------------------------------------- section 3 steps 4 and 5: showdown, settlement


@pytest.mark.parametrize(("dealer", "qualifies"), [("Ac Kd 4h 3s 2c", True), ("Ac Qd Jh Ts 9c", False),
                                                    ("7c 7d 4h 3s 2c", True)])
def test_the_dealer_is_shown_and_qualifies_with_ace_king_or_better(dealer: str, qualifies: bool) -> None:
    r = one_spot_hand(BUSTED, dealer)
    r.do(PlaySpot(1))
    assert next(e for e in r.events if isinstance(e, DealerRevealed)) == DealerRevealed(parse_cards(dealer), qualifies)


@pytest.mark.parametrize(("player", "dealer", "ante", "bet"), [
    (PAIR_OF_ACES, NO_QUALIFY, 10, 0),          # no qualifier: Ante wins 1 to 1, Back Bet pushes
    (TWO_PAIR, PAIR_OF_KINGS, 10, 40),          # player higher: Back Bet paid 2 to 1 for two pair
    ("Kh Ks 7c 4h 3s", PAIR_OF_KINGS, 0, 0),    # equal hands push
    (BUSTED, PAIR_OF_KINGS, -10, -20),          # dealer higher: both lose
])
def test_a_hand_that_played_is_settled_by_the_table_of_step_5(player: str, dealer: str, ante: int, bet: int) -> None:
    r = one_spot_hand(player, dealer)
    r.do(PlaySpot(1))
    result = settlement_of(r).settlement.result(1)
    assert (result.ante, result.bet, result.net) == (ante, bet, ante + bet)


def test_a_winning_ace_king_high_is_paid_as_pair_or_less() -> None:
    r = one_spot_hand("Ah Kd 9c 5s 3h", "Ac Kc 8d 5d 2h")
    r.do(PlaySpot(1))
    result = settlement_of(r).settlement.result(1)
    assert (result.ante, result.bet) == (10, 20)


def test_settlement_runs_from_the_highest_spot_down() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(1, (1, 10), (6, 10), confirm=False)
    r.bet(2, (3, 10))
    r.do(ConfirmBets(1), PlaySpot(1), FoldSpot(2), PlaySpot(1))
    assert settlement_of(r).settlement.order == (6, 3, 1)


def test_max_payout_caps_the_ante_and_back_bet_winnings_of_a_hand() -> None:
    r = one_spot_hand(TWO_PAIR, PAIR_OF_KINGS, settings=CaribbeanSettings(max_payout=25))
    r.do(PlaySpot(1))
    result = settlement_of(r).settlement.result(1)
    assert (result.ante, result.bet) == (10, 15)


def test_a_folded_hand_keeps_its_jackpot_chance() -> None:
    r = one_spot_hand("Kc 9c 7c 6c 8c", "Ah Ad Ts 5d 2h", jackpot=True)
    r.do(FoldSpot(1))
    result = settlement_of(r).settlement.result(1)
    assert (result.ante, result.jackpot_award, result.net) == (-10, 50, -10 + 50 - 1)


# ---------------------------------------------------------------- section 3 step 6: show and record


def test_everyone_is_shown_the_dealer_and_every_hand_that_played() -> None:
    deck = arranged([PAIR_OF_ACES, BUSTED, TWO_PAIR], PAIR_OF_KINGS)
    r = run([(1, 1000), (2, 1000)], deck=deck)
    r.bet(1, (1, 10), (3, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1), PlaySpot(1), FoldSpot(2), PlaySpot(1))
    assert settlement_of(r).shown == ((3, parse_cards(TWO_PAIR)), (1, parse_cards(PAIR_OF_ACES)))


def test_a_folded_hand_is_shown_only_when_it_wins_a_jackpot_award() -> None:
    deck = arranged(["Kc 9c 7c 6c 8c", BUSTED], "Ah Ad Ts 5d 2h")
    r = run(deck=deck)
    r.bet(1, (1, 10, True), (2, 10, True))
    r.do(FoldSpot(1), FoldSpot(1))
    assert settlement_of(r).shown == ((1, parse_cards("Kc 9c 7c 6c 8c")),)


def test_the_meter_feeds_the_settlement_and_the_hand_records_it() -> None:
    r = one_spot_hand(BUSTED, PAIR_OF_KINGS, jackpot=True, carry={"meter": 123_456, "funded": True})
    r.do(PlaySpot(1))
    settled = settlement_of(r).settlement
    assert (settled.meter_before, settled.meter_after) == (123_456, 123_506)
    assert r.state.meter_now == 123_506


def test_a_new_table_starts_its_meter_at_the_jackpot_seed() -> None:
    state = new_hand(CaribbeanSettings(jackpot_seed=2500), [Player(1, 100)], SEED)
    assert (state.meter, state.funded) == (250_000, False)


# ---------------------------------------------------------------- section 5: dead hands, misdeals


def test_a_dead_seat_gets_every_bet_back_and_adds_nothing_to_the_meter() -> None:
    r = run([(1, 1000), (2, 1000)], carry={"meter": 10_000, "funded": True})
    r.bet(1, (1, 10, True), (2, 10, True), confirm=False)
    r.bet(2, (3, 10, True))
    r.do(ConfirmBets(1), PlaySpot(1))
    assert r.do(DeclareDead(1)) == [SpotDead(1, 1, "floor"), SpotDead(1, 2, "floor"), TurnStarted(2, 3)]
    r.do(PlaySpot(2))
    settled = settlement_of(r).settlement
    assert [(x.spot, x.dead, x.net) for x in settled.spots if x.spot != 3] == [(2, True, 0), (1, True, 0)]
    assert settled.meter_after - settled.meter_before == 50  # seat 2's wager alone
    assert all(spot != 1 and spot != 2 for spot, _ in settlement_of(r).shown)


def test_a_folded_spot_stays_folded_when_its_seat_is_declared_dead() -> None:
    r = run()
    r.bet(1, (1, 10), (2, 10))
    r.do(FoldSpot(1))
    assert r.do(DeclareDead(1))[0] == SpotDead(1, 2, "floor")
    assert refused(r.state, DeclareDead(1)) == "hand/over"
    assert settlement_of(r).settlement.result(1).ante == -10


def test_declare_dead_needs_a_live_spot_in_the_decisions() -> None:
    r = run([(1, 1000), (2, 1000)])
    assert refused(r.state, DeclareDead(1)) == "phase/wrong"
    r.bet(1, (1, 10), (2, 10), confirm=False)
    r.bet(2, (3, 10))
    r.do(ConfirmBets(1), FoldSpot(1))
    r.do(DeclareDead(1))
    assert r.state.turn == ClosedBet(3, 2, 10, False)
    assert refused(r.state, DeclareDead(1)) == "seat/not_in_hand"


@pytest.mark.parametrize("when", ["betting", "decisions"])
def test_a_misdeal_voids_the_whole_hand(when: str) -> None:
    r = run()
    if when == "decisions":
        r.bet(1, (1, 10), (2, 10))
        r.do(FoldSpot(1))
    assert r.do(Misdeal("shuffler_fault")) == [HandVoided("shuffler_fault")]
    assert r.state.reason == "shuffler_fault"
    assert refused(r.state, Misdeal()) == "hand/over"
    assert refused(r.state, PlaceSpotBets(1, ())) == "hand/over"
