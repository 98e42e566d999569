"""docs/rules/hcf.md section 8 for 6 Card Poker: every chip a hand moves, and that they add up to the settlement."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.game import Transfer
from server.rules.places import HOUSE_BANK, fee_held_place, felt_place, stack_place
from server.rules.sixcard.messages import (
    BuyCard,
    ConfirmBets,
    ContinueExchange,
    DeclareDead,
    FoldBox,
    Misdeal,
    RaiseBox,
    RequestExchange,
)
from server.rules.sixcard.postings import hand_postings
from tests.rules.sixcard.live import TABLE, Run, arranged, planned_hand, run

ACCOUNTS = {seat: 100 + seat for seat in range(1, 5)}
TRIPS = "Qs Qh Qd 9c 3h"
SEVENS = "7c 7d 4h 3d 2s"
HIGH = "Th 9s 6c 4d 2h"
NO_PAIR = "Ad Jc 8h 5s 3c"
QUALIFIER = "Kc Kd 7h 4s 2c"


def stack(seat: int) -> str:
    return stack_place(TABLE, ACCOUNTS[seat])


def felt(seat: int) -> str:
    return felt_place(TABLE, ACCOUNTS[seat])


def held(seat: int) -> str:
    return fee_held_place(TABLE, ACCOUNTS[seat])


def postings_by_event(r: Run) -> list[tuple[str, list[Transfer]]]:
    return [(event.type, hand_postings(before, event, TABLE, ACCOUNTS)) for before, event in r.trace]


def balances(r: Run) -> Counter[str]:
    out: Counter[str] = Counter()
    for _, transfers in postings_by_event(r):
        for t in transfers:
            out[t.src] -= t.amount
            out[t.dst] += t.amount
    return out


def test_each_event_moves_what_the_brief_says() -> None:
    deck = arranged({1: TRIPS, 2: SEVENS, 3: HIGH, 4: "5c 5d 9h Ks 2d"}, NO_PAIR, "As Jd")
    r = run([(1, 1000), (2, 1000)], deck=deck)
    r.bet(1, (1, 10, 1), (2, 10), (3, 20), confirm=False)
    r.bet(2, (4, 5, 1))
    r.do(ConfirmBets(1), BuyCard(1), RaiseBox(1), FoldBox(1), RaiseBox(2), RequestExchange(1, 1),
         RequestExchange(1, 3), ContinueExchange(1), ContinueExchange(2))
    moved: dict[str, list[Transfer]] = {}
    for kind, transfers in postings_by_event(r):
        moved.setdefault(kind, []).extend(transfers)
    assert moved["bets_closed"] == [Transfer(stack(1), felt(1), 11, "bet"), Transfer(stack(1), felt(1), 10, "bet"),
                                    Transfer(stack(1), felt(1), 20, "bet"), Transfer(stack(2), felt(2), 6, "bet")]
    assert moved["blind_bets_placed"] == [Transfer(stack(1), felt(1), 40, "bet")]
    assert moved["cards_drawn"] == [Transfer(stack(1), held(1), 10, "draw_fee")]
    # What is lost "at once" stays on the felt (and the fee held) until settlement: a crash refunds it all.
    assert moved.get("box_folded", []) == []
    assert moved["box_raised"] == [Transfer(stack(1), felt(1), 20, "raise"), Transfer(stack(2), felt(2), 10, "raise")]
    assert moved.get("dealer_exchanged", []) == []
    assert Transfer(held(1), HOUSE_BANK, 10, "draw_fee") in moved["hand_settled"]
    s = r.state.settlement
    assert s is not None
    # Box 1 bought the As (fee 10); its Q-Q-Q beats the dealer's new J-J: Bet 3 to 1, the Ante made whole;
    # bonus 25 to 1. Box 2 folded. Blind box 3 loses Ante and Bet to the J-J; box 4 continued: Ante 1 to 1, bonus lost.
    assert [b.net for b in s.boxes] == [-10 + 0 + 60 + 25, -10, -60, 5 - 1]  # box 2 folded
    totals = balances(r)
    assert totals[stack(1)] == sum(b.net for b in s.boxes if b.player == "1")
    assert totals[stack(2)] == sum(b.net for b in s.boxes if b.player == "2")
    assert totals[HOUSE_BANK] == s.house_net
    assert totals[felt(1)] == totals[felt(2)] == totals[held(1)] == 0


def test_a_dead_seat_gets_everything_back_draw_fee_and_folded_ante_included() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS, 3: HIGH}, QUALIFIER, "As"))
    r.bet(1, (1, 10, 1), (2, 10), confirm=False)
    r.bet(2, (3, 10))
    r.do(ConfirmBets(1), BuyCard(1), FoldBox(1), RaiseBox(1))
    (dead,) = r.do(DeclareDead(1))[:1]
    before = next(b for b, e in r.trace if e is dead)
    assert hand_postings(before, dead, TABLE, ACCOUNTS) == [
        Transfer(felt(1), stack(1), 11, "refund"), Transfer(held(1), stack(1), 10, "fee_refund"),
        Transfer(felt(1), stack(1), 30, "refund"),
    ]
    r.do(RaiseBox(2))
    totals = balances(r)
    assert totals[stack(1)] == 0
    assert totals[felt(1)] == totals[held(1)] == 0


def test_a_voided_hand_gives_everything_back() -> None:
    r = run([(1, 1000)], deck=arranged({1: TRIPS, 2: SEVENS, 3: HIGH}, QUALIFIER, "As"))
    r.bet(1, (1, 10, 1), (2, 10), (3, 10))
    r.do(BuyCard(1), FoldBox(1))
    r.do(Misdeal())
    totals = balances(r)
    assert all(amount == 0 for amount in totals.values())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_over_random_hands_each_stack_changes_by_its_boxes_nets_and_nothing_is_lost(data: st.DataObject) -> None:
    r = planned_hand(data)
    start = {p.seat: p.stack for p in r.trace[0][0].players}
    running: Counter[str] = Counter({stack(seat): amount for seat, amount in start.items()})
    for _, transfers in postings_by_event(r):
        for t in transfers:
            assert t.amount > 0
            running[t.src] -= t.amount
            running[t.dst] += t.amount
            if t.src.startswith("stack:") or t.src.startswith("felt:"):
                assert running[t.src] >= 0, f"{t.src} went below zero"  # the covering rule at work
    for seat, amount in start.items():
        assert running[felt(seat)] == 0
        change = running[stack(seat)] - amount
        s = r.state.settlement
        expected = sum(b.net for b in s.boxes if b.player == str(seat)) if s is not None else 0
        assert change == expected
    s = r.state.settlement
    assert running[HOUSE_BANK] == (s.house_net if s is not None else 0)
    assert sum(running.values()) == sum(start.values())  # every transfer only moves chips
