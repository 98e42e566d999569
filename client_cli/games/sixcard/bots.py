"""The 6 Card Poker bots' choices: bets, the move on a box in turn, the dealer exchange.

Pure: the choices of the moment and a seeded ``random.Random`` in, bets or moves
out, always within the limits, the ratio rule and the stack (:func:`bets_offered`: the server's choices).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from client_cli.games.house import Move, basic_bet, random_places
from client_cli.games.sixcard.choices import BoxBet, Choices
from client_cli.games.sixcard.parse import bets_offered, bets_payload
from server.rules.cards import parse_cards
from server.rules.poker import best_five
from server.rules.sixcard.settlement import EXCHANGE_SIZES, HAND_SIZE
from server.rules.sixcard.strategy import STRATEGIES


def choose_bets(strategy: str, choices: Choices, rng: random.Random, ante: int | None = None,
                prefer: int | None = None) -> list[BoxBet] | None:
    """The bets a bot places (None: none this hand), always within the limits, the ratio rule and the stack.

    ``basic``: one box (``prefer`` if free, else the first free), the Ante ``ante`` or the
    table's smallest, no bonus. ``random``: 1 to 4 random free boxes (no more than the
    table lets one player hold while others still wait for one: ``choices.hold``), random Antes within
    the ratio, random bonus bets, now and then a bonus-only box.

    >>> c = Choices(kind="bets", stack=1000, boxes=4, free=(1, 2, 3, 4), min_ante=5, ante_ratio=5, min_bonus=1)
    >>> choose_bets("basic", c, random.Random(1), prefer=3)
    [(3, 5, 0)]
    """
    if strategy == "stubborn" or choices.kind != "bets" or not choices.free:
        return None
    c = choices
    top = c.top_ante if c.top_ante is not None else 10**9
    if strategy == "basic":
        bets = [(*basic_bet(c.free, prefer, ante, c.min_ante, top), 0)]
        return bets if bets_offered(bets, c) else None
    boxes = random_places(c.free, c.hold, rng)
    low = rng.randint(c.min_ante, max(c.min_ante, min(top, c.stack // 40)))
    bets = []
    for box in boxes:
        bonus = rng.randint(c.min_bonus, min(c.max_bonus or 5, 5)) if rng.random() < 0.4 else 0
        if bonus and rng.random() < 0.2:
            bets.append((box, 0, bonus))
        else:
            bets.append((box, rng.randint(low, min(top, low * c.ante_ratio, low * 2)), bonus))
    while bets and not bets_offered(bets, c):
        bets.pop()
    return bets or None


def bot_bets(strategy: str, choices: Choices, rng: random.Random, ante: int | None = None,
             prefer: int | None = None) -> list[dict[str, Any]] | None:
    """:func:`choose_bets` as the ``bet`` move carries them."""
    boxes = choose_bets(strategy, choices, rng, ante, prefer)
    return [dict(b) for b in bets_payload(boxes)] if boxes else None


def _value(cards: Sequence[str]) -> int:
    return best_five(parse_cards(list(cards)))[0]


def choose_decision(strategy: str, choices: Choices, rng: random.Random) -> Move | None:
    """The bot's move on its box in turn: raise, fold, buy or exchange (None: say nothing).

    ``basic`` raises any pair or better, folds the rest and never draws.

    >>> c = Choices(kind="decision", box=1, ante=10, cards=("2c", "2d", "7h", "8s", "9c"))
    >>> choose_decision("basic", c, random.Random(1))
    Move(action='raise', args={'box': 1}, note=None)
    """
    if strategy == "stubborn" or choices.kind != "decision" or not choices.cards:
        return None
    at = {"box": choices.box}
    if strategy == "basic":
        return Move("raise" if STRATEGIES["basic"].raises(_value(choices.cards)) else "fold", at)
    if not choices.drawn and rng.random() < 0.4:
        if rng.random() < 0.5:
            return Move("buy", at)
        size = rng.choice(EXCHANGE_SIZES)
        return Move("exchange", {**at, "discard": sorted(rng.sample(range(1, HAND_SIZE + 1), size))})
    return Move("raise" if rng.random() < 0.7 else "fold", at)


def choose_asks(strategy: str, choices: Choices, rng: random.Random) -> list[Move]:
    """The bot's dealer-exchange moves: its requests (a random bot may toggle one), then continue.

    ``basic`` asks for every box holding three of a kind or better.
    """
    if strategy == "stubborn" or choices.kind != "exchange" or choices.continued:
        return []
    moves: list[Move] = []
    for ask in choices.asks:
        if strategy == "basic":
            wanted = bool(ask.cards) and STRATEGIES["basic"].exchanges(_value(ask.cards))
        else:
            wanted = rng.random() < 0.5
            if not ask.requested and rng.random() < 0.2:
                moves += [Move("request_exchange", {"box": ask.box}), Move("cancel_exchange", {"box": ask.box})]
        if wanted and not ask.requested:
            moves.append(Move("request_exchange", {"box": ask.box}))
        elif ask.requested and not wanted:
            moves.append(Move("cancel_exchange", {"box": ask.box}))
    return [*moves, Move("continue")]
