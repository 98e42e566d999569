"""Playing strategies for bots and the simulator: whether to Play (place the Back Bet) or Fold.

Each takes the hand's value (:func:`server.rules.poker.rank5`). ``ak`` plays what would
qualify as the dealer's hand, any A-K high or better; ``pair`` plays a pair or better.
``basic`` is ``ak``.

>>> from server.rules.cards import parse_cards
>>> from server.rules.poker import rank5
>>> [(play_ak(rank5(parse_cards(h))), play_pair(rank5(parse_cards(h))))
...  for h in ("Ac Kd 4h 3s 2c", "Ac Qd Jh Ts 9c", "2c 2d 5h 7s 9c")]
[(True, False), (False, False), (True, True)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final

from server.rules.poker import PAIR, kind_of, qualifies_ak

Strategy = Callable[[int], bool]


def play_ak(value: int) -> bool:
    """Play any A-K high or better (the dealer's qualifier), fold the rest."""
    return qualifies_ak(value)


def play_pair(value: int) -> bool:
    """Play any pair or better, fold every high card."""
    return kind_of(value) >= PAIR


STRATEGIES: Final[Mapping[str, Strategy]] = MappingProxyType({"ak": play_ak, "basic": play_ak, "pair": play_pair})
"""Strategy name -> decision; ``basic`` is ``ak``."""
