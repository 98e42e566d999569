"""The server's limits of the moment go into each game's record by name (client_cli/games/limits.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from client_cli.games import CLIENTS, HCF
from client_cli.games.limits import offered_limits
from client_cli.offers import read_offers

spans = st.tuples(st.integers(0, 200), st.integers(0, 200)).map(sorted)


def _model(moves: list[dict[str, Any]]) -> dict[str, Any]:
    return {"choices": {"seat": 1, "deadline": None, "moves": moves}}


@given(span=spans, raise_max=st.integers(1, 500))
def test_high_card_flush_takes_the_offered_ante_and_raise(span: list[int], raise_max: int) -> None:
    bet = {"request": "move", "action": "bet", "ante": {"min": span[0], "max": span[1]}}
    limits = offered_limits(read_offers(_model([bet, {"request": "move", "action": "raise",
                                                      "amount": {"min": 1, "max": raise_max}}])), "seat")
    betting = HCF.with_offers(HCF.legal_choices({}).__class__(kind="bets", min_ante=1, max_ante=999), limits)
    assert (betting.min_ante, betting.max_ante) == (max(span[0], 1), span[1])
    deciding = HCF.with_offers(HCF.legal_choices({}).__class__(kind="decision", max_raise=999), limits)
    assert deciding.max_raise == raise_max
    assert deciding.min_ante == 0, "a decision's record keeps its own fields"


@given(span=spans, free=st.lists(st.integers(1, 7), unique=True, max_size=7), hold=st.integers(1, 4),
       game=st.sampled_from(sorted(CLIENTS)))
def test_a_house_game_takes_the_offered_ante_places_and_count(span: list[int], free: list[int], hold: int,
                                                              game: str) -> None:
    client = CLIENTS[game]
    bet = {"request": "move", "action": "bet",
           "bets": {"count": {"min": 1, "max": hold}, "each": {client.place: free, "ante": {"min": span[0],
                                                                                             "max": span[1]}}}}
    record = client.legal_choices({}).__class__(kind="bets", min_ante=1, max_ante=999)
    out = client.with_offers(record, offered_limits(read_offers(_model([bet])), client.place))
    assert (out.min_ante, out.max_ante, out.free, out.hold) == (max(span[0], 1), span[1], tuple(free), hold)
    assert client.with_offers(record.__class__(kind="decision"), offered_limits(read_offers(_model([bet])),
                                                                                  client.place)).free == ()
