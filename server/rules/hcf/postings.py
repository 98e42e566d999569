"""Chip movements: which ledger transfers each hand event causes (docs/rules/hcf.md section 8).

Pure: a hand event plus the state before it gives a list of transfers between
places. Bets sit on the felt (``felt:T:A``) and fees are held apart
(``fee_held:T:A``) until the hand ends, so a voided hand simply moves both back.
Settlement moves a folded seat's stakes first (they are the DP's "at once",
docs/rules/hcf.md section 3.5), then each seat in settlement order, so the DP's stack never
pays out chips it does not yet hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from server.rules.game import AccountId, Transfer
from server.rules.hcf.hand import HandState
from server.rules.hcf.messages import (
    BetsPlaced,
    Event,
    FeesCollected,
    HandSettled,
    HandVoided,
    PlayerRaised,
)
from server.rules.hcf.settlement import SeatResult, Settlement
from server.rules.places import (
    HOUSE_BANK,
    HOUSE_FEES,
    fee_held_place,
    felt_place,
    stack_place,
)

fee_place = fee_held_place


def hand_postings(
    state: HandState, event: Event, table: str, accounts: Mapping[int, AccountId]
) -> list[Transfer]:
    """The transfers ``event`` causes, given the hand ``state`` just before it."""
    if isinstance(event, BetsPlaced):
        total = event.ante + event.straight_flush_bonus + event.flush_bonus
        acct = accounts[event.seat]
        return _nonzero([Transfer(stack_place(table, acct), felt_place(table, acct), total, "bet")])
    if isinstance(event, PlayerRaised):
        acct = accounts[event.seat]
        return [Transfer(stack_place(table, acct), felt_place(table, acct), event.amount, "raise")]
    if isinstance(event, FeesCollected):
        return _nonzero([Transfer(stack_place(table, accounts[seat]), fee_place(table, accounts[seat]),
                                  amount, "fee") for seat, amount in event.fees])
    if isinstance(event, HandSettled):
        return settlement_postings(state, event.settlement, table, accounts)
    if isinstance(event, HandVoided):
        return void_postings(state, table, accounts)
    return []


def _staked(state: HandState, seat: int) -> int:
    bets = state.bets.get(seat)
    return (bets.total if bets else 0) + state.raises.get(seat, 0)


def void_postings(state: HandState, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
    """Every bet and fee goes back to its owner's stack."""
    out: list[Transfer] = []
    for seat in sorted(set(state.bets) | set(state.fees)):
        acct = accounts[seat]
        out.append(Transfer(felt_place(table, acct), stack_place(table, acct), _staked(state, seat), "refund"))
        out.append(Transfer(fee_place(table, acct), stack_place(table, acct), state.fees.get(seat, 0),
                            "fee_refund"))
    return _nonzero(out)


def settlement_postings(
    state: HandState, settlement: Settlement, table: str, accounts: Mapping[int, AccountId]
) -> list[Transfer]:
    """Pay and collect every seat, folded ones first, then in settlement order."""
    bank = HOUSE_BANK if state.dealer is None else stack_place(table, accounts[state.dealer])
    first = [r for r in settlement.seats if r.folded]
    rest = [r for r in settlement.seats if not r.folded]
    out: list[Transfer] = []
    for result in (*first, *rest):
        out += _seat_postings(state, result, table, accounts[result.seat], bank)
    if state.dealer is not None:
        acct = accounts[state.dealer]
        held = state.fees.get(state.dealer, 0)
        kept = -settlement.dealer_fee
        out.append(Transfer(fee_place(table, acct), HOUSE_FEES, kept, "fee"))
        out.append(Transfer(fee_place(table, acct), stack_place(table, acct), held - kept, "fee_refund"))
    return _nonzero(out)


def _seat_postings(state: HandState, r: SeatResult, table: str, acct: AccountId, bank: str) -> list[Transfer]:
    staked = _staked(state, r.seat)
    stack, felt, fee = stack_place(table, acct), felt_place(table, acct), fee_place(table, acct)
    held = state.fees.get(r.seat, 0)
    if r.dead:
        return [Transfer(felt, stack, staked, "refund"), Transfer(fee, stack, held, "fee_refund")]
    lost = max(0, -r.bets)
    won = max(0, r.bets)
    return [
        Transfer(felt, bank, lost, "loss"),
        Transfer(felt, stack, staked - lost, "settle"),
        Transfer(bank, stack, won, "win"),
        Transfer(fee, HOUSE_FEES, -r.fee, "fee"),
        Transfer(fee, stack, held + r.fee, "fee_refund"),
    ]


def _nonzero(transfers: Sequence[Transfer]) -> list[Transfer]:
    for t in transfers:
        if t.amount < 0:
            raise AssertionError(f"negative transfer {t}")
    return [t for t in transfers if t.amount > 0]
