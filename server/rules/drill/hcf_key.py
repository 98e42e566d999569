"""High Card Flush: the drill steps each hand event brings (DRILLS section 3).

>>> from server.rules.hcf.settings import HcfSettings
>>> from server.rules.hcf import hand as h
>>> s = h.new_hand(HcfSettings(), [h.Player(1, 1000), h.Player(2, 1000)], bytes(32), offer_from=2)
>>> [step.answer for e in h.opening_events(s) for step in event_steps(s, e, h.evolve(s, e))]
[{'seat': 2}]
"""

from __future__ import annotations

from server.i18n import told
from server.rules.drill.bank_key import fee_step, offer_step
from server.rules.drill.steps import KeyStep, key_step
from server.rules.hcf.hand import HandState
from server.rules.hcf.messages import (
    BankOffered,
    CardsDealt,
    DealerRevealed,
    Event,
    FeesCollected,
    HandNotDealt,
    HandSettled,
    PlayerFolded,
)
from server.rules.hcf.settlement import SeatResult, Settlement


def event_steps(before: HandState, event: Event, after: HandState) -> list[KeyStep]:  # noqa: ARG001 - KeyReader's signature
    """The steps ``event`` brings: an offer, the fees, the first card, a walk-away, the DP's hand, settlement."""
    match event:
        case BankOffered(seat=seat):
            return [offer_step(before, seat)]
        case HandNotDealt(reason="no_bank"):
            return [offer_step(before, None)]  # nobody (else) may be offered; the house rules may end the game
        case FeesCollected(fees=fees) if any(amount for _, amount in fees):
            return [fee_step(before, {str(seat): amount for seat, amount in fees if amount}, fee_reason(before))]
        case CardsDealt(order=order) if len(order) > 1:
            return [_step("first_card", {"seat": order[0]}, first_card_reason(before))]
        case PlayerFolded(reason="left"):
            return [_step("walk_away", {"ruling": "fold"})]
        case DealerRevealed(qualifies=qualifies) if _someone_raised(before):
            return [_step("qualify", {"qualifies": qualifies})]
        case HandSettled(settlement=settlement):
            return [*_settle_steps(before, settlement), *_bank_after(before, settlement)]
    return []


def dealt(event: Event) -> bool:
    """Whether ``event`` is the deal."""
    return isinstance(event, CardsDealt)


def dealer(state: HandState) -> int | None:
    """The DP's seat; None when the house banks."""
    return state.dealer


def _step(kind: str, answer: dict[str, object], why: str = "") -> KeyStep:
    return key_step("hcf", kind, answer, why)


def fee_reason(state: HandState) -> str:
    """Who pays the fee at this table, and how much: the reason of a ``fees`` answer.

    >>> from server.rules.hcf.settings import HcfSettings
    >>> from dataclasses import replace
    >>> from server.rules.hcf import hand as h
    >>> s = h.new_hand(HcfSettings(), [h.Player(1, 1000), h.Player(2, 1000)], bytes(32), offer_from=1)
    >>> fee_reason(replace(s, dealer=1)).startswith("the fee mode here is players: ")
    True
    >>> print(fee_reason(replace(s, dealer=1)).removeprefix("the fee mode here is players: "))
    this table charges a fee of 1 chip to each player with an Ante, and the DP (seat 1) pays none
    """
    fee = state.settings.fee
    each = told("a fee of 1 chip") if fee == 1 else told("a fee of {fee} chips", fee=fee)
    dp = told("the DP") if state.dealer is None else told("the DP (seat {seat})", seat=state.dealer)
    mode = state.settings.fee_mode
    if state.dealer is None:
        who = told("each player with an Ante")
    elif mode == "players":
        who = told("each player with an Ante, and {dp} pays none", dp=dp)
    elif mode == "all":
        who = told("each player with an Ante and to {dp} as well", dp=dp)
    else:
        who = told("{dp} alone; the players pay none", dp=dp)
    return told("the fee mode here is {mode}: this table charges {each} to {who}", mode=mode, each=each, who=who)


def first_card_reason(state: HandState) -> str:
    """Where the deal starts: the reason of a ``first_card`` answer."""
    if state.dealer is None:
        return told("the cards go out clockwise from the left of the button, starting with the first seat with an "
                    "Ante")
    return told("the button is at the DP, seat {seat}; the cards go out clockwise from its left, starting with the "
                "first seat with an Ante, and the DP takes the last card of each round", seat=state.dealer)


def _someone_raised(state: HandState) -> bool:
    return any(amount > 0 for seat, amount in state.raises.items() if seat not in state.dead)


def _settle_steps(before: HandState, settlement: Settlement) -> list[KeyStep]:
    """One step per seat that raised and was not killed before the showdown, in settlement order."""
    return [_step("settle_seat", settle_answer(result), settle_reason(result, settlement.dealer_qualifies))
            for result in settlement.seats
            if result.seat in before.bets and not result.folded and result.seat not in before.dead]


def settle_reason(result: SeatResult, qualifies: bool) -> str:
    """This seat's reason: the DP's bank against what it was owed, or whether the DP qualified."""
    if result.dead and result.bank is not None and result.owed is not None:
        return told("the DP's running bank was {bank} chips when seat {seat}'s turn came, less than the {owed} chips "
                    "its bets won: the hand is dead, and its bets and fee go back", bank=result.bank,
                    seat=result.seat, owed=result.owed)
    if not qualifies:
        return told("the DP's hand does not qualify: the Ante is paid 1 to 1 and the Raise pushes; each bonus is "
                    "still judged against the DP's hand on its own")
    return told("the DP's hand qualifies, so the hands are compared: the better hand wins the Ante and the Raise "
                "1 to 1, a tie pushes both; each bonus is judged against the DP's hand on its own")


def settle_answer(result: SeatResult) -> dict[str, object]:
    """A seat's ``settle_seat`` answer: each bet's result, or ``dead`` when the DP's funds ran out before it."""
    if result.dead:
        return {"seat": result.seat, "dead": True}
    return {"seat": result.seat, "ante": result.ante, "raise": result.raise_amount,
            "straight_flush_bonus": result.straight_flush_bonus, "flush_bonus": result.flush_bonus}


def _bank_after(before: HandState, settlement: Settlement) -> list[KeyStep]:
    if before.dealer is None:
        return []
    # The settlement's dealer_net is every chip the DP's stack gained or lost this hand, fee included.
    began, net = before.player(before.dealer).stack, settlement.dealer_net
    why = told("the DP began the hand with {began} chips, and the folds, the seats settled and the DP's own fee "
               "came to {net} for the DP: {began} {sign} {amount} = {stack}", began=began, net=f"{net:+d}",
               sign="-" if net < 0 else "+", amount=abs(net), stack=began + net)
    return [_step("bank_after", {"stack": began + net}, why)]
