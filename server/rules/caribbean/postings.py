"""Chip movements of a Caribbean Stud hand: the ledger transfers each event causes (docs/rules/hcf.md section 8).

Pure: an event plus the hand state just before it gives transfers between
places. Bets reach the felt only when betting closes (an unconfirmed bet never
touches the ledger); a Back Bet when the spot plays. A folded Ante stays on the
felt until settlement takes it, so that a hand cut off by a crash is refunded
whole from the felt places alone (docs/rules/caribbean.md section 5). Settlement pays
spot by spot in settlement order, then moves the meter's new whole chips from
the house to the jackpot place before paying the awards out of it, so that
place always holds ``meter // 100`` chips after a hand and never goes below
zero during one. The house funds the first meter (the seed)
with the table's first settled hand, and every reset after a royal.

>>> from server.rules.caribbean.messages import BetsClosed, ClosedBet
>>> from server.rules.caribbean.hand import new_hand
>>> from server.rules.caribbean.settings import CaribbeanSettings
>>> from server.rules.game import Player
>>> state = new_hand(CaribbeanSettings(), [Player(1, 500)], bytes(32))
>>> hand_postings(state, BetsClosed((ClosedBet(2, 1, 10, True),)), "t", {1: 7})
[Transfer(src='stack:t:7', dst='felt:t:7', amount=11, kind='bet')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from server.rules.caribbean.hand import HandState
from server.rules.caribbean.messages import (
    BetsClosed,
    ClosedBet,
    Event,
    HandSettled,
    HandVoided,
    SpotPlayed,
)
from server.rules.caribbean.settlement import CaribbeanSettlement
from server.rules.game import AccountId, Transfer
from server.rules.places import HOUSE_BANK, felt_place, jackpot_place, stack_place


def hand_postings(state: HandState, event: Event, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
    """The transfers ``event`` causes, given the hand ``state`` just before it."""
    if isinstance(event, BetsClosed):
        return _nonzero([Transfer(_stack(table, accounts, b), _felt(table, accounts, b), b.ante + state.wager(b),
                                  "bet") for b in event.bets])
    if isinstance(event, SpotPlayed):
        acct = accounts[event.seat]
        return _nonzero([Transfer(stack_place(table, acct), felt_place(table, acct), event.bet, "raise")])
    if isinstance(event, HandSettled):
        return settlement_postings(state, event.settlement, table, accounts)
    if isinstance(event, HandVoided):
        return void_postings(state, table, accounts)
    return []


def _stack(table: str, accounts: Mapping[int, AccountId], bet: ClosedBet) -> str:
    return stack_place(table, accounts[bet.seat])


def _felt(table: str, accounts: Mapping[int, AccountId], bet: ClosedBet) -> str:
    return felt_place(table, accounts[bet.seat])


def on_felt(state: HandState, bet: ClosedBet) -> int:
    """Chips of ``bet``'s spot on the felt: the Ante (folded or not), the Back Bet, the jackpot wager."""
    return bet.ante + state.played.get(bet.spot, 0) + state.wager(bet)


def void_postings(state: HandState, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
    """Every bet goes back from the felt."""
    return _nonzero([Transfer(_felt(table, accounts, bet), _stack(table, accounts, bet), on_felt(state, bet), "refund")
                     for bet in state.bets])


def settlement_postings(
    state: HandState, settlement: CaribbeanSettlement, table: str, accounts: Mapping[int, AccountId]
) -> list[Transfer]:
    """Seed the meter if new, settle each spot, feed the meter, then pay the jackpot awards."""
    jackpot = jackpot_place(table)
    out: list[Transfer] = []
    if not state.funded:
        out.append(Transfer(HOUSE_BANK, jackpot, settlement.meter_before // 100, "jackpot_seed"))
    for r in settlement.spots:
        bet = state.bet_on(r.spot)
        stack, felt = _stack(table, accounts, bet), _felt(table, accounts, bet)
        if r.dead:
            out.append(Transfer(felt, stack, on_felt(state, bet), "refund"))
            continue
        if r.folded:
            out.append(Transfer(felt, HOUSE_BANK, bet.ante, "loss"))
        else:
            stake = bet.ante + state.played.get(r.spot, 0)
            lost = max(0, -r.ante) + max(0, -r.bet)
            out += [Transfer(felt, HOUSE_BANK, lost, "loss"), Transfer(felt, stack, stake - lost, "settle"),
                    Transfer(HOUSE_BANK, stack, max(0, r.ante) + max(0, r.bet), "win")]
        out.append(Transfer(felt, HOUSE_BANK, state.wager(bet), "jackpot_wager"))
    # The meter's whole chips grow by this hand's contributions (and a royal's reset seed) before paying out.
    from_meter = sum(r.award_from_meter for r in settlement.spots)
    added = settlement.meter_after // 100 - settlement.meter_before // 100 + from_meter
    out += [Transfer(HOUSE_BANK, jackpot, added - settlement.seed_funding, "jackpot_contribution"),
            Transfer(HOUSE_BANK, jackpot, settlement.seed_funding, "jackpot_seed")]
    for r in settlement.spots:
        stack = _stack(table, accounts, state.bet_on(r.spot))
        out += [Transfer(jackpot, stack, r.award_from_meter, "jackpot_award"),
                Transfer(HOUSE_BANK, stack, r.jackpot_award - r.award_from_meter, "jackpot_award")]
    return _nonzero(out)


def _nonzero(transfers: Sequence[Transfer]) -> list[Transfer]:
    for t in transfers:
        if t.amount < 0:
            raise AssertionError(f"negative transfer {t}")
    return [t for t in transfers if t.amount > 0]
