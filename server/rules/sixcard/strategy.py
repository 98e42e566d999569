"""Playing strategies for 6 Card Poker, for bots and the simulator.

``basic`` raises any pair or better and folds the rest, never buys or exchanges,
and asks for the dealer exchange with three of a kind or better. A value is a
:func:`server.rules.poker.rank5` value of the box's best five.

>>> from server.rules.cards import parse_cards
>>> from server.rules.poker import rank5
>>> [(basic_raise(v), basic_exchange(v)) for v in (rank5(parse_cards(h)) for h in (
...     "Ac Kd Qh Js 9c",      # high card: fold
...     "2c 2d 7h 8s 9c",      # a pair of twos: raise
...     "5c 5d 5h 8s 9c",      # three of a kind: raise and ask for the exchange
... ))]
[(False, False), (True, False), (True, True)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from server.rules.poker import PAIR, TRIPS, kind_of


def basic_raise(value: int) -> bool:
    """Raise (True) or fold: any pair or better raises, the hands a dealer would qualify with."""
    return kind_of(value) >= PAIR


def basic_exchange(value: int) -> bool:
    """Ask for the dealer exchange when he does not qualify: with three of a kind or better."""
    return kind_of(value) >= TRIPS


@dataclass(frozen=True, slots=True)
class Strategy:
    """A named way to play: whether to raise, and whether to ask for the dealer exchange (never draws)."""

    name: str
    raises: Callable[[int], bool]
    exchanges: Callable[[int], bool]


STRATEGIES: Final[Mapping[str, Strategy]] = MappingProxyType({
    "basic": Strategy("basic", basic_raise, basic_exchange),
})
"""Every strategy by name."""
