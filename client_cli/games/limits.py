"""The limits of the moment as the server's choices give them, for each game's record of what may be typed.

Pure. A game reads its own record from the table model (the words it shows: whose turn, the
stack, the bonuses a fold gives up); the limits it accepts are the server's: the Ante's span, the
places free to bet on and how many one may hold, the largest raise. Each game puts these in its
record by name (``with_offers`` in :mod:`client_cli.games`); nothing is narrowed by reflection.

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
