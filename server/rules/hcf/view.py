"""What each viewer may see of a hand: one pure function per shape, applied just before sending.

Before the showdown a player sees only their own cards; spectators see none.
After it, everyone sees the DP's (or house's) hand and the hands that reached
settlement; a folded hand's cards are never sent to anyone but its owner.

>>> from server.rules.cards import parse_cards
>>> from server.rules.hcf.messages import CardsDealt
>>> dealt = CardsDealt((2, 1), ((2, parse_cards("Ah Kh Qh Jh Th 9h 8h")), (1, parse_cards("2c 3c 4c 5c 6c 7c 8c"))))
>>> public_event(dealt)
{'type': 'cards_dealt', 'order': [2, 1], 'counts': {'2': 7, '1': 7}}
>>> [(seat, e["cards"][0]) for seat, e in private_events(dealt)]
[(2, 'Ah'), (1, '2c')]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Literal

from server.hand_views import HcfHandView, HcfSeatView, YourCards
from server.rules.cards import cards_list
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.hand import HOUSE, HandState
from server.rules.hcf.messages import CardsDealt, Event
from server.rules.state_views import PerState


def public_event(event: Event) -> dict[str, Any]:
    """The version of ``event`` that everyone at the table may see: a new dict at each call (``Game.public_event``)."""
    if isinstance(event, CardsDealt):
        return {"type": event.type, "order": list(event.order),
                "counts": {str(seat): len(cards) for seat, cards in event.hands}}
    return event.as_json()


def private_events(event: Event) -> list[tuple[int, dict[str, Any]]]:
    """``(seat, payload)`` for what only that seat's owner may see (their own cards)."""
    if not isinstance(event, CardsDealt):
        return []
    return [(seat, dict(own_cards_payload(cards))) for seat, cards in event.hands if seat != HOUSE]


@lru_cache(maxsize=1024)
def own_cards_payload(cards: tuple[int, ...]) -> YourCards:
    """A player's own hand, with what the rules say of it.

    The same object for the same cards (callers must not change it): a seat's view carries it
    on every batch of the hand, and the update builder then ends its diff at ``before is after``.
    """
    flush, straight_flush, raise_limit, qualifies = _facts(cards)
    return {
        "type": "your_cards",
        "cards": cards_list(cards),
        "flush": list(flush),
        "straight_flush": list(straight_flush),
        "raise_limit": raise_limit,
        "qualifies": qualifies,
    }


@lru_cache(maxsize=1024)
def _facts(cards: tuple[int, ...]) -> tuple[tuple[str, ...], tuple[str, ...], int, bool]:
    """What the rules say of a hand, worked out once per hand: every viewer's update carries it (protocol v2)."""
    hand = evaluate(cards)
    return (tuple(cards_list(hand.flush_cards())) if cards else (), tuple(cards_list(hand.straight_flush_cards())),
            hand.raise_limit, hand.qualifies)


def hand_view(state: HandState, viewer: int | None) -> HcfHandView:
    """The hand as ``viewer`` (a seat, or None for a spectator) may see it now."""
    view = _everyones_view(state)
    if viewer is not None and viewer in state.hands:
        view = view | {"your_cards": own_cards_payload(state.hands[viewer])}
    return view


def _public_view(state: HandState) -> HcfHandView:
    settled = state.phase == "settled"
    seats: dict[str, HcfSeatView] = {}
    for player in state.players:
        seat = player.seat
        bets = state.bets.get(seat)
        entry: HcfSeatView = {
            "in_hand": seat in state.bets,
            "passed": seat in state.passed,
            "leaving": seat in state.leaving,
            "dead": seat in state.dead,
            "dead_reason": state.dead_reasons.get(seat) if seat in state.dead else None,
            "ante": bets.ante if bets else 0,
            "straight_flush_bonus": bets.straight_flush_bonus if bets else 0,
            "flush_bonus": bets.flush_bonus if bets else 0,
            "decision": _decision(state, seat),
            "raise": state.raises.get(seat, 0),
            "fee": state.fees.get(seat, 0),
            "card_count": len(state.hands.get(seat, ())),
        }
        seats[str(seat)] = entry
    view: HcfHandView = {
        "phase": state.phase,
        "profile": state.settings.profile,
        "dealer": state.dealer,
        "commitment": state.commitment if state.phase != "offer" else None,
        "arranged": state.arranged_deck is not None or state.seat_deck is not None,
        "offered": state.offered,
        "turn": state.turn,
        "bettors": list(state.bettors),
        "seats": seats,
        "reason": state.reason,
    }
    if settled and state.settlement is not None:
        dealer_seat = state.dealer if state.dealer is not None else HOUSE
        view["dealer_cards"] = cards_list(state.hands[dealer_seat])
        view["dealer_qualifies"] = state.settlement.dealer_qualifies
        view["settlement"] = state.settlement.as_json()
        view["shown"] = {str(r.seat): cards_list(state.hands[r.seat]) for r in state.settlement.seats
                         if not r.folded and r.seat not in state.dead and r.seat in state.hands}
    return view


def _decision(state: HandState, seat: int) -> Literal["fold", "raise", "dead"] | None:
    if seat in state.dead:
        return "dead"
    if seat not in state.raises:
        return None
    return "fold" if state.raises[seat] == 0 else "raise"


_everyones_view: PerState[HandState, HcfHandView] = PerState(_public_view)
"""What every viewer sees of a state alike (a spectator's view), built once per state (callers must not change it)."""
