"""docs/rules/hcf.md sections 3, 4 and 5: one hand as a state machine (``decide`` / ``evolve``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.cards import FULL_DECK, Card, parse_cards
from server.rules.errors import Violation
from server.rules.fairness import commitment, derive_deck_seed, shuffled_deck
from server.rules.game import Player
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.hand import (
    HOUSE,
    HandState,
    apply_events,
    clockwise_from,
    decide,
    eligible_to_bank,
    new_hand,
    next_offer_from,
    opening_events,
    step,
)
from server.rules.hcf.messages import (
    AcceptBank,
    BankAccepted,
    BankDeclined,
    BankOffered,
    BetsClosed,
    BetsPassed,
    BetsPlaced,
    BettingOpened,
    CardsDealt,
    ClockExpired,
    CloseBets,
    Command,
    DealerRevealed,
    DeckPrepared,
    DeclareDead,
    DeclineBank,
    Event,
    FeesCollected,
    Fold,
    HandNotDealt,
    HandSettled,
    HandVoided,
    Leave,
    Misdeal,
    PassBets,
    PlaceBets,
    PlayerFolded,
    PlayerLeaving,
    PlayerRaised,
    Raise,
    SeatDead,
    TurnStarted,
    event_from_json,
)
from server.rules.hcf.settings import FEE_MODES, HcfSettings
from server.rules.hcf.settlement import Settlement, Wager, settle

CALIFORNIA = HcfSettings()  # 7 seats, min_bank 500, fee_mode players, fee 1, Ante 5..500
STANDARD = HcfSettings.from_mapping({"profile": "standard"})
SEED = bytes(range(32))

# Hands for arranged decks: what each seat should hold.
DP_QUALIFIES = "9h 5h 2h Kc Qd Js 3s"
FOUR_FLUSH = "Ad Td 8d 6d 4s 7s Jc"     # raise limit 1x
FIVE_FLUSH = "Ac Qc Tc 8c 6c 5s 9s"     # raise limit 2x
SIX_FLUSH = "Ah Qh Th 8h 6h 4h Kd"      # raise limit 3x


def players(*seats: int, stack: int = 1000) -> list[Player]:
    return [Player(seat, stack) for seat in seats]


def arrange(order: Sequence[int], hands: Mapping[int, str]) -> tuple[Card, ...]:
    """A deck that deals ``hands`` one card at a time in ``order``."""
    parsed = {seat: parse_cards(text, count=7) for seat, text in hands.items()}
    return tuple(parsed[seat][r] for r in range(7) for seat in order)


def play(state: HandState, *commands: Command) -> tuple[HandState, list[Event]]:
    events: list[Event] = []
    for command in commands:
        state, new = step(state, command)
        events += new
    return state, events


def refused(state: HandState, command: Command, code: str) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(Violation) as caught:
        decide(state, command)
    assert caught.value.code == code, caught.value.message
    assert state == before


def assert_conserves(result: Settlement) -> None:
    assert sum(r.net for r in result.seats) + result.dealer_net + result.house == 0


def dealt_to_betting(seats: Sequence[int] = (1, 2, 3, 4), dealer: int = 1, *,
                     settings: HcfSettings = CALIFORNIA, arranged_deck: Sequence[Card] | None = None) -> HandState:
    state = new_hand(settings, players(*seats), SEED, offer_from=dealer, arranged_deck=arranged_deck)
    state, _ = step(state, AcceptBank(dealer))
    return state


def four_seat_decisions(flush_bonus: int = 0) -> HandState:
    """Seats 1-4, seat 1 the DP, everyone in with an Ante of 10, hands arranged."""
    deck = arrange((2, 3, 4, 1), {1: DP_QUALIFIES, 2: FOUR_FLUSH, 3: FIVE_FLUSH, 4: SIX_FLUSH})
    state = dealt_to_betting(arranged_deck=deck)
    state, _ = play(state, *(PlaceBets(seat, 10, flush_bonus=flush_bonus) for seat in (2, 3, 4)))
    assert state.phase == "decisions"
    return state


# ---------------------------------------------------------------- step 1: the bank offer


def test_section3_step1_bank_offered_clockwise_from_offer_from() -> None:
    state = new_hand(CALIFORNIA, players(2, 4, 6), SEED, offer_from=5)
    assert state.phase == "offer"
    assert state.offers == (6, 2, 4)
    assert state.offered == 6
    assert opening_events(state) == [BankOffered(6)]


def test_section3_step1_first_hand_starts_at_seat_1() -> None:
    state = new_hand(CALIFORNIA, players(1, 3, 5), SEED)
    assert state.offered == 1


def test_section3_step1_decline_clock_and_leave_move_the_offer_on() -> None:
    state = new_hand(CALIFORNIA, players(2, 4, 6, 7), SEED, offer_from=5)
    state, events = step(state, DeclineBank(6))
    assert events == [BankDeclined(6, "declined"), BankOffered(7)]
    state, events = step(state, ClockExpired(7))
    assert events == [BankDeclined(7, "clock"), BankOffered(2)]
    state, events = step(state, Leave(2))
    assert events == [PlayerLeaving(2), BankDeclined(2, "left"), BankOffered(4)]
    assert state.offered == 4


def test_section3_step1_each_seat_offered_at_most_once_nobody_accepts_no_bank() -> None:
    state = new_hand(CALIFORNIA, players(1, 2, 3), SEED, offer_from=2)
    state, events = play(state, DeclineBank(2), DeclineBank(3), DeclineBank(1))
    offered = [e.seat for e in events if isinstance(e, BankOffered)]
    assert offered == [3, 1]
    assert events[-1] == HandNotDealt("no_bank")
    assert (state.phase, state.reason) == ("not_dealt", "no_bank")
    assert next_offer_from(state) == 2  # offered again from the same place
    refused(state, AcceptBank(2), "hand/over")


def test_section3_step1_seats_that_left_are_skipped() -> None:
    state = new_hand(CALIFORNIA, players(1, 2, 3), SEED, offer_from=1)
    state, events = step(state, Leave(2))
    assert events == [PlayerLeaving(2)]
    state, events = step(state, DeclineBank(1))
    assert events == [BankDeclined(1, "declined"), BankDeclined(2, "left"), BankOffered(3)]
    state, events = step(state, ClockExpired(3))
    assert events[-1] == HandNotDealt("no_bank")


@pytest.mark.parametrize(
    ("player", "eligible"),
    [
        (Player(1, 500), True),
        (Player(1, 499), False),
        (Player(1, 5000, willing_to_bank=False), False),
        (Player(1, 5000, present=False), False),
    ],
)
def test_section3_step1_eligibility(player: Player, eligible: bool) -> None:
    assert eligible_to_bank(CALIFORNIA, player) is eligible
    state = new_hand(CALIFORNIA, [player, Player(2, 100)], SEED)
    assert (state.phase == "offer") is eligible
    if not eligible:
        assert state.reason == "no_bank"
        assert opening_events(state) == [HandNotDealt("no_bank")]


def test_section3_step1_eligibility_covers_the_dp_fee() -> None:
    settings = HcfSettings.from_mapping({"min_bank": 0, "fee_mode": "designated", "fee": 5})
    assert not eligible_to_bank(settings, Player(1, 4))
    assert eligible_to_bank(settings, Player(1, 5))


def test_section3_step1_ineligible_seats_are_not_offered() -> None:
    seated = [Player(1, 100), Player(2, 1000, willing_to_bank=False), Player(3, 1000, present=False),
              Player(4, 1000)]
    state = new_hand(CALIFORNIA, seated, SEED, offer_from=1)
    assert state.offers == (4,)


def test_section3_step1_a_hand_needs_a_dp_and_a_player() -> None:
    state = new_hand(CALIFORNIA, players(3), SEED)
    assert (state.phase, state.reason) == ("not_dealt", "no_bank")


def test_section3_step1_only_the_offered_seat_answers() -> None:
    state = new_hand(CALIFORNIA, players(1, 2, 3), SEED, offer_from=1)
    refused(state, AcceptBank(2), "turn/not_yours")
    refused(state, DeclineBank(3), "turn/not_yours")
    refused(state, AcceptBank(5), "seat/not_in_hand")
    refused(state, ClockExpired(2), "clock/stale")
    refused(state, PlaceBets(2, 10), "phase/wrong")
    refused(state, Fold(2), "phase/wrong")
    refused(state, CloseBets(), "phase/wrong")


def test_section3_step1_accept_makes_the_dp_and_opens_bets() -> None:
    state = new_hand(CALIFORNIA, players(1, 2, 3, 5), SEED, offer_from=2)
    state, events = step(state, AcceptBank(2))
    assert events == [BankAccepted(2), BettingOpened(2, commitment(SEED), (3, 5, 1))]
    assert (state.phase, state.dealer, state.bettors) == ("betting", 2, (3, 5, 1))
    assert state.commitment == commitment(SEED)
    refused(state, AcceptBank(2), "phase/wrong")


def test_section3_step1_button_moves_after_a_settled_hand() -> None:
    state = four_seat_decisions()
    state, _ = play(state, Fold(2), Fold(3), Fold(4))
    assert state.phase == "settled"
    assert next_offer_from(state) == 2
    seven = new_hand(CALIFORNIA, players(7, 1), SEED, offer_from=7)
    seven, _ = play(seven, AcceptBank(7), PlaceBets(1, 10), Fold(1))
    assert next_offer_from(seven) == 1  # wraps round


def test_clockwise_from_wraps() -> None:
    assert clockwise_from(7, 6) == (6, 7, 1, 2, 3, 4, 5)
    assert clockwise_from(3, 1) == (1, 2, 3)


# ---------------------------------------------------------------- step 2: bets


def test_section3_step2_bet_limits_refused_with_codes() -> None:
    state = dealt_to_betting(settings=HcfSettings.from_mapping({"min_bonus": 2}))
    refused(state, PlaceBets(2, 4), "bet/below_min")
    refused(state, PlaceBets(2, 0), "bet/below_min")
    refused(state, PlaceBets(2, 501), "bet/above_max")
    refused(state, PlaceBets(2, 10, straight_flush_bonus=1), "bet/below_min")
    refused(state, PlaceBets(2, 10, flush_bonus=101), "bet/above_max")
    refused(state, PlaceBets(2, 10, straight_flush_bonus=-5), "bet/below_min")
    refused(state, PlaceBets(2, 0, straight_flush_bonus=5), "bet/bonus_without_ante")
    refused(state, PlaceBets(2, 0, flush_bonus=5), "bet/bonus_without_ante")
    refused(state, PlaceBets(2, True), "request/malformed")  # a bool is not a chip count
    refused(state, PlaceBets(2, 10, seed="x" * 129), "bet/bad_seed")
    refused(state, PlaceBets(1, 10), "bet/not_a_player")
    refused(state, PlaceBets(6, 10), "seat/not_in_hand")


def test_section3_step2_stack_must_cover_bets_smallest_raise_and_fee() -> None:
    seated = [Player(1, 1000), Player(2, 41), Player(3, 40)]
    state = new_hand(CALIFORNIA, seated, SEED, offer_from=1)
    state, _ = step(state, AcceptBank(1))
    # 10 Ante + 10 + 10 bonuses + 10 (1x raise) + 1 fee = 41
    refused(state, PlaceBets(3, 10, straight_flush_bonus=10, flush_bonus=10), "bet/insufficient_stack")
    state, events = step(state, PlaceBets(2, 10, straight_flush_bonus=10, flush_bonus=10))
    assert events == [BetsPlaced(2, 10, 10, 10, None)]
    no_fee = new_hand(HcfSettings.from_mapping({"fee_mode": "designated"}), seated, SEED, offer_from=1)
    no_fee, _ = step(no_fee, AcceptBank(1))
    step(no_fee, PlaceBets(3, 10, straight_flush_bonus=10, flush_bonus=10))  # players pay no fee here


def test_section3_step2_each_player_answers_once() -> None:
    state = dealt_to_betting()
    state, _ = play(state, PlaceBets(2, 10), PassBets(3))
    refused(state, PlaceBets(2, 10), "bet/already_answered")
    refused(state, PassBets(2), "bet/already_answered")
    refused(state, PlaceBets(3, 10), "bet/already_answered")
    refused(state, PassBets(1), "bet/not_a_player")


def test_section3_step2_no_ante_at_all_not_dealt_dp_keeps_the_button() -> None:
    state = dealt_to_betting(dealer=3)
    state, events = play(state, PassBets(4), PassBets(1), PassBets(2))
    assert events[-2:] == [BetsClosed(()), HandNotDealt("no_ante")]
    assert (state.phase, state.reason) == ("not_dealt", "no_ante")
    assert next_offer_from(state) == 3


def test_section3_step2_betting_closes_at_the_clock() -> None:
    state = dealt_to_betting()
    state, _ = step(state, PlaceBets(3, 10))
    state, events = step(state, CloseBets())
    assert events[:3] == [BetsPassed(2, "clock"), BetsPassed(4, "clock"), BetsClosed((3,))]
    assert state.phase == "decisions"
    assert state.turn == 3
    assert set(state.hands) == {3, 1}


def test_section3_step2_closing_with_no_ante_not_dealt() -> None:
    state = dealt_to_betting()
    state, events = step(state, CloseBets())
    assert events[-1] == HandNotDealt("no_ante")
    assert next_offer_from(state) == 1


def test_section4_leave_during_betting_passes() -> None:
    state = dealt_to_betting()
    state, events = play(state, PlaceBets(2, 10), PlaceBets(3, 10), Leave(4))
    assert events[2:5] == [PlayerLeaving(4), BetsPassed(4, "left"), BetsClosed((2, 3))]
    assert state.phase == "decisions"


# ---------------------------------------------------------------- steps 3 and 4: fee and deal


@pytest.mark.parametrize(
    ("fee_mode", "fees"),
    [
        ("players", ((1, 1), (4, 1))),
        ("all", ((1, 1), (3, 1), (4, 1))),
        ("designated", ((3, 1),)),
        ("none", ()),
    ],
)
def test_section3_step3_fees_taken_from_the_payers(fee_mode: str, fees: tuple[tuple[int, int], ...]) -> None:
    table = HcfSettings.from_mapping({"fee_mode": fee_mode})
    state = dealt_to_betting((1, 2, 3, 4, 5), dealer=3, settings=table)
    state, events = play(state, PlaceBets(4, 10), PassBets(5), PlaceBets(1, 10), PassBets(2))
    assert [e for e in events if isinstance(e, FeesCollected)] == [FeesCollected(fees)]
    assert dict(state.fees) == dict(fees)


def test_section3_step4_deal_clockwise_from_left_of_button_dp_last_from_derived_deck() -> None:
    state = dealt_to_betting((1, 2, 3, 4, 5), dealer=3)
    assert state.bettors == (4, 5, 1, 2)
    state, events = play(state, PlaceBets(4, 10, seed="b"), PassBets(5), PlaceBets(1, 10, seed="a"),
                         PassBets(2))
    dealt = next(e for e in events if isinstance(e, CardsDealt))
    assert dealt.order == (4, 1, 3)
    prepared = next(e for e in events if isinstance(e, DeckPrepared))
    assert prepared == DeckPrepared(False, ((1, "a"), (4, "b")))  # seeds in seat order
    deck = shuffled_deck(derive_deck_seed(SEED, [b"a", b"b"]))
    hands = dict(dealt.hands)
    assert hands == {4: deck[0:21:3], 1: deck[1:21:3], 3: deck[2:21:3]}
    assert all(len(cards) == 7 for cards in hands.values())
    assert state.turn_order == (4, 1)
    assert events[-1] == TurnStarted(4)


def test_section6_player_seeds_change_the_deal() -> None:
    def deal(seed_1: str | None) -> dict[int, tuple[Card, ...]]:
        state = dealt_to_betting((1, 2), dealer=1)
        state, _ = step(state, PlaceBets(2, 10, seed=seed_1))
        return dict(state.hands)

    assert deal("x") != deal("y")
    assert deal(None) == deal(None)
    assert deal(None)[2] == shuffled_deck(derive_deck_seed(SEED, []))[0:14:2]


def test_section6_arranged_deck_is_marked() -> None:
    state = four_seat_decisions()
    assert state.arranged
    assert dict(state.hands)[2] == parse_cards(FOUR_FLUSH)
    assert dict(state.hands)[1] == parse_cards(DP_QUALIFIES)


# ---------------------------------------------------------------- step 5: decisions


def test_section3_step5_decisions_in_turn_with_raise_limits() -> None:
    state = four_seat_decisions()
    assert state.turn == 2
    refused(state, Raise(3, 10), "turn/not_yours")
    refused(state, Fold(4), "turn/not_yours")
    refused(state, Raise(2, 20), "raise/above_limit")  # 4-card flush: 1x
    refused(state, Raise(2, 9), "raise/below_min")
    refused(state, Raise(2, 10.0), "request/malformed")  # type: ignore[arg-type]
    refused(state, ClockExpired(3), "clock/stale")
    refused(state, PlaceBets(2, 10), "phase/wrong")
    state, events = step(state, Raise(2, 10))
    assert events == [PlayerRaised(2, 10), TurnStarted(3)]
    refused(state, Raise(3, 21), "raise/above_limit")  # 5-card flush: 2x
    state, events = step(state, Raise(3, 20))
    refused(state, Raise(4, 31), "raise/above_limit")  # 6-card flush: 3x
    state, events = step(state, Raise(4, 30))
    assert [type(e) for e in events] == [PlayerRaised, DealerRevealed, HandSettled]
    assert state.phase == "settled"
    refused(state, Fold(2), "hand/over")
    refused(state, Misdeal(), "hand/over")


def test_section3_step5_raise_no_more_than_the_stack() -> None:
    seated = [Player(1, 1000), Player(3, 21)]
    deck = arrange((3, 1), {1: DP_QUALIFIES, 3: FIVE_FLUSH})
    state = new_hand(CALIFORNIA, seated, SEED, offer_from=1, arranged_deck=deck)
    state, _ = play(state, AcceptBank(1), PlaceBets(3, 10))
    refused(state, Raise(3, 20), "raise/insufficient_stack")  # 21 - 10 Ante - 1 fee = 10 left
    state, _ = step(state, Raise(3, 10))
    assert state.phase == "settled"


def test_section3_step6_and_7_settlement_of_the_hand() -> None:
    state = four_seat_decisions(flush_bonus=5)
    state, events = play(state, Raise(2, 10), Fold(3), Raise(4, 30))
    revealed = next(e for e in events if isinstance(e, DealerRevealed))
    assert revealed == DealerRevealed(1, parse_cards(DP_QUALIFIES), True)
    settled = next(e for e in events if isinstance(e, HandSettled))
    assert state.settlement == settled.settlement
    result = settled.settlement
    assert_conserves(result)
    assert result.order == (4, 3, 2)
    # 6-card flush beats 9-5-2: Ante and raise 1:1, flush bonus 50:1.
    assert result.result(4).net == 10 + 30 + 250 - 1
    assert result.result(3).net == -10 - 5 - 1  # folded: Ante and bonus to the DP
    assert result.result(2).net == 10 + 10 + 10 - 1
    assert dict(settled.shown) == {2: parse_cards(FOUR_FLUSH), 4: parse_cards(SIX_FLUSH)}
    expected = settle(CALIFORNIA, parse_cards(DP_QUALIFIES), list(_wagers(state)),
                      button=1, dealer_stack=1000)
    assert result == expected


def _wagers(state: HandState) -> Iterator[Wager]:
    for seat, bets in sorted(state.bets.items()):
        yield Wager(seat, state.hands[seat], bets.ante, bets.straight_flush_bonus, bets.flush_bonus,
                    state.raises.get(seat, 0))


def test_section3_step5_clock_folds() -> None:
    state = four_seat_decisions()
    state, events = step(state, ClockExpired(2))
    assert events == [PlayerFolded(2, "clock"), TurnStarted(3)]
    assert state.timed_out == {2}
    refused(state, ClockExpired(2), "clock/stale")


def test_section4_leave_folds_at_turn() -> None:
    state = four_seat_decisions()
    state, events = step(state, Leave(3))
    assert events == [PlayerLeaving(3)]
    assert state.turn == 2
    state, events = step(state, Raise(2, 10))
    assert events == [PlayerRaised(2, 10), PlayerFolded(3, "left"), TurnStarted(4)]
    state, events = step(state, Leave(4))
    assert events[:2] == [PlayerLeaving(4), PlayerFolded(4, "left")]
    assert state.phase == "settled"
    assert state.leaving == {3, 4}
    refused(state, Leave(4), "hand/over")


def test_section4_dp_who_leaves_stays_the_dp() -> None:
    state = four_seat_decisions()
    state, events = step(state, Leave(1))
    assert events == [PlayerLeaving(1)]
    state, _ = play(state, Raise(2, 10), Raise(3, 10), Raise(4, 10))
    assert state.phase == "settled"
    assert state.dealer == 1


def test_section4_asking_to_leave_twice_changes_nothing() -> None:
    state = four_seat_decisions()
    state, _ = step(state, Leave(3))
    again, events = step(state, Leave(3))
    assert events == []
    assert again == state


# ---------------------------------------------------------------- section 5: dead hands


def test_section5_floor_declares_one_seat_dead() -> None:
    state = four_seat_decisions(flush_bonus=5)
    refused(dealt_to_betting(), DeclareDead(2), "phase/wrong")
    state, events = step(state, DeclareDead(3))
    assert events[0] == SeatDead(3, "floor")
    assert state.turn == 2  # the seat in turn keeps it
    refused(state, DeclareDead(3), "seat/not_in_hand")
    refused(state, DeclareDead(6), "seat/not_in_hand")
    state, events = step(state, DeclareDead(2))  # the seat in turn: play moves on
    assert events == [SeatDead(2, "floor"), TurnStarted(4)]
    state, events = step(state, Raise(4, 10))
    result = state.settlement
    assert result is not None
    assert_conserves(result)
    for seat in (2, 3):
        assert result.result(seat).dead
        assert result.result(seat).net == 0
    assert not result.result(4).dead
    shown = dict(next(e for e in events if isinstance(e, HandSettled)).shown)
    assert set(shown) == {4}


def test_section5_floor_declaring_the_dp_dead_voids_the_hand() -> None:
    state = four_seat_decisions()
    state, events = step(state, DeclareDead(1))
    assert events == [HandVoided("dealer_dead")]
    assert state.phase == "void"
    assert next_offer_from(state) == 1  # the button stays


@pytest.mark.parametrize("phase", ["offer", "betting", "decisions"])
def test_section5_misdeal_voids_the_whole_hand(phase: str) -> None:
    state = new_hand(CALIFORNIA, players(1, 2, 3), SEED, offer_from=2)
    if phase != "offer":
        state, _ = step(state, AcceptBank(2))
    if phase == "decisions":
        state, _ = play(state, PlaceBets(3, 10), PlaceBets(1, 10))
    assert state.phase == phase
    state, events = step(state, Misdeal("shuffler_fault"))
    assert events == [HandVoided("shuffler_fault")]
    assert (state.phase, state.reason) == ("void", "shuffler_fault")
    assert state.settlement is None
    assert next_offer_from(state) == 2
    refused(state, Misdeal(), "hand/over")
    refused(state, PlaceBets(3, 10), "hand/over")


def test_section5_dealer_short_of_cards_voids_the_whole_hand() -> None:
    full = arrange((2, 3, 1), {1: DP_QUALIFIES, 2: FOUR_FLUSH, 3: FIVE_FLUSH})
    state = dealt_to_betting((1, 2, 3), arranged_deck=full[:20])
    state, events = play(state, PlaceBets(2, 10), PlaceBets(3, 10))
    dealt = next(e for e in events if isinstance(e, CardsDealt))
    assert {seat: len(cards) for seat, cards in dealt.hands} == {2: 7, 3: 7, 1: 6}
    assert events[-1] == HandVoided("card_count")
    assert state.phase == "void"
    assert next(e for e in events if isinstance(e, DeckPrepared)).arranged


def test_section5_seat_with_wrong_card_count_is_dead() -> None:
    # Dealt one card at a time with the DP last, a short deck always shorts the DP
    # (the test above); a seat alone with a wrong count comes from a recorded deal.
    state = dealt_to_betting((1, 2, 3))
    state = apply_events(state, [
        BetsPlaced(2, 10, 0, 5, None), BetsPlaced(3, 10, 0, 0, None), BetsClosed((2, 3)),
        FeesCollected(((2, 1), (3, 1))), DeckPrepared(True, ()),
        CardsDealt((2, 3, 1), ((2, parse_cards("Ad Td 8d 6d 4s 7s")), (3, parse_cards(FIVE_FLUSH)),
                               (1, parse_cards(DP_QUALIFIES)))),
        SeatDead(2, "card_count"), TurnStarted(3),
    ])
    assert state.turn == 3
    refused(state, Raise(2, 10), "turn/not_yours")
    state, events = step(state, Raise(3, 10))
    settled = next(e for e in events if isinstance(e, HandSettled))
    assert settled.settlement.result(2).dead
    assert settled.settlement.result(2).net == 0
    assert settled.settlement.result(3).net == 10 + 10 - 1
    assert [seat for seat, _ in settled.shown] == [3]
    assert_conserves(settled.settlement)


# ---------------------------------------------------------------- section 7: the standard profile


def test_section7_standard_no_offer_house_deals_as_seat_0() -> None:
    state = new_hand(STANDARD, players(3, 1, 5), SEED)
    assert state.phase == "betting"
    assert state.dealer is None
    assert state.bettors == (1, 3, 5)
    assert opening_events(state) == [BettingOpened(None, commitment(SEED), (1, 3, 5))]
    refused(state, AcceptBank(1), "phase/wrong")
    state, events = play(state, PlaceBets(5, 10, flush_bonus=5), PlaceBets(1, 10), PassBets(3))
    dealt = next(e for e in events if isinstance(e, CardsDealt))
    assert dealt.order == (1, 5, HOUSE)
    assert next(e for e in events if isinstance(e, FeesCollected)) == FeesCollected(())
    state, events = play(state, Fold(1), Raise(5, 10))
    revealed = next(e for e in events if isinstance(e, DealerRevealed))
    assert revealed.seat == HOUSE
    assert revealed.cards == dict(dealt.hands)[HOUSE]
    result = state.settlement
    assert result is not None
    assert_conserves(result)
    assert result.dealer_fee == 0
    assert next_offer_from(state) == 1


def test_section7_standard_profile_has_no_funds_cap() -> None:
    deck = arrange((1, HOUSE), {1: "Ad Kd Qd Jd Td 9d 8d", HOUSE: "9h 5h 2h Kc Qc Js 3s"})
    state = new_hand(STANDARD, [Player(1, 10_000)], SEED, arranged_deck=deck)
    state, _ = play(state, PlaceBets(1, 500, straight_flush_bonus=100, flush_bonus=100), Raise(1, 1500))
    result = state.settlement
    assert result is not None
    assert result.result(1).net == 500 + 1500 + 100 * 8000 + 100 * 300
    assert_conserves(result)


# ---------------------------------------------------------------- properties


@st.composite
def tables(draw: st.DrawFn) -> HandState:
    profile = draw(st.sampled_from(["california", "standard"]))
    seats = draw(st.integers(2, 7) if profile == "california" else st.integers(2, 6))
    table = HcfSettings.from_mapping({
        "profile": profile,
        "seats": seats,
        "fee_mode": draw(st.sampled_from(FEE_MODES)),
        "fee": draw(st.integers(0, 2)),
        "min_bank": draw(st.sampled_from([0, 100, 500])),
        "min_ante": 5,
        "max_ante": 50,
        "max_bonus": 20,
        "max_bonus_win": draw(st.none() | st.integers(1, 500)),
    })
    chosen = draw(st.lists(st.integers(1, seats), min_size=1, max_size=seats, unique=True))
    mostly = st.sampled_from([True] * 5 + [False])
    stacks = st.sampled_from([0, 25, 500, 1000, 5000]) | st.integers(0, 2000)
    seated = [Player(seat, draw(stacks), draw(mostly), draw(mostly)) for seat in chosen]
    short = draw(st.sampled_from([None] * 9 + [draw(st.integers(0, 51))]))
    arranged = None
    if short is not None:
        arranged = draw(st.permutations(FULL_DECK))[:short]
    return new_hand(table, seated, draw(st.binary(min_size=32, max_size=32)),
                    offer_from=draw(st.integers(1, seats)), arranged_deck=arranged)


def sensible_command(data: st.DataObject, state: HandState) -> Command:
    """A command that the rules would usually accept, to drive hands to their end."""
    if state.phase == "offer" and state.offered is not None:
        seat = state.offered
        offer: list[Command] = [AcceptBank(seat), AcceptBank(seat), DeclineBank(seat), ClockExpired(seat)]
        return data.draw(st.sampled_from(offer))
    if state.phase == "betting":
        waiting = [s for s in state.bettors if s not in state.bets and s not in state.passed]
        if not waiting:
            return CloseBets()
        seat = data.draw(st.sampled_from(waiting))
        ante = data.draw(st.integers(5, 50))
        bonus = st.sampled_from([0, 0, 1, 5, 20])
        seed = data.draw(st.none() | st.text(max_size=4))
        betting: list[Command] = [
            PlaceBets(seat, ante, data.draw(bonus), data.draw(bonus), seed),
            PlaceBets(seat, ante, data.draw(bonus), data.draw(bonus), seed),
            PlaceBets(seat, 5),
            PassBets(seat),
            CloseBets(),
            Leave(seat),
        ]
        return data.draw(st.sampled_from(betting))
    if state.phase == "decisions" and state.turn is not None:
        seat = state.turn
        ante = state.bets[seat].ante
        limit = evaluate(state.hands[seat]).raise_limit
        raised = ante * data.draw(st.integers(1, limit))
        other = data.draw(st.sampled_from(sorted(state.bets)))
        options: list[Command] = [Raise(seat, raised), Raise(seat, raised), Raise(seat, ante), Fold(seat),
                                  ClockExpired(seat), Leave(other), DeclareDead(other)]
        return data.draw(st.sampled_from(options))
    return CloseBets()


def any_command(data: st.DataObject) -> Command:
    seat = st.integers(0, 8)
    amount = st.integers(-5, 600)
    bonus = st.integers(-1, 30)
    command: Command = data.draw(st.one_of(
        st.builds(AcceptBank, seat), st.builds(DeclineBank, seat),
        st.builds(PlaceBets, seat, amount, bonus, bonus, st.none() | st.text(max_size=3)),
        st.builds(PassBets, seat), st.just(CloseBets()), st.builds(Fold, seat),
        st.builds(Raise, seat, amount),
        st.builds(ClockExpired, seat), st.builds(Leave, seat), st.builds(DeclareDead, seat),
        st.builds(Misdeal, st.sampled_from(["misdeal", "shuffler_fault", "interrupted"])),
    ))
    return command


def check_events(before: HandState, after: HandState, events: Sequence[Event]) -> None:
    secret = before.server_seed.hex()
    for event in events:
        data = event.as_json()
        assert event_from_json(json.loads(json.dumps(data))) == event
        assert secret not in json.dumps(data)  # the server seed is revealed only after the hand
        if isinstance(event, CardsDealt):
            hands = dict(event.hands)
            assert all(len(cards) <= 7 for cards in hands.values())
            everything = [c for cards in hands.values() for c in cards]
            assert len(everything) == len(set(everything))
        if isinstance(event, HandSettled):
            folded = {s for s, r in after.raises.items() if r == 0}
            shown = {seat for seat, _ in event.shown}
            assert not shown & folded
            assert not shown & after.dead
            assert all(cards == after.hands[seat] for seat, cards in event.shown)
        if isinstance(event, DealerRevealed):
            assert event.cards == after.hands[event.seat]


def check_settled(state: HandState) -> None:
    result = state.settlement
    assert result is not None
    assert_conserves(result)
    stacks = {p.seat: p.stack for p in state.players}
    for r in result.seats:
        assert stacks[r.seat] + r.net >= 0
        if r.dead:
            assert r.net == 0
    if state.dealer is not None:
        assert stacks[state.dealer] + result.dealer_net >= 0
        assert set(state.bets) <= set(state.bettors)
        assert state.dealer not in state.bets


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(tables(), st.data())
def test_section3_random_commands_refusals_change_nothing_and_hands_conserve(
    start: HandState, data: st.DataObject
) -> None:
    state = start
    log: list[Event] = list(opening_events(start))
    for _ in range(40):
        if state.phase in ("settled", "not_dealt", "void") and data.draw(st.integers(0, 3)):
            break
        command = sensible_command(data, state) if data.draw(st.integers(0, 2)) else any_command(data)
        snapshot = copy.deepcopy(state)
        try:
            events = decide(state, command)
        except Violation:
            assert state == snapshot
            continue
        after = apply_events(state, events)
        check_events(state, after, events)
        assert after == step(snapshot, command)[0]
        log += events
        state = after
    if state.phase == "settled":
        check_settled(state)
    assert apply_events(start, log) == state  # the log replays to the same state


def test_section5_declaring_a_seat_not_in_turn_dead_starts_no_turn() -> None:
    state = four_seat_decisions()
    _, events = step(state, DeclareDead(4))
    assert events == [SeatDead(4, "floor")]


def test_section5_a_folded_seat_cannot_be_declared_dead() -> None:
    state, _ = step(four_seat_decisions(flush_bonus=5), Fold(2))
    refused(state, DeclareDead(2), "seat/not_in_hand")


def test_section4_leaving_during_the_offer_passes_when_betting_opens() -> None:
    state = new_hand(CALIFORNIA, players(1, 2, 3), SEED, offer_from=1)
    state, _ = step(state, Leave(3))
    state, events = step(state, AcceptBank(1))
    assert BetsPassed(3, "left") in events
    assert 3 in state.passed
    state, events = step(state, PlaceBets(2, 10))
    assert any(isinstance(e, BetsClosed) for e in events)
    assert state.in_hand == (2,)


def test_section4_everyone_leaving_during_the_offer_means_no_ante() -> None:
    state = new_hand(CALIFORNIA, players(1, 2), SEED, offer_from=1)
    state, _ = step(state, Leave(2))
    state, events = step(state, AcceptBank(1))
    assert events[-1] == HandNotDealt("no_ante")
    assert next_offer_from(state) == 1
