"""A typed Caribbean Stud bet is judged by the server's choices alone, never by the terminal's reading of the
table's settings (issue 24, item 5).

The snapshot's ``settings`` are the table's for the coming hands; a host may change them while a hand is
played, and that hand keeps its own. Whatever the settings say, a bet goes out exactly when the rules take it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from client_cli.games import CLIENTS, Move
from client_cli.offers import read_offers
from client_cli.parse import InputError
from tests.client_cli.house_samples import Table, caribbean, judged

GAME = CLIENTS["caribbean"]


def _typed(table: Table, line: str, **changed: Any) -> Any:
    """Type ``line`` as seat 1 while the table's settings for the coming hands are ``changed``: what the play loop
    sends, or why not."""
    model = table.snapshot(1)
    model["settings"] = {**model["settings"], **changed}
    return judged(GAME.parse_line(line, GAME.choices_now(model, read_offers(model))), model)


def test_an_ante_the_hand_allows_is_sent_although_the_table_has_lowered_it_since() -> None:
    typed = _typed(caribbean(), "bet 1:100", max_ante=50)
    assert typed == Move("bet", {"bets": [{"spot": 1, "ante": 100, "jackpot": False}]})


def test_an_ante_the_hand_does_not_allow_is_refused_in_the_hands_limits() -> None:
    typed = _typed(caribbean(max_ante=50), "bet 1:100", max_ante=500)
    assert typed == InputError("spot 1: the Ante is 5 to 50 chips, got 100")


@settings(max_examples=150, deadline=None)
@given(tokens=st.lists(st.tuples(st.integers(1, 7), st.integers(1, 400), st.booleans()), min_size=1, max_size=4,
                       unique_by=lambda t: t[0]),
       stack=st.integers(0, 1500), hand_max=st.integers(5, 300), table_max=st.integers(5, 300),
       table_hands=st.integers(1, 7), jackpot=st.booleans())
def test_a_typed_bet_is_sent_exactly_when_the_rules_take_it(tokens: list[tuple[int, int, bool]], stack: int,
                                                          hand_max: int, table_max: int, table_hands: int,
                                                          jackpot: bool) -> None:
    table = caribbean({1: stack, 2: 1000}, max_ante=hand_max, jackpot=jackpot)
    line = "bet " + " ".join(f"{spot}:{ante}{'j' if j else ''}" for spot, ante, j in tokens)
    typed = _typed(table, line, max_ante=table_max, max_hands=table_hands, jackpot=not jackpot)
    bets = [{"spot": s, "ante": a, "jackpot": j} for s, a, j in tokens]
    assert isinstance(typed, Move) == table.accepts(1, "bet", {"bets": bets}), (line, typed)
    if isinstance(typed, Move):
        assert typed.args == {"bets": bets}


def _in_turn() -> Table:
    """ann (spot 1) and bob (spot 2) have bet and dealt: ann's turn on spot 1."""
    table = caribbean()
    table.move(1, "bet", {"bets": [{"spot": 1, "ante": 10}]})
    table.move(2, "bet", {"bets": [{"spot": 2, "ante": 20}]})
    table.move(1, "deal")
    table.move(2, "deal")
    return table


def test_the_spot_in_turn_is_the_one_the_server_offers_whatever_the_view_shows() -> None:
    model = _in_turn().snapshot(1)
    model["hand"] = {**model["hand"], "turn": None}  # a view that does not say whose turn it is
    choices = GAME.choices_now(model, read_offers(model))
    assert GAME.parse_line("p", choices) == Move("play", {"spot": 1})
    assert GAME.parse_line("fold 2", choices) == InputError("spot 1 is in turn: say 'fold' (or 'fold 1')")


def test_a_turn_the_server_does_not_offer_is_said_so() -> None:
    model = _in_turn().snapshot(2)
    refused = GAME.parse_line("play", GAME.choices_now(model, read_offers(model)))
    assert refused == InputError("it is not your turn to play")
    assert isinstance(refused, InputError)
    assert refused.not_now
