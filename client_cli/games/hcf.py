"""High Card Flush behind the same record as the house-banked games, so the play loop has one path.

Pure. The typed commands of :mod:`client_cli.parse` become ``move`` requests
(protocol v2: bank, bet, pass, raise, fold all go as ``move``); the table is
:mod:`client_cli.render`'s seat lines and the player's own cards.

>>> parse_moves("bet 10 sf 5", legal_choices({"settings": {"min_ante": 5, "max_ante": 500, "max_bonus": 100},
...     "you": {"seat": 2}, "seats": [{"seat": 2, "stack": 100}],
...     "hand": {"phase": "betting", "bettors": [2], "seats": {"2": {}}},
...     "choices": {"moves": [{"request": "move", "action": "bet", "ante": {"min": 5, "max": 49},
...                            "straight_flush_bonus": {"min": 0, "max": 89}, "flush_bonus": {"min": 0, "max": 89}}]}}))
Move(action='bet', args={'ante': 10, 'straight_flush_bonus': 5, 'flush_bonus': 0}, note=None)
>>> parse_moves("y", Choices(kind="bank"))
Move(action='bank', args={'accept': True}, note=None)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rich.text import Text

from client_cli.event_words import describe_event
from client_cli.games.house import Move, Names, idle
from client_cli.parse import (
    HELP,
    AnswerBank,
    Choices,
    Command,
    Fold,
    InputError,
    PassBets,
    PlaceBets,
    Raise,
    choices_text,
    legal_choices,
    my_seat,
    parse_line,
)
from client_cli.render import result_lines, seat_lines, your_cards_lines


def as_move(command: Command) -> Command | Move:
    """A hand command as the ``move`` it is sent as (table commands stay as they are).

    >>> as_move(Raise(20)), as_move(PassBets()).action
    (Move(action='raise', args={'amount': 20}, note=None), 'pass')
    """
    if isinstance(command, AnswerBank):
        return Move("bank", {"accept": command.accept})
    if isinstance(command, PlaceBets):
        return Move("bet", {"ante": command.ante, "straight_flush_bonus": command.straight_flush_bonus,
                            "flush_bonus": command.flush_bonus})
    if isinstance(command, PassBets):
        return Move("pass")
    if isinstance(command, Fold):
        return Move("fold")
    if isinstance(command, Raise):
        return Move("raise", {"amount": command.amount})
    return command


def parse_moves(line: str, choices: Choices) -> Command | Move | InputError:
    """One typed line -> a legal move or table command, or why not."""
    result = parse_line(line, choices)
    return result if isinstance(result, InputError) else as_move(result)


def table_lines(snapshot: Mapping[str, Any], *, symbols: bool = True) -> list[Text]:
    """The seats, then this player's cards while the hand is played."""
    lines = seat_lines(snapshot)
    hand = snapshot.get("hand") or {}
    cards = hand.get("your_cards")
    you = my_seat(snapshot)
    if cards and hand.get("phase") not in ("settled", "void", "not_dealt", None):
        ante = int(((hand.get("seats") or {}).get(str(you)) or {}).get("ante", 0))
        lines.extend(your_cards_lines(cards, ante, symbols=symbols, dealer=hand.get("dealer") == you))
    return lines


def history_bets(_hand: Mapping[str, Any], _names: Names) -> list[Text]:
    """High Card Flush's history shows its bets itself (:mod:`client_cli.history`)."""
    return []


def seat_nets(hand: Mapping[str, Any]) -> dict[int, int]:
    """Each seat's net in a settled hand."""
    settlement = hand.get("settlement") or {}
    return {int(r["seat"]): int(r.get("net", 0)) for r in settlement.get("seats") or []}


def bot_bets(_strategy: str, _choices: Any, _rng: random.Random, _ante: int | None = None,
             _prefer: int | None = None) -> list[dict[str, Any]] | None:
    """Unused: High Card Flush's bots bet through :func:`client_cli.bots.choose_bets`."""
    return None


def bot_decision(_strategy: str, _choices: Any, _rng: random.Random) -> Move | None:
    """Unused: High Card Flush's bots raise through :func:`client_cli.bots.choose_raise`."""
    return None


__all__ = ["HELP", "as_move", "choices_text", "describe_event", "history_bets", "idle", "legal_choices",
           "parse_moves", "result_lines", "seat_nets", "table_lines"]
