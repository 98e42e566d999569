"""docs/rules/sixcard.md section 4 visibility: who may see which cards, and when."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.cards import Card, card_text, cards_list, parse_cards
from server.rules.sixcard.hand import HandState, evolve
from server.rules.sixcard.messages import (
    BuyCard,
    CardsDealt,
    CardsDrawn,
    ConfirmBets,
    ContinueExchange,
    Event,
    ExchangeCards,
    FoldBox,
    RaiseBox,
    RequestExchange,
    TurnStarted,
)
from server.rules.sixcard.view import hand_view, private_events, public_event
from tests.rules.sixcard.live import Run, arranged, planned_hand, run

TRIPS = "Qs Qh Qd 9c 3h"
SEVENS = "7c 7d 4h 3d 2s"
HIGH = "Th 9s 6c 4d 2h"
FIVES = "5c 5d 9h Ks 2d"
NO_PAIR = "Ad Jc 8h 5s 3c"
QUALIFIER = "Kc Kd 7h 4s 2c"
CARD_TEXTS = {card_text(c) for c in range(52)}


def cards_in(payload: Any) -> set[str]:
    """Every card written anywhere in a JSON payload."""
    found: set[str] = set()
    if isinstance(payload, dict):
        for value in payload.values():
            found |= cards_in(value)
    elif isinstance(payload, list | tuple):
        for value in payload:
            found |= cards_in(value)
    elif isinstance(payload, str) and payload in CARD_TEXTS:
        found.add(payload)
    return found


def secret(state: HandState, viewer: int | None) -> set[str]:
    """The cards ``viewer`` (None: anyone) must not see in ``state``."""
    hidden: set[Card] = set(state.deck[state.next_card:])  # the stub
    settlement = state.settlement
    for b in state.boxes:
        if b.box not in state.cards:
            continue
        draw = state.draws.get(b.box)
        every = set(state.cards[b.box]) | (set(draw.new) if draw else set())
        own = viewer == b.seat and b.box in state.seen
        shown = settlement is not None and not settlement.result(b.box).folded and not settlement.result(b.box).dead
        if shown and not own:
            hidden |= every - set(state.current_cards(b.box))  # discards stay with their owner
        elif not own:
            hidden |= every
    if state.dealer_cards and not state.revealed:
        hidden |= set(state.dealer_cards[:4])
    return {card_text(c) for c in hidden}


def test_the_dealers_fifth_card_is_up_for_everyone() -> None:
    r = run(deck=arranged({1: TRIPS}, QUALIFIER))
    r.bet(1, (1, 10))
    (dealt,) = r.of(CardsDealt)
    assert public_event(dealt) == {"type": "cards_dealt", "order": [1, 0], "counts": {"1": 5}, "dealer_up": "2c"}
    assert hand_view(r.state, None)["dealer"] == {"up": "2c"}


def test_a_spectator_sees_no_box_before_settlement() -> None:
    r = run(deck=arranged({1: TRIPS, 2: SEVENS}, QUALIFIER))
    r.bet(1, (1, 10), (2, 0, 5))
    view = hand_view(r.state, None)
    assert all("cards" not in box for box in view["boxes"])
    assert cards_in(view) == {"2c"}


def test_an_open_box_is_shown_to_its_owner_when_its_turn_starts_one_at_a_time() -> None:
    r = run(deck=arranged({1: TRIPS, 2: SEVENS}, QUALIFIER))
    r.bet(1, (1, 5), (2, 10))
    view = hand_view(r.state, 1)
    assert [("cards" in box) for box in view["boxes"]] == [False, True]
    turn = r.of(TurnStarted)[0]
    before = next(b for b, e in r.trace if e is turn)
    assert private_events(before, turn) == [(1, {"type": "your_cards", "boxes": [{
        "box": 2, "role": "open", "cards": cards_list(parse_cards(SEVENS)), "best": cards_list(parse_cards(SEVENS)),
        "class": "pair", "bonus_class": "pair"}]})]
    r.do(RaiseBox(1))
    assert hand_view(r.state, 1)["boxes"][0]["class"] == "trips"


def test_bonus_only_boxes_go_to_their_owner_with_the_deal() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS, 3: HIGH}, QUALIFIER))
    r.bet(1, (1, 10), (3, 0, 5), confirm=False)
    r.bet(2, (2, 0, 1))
    r.do(ConfirmBets(1))
    (dealt,) = r.of(CardsDealt)
    before = next(b for b, e in r.trace if e is dealt)
    payloads = private_events(before, dealt)
    assert [(seat, [b["box"] for b in p["boxes"]]) for seat, p in payloads] == [(1, [3]), (2, [2])]
    assert payloads[0][1]["boxes"][0]["bonus_class"] == "high_card"


def test_blind_boxes_are_shown_to_their_owner_after_the_open_ones() -> None:
    r = run(deck=arranged({1: TRIPS, 2: SEVENS, 3: HIGH}, QUALIFIER))
    r.bet(1, (1, 10), (2, 10), (3, 10))
    assert "cards" not in hand_view(r.state, 1)["boxes"][2]
    r.do(RaiseBox(1))
    assert "cards" not in hand_view(r.state, 1)["boxes"][2]
    before = r.state
    events = r.do(FoldBox(1))
    assert private_events(before, events[0]) == []
    shown = private_events(evolve(before, events[0]), events[1])
    assert [(seat, [b["box"] for b in p["boxes"]]) for seat, p in shown] == [(1, [3])]


def test_the_public_sees_a_draws_kind_and_fee_the_owner_its_cards() -> None:
    r = run(deck=arranged({1: HIGH}, QUALIFIER, "As Ah"))
    r.bet(1, (1, 10))
    before = r.state
    (drawn,) = r.do(ExchangeCards(1, 1, (2, 4)))
    assert public_event(drawn) == {"type": "cards_drawn", "seat": 1, "box": 1, "kind": "exchange", "fee": 10}
    ((seat, payload),) = private_events(before, drawn)
    entry = payload["boxes"][0]
    assert seat == 1
    assert entry["cards"] == ["Th", "As", "6c", "Ah", "2h"]
    assert entry["draw"] == {"kind": "exchange", "fee": 10, "positions": [2, 4], "discarded": ["9s", "4d"],
                             "new": ["As", "Ah"]}
    assert entry["class"] == "pair"
    assert entry["bonus_class"] == "high_card"
    assert hand_view(r.state, None)["boxes"][0]["draw"] == {"kind": "exchange", "fee": 10}
    assert hand_view(r.state, 1)["boxes"][0]["draw"]["new"] == ["As", "Ah"]


def test_at_settlement_everyone_sees_the_dealer_and_every_box_that_reached_it_a_folded_one_stays_hidden() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS, 3: HIGH}, QUALIFIER, "As"))
    r.bet(1, (1, 10, 1), (2, 0, 1), confirm=False)
    r.bet(2, (3, 10, 1))
    r.do(ConfirmBets(1), BuyCard(1), RaiseBox(1), FoldBox(2))
    view = hand_view(r.state, None)
    assert view["dealer"]["cards"] == cards_list(parse_cards(QUALIFIER))
    assert view["boxes"][0]["cards"] == cards_list(parse_cards(TRIPS + " As"))
    assert view["boxes"][1]["cards"] == cards_list(parse_cards(SEVENS))  # bonus-only boxes reach settlement
    assert "cards" not in view["boxes"][2]
    public = public_event(r.events[-1])
    folded = public["settlement"]["boxes"][2]
    assert folded["folded"]
    assert "best" not in folded
    assert "class" not in folded
    assert [box for box, _ in public["shown"]] == [1, 2]
    assert "cards" in hand_view(r.state, 2)["boxes"][2]  # the owner still sees their own folded box


def test_the_exchange_shows_both_dealer_hands_and_each_boxs_choice() -> None:
    r = run([(1, 1000), (2, 1000)], deck=arranged({1: TRIPS, 2: SEVENS}, NO_PAIR, "Jd"))
    r.bet(1, (1, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1), RaiseBox(1), RaiseBox(2), RequestExchange(1, 1))
    view = hand_view(r.state, 2)
    assert view["phase"] == "exchange"
    assert view["dealer"] == {"up": "3c", "cards": cards_list(parse_cards(NO_PAIR)), "qualifies": False,
                              "class": "high_card", "exchanged": False}
    assert [(b["exchange_request"], b["continued"]) for b in view["boxes"]] == [(True, False), (False, False)]
    assert view["exchange"] == {"owners": [1, 2], "continued": [], "closed": False}
    r.do(ContinueExchange(1), ContinueExchange(2))
    dealer = hand_view(r.state, None)["dealer"]
    assert dealer["after"] == ["Jd", "Jc", "8h", "5s", "3c"]
    assert dealer["qualifies_after"]
    assert dealer["exchanged"]
    assert hand_view(r.state, None)["settlement"]["dealer"]["after"] == dealer["after"]


def test_the_view_lists_bets_while_betting_and_the_turn_after() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (3, 10, 1), confirm=False)
    r.bet(1, (1, 5))
    view = hand_view(r.state, None)
    assert view["bets"] == [{"box": 1, "seat": 1, "ante": 5, "bonus": 0, "confirmed": True},
                            {"box": 3, "seat": 2, "ante": 10, "bonus": 1, "confirmed": False}]
    assert view["turn"] is None
    assert view["game"] == "sixcard"
    assert view["phase"] == "betting"
    r.do(ConfirmBets(2))
    assert hand_view(r.state, None)["turn"] == {"seat": 1, "box": 1}


def check_prefix(before: HandState, event: Event, after: HandState) -> None:
    public = public_event(event)
    json.dumps(public)
    leaked = cards_in(public) & secret(after, None)
    assert not leaked, f"{event.type} shows {leaked} to everyone"
    for seat, payload in private_events(before, event):
        json.dumps(payload)
        assert not cards_in(payload) & secret(after, seat), f"{event.type} shows seat {seat} too much"
        owned = set().union(*(set(cards_in(b)) for b in payload["boxes"]))
        mine = {card_text(c) for b in after.boxes_of(seat) for c in (*after.cards[b.box],
                                                                      *after.current_cards(b.box))}
        assert owned <= mine
    for viewer in (None, *(p.seat for p in after.players)):
        view = hand_view(after, viewer)
        json.dumps(view)
        leaked = cards_in(view) & secret(after, viewer)
        assert not leaked, f"after {event.type}, viewer {viewer} sees {leaked}"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_nobody_sees_a_card_before_its_time_in_views_public_or_private_events(data: st.DataObject) -> None:
    r: Run = planned_hand(data)
    for before, event in r.trace:
        check_prefix(before, event, evolve(before, event))


def test_the_secret_check_itself_catches_a_leak() -> None:
    r = run(deck=arranged({1: TRIPS, 2: SEVENS}, QUALIFIER))
    r.bet(1, (1, 5), (2, 10))
    (dealt,) = r.of(CardsDealt)
    assert cards_in(dealt.as_json()) & secret(r.state, None)  # the logged form would leak
    assert "Qs" in secret(r.state, 1)  # box 1 is not seen yet, even by its owner
    drawn = CardsDrawn(1, 2, "buy", (), (), parse_cards("As"), 10)
    assert "As" in cards_in(drawn.as_json())
