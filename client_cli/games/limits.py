"""What is asked now and its limits, as the server's choices give them, for each game's record of what may be typed.

Pure. What is asked of a player (the bank, bets, a turn, the dealer exchange) is the
kind of the hand moves the server offers (:func:`client_cli.offers.kind_of`); the limits are the server's
too: the Ante's span, the places free to bet on and how many one may hold, the largest
raise. A game reads only words from the hand view (whose turn it is and its cards,
the bets down, the bonuses a fold gives up), never what may be done.

>>> from client_cli.offers import read_offers
>>> offered_limits(read_offers({"choices": {"moves": [{"request": "move", "action": "bet",
...     "bets": {"count": {"min": 1, "max": 2}, "each": {"spot": [1, 3], "ante": {"min": 5, "max": 40}}}}]}}), "spot")
OfferedLimits(ante=(5, 40), free=(1, 3), hold=2, raise_max=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from client_cli.offers import Offers, span_of


@dataclass(frozen=True, slots=True, kw_only=True)
class OfferedLimits:
    """What the server's choices say of the bets and the raise now (None: they do not say)."""

    ante: tuple[int, int] | None = None
    free: tuple[int, ...] | None = None
    hold: int | None = None
    raise_max: int | None = None


def offered_limits(offers: Offers, place: str) -> OfferedLimits:
    """The limits in ``offers``; ``place`` names what a bet is on (``spot``, ``box``; High Card Flush: its seat)."""
    bet = offers.first("move", "bet")
    bets = bet.limits.get("bets") if bet is not None else None
    each = bets.get("each") if isinstance(bets, Mapping) else None
    ante = span_of((each or bet.limits).get("ante")) if bet is not None else None
    free = tuple(int(p) for p in each[place]) if isinstance(each, Mapping) and isinstance(each.get(place), list) \
        else None
    count = span_of(bets.get("count")) if isinstance(bets, Mapping) else None
    amount = offers.first("move", "raise")
    raised = span_of(amount.limits.get("amount")) if amount is not None else None
    return OfferedLimits(ante=ante, free=free, hold=count[1] if count is not None else None,
                         raise_max=raised[1] if raised is not None else None)

