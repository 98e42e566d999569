"""Every game a table can play, by name (a table's settings carry ``game``; absent means ``hcf``).

>>> game_named("hcf").name
'hcf'
>>> game_of({"game": "poker"})
Traceback (most recent call last):
...
server.rules.errors.SettingsError: game: one of hcf, caribbean, sixcard, got 'poker'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from server.i18n import phrase
from server.rules.caribbean.game import CARIBBEAN
from server.rules.errors import SettingsError
from server.rules.game import Game
from server.rules.hcf.game import HCF
from server.rules.sixcard.game import SIXCARD

GAMES: Final[dict[str, Game]] = {"hcf": HCF, "caribbean": CARIBBEAN, "sixcard": SIXCARD}


def register(game: Game) -> None:
    """Add a game to the registry under its ``name`` (a game of its own package, e.g. the toy game of the tests).

    A table of that game may then be created like any other; every part of the server reaches
    the game through :class:`~server.rules.game.Game` alone.
    """
    if game.name in GAMES and GAMES[game.name] is not game:
        raise SettingsError(f"game: another game is registered as {game.name!r}")
    GAMES[game.name] = game


def game_named(name: str) -> Game:
    """The game called ``name``; SettingsError if there is none."""
    game = GAMES.get(name)
    if game is None:
        raise SettingsError(phrase("game: one of {known}, got {name}", known=", ".join(GAMES), name=repr(name)))
    return game


def game_of(settings: Mapping[str, Any]) -> Game:
    """The game a settings mapping (as stored or as sent by a host) is for."""
    name = settings.get("game", "hcf")
    if not isinstance(name, str):
        raise SettingsError(phrase("game: a name, got {name}", name=repr(name)))
    return game_named(name)
