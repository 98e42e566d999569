"""Each game declares its wire moves and their arguments' shapes (``Game.moves``), and refuses in its own words.

A move is checked against the table's game before the game turns it into a command: a
name the game does not have, an argument it does not take, a value of the wrong shape are
refused with a listed code and a sentence that names this game's moves, never another's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.caribbean.game import CARIBBEAN
from server.rules.errors import RuleError
from server.rules.game import Game
from server.rules.hcf.game import HCF
from server.rules.moves import Arg, Moves, chips, entries, flag, place, text, values, whole
from server.rules.sixcard.game import SIXCARD
from tests.toygame.toy import TOP_CARD
from tests.toygame2.duel import DEALER_DUEL

GAMES: tuple[Game, ...] = (HCF, CARIBBEAN, SIXCARD, TOP_CARD, DEALER_DUEL)
EVERY_MOVE = sorted({name for game in GAMES for name in game.moves.args})


def listed_moves(sentence: str) -> set[str]:
    """The move names a refusal's sentence lists (``X's moves are a (b, c), d and e, not 'f'``)."""
    listing = sentence.split("'s moves are ", 1)[1].rsplit(", not ", 1)[0]
    return set(re.findall(r"(?:^|, | and )([a-z_]+)", re.sub(r" \([^)]*\)", "", listing)))


def refusal(moves: Moves, action: str, args: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as refused:
        moves.check(action, args)
    return refused.value


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
@given(action=st.sampled_from(EVERY_MOVE) | st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))
def test_a_move_the_game_lacks_is_refused_naming_this_games_moves_only(game: Game, action: str) -> None:
    if action in game.moves.args:
        return
    refused = refusal(game.moves, action, {})
    assert refused.code == "request/unknown"
    assert refused.message.startswith(f"{game.moves.game}'s moves are ")
    assert listed_moves(refused.message) == set(game.moves.args), refused.message  # this game's, no other's
    assert refused.message.endswith(f"not {action!r}")


def value_of(arg: Arg) -> st.SearchStrategy[Any]:
    """Values that fit ``arg``."""
    if arg.kind == "flag":
        return st.booleans()
    if arg.kind == "text":
        return st.text(max_size=arg.high)
    if arg.kind == "whole":
        return st.integers(arg.low, arg.high)
    each = value_of(arg.each) if arg.each is not None else st.fixed_dictionaries(
        {}, optional={name: value_of(field) for name, field in arg.fields.items()})
    return st.lists(each, max_size=arg.high)


def fitting_args(taken: dict[str, Arg]) -> st.SearchStrategy[dict[str, Any]]:
    required = {name: value_of(arg) for name, arg in taken.items() if arg.required}
    optional = {name: value_of(arg) for name, arg in taken.items() if not arg.required}
    return st.fixed_dictionaries(required, optional=optional)


@st.composite
def a_declared_move(draw: st.DrawFn) -> tuple[Game, str, dict[str, Any]]:
    game = draw(st.sampled_from(GAMES))
    action = draw(st.sampled_from(sorted(game.moves.args)))
    return game, action, draw(fitting_args(dict(game.moves.args[action])))


@given(a_declared_move())
def test_arguments_of_the_declared_shapes_pass_and_the_game_reads_them(move: tuple[Game, str, dict[str, Any]]) -> None:
    game, action, args = move
    game.moves.check(action, args)
    codes = set()
    try:
        game.move(1, action, args)  # the game's own translation takes what its declaration admits
    except RuleError as exc:  # only the rules' own limits (a box its number of cards lacks) may still refuse
        codes.add(exc.code)
    assert "request/unknown" not in codes


def out_of_shape(arg: Arg) -> list[Any]:
    """Values that do not fit ``arg``."""
    if arg.kind == "flag":
        return [1, "yes", None]
    if arg.kind == "text":
        return [5, "x" * (arg.high + 1)]
    if arg.kind == "whole":
        return [arg.low - 1, arg.high + 1, True, "3", 2.5]
    return ["x", [None] * (arg.high + 1) if arg.high < 20 else "y"]


def least(taken: Mapping[str, Arg]) -> dict[str, Any]:
    """The required arguments at the least of their shapes."""
    firsts = {"flag": False, "text": "", "list": []}
    return {name: firsts.get(arg.kind, arg.low) for name, arg in taken.items() if arg.required}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_value_out_of_its_shape_is_refused_naming_its_limit(game: Game) -> None:
    for action, taken in game.moves.args.items():
        for name, arg in taken.items():
            for value in out_of_shape(arg):
                refused = refusal(game.moves, action, {**least(taken), name: value})
                assert refused.code == "request/malformed"
                assert refused.message.startswith(f"{action}: the ")
                assert arg.words().split(",")[0] in refused.message, refused.message


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_an_argument_the_move_does_not_take_and_a_missing_required_one_are_refused(game: Game) -> None:
    for action, taken in game.moves.args.items():
        refused = refusal(game.moves, action, {"tabel": 1})
        assert refused.code == "request/malformed"
        assert refused.message.startswith(f"{action} takes ")
        assert refused.message.endswith("not 'tabel'")
        if any(arg.required for arg in taken.values()):
            missing = refusal(game.moves, action, {})
            assert missing.code == "request/malformed"
            assert missing.message.startswith(f"{action} needs the "), missing.message


def test_what_a_client_is_told_each_move_takes_is_written_as_the_choices_write_arguments() -> None:
    moves = Moves("Example", {"bet": {"bets": entries(9, required=True, spot=place(), ante=chips(), jackpot=flag()),
                                      "seed": text()},
                              "exchange": {"discard": values(whole(1, 6), 5)}, "pass": {}})
    assert moves.as_json() == {
        "bet": {"args": {"bets": {"count": {"min": 0, "max": 9}, "each": {
            "spot": {"min": 1, "max": 1000}, "ante": {"min": 0, "max": 10**9}, "jackpot": [True, False]}},
            "seed": {"max_length": 128}}, "required": ["bets"]},
        "exchange": {"args": {"discard": {"count": {"min": 0, "max": 5}, "each": {"min": 1, "max": 6}}},
                     "required": []},
        "pass": {"args": {}, "required": []}}
    assert moves.listed() == "bet (bets, seed), exchange (cards to exchange) and pass"
