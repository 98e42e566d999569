"""The whole gate of a typed bet, held to the rules: the game's reading of the model never goes beyond the
server's choices, and :func:`client_cli.offers.check` passes a move exactly when the rules accept it.

The choices are the rules' own (``Game.choices``), put on the snapshot as the server does (protocol v2).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from client_cli.bots import Bot, BotOptions, Team
from client_cli.games import CLIENTS, Move
from client_cli.offers import check, read_offers
from client_cli.store import TokenStore
from tests.client_cli.fakes import FakeConnection
from tests.client_cli.house_samples import Table, caribbean, sixcard


def _model(table: Table, seat: int) -> dict[str, Any]:
    model = table.snapshot(seat)
    model["choices"] = {"seat": seat, "deadline": None, "moves": table.game.choices(table.state, seat)}
    return model


def _gate(table: Table, game: str, line: str) -> bool:
    """Whether typing ``line`` as seat 1 sends a move (parsed, then among the choices)."""
    client = CLIENTS[game]
    model = _model(table, 1)
    offers = read_offers(model)
    parsed = client.parse_line(line, client.choices_now(model, offers))
    if not isinstance(parsed, Move):
        return False
    seed = {"seed": "s"} if parsed.action == "bet" else {}  # as the play loop seeds a bet
    return check(offers, "move", {"action": parsed.action, **parsed.args, **seed}) is None


@settings(max_examples=150, deadline=None)
@given(tokens=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 700), st.booleans()), min_size=1, max_size=5),
       stack=st.integers(0, 2000), jackpot=st.booleans())
def test_a_caribbean_bet_passes_the_gate_exactly_when_the_rules_accept_it(tokens: list[tuple[int, int, bool]],
                                                                        stack: int, jackpot: bool) -> None:
    table = caribbean({1: stack, 2: 1000}, jackpot=jackpot)
    table.move(2, "bet", {"bets": [{"spot": 3, "ante": 10}]})
    line = "bet " + " ".join(f"{spot}:{ante}{'j' if j else ''}" for spot, ante, j in tokens)
    accepted = table.accepts(1, "bet", {"bets": [{"spot": s, "ante": a, "jackpot": j} for s, a, j in tokens]})
    assert _gate(table, "caribbean", line) == accepted, line


@settings(max_examples=150, deadline=None)
@given(tokens=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 120), st.integers(0, 30)), min_size=1,
                       max_size=5),
       stack=st.integers(0, 1500), max_ante=st.one_of(st.none(), st.integers(5, 100)))
def test_a_sixcard_bet_passes_the_gate_exactly_when_the_rules_accept_it(tokens: list[tuple[int, int, int]],
                                                                      stack: int, max_ante: int | None) -> None:
    table = sixcard({1: stack, 2: 1000}, max_ante=max_ante)
    table.move(2, "bet", {"bets": [{"box": 2, "ante": 5}]})
    line = "bet " + " ".join(f"{box}:{ante}+{bonus}" if ante else f"{box}:+{bonus}" for box, ante, bonus in tokens)
    accepted = table.accepts(1, "bet", {"bets": [{"box": b, "ante": a, "bonus": n} for b, a, n in tokens]})
    assert _gate(table, "sixcard", line) == accepted, line


def test_no_bet_passes_once_the_bets_are_confirmed() -> None:
    table = caribbean({1: 1000, 2: 1000})
    table.move(1, "bet", {"bets": [{"spot": 1, "ante": 10}]})
    table.move(1, "deal")
    assert not _gate(table, "caribbean", "bet 2:10")
    assert _gate(table, "caribbean", "clear")


@settings(max_examples=120, deadline=None)
@given(game=st.sampled_from(["caribbean", "sixcard"]), strategy=st.sampled_from(["basic", "random"]),
       stack=st.integers(0, 3000), seed=st.integers(0, 10**6), other_bets=st.booleans())
def test_every_bet_a_bot_sends_is_one_the_rules_accept(game: str, strategy: str, stack: int, seed: int,
                                                       other_bets: bool) -> None:
    table = (caribbean if game == "caribbean" else sixcard)({1: stack, 2: 1000})
    if other_bets:
        table.move(2, "bet", {"bets": [{"spot" if game == "caribbean" else "box": 2, "ante": 10}]})
    bot = Bot("b-1", BotOptions("http://x", strategy=strategy, fast=True),  # type: ignore[arg-type]
              Team(["b-1"], 1), TokenStore(), random.Random(seed))
    bot.conn = FakeConnection("main", {**_model(table, 1), "game": game})  # type: ignore[assignment]
    bot._take_model()
    step = bot._next_step()
    if stack >= 1 and strategy == "basic" and any(c["action"] == "bet" for c in table.game.choices(table.state, 1)):
        assert step is not None
    if step is not None and step[0] == "move":
        args = {k: v for k, v in step[1].items() if k != "action"}
        assert table.accepts(1, step[1]["action"], args), step
