"""Caribbean Stud: the drill steps each hand event brings (DRILLS section 4).

The dealer's hand is shown: does it qualify (A-K or better)? Then each spot that
played, from the highest spot down, and each folded spot that carried a jackpot
wager (its wager is still settled), gets a ``settle_spot`` with its results as the
settlement has them; a spot killed by the floor gets none.
"""

from __future__ import annotations

from server.rules.caribbean.hand import HandState
from server.rules.caribbean.messages import CardsDealt, DealerRevealed, Event, HandSettled
from server.rules.caribbean.settlement import SpotResult
from server.rules.drill.steps import KeyStep, key_step


def event_steps(before: HandState, event: Event, after: HandState) -> list[KeyStep]:  # noqa: ARG001 - KeyReader's
    """The steps ``event`` brings: the qualifier when the dealer's hand is shown, then each spot's settlement."""
    if isinstance(event, DealerRevealed):
        return [key_step("caribbean", "qualify", {"qualifies": event.qualifies})]
    if isinstance(event, HandSettled):
        jackpots = {b.spot for b in before.bets if b.jackpot}
        return [key_step("caribbean", "settle_spot", spot_answer(r)) for r in event.settlement.spots
                if not r.dead and (not r.folded or r.spot in jackpots)]
    return []


def spot_answer(result: SpotResult) -> dict[str, object]:
    """A spot's ``settle_spot``: Ante, Back Bet and the jackpot wager's result (the award less the wager)."""
    return {"spot": result.spot, "ante": result.ante, "bet": result.bet, "jackpot": result.jackpot}


def dealt(event: Event) -> bool:
    """Whether ``event`` is the deal."""
    return isinstance(event, CardsDealt)


def dealer(state: HandState) -> int | None:  # noqa: ARG001 - KeyReader's signature
    """The house deals: no seat."""
    return None
