"""docs/rules/hcf.md section 8 for Caribbean Stud: every chip moves by a balanced transfer; the meter is a
ledger place."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from server.rules.caribbean.game import CARIBBEAN
from server.rules.caribbean.hand import TERMINAL
from server.rules.caribbean.messages import (
    DeclareDead,
    FoldSpot,
    Misdeal,
    PassBets,
    PlaceSpotBets,
    PlaySpot,
)
from server.rules.caribbean.postings import hand_postings
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import house_net
from server.rules.game import Transfer
from server.rules.places import HOUSE_BANK, felt_place, jackpot_place, stack_place
from tests.rules.caribbean.live import PREMIUM, TABLE, Run, arranged, planted_hand, random_hand, run, table_settings

ACCOUNTS = {seat: 100 + seat for seat in range(1, 10)}
JACKPOT = jackpot_place(TABLE)
STACK1, FELT1 = stack_place(TABLE, 101), felt_place(TABLE, 101)
BUSTED = "Qs Jc 8d 6h 3d"
DEALER_KINGS = "Kh Kd 7h 4s 2c"


def postings(r: Run) -> list[list[Transfer]]:
    """The transfers of every event of ``r``, event by event."""
    return [hand_postings(before, event, TABLE, ACCOUNTS) for before, event in r.trace]


def flat(r: Run) -> list[Transfer]:
    return [t for ts in postings(r) for t in ts]


def balances(transfers: list[Transfer], start: dict[str, int] | None = None) -> Counter[str]:
    out: Counter[str] = Counter(start or {})
    for t in transfers:
        assert t.amount > 0, t
        out[t.src] -= t.amount
        out[t.dst] += t.amount
    return out


# ---------------------------------------------------------------- examples


def test_unconfirmed_bets_never_touch_the_ledger_and_closing_moves_ante_and_wager_per_spot() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (4, 20), confirm=False)
    r.bet(1, (1, 10, True), (2, 25))
    assert flat(r) == []
    events_before = len(r.trace)
    r.do(PlaceSpotBets(2, ()))  # seat 2 withdraws: still nothing moves
    assert flat(r) == []
    r.do(PassBets(2))  # and passes: every bet left is confirmed, so betting closes
    closing = [ts for ts in postings(r)[events_before:] if ts]
    assert closing == [[Transfer(STACK1, FELT1, 11, "bet"), Transfer(STACK1, FELT1, 25, "bet")]]


def test_a_play_moves_the_back_bet_and_a_folded_ante_waits_on_the_felt_for_settlement() -> None:
    r = run(deck=arranged([BUSTED, "9h 9s 4c 4d Jh"], DEALER_KINGS))
    r.bet(1, (1, 10), (2, 15))
    start = len(r.trace)
    r.do(FoldSpot(1))
    assert postings(r)[start] == []  # a crash now must still find the Ante on the felt to refund it
    start = len(r.trace)
    r.do(PlaySpot(1))
    assert postings(r)[start] == [Transfer(STACK1, FELT1, 30, "raise")]
    assert Transfer(FELT1, HOUSE_BANK, 10, "loss") in postings(r)[-1], "settlement takes the folded Ante"


def test_settlement_pays_each_spot_collects_the_wager_and_funds_a_new_meter_first() -> None:
    r = run(deck=arranged(["9h 9s 4c 4d Jh"], DEALER_KINGS))  # two pair beats the dealer's kings
    r.bet(1, (1, 10, True))
    r.do(PlaySpot(1))
    assert postings(r)[-1] == [
        Transfer(HOUSE_BANK, JACKPOT, 10_000, "jackpot_seed"),          # the table's first settled hand
        Transfer(FELT1, STACK1, 30, "settle"),                          # Ante and Back Bet back
        Transfer(HOUSE_BANK, STACK1, 10 + 40, "win"),                   # 1 to 1 and 2 to 1
        Transfer(FELT1, HOUSE_BANK, 1, "jackpot_wager"),
    ]  # 0.50 chip joins the meter: not a whole chip yet


def test_the_meter_gains_its_whole_chips_and_pays_a_royal_from_the_jackpot_place() -> None:
    carry: dict[str, Any] = {"meter": 2_000_050, "funded": True}
    r = run(deck=arranged([PREMIUM["royal"], "Kc 9c 7c 6c 8c"], DEALER_KINGS), carry=carry)
    r.bet(1, (1, 10, True), (2, 10, True))
    r.do(PlaySpot(1), FoldSpot(1))
    settled = r.state.settlement
    assert settled is not None
    jackpot = [t for t in postings(r)[-1] if JACKPOT in (t.src, t.dst)]
    assert jackpot == [
        Transfer(HOUSE_BANK, JACKPOT, 1, "jackpot_contribution"),       # 20,000.50 + 1.00 -> 20,001.50
        Transfer(HOUSE_BANK, JACKPOT, 10_000, "jackpot_seed"),          # the reset after the royal
        Transfer(JACKPOT, STACK1, 20_001, "jackpot_award"),
    ]
    assert Transfer(HOUSE_BANK, STACK1, 50, "jackpot_award") in postings(r)[-1]  # the flush: fixed, by the house
    assert settled.meter_after == 1_000_050


def test_a_dead_spot_gets_everything_back_jackpot_wager_included() -> None:
    r = run(deck=arranged([BUSTED, "Qh Jd 8s 6d 3h"], DEALER_KINGS), carry={"funded": True})
    r.bet(1, (1, 10, True), (2, 10))
    r.do(PlaySpot(1), DeclareDead(1))
    # Settlement order: spot 2 first (highest spot down).
    assert postings(r)[-1] == [Transfer(FELT1, STACK1, 10, "refund"), Transfer(FELT1, STACK1, 10 + 20 + 1, "refund")]


def test_a_void_returns_the_felt_folded_antes_included() -> None:
    r = run(deck=arranged([BUSTED, "9h 9s 4c 4d Jh"], DEALER_KINGS))
    r.bet(1, (1, 10, True), (2, 15))
    r.do(FoldSpot(1), Misdeal())
    assert postings(r)[-1] == [Transfer(FELT1, STACK1, 11, "refund"), Transfer(FELT1, STACK1, 15, "refund")]
    assert balances(flat(r))[FELT1] == 0
    assert balances(flat(r))[STACK1] == 0


def test_a_void_while_betting_moves_nothing() -> None:
    r = run()
    r.bet(1, (1, 10), confirm=False)
    r.do(Misdeal())
    assert flat(r) == []


# ---------------------------------------------------------------- the property


def play_table(data: st.DataObject, table: CaribbeanSettings, hands: int) -> None:
    """Several hands at one table from an unfunded meter, checking the ledger after each one."""
    carry: dict[str, Any] = {}
    ledger: Counter[str] = Counter()
    for _ in range(hands):
        if data.draw(st.booleans()):
            r = planted_hand(data, table, carry)
        else:
            seats = data.draw(st.lists(st.integers(1, table.spots), min_size=1, max_size=3, unique=True))
            r = random_hand(data, run([(s, data.draw(st.integers(20, 3000))) for s in sorted(seats)],
                                      settings=table, carry=carry, seed=data.draw(st.binary(min_size=32,
                                                                                          max_size=32))))
        assert r.state.phase in TERMINAL
        start = {stack_place(TABLE, ACCOUNTS[p.seat]): p.stack for p in r.state.players}
        change: Counter[str] = Counter()
        for transfers in postings(r):
            for t in transfers:
                change[t.src] -= t.amount
                change[t.dst] += t.amount
            for place, amount in change.items():
                held = ledger[place] if place == JACKPOT else start.get(place, 0)
                assert place == HOUSE_BANK or amount + held >= 0, place  # only the house bank may go below zero
        ledger.update(change)
        assert all(amount == 0 for place, amount in change.items() if place.startswith("felt:"))
        settled = r.state.settlement
        nets = Counter[int]()
        if settled is not None:
            for result in settled.spots:
                nets[r.state.bet_on(result.spot).seat] += result.net
        for p in r.state.players:
            assert change[stack_place(TABLE, ACCOUNTS[p.seat])] == nets[p.seat]
        carry = CARIBBEAN.carry_out(r.state, carry)
        assert ledger[JACKPOT] == (carry["meter"] // 100 if carry["funded"] else 0)
        if settled is not None:
            funding = 0 if r.state.funded else settled.meter_before // 100
            whole = settled.meter_after // 100 - settled.meter_before // 100
            assert 100 * change[HOUSE_BANK] == (house_net(settled, table) + settled.meter_after
                                                - settled.meter_before - 100 * whole - 100 * funding)
        assert sum(change.values()) == 0


@hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), table_settings())
def test_over_random_hands_stacks_change_by_the_nets_and_the_jackpot_place_holds_the_meter(
        data: st.DataObject, table: CaribbeanSettings) -> None:
    play_table(data, table, hands=3)
