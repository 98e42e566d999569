"""The basic playing strategy, for bots and the simulator.

It is Charles Mousseau's rule, which looks only at the hand's best flush: raise
the most the flush allows with 4 cards or more, raise 1x with a 3-card flush of
T-8-6 or better (compared as flushes are, docs/rules/hcf.md section 1), fold the rest.

>>> from server.rules.cards import parse_cards
>>> from server.rules.hcf.evaluate import evaluate
>>> [basic_raise(evaluate(parse_cards(h)), 10) for h in (
...     "Jh 3h 2h 9c 7c 5d 4s",      # J-3-2: raises
...     "Th 8h 6h 9c 7c 5d 4s",      # T-8-6: raises
...     "Th 8h 5h 9c 7c 6d 4s",      # T-8-5: folds
...     "9h 6h 4h 2h Ac Kd Qs",      # any 4-card flush: 1x
...     "9h 6h 4h 3h 2h Kd Qs",      # 5 cards: 2x
...     "9h 7h 6h 4h 3h 2h Qs",      # 6 cards: 3x
... )]
[10, 10, 0, 10, 20, 30]
"""

from __future__ import annotations

from typing import Final

from server.rules.hcf.evaluate import HcfHand

RAISE_FROM_3_CARDS: Final = 3 << 13 | 1 << 8 | 1 << 6 | 1 << 4
"""The flush key of a 3-card T-8-6 (rank indexes 8, 6 and 4): the weakest 3-card flush raised."""


def basic_raise(hand: HcfHand, ante: int) -> int:
    """Chips to raise with ``hand`` on an Ante of ``ante`` chips; 0 means fold.

    >>> from server.rules.cards import parse_cards
    >>> from server.rules.hcf.evaluate import evaluate
    >>> basic_raise(evaluate(parse_cards("Ah Kh Qh Jc Tc 9d 8s")), 5)
    5
    >>> basic_raise(evaluate(parse_cards("9h 8h 7h 6c 5c 4d 3s")), 5)
    0
    """
    if hand.flush_size >= 4 or hand.flush_key >= RAISE_FROM_3_CARDS:
        return hand.raise_limit * ante
    return 0


def should_accept_bank() -> bool:
    """Whether a bot takes the bank when it is offered: always (the DP banks the players' edge).

    >>> should_accept_bank()
    True
    """
    return True


__all__ = ["RAISE_FROM_3_CARDS", "basic_raise", "should_accept_bank"]
