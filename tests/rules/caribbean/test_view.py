"""docs/rules/caribbean.md sections 3.2 and 3.6: who may see which cards, before and after the reveal."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from server.rules.cards import Card, card_text, cards_list, parse_cards
from server.rules.caribbean.hand import HandState, evolve
from server.rules.caribbean.messages import CardsDealt, ConfirmBets, FoldSpot, PlaySpot
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.view import hand_view, private_events, public_event
from tests.rules.caribbean.live import Run, arranged, planted_hand, random_hand, run, table_settings

FLUSH = "Kc 9c 7c 6c 8c"
BUSTED = "Qs Jc 8d 6h 3d"
TWO_PAIR = "9h 9s 4c 4d Jh"
DEALER = "Ah Ad Ts 5d 2s"  # the up-card is the 2s


def three_spot_hand() -> Run:
    """Seat 1 plays spot 1 and folds spot 3 (no jackpot); seat 2 plays spot 2."""
    r = run([(1, 1000), (2, 1000)], deck=arranged([TWO_PAIR, BUSTED, FLUSH], DEALER))
    r.bet(1, (1, 10), (3, 10), confirm=False)
    r.bet(2, (2, 10))
    r.do(ConfirmBets(1))
    return r


def tokens(payload: Any) -> str:
    return json.dumps(payload)


def shows(payload: Any, cards: tuple[Card, ...]) -> bool:
    """Whether any of ``cards`` appears in the JSON of ``payload``."""
    text = tokens(payload)
    return any(f'"{card_text(c)}"' in text for c in cards)


# ---------------------------------------------------------------- examples


def test_the_deal_is_public_as_counts_and_the_dealers_up_card() -> None:
    r = three_spot_hand()
    dealt = next(e for e in r.events if isinstance(e, CardsDealt))
    assert public_event(dealt) == {"type": "cards_dealt", "order": [1, 2, 3, 0],
                                   "counts": {"1": 5, "2": 5, "3": 5}, "dealer_up": "2s"}


def test_each_player_privately_gets_all_their_own_spots_at_once() -> None:
    r = three_spot_hand()
    state, dealt = next((s, e) for s, e in r.trace if isinstance(e, CardsDealt))
    assert private_events(state, dealt) == [
        (1, {"type": "your_cards", "spots": [{"spot": 1, "cards": TWO_PAIR.split(), "class": "two_pair"},
                                             {"spot": 3, "cards": FLUSH.split(), "class": "flush"}]}),
        (2, {"type": "your_cards", "spots": [{"spot": 2, "cards": BUSTED.split(), "class": "high_card"}]}),
    ]
    assert private_events(state, r.events[-1]) == []


def test_before_the_reveal_a_player_sees_their_own_spots_and_the_up_card_only() -> None:
    r = three_spot_hand()
    view = hand_view(r.state, 1)
    assert [s.get("cards") for s in view["spots"]] == [TWO_PAIR.split(), None, FLUSH.split()]
    assert view["dealer"] == {"up": "2s"}
    assert view["turn"] == {"seat": 1, "spot": 1}
    spectator = hand_view(r.state, None)
    assert all("cards" not in s for s in spectator["spots"])


def test_after_the_reveal_everyone_sees_the_dealer_and_the_hands_that_played() -> None:
    r = three_spot_hand()
    r.do(PlaySpot(1), PlaySpot(2), FoldSpot(1))
    spectator = hand_view(r.state, None)
    assert spectator["dealer"] == {"up": "2s", "cards": DEALER.split(), "qualifies": True, "class": "pair"}
    assert [s.get("cards") for s in spectator["spots"]] == [TWO_PAIR.split(), BUSTED.split(), None]
    assert hand_view(r.state, 1)["spots"][2]["cards"] == FLUSH.split()  # the owner still sees a folded spot
    assert spectator["settlement"]["meter"] == spectator["meter"]
    assert not shows(spectator, parse_cards(FLUSH))


def test_a_folded_hand_that_wins_a_jackpot_award_is_shown_to_all() -> None:
    r = run(deck=arranged([FLUSH], DEALER))
    r.bet(1, (1, 10, True))
    r.do(FoldSpot(1))
    assert hand_view(r.state, None)["spots"][0]["cards"] == FLUSH.split()


def test_the_view_lists_bets_with_their_confirmation_while_betting() -> None:
    r = run([(1, 1000), (2, 1000)])
    r.bet(2, (5, 10, True), confirm=False)
    r.bet(1, (2, 25), confirm=False)
    r.do(ConfirmBets(2))
    view = hand_view(r.state, None)
    assert view["bets"] == [{"spot": 2, "seat": 1, "ante": 25, "jackpot": False, "confirmed": False},
                            {"spot": 5, "seat": 2, "ante": 10, "jackpot": True, "confirmed": True}]
    assert (view["game"], view["phase"], view["spots"], view["turn"]) == ("caribbean", "betting", [], None)
    assert view["meter"] == 1_000_000
    assert view["commitment"] == r.state.commitment
    assert "server_seed" not in tokens(view)


# ---------------------------------------------------------------- properties


def secrets(state: HandState, viewer: int | None) -> tuple[Card, ...]:
    """Cards ``viewer`` must not see now: other seats' unshown spots, and the dealer's hole cards until shown."""
    shown = {spot for spot, _ in state.shown}
    hidden = [c for b in state.bets if b.seat != viewer and b.spot not in shown for c in state.hands.get(b.spot, ())]
    if not state.revealed:
        hidden += state.dealer[:4]
    return tuple(hidden)


def check_prefixes(r: Run) -> None:
    viewers: list[int | None] = [None, *(p.seat for p in r.state.players)]
    for before, event in r.trace:
        after = evolve(before, event)
        assert not shows(public_event(event), secrets(after, None)), event.type
        for seat, payload in private_events(before, event):
            assert not shows(payload, secrets(after, seat))
    for state in [before for before, _ in r.trace] + [r.state]:
        for viewer in viewers:
            assert not shows(hand_view(state, viewer), secrets(state, viewer)), (viewer, state.phase)


@hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), table_settings())
def test_no_view_or_public_event_shows_anothers_cards_before_the_reveal(data: st.DataObject,
                                                                        table: CaribbeanSettings) -> None:
    seats = data.draw(st.lists(st.integers(1, table.spots), min_size=1, max_size=3, unique=True))
    r = run([(s, data.draw(st.integers(20, 3000))) for s in sorted(seats)], settings=table,
            seed=data.draw(st.binary(min_size=32, max_size=32)))
    check_prefixes(random_hand(data, r))


@hypothesis_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), table_settings())
def test_after_the_reveal_only_played_hands_and_jackpot_winners_are_shown(data: st.DataObject,
                                                                          table: CaribbeanSettings) -> None:
    r = planted_hand(data, table, {})
    check_prefixes(r)
    if r.state.settlement is None:
        return
    view = hand_view(r.state, None)
    for result in r.state.settlement.spots:
        cards = r.state.hands[result.spot]
        should_show = not result.dead and (not result.folded or result.jackpot_award > 0)
        entry = next(s for s in view["spots"] if s["spot"] == result.spot)
        assert (entry.get("cards") == cards_list(cards)) is should_show
