"""A typed 6 Card Poker bet is judged by the server's choices alone, never by the terminal's reading of the
table's settings (issue 24, item 5).

The snapshot's ``settings`` are the table's for the coming hands; a host may change them while a hand is
played, and that hand keeps its own. Whatever the settings say, a bet goes out exactly when the rules take it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from client_cli.games import CLIENTS, Move
from client_cli.games import sixcard as sg
from client_cli.offers import read_offers
from client_cli.parse import InputError
from tests.client_cli.house_samples import Table, judged, sixcard

GAME = CLIENTS["sixcard"]


def _typed(table: Table, line: str, **changed: Any) -> Any:
    """Type ``line`` as seat 1 while the table's settings for the coming hands are ``changed``: what the play loop
    sends, or why not."""
    model = table.snapshot(1)
    model["settings"] = {**model["settings"], **changed}
    return judged(GAME.parse_line(line, GAME.choices_now(model, read_offers(model))), model)


def test_an_ante_ratio_the_hand_allows_is_sent_although_the_table_has_narrowed_it_since() -> None:
    typed = _typed(sixcard(), "bet 1:10 3:40", ante_ratio=2)
    assert typed == Move("bet", {"bets": [{"box": 1, "ante": 10, "bonus": 0}, {"box": 3, "ante": 40, "bonus": 0}]})


def test_an_ante_ratio_the_hand_does_not_allow_is_refused_in_the_hands_words() -> None:
    typed = _typed(sixcard(ante_ratio=2), "bet 1:10 3:40", ante_ratio=5)
    assert isinstance(typed, InputError)
    assert typed.message.startswith("your largest Ante (40) may be at most")


@settings(max_examples=150, deadline=None)
@given(tokens=st.lists(st.tuples(st.integers(1, 4), st.integers(0, 120), st.integers(0, 30)), min_size=1,
                       max_size=4, unique_by=lambda t: t[0]),
       stack=st.integers(0, 1500), hand=st.fixed_dictionaries({"ante_ratio": st.integers(2, 6),
                                                               "max_bonus": st.integers(5, 40)}),
       table=st.fixed_dictionaries({"ante_ratio": st.integers(2, 6), "max_bonus": st.integers(5, 40),
                                    "min_bonus": st.integers(1, 5)}))
def test_a_typed_bet_is_sent_exactly_when_the_rules_take_it(tokens: list[tuple[int, int, int]], stack: int,
                                                          hand: dict[str, int], table: dict[str, int]) -> None:
    played = sixcard({1: stack, 2: 1000}, **hand)
    played.move(2, "bet", {"bets": [{"box": 2, "ante": 5}]})
    line = "bet " + " ".join(f"{box}:{ante}+{bonus}" for box, ante, bonus in tokens)
    typed = _typed(played, line, **table)
    bets = sorted(({"box": b, "ante": a, "bonus": n} for b, a, n in tokens), key=lambda bet: bet["box"])
    assert isinstance(typed, Move) == played.accepts(1, "bet", {"bets": bets}), (line, typed)
    if isinstance(typed, Move):
        assert typed.args == {"bets": bets}


def _turn(discard: dict[str, Any]) -> Any:
    """Box 2 in turn, with the exchange the server offers now."""
    offers = read_offers({"choices": {"moves": [
        {"request": "move", "action": "exchange", "box": 2, "discard": discard},
        {"request": "move", "action": "raise", "box": 2}, {"request": "move", "action": "fold", "box": 2}]}})
    return sg.Choices(kind="decision", seated=True, stack=900, box=2, ante=10,
                      cards=("Kh", "Kd", "7c", "4s", "2h"), offers=offers)


def test_the_cards_an_exchange_replaces_are_the_servers_to_say() -> None:
    turn = _turn({"count": [1, 2, 3], "each": {"min": 1, "max": 5}, "distinct": True})
    assert sg.parse_line("x 1 2 3", turn) == Move("exchange", {"box": 2, "discard": [1, 2, 3]},
                                                  note="box 2: Kh Kd 7c (positions 1 2 3) exchanged for a fee of "
                                                       "10 chips")
    assert sg.parse_line("x all", turn) == InputError("an exchange replaces 1, 2 or 3 cards, not 5")


def _in_turn() -> Table:
    """ann bets box 1, bob box 4; both dealt: ann's turn on box 1."""
    table = sixcard()
    table.move(1, "bet", {"bets": [{"box": 1, "ante": 10}]})
    table.move(2, "bet", {"bets": [{"box": 4, "ante": 10}]})
    table.move(1, "deal")
    table.move(2, "deal")
    return table


def test_the_box_in_turn_is_the_one_the_server_offers_whatever_the_view_shows() -> None:
    model = _in_turn().snapshot(1)
    model["hand"] = {**model["hand"], "turn": None}  # a view that does not say whose turn it is
    choices = GAME.choices_now(model, read_offers(model))
    assert GAME.parse_line("r", choices) == Move("raise", {"box": 1})
    assert GAME.parse_line("fold 4", choices) == InputError("box 1 is in turn: say 'fold'")
    bought = GAME.parse_line("buy", choices)
    assert isinstance(bought, Move)
    assert (bought.action, bought.args) == ("buy", {"box": 1})
