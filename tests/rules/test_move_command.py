"""A move is checked and built in one call, ``Moves.command`` (docs/server.md, the Game seam's ``moves``).

It checks the arguments first, and asks the mover's seat only for a move found well formed (a
malformed move is refused in the game's words even when no hand is in progress). A move the game
names with a ``Record`` is built as that record of the seat and the arguments, its defaults filling
what was left out; any other move is the game's own ``move``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.caribbean.game import CARIBBEAN
from server.rules.errors import RuleError
from server.rules.game import Game
from server.rules.hcf import messages as m
from server.rules.hcf.game import HCF
from server.rules.sixcard.game import SIXCARD
from tests.toygame.toy import TOP_CARD
from tests.toygame2.duel import DEALER_DUEL

GAMES: tuple[Game, ...] = (HCF, CARIBBEAN, SIXCARD, TOP_CARD, DEALER_DUEL)


def no_seat() -> int:
    raise AssertionError("the seat was asked for a move that is not well formed")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_malformed_move_is_refused_before_the_seat_is_asked(game: Game) -> None:
    with pytest.raises(RuleError) as unknown:
        game.moves.command(game, "no_such_move", {}, no_seat)
    assert unknown.value.code == "request/unknown"
    action = next(iter(game.moves.args))
    with pytest.raises(RuleError):
        game.moves.command(game, action, {"no_such_argument": 1}, no_seat)


@given(st.integers(1, 7), st.one_of(st.none(), st.integers(0, 10**9)))
def test_a_raise_is_its_record_of_the_seat_and_the_amount_as_the_games_move_makes_it(
        seat: int, amount: int | None) -> None:
    args: dict[str, Any] = {} if amount is None else {"amount": amount}
    built = HCF.moves.command(HCF, "raise", args, lambda: seat)
    assert built == m.Raise(seat, amount or 0) == HCF.move(seat, "raise", args)


@pytest.mark.parametrize(("action", "record"), [("fold", m.Fold), ("pass", m.PassBets)])
def test_a_fold_and_a_pass_are_records_of_the_seat(action: str, record: type) -> None:
    assert HCF.moves.command(HCF, action, {}, lambda: 4) == record(4) == HCF.move(4, action, {})


def test_a_move_the_game_builds_itself_goes_to_its_move() -> None:
    assert HCF.moves.command(HCF, "bank", {"accept": True}, lambda: 2) == m.AcceptBank(2)
    assert HCF.moves.command(HCF, "bet", {"ante": 10, "seed": "s"}, lambda: 3) == m.PlaceBets(3, 10, 0, 0, "s")
