"""The Caribbean Stud bots' choices: bets, and play or fold on a spot's five cards.

Pure: the choices of the moment and a seeded ``random.Random`` in, bets or a
decision out, always within the table's limits and the stack.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from client_cli.games.caribbean.choices import PLAY_MULTIPLE, Choices
from client_cli.games.caribbean.parse import bets_offered, bets_payload
from client_cli.games.house import Move, basic_bet, random_places
from server.rules.cards import parse_cards
from server.rules.caribbean.messages import SpotBet
from server.rules.caribbean.strategy import STRATEGIES
from server.rules.poker import rank5


def choose_bets(strategy: str, choices: Choices, rng: random.Random, ante: int | None = None,
                prefer: int | None = None) -> list[SpotBet] | None:
    """The bets a bot places (None: none this hand), always within the limits and the stack.

    ``basic``: one spot (``prefer`` if free, else the first free), the Ante ``ante`` or
    the table's smallest, the jackpot wager on. ``random``: 1 to ``max_hands`` random
    free spots (no more than the table lets one player hold while others still wait
    for one: ``choices.hold``) with random Antes and random jackpot wagers.

    >>> c = Choices(kind="bets", stack=1000, spots=7, free=(1, 2, 3), max_hands=3, min_ante=5, max_ante=500,
    ...             wager=1)
    >>> choose_bets("basic", c, random.Random(1), prefer=2)
    [SpotBet(spot=2, ante=5, jackpot=True)]
    """
    if strategy == "stubborn" or choices.kind != "bets" or not choices.free or choices.top_ante < choices.min_ante:
        return None
    if strategy == "basic":
        spot, chosen = basic_bet(choices.free, prefer, ante, choices.min_ante, choices.top_ante)
        jackpot = choices.wager > 0 and bets_offered([SpotBet(spot, chosen, True)], choices)
        return [SpotBet(spot, chosen, jackpot)]
    spots = random_places(choices.free, choices.hold, rng)
    room = choices.stack
    bets = []
    for spot in spots:
        jackpot = choices.wager > 0 and rng.random() < 0.5
        top = min(choices.top_ante, (room - (choices.wager if jackpot else 0)) // PLAY_MULTIPLE,
                  max(choices.min_ante, choices.stack // 20))
        if top < choices.min_ante:
            break
        chosen = rng.randint(choices.min_ante, top)
        room -= PLAY_MULTIPLE * chosen + (choices.wager if jackpot else 0)
        bets.append(SpotBet(spot, chosen, jackpot))
    while bets and not bets_offered(bets, choices):
        bets.pop()
    return bets or None


def choose_play(strategy: str, cards: Sequence[str], rng: random.Random) -> bool | None:
    """Play (True), fold (False) or say nothing (None) on a spot's five cards.

    >>> choose_play("basic", ["Ac", "Kd", "4h", "3s", "2c"], random.Random(1)), \\
    ...     choose_play("basic", ["Ac", "Qd", "Jh", "Ts", "9c"], random.Random(1))
    (True, False)
    """
    if strategy == "stubborn":
        return None
    if strategy == "basic":
        return STRATEGIES["basic"](rank5(parse_cards(list(cards))))
    return rng.random() < 0.6


def bot_bets(strategy: str, choices: Choices, rng: random.Random, ante: int | None = None,
             prefer: int | None = None) -> list[dict[str, Any]] | None:
    """:func:`choose_bets` as the ``bet`` move carries them."""
    spots = choose_bets(strategy, choices, rng, ante, prefer)
    return bets_payload(spots) if spots else None


def choose_decision(strategy: str, choices: Choices, rng: random.Random) -> Move | None:
    """The bot's move on its spot in turn: play or fold (None: say nothing, or no cards to go by).

    >>> choose_decision("basic", Choices(kind="decision", spot=2, cards=("Ac", "Kd", "4h", "3s", "2c")),
    ...                 random.Random(1))
    Move(action='play', args={'spot': 2}, note=None)
    """
    play = choose_play(strategy, choices.cards, rng) if choices.cards else None
    return None if play is None else Move("play" if play else "fold", {"spot": choices.spot})
