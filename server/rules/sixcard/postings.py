"""Chip movements of a 6 Card Poker hand: the ledger transfers each event causes (docs/rules/hcf.md section 8).

Pure: an event plus the hand state just before it gives transfers between places.
Bets sit on the felt (``felt:T:A``) from the close of betting and a draw fee is
held apart (``fee_held:T:A``) from the moment it is paid. What the rules take "at
once" (a folded Ante, the fee, the Ante given for the dealer exchange) is lost at
once but moves to the house only at settlement, so a hand cut off by a crash is
refunded whole from the felt and held places alone (docs/rules/sixcard.md section 7). A
dead box, or every box of a voided hand, gets back its felt and its fee.

>>> from server.rules.game import Player
>>> from server.rules.sixcard.hand import new_hand, step
>>> from server.rules.sixcard.messages import BetsClosed, PlaceBoxBets
>>> from server.rules.sixcard.settings import SixcardSettings
>>> s, _ = step(new_hand(SixcardSettings(), [Player(1, 500)], bytes(32)), PlaceBoxBets(1, ((2, 10, 1),)))
>>> hand_postings(s, BetsClosed(((2, 1, 10, 1),)), "t", {1: 7})
[Transfer(src='stack:t:7', dst='felt:t:7', amount=11, kind='bet')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from server.rules.game import AccountId, Transfer
from server.rules.places import HOUSE_BANK, fee_held_place, felt_place, stack_place
from server.rules.sixcard.hand import Box, HandState
from server.rules.sixcard.messages import (
    BetsClosed,
    BlindBetsPlaced,
    BoxRaised,
    CardsDrawn,
    Event,
    HandSettled,
    HandVoided,
    SeatDead,
)
from server.rules.sixcard.settlement import SixcardSettlement


def hand_postings(state: HandState, event: Event, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
    """The transfers ``event`` causes, given the hand ``state`` just before it."""
    def stack(seat: int) -> str:
        return stack_place(table, accounts[seat])

    def felt(seat: int) -> str:
        return felt_place(table, accounts[seat])

    out: list[Transfer] = []
    match event:
        case BetsClosed(bets=bets):
            out = [Transfer(stack(seat), felt(seat), ante + bonus, "bet") for _, seat, ante, bonus in bets]
        case BlindBetsPlaced(bets=bets):
            out = [Transfer(stack(seat), felt(seat), amount, "bet") for _, seat, amount in bets]
        case BoxRaised(seat=seat, amount=amount):
            out = [Transfer(stack(seat), felt(seat), amount, "raise")]
        case CardsDrawn(seat=seat, fee=fee):
            out = [Transfer(stack(seat), fee_held_place(table, accounts[seat]), fee, "draw_fee")]
        case SeatDead(boxes=boxes):
            out = refunds(state, [state.box(n) for n in boxes if n not in state.dead], table, accounts)
        case HandVoided():
            out = refunds(state, [b for b in state.boxes if b.box not in state.dead], table, accounts)
        case HandSettled(settlement=settlement):
            out = settlement_postings(state, settlement, table, accounts)
    return _positive(out)


def refunds(state: HandState, boxes: Iterable[Box], table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
    """Everything of ``boxes`` back to their owners: the felt and the held draw fee."""
    out: list[Transfer] = []
    for b in boxes:
        stack = stack_place(table, accounts[b.seat])
        out.append(Transfer(felt_place(table, accounts[b.seat]), stack, state.felt(b), "refund"))
        out.append(Transfer(fee_held_place(table, accounts[b.seat]), stack, state.fee_held(b), "fee_refund"))
    return _positive(out)


def settlement_postings(state: HandState, settlement: SixcardSettlement, table: str,
                        accounts: Mapping[int, AccountId]) -> list[Transfer]:
    """Box by box: the draw fee to the house, the loss from the felt, the stake back, the win from the house.

    A box's net counts its draw fee; the rest of it (``net + fee``) is what its
    stakes on the felt won or lost, a folded Ante and an exchange fee included.
    """
    out: list[Transfer] = []
    for result in settlement.boxes:
        b = state.box(result.box)
        if b.box in state.dead:
            continue  # refunded when it died
        stack, felt = stack_place(table, accounts[b.seat]), felt_place(table, accounts[b.seat])
        fee = state.fee_held(b)
        out.append(Transfer(fee_held_place(table, accounts[b.seat]), HOUSE_BANK, fee, "draw_fee"))
        on_felt = state.felt(b)
        owed = result.net + fee
        lost = min(on_felt, max(0, -owed))
        out += [Transfer(felt, HOUSE_BANK, lost, "loss"), Transfer(felt, stack, on_felt - lost, "settle"),
                Transfer(HOUSE_BANK, stack, max(0, owed), "win")]
        if -owed > on_felt:
            raise AssertionError(f"box {b.box} loses {-owed}, more than its {on_felt} on the felt")
    return _positive(out)


def _positive(transfers: Iterable[Transfer]) -> list[Transfer]:
    out = []
    for t in transfers:
        if t.amount < 0:
            raise AssertionError(f"negative transfer {t}")
        if t.amount:
            out.append(t)
    return out
