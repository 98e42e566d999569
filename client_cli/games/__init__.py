"""The client's games behind one small record the client dispatches on.

The house-banked games have a package each; High Card Flush keeps its own modules
(``parse.py``, ``render.py``) behind :mod:`client_cli.games.hcf`. A snapshot's
``game`` names the game a table plays (absent: ``hcf``). :func:`client_for` gives
the house-banked games only (their history and tracking differ);
:func:`game_client` gives every game, for the play loop: a game this client does
not know is played through :mod:`client_cli.games.generic`, from the server's
choices alone, never as High Card Flush (:func:`known` says which).

>>> game_of({"game": "sixcard"}), game_of({}), client_for({"game": "hcf"}) is None
('sixcard', 'hcf', True)
>>> client_for({"game": "caribbean"}).place, game_client({}).name, game_client({"game": "topcard"}).name
('spot', 'hcf', 'topcard')
>>> known({"game": "topcard"}), known({})
(False, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from rich.text import Text

from client_cli.games import caribbean, generic, hcf, sixcard
from client_cli.games.house import HOUSE_GAMES, Move, Names, idle
from client_cli.offers import Offers


@dataclass(frozen=True, slots=True)
class GameClient:
    """Everything the play loop, the tracker, the bots and the history need of one game."""

    name: str
    place: str
    """What a player bets on: ``spot`` or ``box``."""
    help: str
    legal_choices: Callable[[Mapping[str, Any], Offers | None], Any]
    """``(model, offers)`` -> what the server's choices (``offers``, else the model's own) ask now, in the game's
    record, with the hand view's words for them."""
    idle: Callable[[Any], Any]
    choices_text: Callable[[Any], str | None]
    parse_line: Callable[[str, Any], Any]
    table_lines: Callable[..., list[Text]]
    describe_event: Callable[[Mapping[str, Any], Names], str | None]
    result_lines: Callable[..., list[Text]]
    history_bets: Callable[[Mapping[str, Any], Names], list[Text]]
    seat_nets: Callable[[Mapping[str, Any]], dict[int, int]]
    bot_bets: Callable[..., list[dict[str, Any]] | None]
    """``(strategy, choices, rng, ante, prefer)`` -> a bot's bets as the ``bet`` move carries them (None: none)."""
    bot_decision: Callable[[str, Any, random.Random], Move | None]
    """``(strategy, choices, rng)`` -> a bot's move on its place in turn (None: say nothing)."""

    def choices_now(self, model: Mapping[str, Any], offers: Offers | None = None) -> Any:
        """What this player may do now: the server's choices (``offers``, else the model's own), in the game's
        record; a model without choices asks nothing."""
        return self.legal_choices(model, offers)


CLIENTS: Final[dict[str, GameClient]] = {
    "caribbean": GameClient(
        "caribbean", "spot", caribbean.HELP, caribbean.legal_choices, idle, caribbean.choices_text,
        caribbean.parse_line, caribbean.table_lines, caribbean.describe_event, caribbean.result_lines,
        caribbean.history_bets, caribbean.seat_nets, caribbean.bot_bets, caribbean.choose_decision),
    "sixcard": GameClient(
        "sixcard", "box", sixcard.HELP, sixcard.legal_choices, idle, sixcard.choices_text,
        sixcard.parse_line, sixcard.table_lines, sixcard.describe_event, sixcard.result_lines,
        sixcard.history_bets, sixcard.seat_nets, sixcard.bot_bets, sixcard.choose_decision),
}
HCF: Final = GameClient(
    "hcf", "seat", hcf.HELP, hcf.legal_choices, idle, hcf.choices_text, hcf.parse_moves, hcf.table_lines,
    hcf.describe_event, hcf.result_lines, hcf.history_bets, hcf.seat_nets, hcf.bot_bets, hcf.bot_decision)


def game_of(record: Mapping[str, Any]) -> str:
    """The game of a snapshot, a hand record or a reveal (``hcf`` when it does not say)."""
    name = record.get("game") or (record.get("hand") or {}).get("game")
    return str(name) if name else "hcf"


def client_for(record: Mapping[str, Any]) -> GameClient | None:
    """The game client of a house-banked game's snapshot or record; None for High Card Flush."""
    return CLIENTS.get(game_of(record))


GENERIC: Final = GameClient(
    "unknown", "place", generic.HELP, generic.legal_choices, idle, generic.choices_text, generic.parse_line,
    generic.table_lines, generic.describe_event, generic.result_lines, generic.history_bets, generic.seat_nets,
    generic.bot_bets, generic.bot_decision)
"""A game this client does not know: its moves from the server's choices, its fields shown plainly."""


def known(record: Mapping[str, Any]) -> bool:
    """Whether this client knows the game of ``record`` (a snapshot, a hand record, a reveal)."""
    game = game_of(record)
    return game == "hcf" or game in CLIENTS


def game_client(record: Mapping[str, Any]) -> GameClient:
    """The game client of any table's snapshot: High Card Flush, a house game, or the generic one."""
    game = game_of(record)
    if game == "hcf":
        return HCF
    return CLIENTS.get(game) or replace(GENERIC, name=game)


__all__ = ["CLIENTS", "GENERIC", "HCF", "HOUSE_GAMES", "GameClient", "Move", "client_for", "game_client", "game_of",
           "known"]
