"""A typed High Card Flush bet is judged by the server's choices alone, never by the terminal's reading of the
table's settings (issue 24, item 5).

The snapshot's ``settings`` are the table's for the coming hands; a host may change them while a hand is
played, and that hand keeps its own. Whatever the settings say, a bet goes out exactly when the rules take it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from client_cli.games import HCF
from client_cli.offers import read_offers
from client_cli.parse import InputError
from server.rules.hcf.settings import HcfSettings
from tests.client_cli.hcf_offers import accepts_bets, betting, decision_choices, server_choices


def _model(stack: int, table: dict[str, Any], hand: HcfSettings) -> dict[str, Any]:
    """Seat 2 to bet in a hand played under ``hand``, while the table's settings are now ``table``."""
    return {"settings": table, "you": {"seat": 2}, "seats": [{"seat": 2, "stack": stack}],
            "hand": {"phase": "betting", "bettors": [2], "seats": {"2": {}}},
            "choices": server_choices(betting(stack, hand))}


def _typed(line: str, model: dict[str, Any]) -> Any:
    return HCF.parse_line(line, HCF.choices_now(model, read_offers(model)))


def test_a_bonus_the_hand_allows_is_sent_although_the_table_has_lowered_it_since() -> None:
    model = _model(1000, {"min_ante": 5, "max_ante": 500, "min_bonus": 1, "max_bonus": 20, "fee": 1,
                          "fee_mode": "players"}, HcfSettings(max_bonus=100))
    assert _typed("bet 10 80", model).args == {"ante": 10, "straight_flush_bonus": 80, "flush_bonus": 0}


def test_a_bonus_the_hand_does_not_allow_is_refused_in_its_own_limits() -> None:
    model = _model(1000, {"min_ante": 5, "max_ante": 500, "min_bonus": 1, "max_bonus": 100, "fee": 0},
                   HcfSettings(max_bonus=20))
    refused = _typed("bet 10 0 30", model)
    assert isinstance(refused, InputError)
    assert refused.message == "the Flush bonus is 1 to 20 chips, or 0"


@settings(max_examples=200, deadline=None)
@given(stack=st.integers(0, 1200), ante=st.integers(0, 600), sf=st.integers(0, 150), flush=st.integers(0, 150),
       hand_bonus=st.tuples(st.integers(1, 30), st.integers(30, 120)), fee=st.integers(0, 3),
       table=st.fixed_dictionaries({"min_ante": st.integers(1, 20), "max_ante": st.integers(20, 600),
                                    "min_bonus": st.integers(1, 30), "max_bonus": st.integers(0, 150),
                                    "fee": st.integers(0, 3), "fee_mode": st.sampled_from(["players", "none"])}))
def test_a_typed_bet_is_sent_exactly_when_the_rules_take_it(stack: int, ante: int, sf: int, flush: int,
                                                          hand_bonus: tuple[int, int], fee: int,
                                                          table: dict[str, Any]) -> None:
    hand = HcfSettings(min_bonus=hand_bonus[0], max_bonus=hand_bonus[1], fee=fee)
    typed = _typed(f"bet {ante} {sf} {flush}", _model(stack, table, hand))
    assert (not isinstance(typed, InputError)) == accepts_bets(betting(stack, hand), ante, sf, flush), typed
    if isinstance(typed, InputError):
        assert typed.message[0].islower()  # a sentence, never a code or a shape
        assert "{" not in typed.message
    else:
        assert typed.args == {"ante": ante, "straight_flush_bonus": sf, "flush_bonus": flush}


def test_what_is_asked_now_is_the_servers_to_say_whatever_the_view_shows() -> None:
    model = _model(1000, {"min_ante": 5, "max_ante": 500}, HcfSettings())
    model["hand"] = {"phase": "betting", "bettors": [], "seats": {}}  # a view that has not caught up
    assert _typed("bet 10", model).args == {"ante": 10, "straight_flush_bonus": 0, "flush_bonus": 0}
    turn = {**model, "hand": {"phase": "decisions", "turn": None, "seats": {}}, "choices": decision_choices(10, 30)}
    assert _typed("r max", turn).args == {"amount": 30}
    assert _typed("r min", turn).args == {"amount": 10}
    assert _typed("bet 10", turn) == InputError("you cannot bet now")
