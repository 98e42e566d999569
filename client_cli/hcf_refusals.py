"""High Card Flush's words for a move the server's choices do not hold; the judge is :func:`client_cli.offers.misfit`.

Pure. The parser only maps a typed line onto a move's args; whether the server offers them
now is the judge's to say, and these sentences say why in the table's terms (the Ante, the
bonuses, the flush's raise limit, the stack).

>>> from client_cli.offers import Misfit
>>> bet_refusal(Misfit(arg="ante", spec={"min": 5, "max": 49}), stack=100)
'the Ante is 5 to 49 chips here (your stack of 100 must also cover the smallest raise and the fee)'
>>> bet_refusal(Misfit(arg="flush_bonus", spec={"min": 0, "max": 100}), stack=100)
'the Flush bonus is 1 to 100 chips, or 0'
>>> raise_refusal(Misfit(arg="amount", spec={"min": 10, "max": 20}), 25, ante=10, raise_limit=2, stack=500)
'your flush allows a raise of up to 2x the Ante (20): a raise is 10 to 20 chips here'
"""

from __future__ import annotations

from typing import Final

from client_cli.offers import Misfit, span_of
from server.i18n import _, phrase, spoken

BONUSES: Final = {"straight_flush_bonus": phrase("Straight Flush bonus"), "flush_bonus": phrase("Flush bonus")}


def bet_refusal(misfit: Misfit, *, stack: int) -> str | None:
    """Why the server does not offer these bets now (None: the judge's own sentence says it)."""
    if misfit.not_offered:
        return _("your stack of {stack} cannot cover the smallest Ante: pass (p)", stack=stack)
    if misfit.arg is None:  # the stack's cover: it also keeps the fee, so what is missing is the fee's part
        total = misfit.needed + stack - misfit.cover
        return _("your stack of {stack} cannot cover the Ante, the bonuses, the smallest raise and the fee "
                 "({total} chips)", stack=stack, total=total)
    span = span_of(misfit.spec)
    if misfit.arg == "ante" and span is not None:
        return _("the Ante is {low} to {high} chips here (your stack of {stack} must also cover the smallest raise "
                 "and the fee)", low=span[0], high=span[1], stack=stack)
    if misfit.arg in BONUSES:
        label = spoken(BONUSES[misfit.arg])
        if span is None:
            return _("your stack leaves no room for a {bonus} here: it is 0", bonus=label)
        return _("the {bonus} is {low} to {high} chips, or 0", bonus=label, low=max(span[0], 1), high=span[1])
    return None


def raise_refusal(misfit: Misfit, amount: int, *, ante: int, raise_limit: int, stack: int) -> str | None:
    """Why the server does not offer a raise of ``amount`` now (None: the judge's own sentence says it)."""
    span = span_of(misfit.spec)
    if misfit.not_offered or span is None:
        return _("your stack cannot cover a raise: fold (f)")
    limits = raise_span_text(*span)
    if amount < span[0]:
        return _("a raise is at least the Ante ({ante}): {limits}", ante=span[0], limits=limits)
    if amount > ante * raise_limit:
        return _("your flush allows a raise of up to {times}x the Ante ({high}): {limits}", times=raise_limit,
                 high=ante * raise_limit, limits=limits)
    if amount > stack:
        return _("your stack has only {stack} chips: {limits}", stack=stack, limits=limits)
    return None  # a limit the table's words do not know (chips already committed): the judge names the span


def raise_span_text(low: int, high: int) -> str:
    """``a raise is 10 to 20 chips here``, or ``a raise is 10 chips here`` when there is one amount.

    >>> raise_span_text(10, 10)
    'a raise is 10 chips here'
    """
    return _("a raise is {low} chips here", low=low) if low == high \
        else _("a raise is {low} to {high} chips here", low=low, high=high)
