"""6 Card Poker: the drill steps each hand event brings (DRILLS section 4).

The dealer's hand is shown: does it qualify (a pair of twos or better)? If a box
asked for the dealer exchange: which dealer card is replaced, and does the new hand
qualify? Then each played box, in box order (a bonus-only box too, with ``ante`` and
``bet`` 0), gets a ``settle_box``; a draw fee is not part of it.
"""

from __future__ import annotations

from server.rules.cards import card_text
from server.rules.drill.steps import KeyStep, key_step
from server.rules.sixcard.hand import HandState
from server.rules.sixcard.messages import CardsDealt, DealerExchanged, DealerRevealed, Event, HandSettled
from server.rules.sixcard.settlement import BoxResult


def event_steps(before: HandState, event: Event, after: HandState) -> list[KeyStep]:  # noqa: ARG001 - KeyReader's
    """The qualifier, the dealer exchange and its qualifier, then each played box's settlement."""
    if isinstance(event, DealerRevealed):
        return [key_step("sixcard", "qualify", {"qualifies": event.qualifies})]
    if isinstance(event, DealerExchanged):
        return [key_step("sixcard", "dealer_exchange", {"card": card_text(event.discarded)}),
                key_step("sixcard", "qualify_after", {"qualifies": event.qualifies})]
    if isinstance(event, HandSettled):
        return [key_step("sixcard", "settle_box", box_answer(r))
                for r in sorted(event.settlement.boxes, key=lambda r: r.box) if not r.dead and not r.folded]
    return []


def box_answer(result: BoxResult) -> dict[str, object]:
    """A box's ``settle_box``: Ante, Bet and bonus results as settled (the draw fee apart)."""
    return {"box": result.box, "ante": result.ante, "bet": result.bet, "bonus": result.bonus}


def dealt(event: Event) -> bool:
    """Whether ``event`` is the deal."""
    return isinstance(event, CardsDealt)


def dealer(state: HandState) -> int | None:  # noqa: ARG001 - KeyReader's signature
    """The house deals: no seat."""
    return None
