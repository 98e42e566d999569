"""The client's house-banked games, one package each, behind one small record the client dispatches on.

High Card Flush keeps its own modules (``parse.py``, ``render.py``); a snapshot's
``game`` names the game a table plays (absent: ``hcf``).

>>> game_of({"game": "sixcard"}), game_of({}), client_for({"game": "hcf"}) is None
('sixcard', 'hcf', True)
>>> client_for({"game": "caribbean"}).place
'spot'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from rich.text import Text

from client_cli.games import caribbean, sixcard
from client_cli.games.house import HOUSE_GAMES, Move, Names, idle


@dataclass(frozen=True, slots=True)
class GameClient:
    """Everything the play loop, the tracker, the bots and the history need of one game."""

    name: str
    place: str
    """What a player bets on: ``spot`` or ``box``."""
    help: str
    legal_choices: Callable[[Mapping[str, Any]], Any]
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


def game_of(record: Mapping[str, Any]) -> str:
    """The game of a snapshot, a hand record or a reveal (``hcf`` when it does not say)."""
    name = record.get("game") or (record.get("hand") or {}).get("game")
    return str(name) if name else "hcf"


def client_for(record: Mapping[str, Any]) -> GameClient | None:
    """The game client of a house-banked game's snapshot or record; None for High Card Flush."""
    return CLIENTS.get(game_of(record))


__all__ = ["CLIENTS", "HOUSE_GAMES", "GameClient", "Move", "client_for", "game_of"]
