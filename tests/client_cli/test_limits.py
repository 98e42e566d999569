"""The server's limits of the moment go into each game's record by name (client_cli/games/limits.py): what is asked
and what may be typed are the server's choices, never the hand view's."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from client_cli.games import CLIENTS, HCF
from client_cli.offers import read_offers

spans = st.tuples(st.integers(0, 200), st.integers(0, 200)).map(sorted)


def _model(moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A seated player's model with the server's ``moves`` and a hand view that says nothing of them."""
    return {"you": {"seat": 1}, "seats": [{"seat": 1, "name": "ann", "stack": 1000}], "hand": {"phase": "betting"},
            "choices": {"seat": 1, "deadline": None, "moves": moves}}


@given(span=spans, raise_max=st.integers(1, 500))
def test_high_card_flush_takes_the_offered_ante_and_raise(span: list[int], raise_max: int) -> None:
    bet = {"request": "move", "action": "bet", "ante": {"min": span[0], "max": span[1]}}
    betting = HCF.choices_now(_model([bet]))
    assert betting.kind == "bets"
    assert (betting.min_ante, betting.max_ante) == (max(span[0], 1), span[1])
    deciding = HCF.choices_now(_model([{"request": "move", "action": "raise", "amount": {"min": 1, "max": raise_max}},
                                       {"request": "move", "action": "fold"}]))
    assert (deciding.kind, deciding.max_raise) == ("decision", raise_max)
    assert deciding.min_ante == 0, "a decision's record keeps its own fields"


@given(span=spans, free=st.lists(st.integers(1, 7), unique=True, max_size=7), hold=st.integers(1, 4),
       game=st.sampled_from(sorted(CLIENTS)))
def test_a_house_game_takes_the_offered_ante_places_and_count(span: list[int], free: list[int], hold: int,
                                                              game: str) -> None:
    client = CLIENTS[game]
    bet = {"request": "move", "action": "bet",
           "bets": {"count": {"min": 1, "max": hold}, "each": {client.place: free, "ante": {"min": span[0],
                                                                                             "max": span[1]}}}}
    out = client.choices_now(_model([bet]), read_offers(_model([bet])))
    assert (out.kind, out.min_ante, out.top_ante, out.free, out.hold) == ("bets", max(span[0], 1), span[1],
                                                                           tuple(free), hold)
    assert client.choices_now(_model([{"request": "move", "action": "fold", client.place: 1}])).free == ()


@given(game=st.sampled_from(["hcf", *sorted(CLIENTS)]))
def test_a_hand_view_without_the_server_s_choices_asks_nothing(game: str) -> None:
    client = CLIENTS.get(game, HCF)
    view = {"phase": "betting", "bettors": [1], "bets": [], "waiting": [1]}  # 'bets are open'
    model = {"you": {"seat": 1}, "seats": [{"seat": 1, "name": "ann", "stack": 1000}], "hand": view,
             "choices": {"seat": 1, "deadline": None, "moves": []}}
    assert client.legal_choices(model).kind is None
