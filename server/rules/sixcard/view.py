"""What each viewer may see of a 6 Card Poker hand: pure functions applied just before sending.

A player sees a box's cards only when the rules show them (docs/rules/sixcard.md
section 4): a bonus-only box at the deal, an open box when its turn starts, blind
boxes once the owner's open boxes are decided. Everyone sees the dealer's up-card,
the dealer's hand when it is shown, and at settlement every box that reached it; a
folded box stays hidden from everyone but its owner, and so do a dead box's cards.

>>> from server.rules.cards import parse_cards
>>> from server.rules.sixcard.messages import CardsDealt
>>> dealt = CardsDealt((1, 0), ((1, parse_cards("Ah Kh Qh Jh Th")),), parse_cards("2c 3c 4d 5s 7h"))
>>> public_event(dealt)
{'type': 'cards_dealt', 'order': [1, 0], 'counts': {'1': 5}, 'dealer_up': '7h'}
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from server.hand_views import BoxBetRow, BoxView, ExchangeView, SixcardDealerView, SixcardHandView
from server.rules.cards import Card, card_text, cards_list
from server.rules.house.betting import undecided
from server.rules.poker import best_five, class_name, qualifies_pair, rank5
from server.rules.sixcard.hand import Box, HandState
from server.rules.sixcard.messages import (
    BlindBoxesShown,
    CardsDealt,
    CardsDrawn,
    Event,
    HandSettled,
    TurnStarted,
)
from server.rules.sixcard.settlement import BLIND, BONUS_ONLY, HAND_SIZE, Draw, SixcardSettlement, final_cards
from server.rules.state_views import PerState
from server.rules.vocabulary import JSON

UP_CARD: Final = HAND_SIZE - 1
"""The dealer's fifth card is dealt face up."""


def public_event(event: Event) -> JSON:
    """The version of ``event`` that everyone at the table may see: a new dict at each call (``Game.public_event``)."""
    if isinstance(event, CardsDealt):
        return {"type": event.type, "order": list(event.order),
                "counts": {str(box): len(cards) for box, cards in event.hands},
                "dealer_up": card_text(event.dealer[UP_CARD])}
    if isinstance(event, CardsDrawn):
        return {"type": event.type, "seat": event.seat, "box": event.box, "kind": event.kind, "fee": event.fee}
    if isinstance(event, HandSettled):
        return {"type": event.type, "settlement": public_settlement(event.settlement),
                "shown": [[box, cards_list(cards)] for box, cards in event.shown]}
    return event.as_json()


def private_events(state: HandState, event: Event) -> list[tuple[int, JSON]]:
    """``(seat, payload)`` for what only that seat may see, given the state just before ``event``."""
    if isinstance(event, CardsDealt):
        dealt = dict(event.hands)
        owners = sorted({b.seat for b in state.boxes if b.role == BONUS_ONLY})
        return [(seat, your_boxes([box_cards(b, dealt[b.box]) for b in state.boxes_of(seat)
                                   if b.role == BONUS_ONLY])) for seat in owners]
    if isinstance(event, TurnStarted):
        return [(event.seat, your_boxes([box_cards(state.box(event.box), state.cards[event.box])]))]
    if isinstance(event, BlindBoxesShown):
        return [(event.seat, your_boxes([box_cards(state.box(n), state.cards[n]) for n in event.boxes]))]
    if isinstance(event, CardsDrawn):
        b = state.box(event.box)
        original = state.cards[b.box]
        now = final_cards(original, Draw("buy" if event.kind == "buy" else "exchange", event.discarded, event.new))
        entry = box_cards(b, original, now) | {"draw": {"kind": event.kind, "fee": event.fee,
                                                         "positions": list(event.positions),
                                                         "discarded": cards_list(event.discarded),
                                                         "new": cards_list(event.new)}}
        return [(event.seat, your_boxes([entry]))]
    return []


def your_boxes(entries: list[JSON]) -> JSON:
    """The private payload: some of the viewer's own boxes, with their cards."""
    return {"type": "your_cards", "boxes": entries}


def box_cards(b: Box, original: Sequence[Card], now: Sequence[Card] | None = None) -> JSON:
    """One box's cards as its owner sees them: the cards now, their best five and class, the bonus class."""
    cards = tuple(now if now is not None else original)
    value, best = best_five(cards)
    return {"box": b.box, "role": b.role, "cards": cards_list(cards), "best": cards_list(best),
            "class": class_name(value), "bonus_class": class_name(rank5(original))}


@lru_cache(maxsize=1024)
def _seen_box(b: Box, original: tuple[Card, ...], now: tuple[Card, ...]) -> JSON:
    """:func:`box_cards`, the same object for the same box and cards (callers must not change it): a box's view
    carries them on every batch of the hand, and the update builder's diff then ends at ``before is after``; its
    best five are worked out once."""
    return box_cards(b, original, now)


def public_settlement(settlement: SixcardSettlement) -> JSON:
    """The results as everyone sees them: a folded or dead box's cards and class are left out."""
    dealer: JSON = {"qualifies": settlement.dealer_qualifies, "exchanged": settlement.exchanged,
                    "cards": cards_list(settlement.dealer_cards)}
    if settlement.exchanged and settlement.dealer_after is not None:
        dealer |= {"qualifies_after": bool(settlement.qualifies_after), "after": cards_list(settlement.dealer_after)}
    boxes = []
    for r in settlement.boxes:
        record = dict(r.as_record()) | {"seat": int(r.player)}
        if r.folded or r.dead:
            record.pop("best", None)
            record.pop("class", None)
        boxes.append(record)
    return {"dealer": dealer, "boxes": boxes, "house": settlement.house_net}


def hand_view(state: HandState, viewer: int | None) -> SixcardHandView:
    """The hand as ``viewer`` (a seat, or None for a spectator) may see it now.

    What every viewer sees alike is built once per state and shared (callers must not change
    it): a seat's view is the spectator's with its own boxes in place of theirs, so the update
    builder diffs the rest once a batch, not once a seat (docs/benchmarks.md, tenth round).
    """
    public = _everyones_view(state)
    if viewer is None or not any(b.seat == viewer for b in state.boxes):
        return public
    boxes = [_box(state, b, viewer) if b.seat == viewer else shared
             for b, shared in zip(state.boxes, public["boxes"], strict=True)]
    return public | {"boxes": boxes}


def _public_view(state: HandState) -> SixcardHandView:
    turn = state.turn
    return {
        "game": "sixcard",
        "phase": state.phase,
        "reason": state.reason,
        "commitment": state.commitment,
        "arranged": state.arranged_deck is not None or state.seat_deck is not None,
        "leaving": sorted(state.leaving),
        "seats": [p.seat for p in state.players],  # who takes part (may bet) this hand
        "bets": _bets(state),
        "passed": sorted(state.passed),
        "waiting": undecided(state) if state.phase == "betting" else [],  # whom the betting still waits for
        "boxes": [_box(state, b, None) for b in state.boxes],
        "order": list(state.order),
        "dealer": _dealer(state),
        "turn": {"seat": state.box(turn).seat, "box": turn} if turn is not None else None,
        "exchange": _exchange(state),
        "settlement": public_settlement(state.settlement) if state.settlement is not None else None,
    }


def _bets(state: HandState) -> list[BoxBetRow]:
    if state.boxes:
        return [{"box": b.box, "seat": b.seat, "ante": b.ante, "bonus": b.bonus, "confirmed": True}
                for b in state.boxes]
    return sorted(({"box": box, "seat": seat, "ante": ante, "bonus": bonus, "confirmed": p.confirmed}
                   for seat, p in state.pending.items() for box, ante, bonus in p.bets), key=lambda e: e["box"])


def _box(state: HandState, b: Box, viewer: int | None) -> BoxView:
    decision = state.decisions.get(b.box)
    entry: BoxView = {
        "box": b.box, "seat": b.seat, "role": b.role, "ante": b.ante, "bonus": b.bonus,
        "bet": 2 * b.ante if b.role == BLIND or decision == "raise" else 0,
        "folded": decision == "fold", "dead": b.box in state.dead,
    }
    draw = state.draws.get(b.box)
    if draw is not None:
        entry["draw"] = {"kind": draw.kind, "fee": b.ante}
    if _visible(state, b, viewer) and b.box in state.cards:
        shown = _seen_box(b, tuple(state.cards[b.box]), state.current_cards(b.box))  # key by key, as mypy checks
        entry["cards"], entry["best"] = shown["cards"], shown["best"]
        entry["class"], entry["bonus_class"] = shown["class"], shown["bonus_class"]
        if draw is not None and viewer == b.seat:
            entry["draw"] |= {"discarded": cards_list(draw.discard), "new": cards_list(draw.new)}
    if state.exchange_boxes and any(box == b.box for box, _ in state.exchange_boxes):
        entry["exchange_request"] = b.box in state.requests or b.box in state.confirmed_requests
        entry["continued"] = b.seat in state.continued
    return entry


def _visible(state: HandState, b: Box, viewer: int | None) -> bool:
    if viewer is not None and viewer == b.seat and b.box in state.seen:
        return True
    settlement = state.settlement
    if settlement is None:
        return False
    result = settlement.result(b.box)
    return not result.folded and not result.dead


def _dealer(state: HandState) -> SixcardDealerView:
    if not state.dealer_cards:
        return {"up": None}
    out: SixcardDealerView = {"up": card_text(state.dealer_cards[UP_CARD])}
    if state.revealed:
        out |= {"cards": cards_list(state.dealer_cards), "qualifies": state.dealer_qualifies,
                "class": class_name(rank5(state.dealer_cards)), "exchanged": state.dealer_after is not None}
    if state.dealer_after is not None:
        value = rank5(state.dealer_after)
        out |= {"after": cards_list(state.dealer_after), "qualifies_after": qualifies_pair(value),
                "class_after": class_name(value)}
    return out


def _exchange(state: HandState) -> ExchangeView | None:
    if not state.exchange_boxes:
        return None
    return {"owners": list(state.exchange_owners), "continued": sorted(state.continued),
            "closed": state.exchange_closed}


_everyones_view: PerState[HandState, SixcardHandView] = PerState(_public_view)
"""What every viewer sees of a state alike (a spectator's view), built once per state (callers must not change it)."""
