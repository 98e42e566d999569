"""A High Card Flush bot's decisions: pure, each by its strategy, always within the limits and the stack.

(The house games' bots choose through :mod:`client_cli.games`.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from client_cli.parse import player_fee
from server.rules.cards import parse_cards
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.strategy import basic_raise, should_accept_bank

RANDOM_DECLINE: Final = 0.1
"""The random bot declines the bank at most one time in ten."""


def choose_bank(strategy: str, rng: random.Random) -> bool | None:
    """Accept (True), decline (False) or say nothing (None) when the bank is offered."""
    if strategy == "stubborn":
        return None
    if strategy == "random":
        return rng.random() >= RANDOM_DECLINE
    return should_accept_bank()


def choose_bets(strategy: str, settings: Mapping[str, Any], stack: int, rng: random.Random,
                ante: int | None = None) -> dict[str, int] | None:
    """The bets to place (None: pass), always within the limits and the stack.

    >>> choose_bets("basic", {"min_ante": 5, "max_ante": 500, "fee_mode": "players", "fee": 1}, 1000,
    ...             random.Random(1))
    {'ante': 5, 'straight_flush_bonus': 0, 'flush_bonus': 0}
    >>> choose_bets("basic", {"min_ante": 5, "max_ante": 500, "fee_mode": "players", "fee": 1}, 10,
    ...             random.Random(1)) is None
    True
    """
    if strategy == "stubborn":
        return None
    fee = player_fee(settings)
    min_ante, max_ante = int(settings["min_ante"]), int(settings["max_ante"])
    top = min(max_ante, (stack - fee) // 2)
    if top < min_ante:
        return None
    if strategy == "basic":
        chosen = min(max(ante or min_ante, min_ante), top)
        return {"ante": chosen, "straight_flush_bonus": 0, "flush_bonus": 0}
    chosen = rng.randint(min_ante, max(min_ante, min(top, stack // 20)))
    bets = {"ante": chosen, "straight_flush_bonus": 0, "flush_bonus": 0}
    min_bonus, max_bonus = int(settings.get("min_bonus", 1)), int(settings.get("max_bonus", 0))
    for key in ("straight_flush_bonus", "flush_bonus"):
        room = stack - fee - 2 * chosen - bets["straight_flush_bonus"] - bets["flush_bonus"]
        if rng.random() < 0.5 and min(max_bonus, room) >= min_bonus:
            bets[key] = rng.randint(min_bonus, min(max_bonus, room))
    return bets


def choose_raise(strategy: str, cards: list[str], ante: int, stack: int, rng: random.Random) -> int | None:
    """Chips to raise (0 folds; None: say nothing), within the flush's limit and the stack.

    >>> choose_raise("basic", ["Ah", "Kh", "Qh", "Jh", "2c", "3d", "4s"], 10, 1000, random.Random(1))
    10
    >>> choose_raise("basic", ["9h", "8h", "7h", "6c", "5c", "4d", "3s"], 10, 1000, random.Random(1))
    0
    """
    if strategy == "stubborn":
        return None
    hand = evaluate(parse_cards(cards))
    top = min(hand.raise_limit * ante, stack)
    if top < ante:
        return 0
    if strategy == "basic":
        wanted = basic_raise(hand, ante)
        return min(wanted, top) if wanted else 0
    if rng.random() < 0.3:
        return 0
    return rng.randint(ante, top)
