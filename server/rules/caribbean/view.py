"""What each viewer may see of a Caribbean Stud hand: pure functions applied just before sending.

Before the dealer's hand is shown a player sees their own spots' cards and the
dealer's up-card, nothing else; spectators see the up-card alone. Afterwards
everyone sees the dealer's five cards and every spot that played; a folded spot
stays hidden from all but its owner unless it won a jackpot award
(docs/rules/caribbean.md sections 3.2 and 3.6).

>>> from server.rules.cards import parse_cards
>>> from server.rules.caribbean.messages import CardsDealt
>>> dealt = CardsDealt((3, 0), ((3, parse_cards("Ah Kh Qh Jh Th")),), parse_cards("2c 3c 4c 5c 9d"))
>>> public_event(dealt)
{'type': 'cards_dealt', 'order': [3, 0], 'counts': {'3': 5}, 'dealer_up': '9d'}
"""

from __future__ import annotations

from functools import lru_cache

from server.hand_views import CaribbeanDealerView, CaribbeanHandView, SpotBetRow, SpotCards, SpotView
from server.rules.cards import Card, card_text, cards_list
from server.rules.caribbean.hand import UP_CARD, HandState
from server.rules.caribbean.messages import CardsDealt, ClosedBet, Event, settlement_as_json
from server.rules.house.betting import undecided
from server.rules.poker import class_name, rank5
from server.rules.state_views import PerState
from server.rules.vocabulary import JSON

GAME = "caribbean"


def up_card(dealer: tuple[Card, ...]) -> str | None:
    """The dealer's face-up card in notation, once dealt."""
    return card_text(dealer[UP_CARD]) if len(dealer) > UP_CARD else None


def spot_cards(cards: tuple[Card, ...]) -> SpotCards:
    """A spot's cards with the name of their class (``royal``, ``pair``...)."""
    out: SpotCards = {"cards": cards_list(cards)}
    if len(cards) == 5:
        out["class"] = class_name(rank5(cards))
    return out


@lru_cache(maxsize=1024)
def _seen_cards(cards: tuple[Card, ...]) -> SpotCards:
    """:func:`spot_cards`, the same object for the same cards (callers must not change it): a spot's view
    carries them on every batch of the hand, and the update builder's diff then ends at ``before is after``."""
    return spot_cards(cards)


def public_event(event: Event) -> JSON:
    """The version of ``event`` that everyone at the table may see (the deal: counts and the up-card): a new dict
    at each call (``Game.public_event``)."""
    if isinstance(event, CardsDealt):
        return {"type": event.type, "order": list(event.order),
                "counts": {str(spot): len(cards) for spot, cards in event.hands},
                "dealer_up": up_card(event.dealer)}
    return event.as_json()


def private_events(state: HandState, event: Event) -> list[tuple[int, JSON]]:
    """``(seat, payload)``: at the deal, each seat's own spots (``state`` is the hand just before it)."""
    if not isinstance(event, CardsDealt):
        return []
    owners = {b.spot: b.seat for b in state.bets}
    by_seat: dict[int, list[JSON]] = {}
    for spot, cards in event.hands:
        by_seat.setdefault(owners[spot], []).append({"spot": spot, **spot_cards(cards)})
    return [(seat, {"type": "your_cards", "spots": spots}) for seat, spots in sorted(by_seat.items())]


def visible(state: HandState, bet: ClosedBet, viewer: int | None) -> bool:
    """Whether ``viewer`` may see the cards of ``bet``'s spot now."""
    if bet.spot not in state.hands:
        return False
    return bet.seat == viewer or any(spot == bet.spot for spot, _ in state.shown)


def hand_view(state: HandState, viewer: int | None) -> CaribbeanHandView:
    """The hand as ``viewer`` (a seat, or None for a spectator) may see it now.

    What every viewer sees alike is built once per state and shared (callers must not change
    it): a seat's view is the spectator's with its own spots in place of theirs, so the update
    builder diffs the rest once a batch, not once a seat (docs/benchmarks.md, tenth round).
    """
    public = _everyones_view(state)
    if viewer is None or not any(b.seat == viewer for b in state.bets):
        return public
    spots = [_spot(state, b, viewer) if b.seat == viewer else shared
             for b, shared in zip(_dealt(state), public["spots"], strict=True)]
    return public | {"spots": spots}


def _dealt(state: HandState) -> list[ClosedBet]:
    """The spots dealt cards, in the view's order."""
    return [b for b in state.bets if b.spot in state.hands]


def _public_view(state: HandState) -> CaribbeanHandView:
    turn = state.turn
    return {
        "game": GAME,
        "phase": state.phase,
        "reason": state.reason,
        "commitment": state.commitment,
        "arranged": state.arranged_deck is not None or state.seat_deck is not None,
        "meter": state.meter_now,
        "seats": [p.seat for p in state.players],  # who takes part (may bet) this hand
        "bets": _bets(state),
        "passed": sorted(state.passed),
        "waiting": undecided(state) if state.phase == "betting" else [],  # whom the betting still waits for
        "spots": [_spot(state, b, None) for b in _dealt(state)],
        "dealer": _dealer(state),
        "turn": {"seat": turn.seat, "spot": turn.spot} if turn is not None else None,
        "leaving": sorted(state.leaving),
        "settlement": settlement_as_json(state.settlement) if state.settlement is not None else None,
    }


def _bets(state: HandState) -> list[SpotBetRow]:
    if state.phase == "betting" or not state.bets:
        rows = [(b.spot, seat, b.ante, b.jackpot, seat in state.confirmed)
                for seat, bets in state.placed.items() for b in bets]
    else:
        rows = [(b.spot, b.seat, b.ante, b.jackpot, True) for b in state.bets]
    return [{"spot": spot, "seat": seat, "ante": ante, "jackpot": jackpot, "confirmed": confirmed}
            for spot, seat, ante, jackpot, confirmed in sorted(rows)]


def _spot(state: HandState, bet: ClosedBet, viewer: int | None) -> SpotView:
    out: SpotView = {"spot": bet.spot, "seat": bet.seat, "ante": bet.ante, "jackpot": bet.jackpot,
                     "bet": state.played.get(bet.spot, 0), "folded": bet.spot in state.folded,
                     "dead": bet.spot in state.dead}
    if visible(state, bet, viewer):
        shown = _seen_cards(state.hands[bet.spot])  # key by key: mypy merges a TypedDict only with its own type
        out["cards"] = shown["cards"]
        if "class" in shown:
            out["class"] = shown["class"]
    return out


def _dealer(state: HandState) -> CaribbeanDealerView:
    out: CaribbeanDealerView = {"up": up_card(state.dealer)}
    if state.revealed:
        out |= {"cards": cards_list(state.dealer), "qualifies": state.dealer_qualifies,
                "class": class_name(rank5(state.dealer))}
    return out


_everyones_view: PerState[HandState, CaribbeanHandView] = PerState(_public_view)
"""What every viewer sees of a state alike (a spectator's view), built once per state (callers must not change it)."""
