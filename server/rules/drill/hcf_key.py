"""High Card Flush: the drill steps each hand event brings (DRILLS section 3).

>>> from server.rules.hcf.settings import HcfSettings
>>> from server.rules.hcf import hand as h
>>> s = h.new_hand(HcfSettings(), [h.Player(1, 1000), h.Player(2, 1000)], bytes(32), offer_from=2)
>>> [step.answer for e in h.opening_events(s) for step in event_steps(s, e, h.evolve(s, e))]
[{'seat': 2}]
"""

from __future__ import annotations

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
            return [_step("offer_bank", {"seat": seat})]
        case HandNotDealt(reason="no_bank"):
            return [_step("offer_bank", {"seat": None})]  # nobody (else) may be offered
        case FeesCollected(fees=fees) if any(amount for _, amount in fees):
            return [_step("fees", {"fees": {str(seat): amount for seat, amount in fees if amount}})]
        case CardsDealt(order=order) if len(order) > 1:
            return [_step("first_card", {"seat": order[0]})]
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


def _step(kind: str, answer: dict[str, object]) -> KeyStep:
    return key_step("hcf", kind, answer)


def _someone_raised(state: HandState) -> bool:
    return any(amount > 0 for seat, amount in state.raises.items() if seat not in state.dead)


def _settle_steps(before: HandState, settlement: Settlement) -> list[KeyStep]:
    """One step per seat that raised and was not killed before the showdown, in settlement order."""
    return [_step("settle_seat", settle_answer(result)) for result in settlement.seats
            if result.seat in before.bets and not result.folded and result.seat not in before.dead]


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
    return [_step("bank_after", {"stack": before.player(before.dealer).stack + settlement.dealer_net})]
