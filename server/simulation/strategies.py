"""The playing strategies ``simulate --strategy`` knows, by name.

A strategy is a rules-side function ``(hand, ante) -> chips raised`` (0 folds), so
the reference engine, the bots and the simulator all play the very same rule. The
vectorized engine tabulates it over every possible flush, which is exact for a
strategy that decides from the hand's flush alone, as every strategy here does; one
that looks at more of the hand needs its own vectorized rule.

>>> sorted(STRATEGIES)
['basic']
>>> strategy_named("basic").decide is basic_raise
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from server.rules.hcf.evaluate import HcfHand
from server.rules.hcf.strategy import basic_raise


@dataclass(frozen=True, slots=True)
class Strategy:
    """A named way of playing the decision."""

    name: str
    summary: str
    decide: Callable[[HcfHand, int], int]


STRATEGIES: Final[dict[str, Strategy]] = {}


def register(strategy: Strategy) -> Strategy:
    """Make ``strategy`` available to ``--strategy``."""
    if strategy.name in STRATEGIES:
        raise ValueError(f"a strategy named {strategy.name!r} is already registered")
    STRATEGIES[strategy.name] = strategy
    return strategy


def strategy_named(name: str) -> Strategy:
    """The registered strategy of that name."""
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ValueError(f"unknown strategy {name!r} (known: {', '.join(sorted(STRATEGIES))})") from None


register(Strategy(
    "basic",
    "raise the most with 4+ cards of a suit, 1x with a 3-card flush of T-8-6 or better, else fold",
    basic_raise,
))
