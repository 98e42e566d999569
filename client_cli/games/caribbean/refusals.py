"""Caribbean Stud's words for bets the server's choices do not hold; the judge is :func:`client_cli.offers.misfit`.

Pure. The parser maps ``SPOT:ANTE[j]`` onto the ``bet`` move's list; whether the server
offers those bets now is the judge's to say, and these sentences say why in the table's
terms (the spots, the Ante, the jackpot wager, the 3x the stack must cover).

>>> from client_cli.offers import Misfit
>>> c = Choices(kind="bets", stack=200, min_ante=5, max_ante=500, wager=1)
>>> bets_refusal(Misfit(arg="bets", spec={"min": 5, "max": 66}, part="ante", entry={"spot": 1, "ante": 600}), c, 1)
'spot 1: the Ante is 5 to 500 chips, got 600'
>>> bets_refusal(Misfit(arg="bets", spec={"min": 5, "max": 66}, part="ante", entry={"spot": 1, "ante": 70}), c, 1)
'spot 1: the Ante is 5 to 66 chips, got 70'
"""

from __future__ import annotations

from client_cli.games.caribbean.choices import Choices
from client_cli.games.house import hold_problem
from client_cli.offers import Misfit, span_of
from server.i18n import _


def bets_refusal(misfit: Misfit, c: Choices, count: int) -> str | None:
    """Why the server does not offer these ``count`` bets now (None: the judge's own sentence says it)."""
    if misfit.not_offered:
        return _("your stack of {stack} cannot cover 3x the smallest Ante ({ante}): pass", stack=c.stack,
                 ante=c.min_ante)
    if misfit.arg is None:
        return _("your stack of {stack} must cover 3x each Ante (Ante and Back Bet) plus the jackpot wagers: "
                 "{needed} chips", stack=c.stack, needed=misfit.needed)
    entry = misfit.entry or {}
    if misfit.part == "ante":
        ante, span = int(entry.get("ante", 0)), span_of(misfit.spec)
        # The largest the server offers now (the table's, as far as the stack covers it); within it, the span
        # of this misfit.
        low, high = (c.min_ante, c.top_ante) if not c.min_ante <= ante <= c.top_ante or span is None else span
        return _("spot {spot}: the Ante is {low} to {high} chips, got {ante}", spot=entry.get("spot"), low=low,
                 high=high, ante=ante)
    if misfit.part == "jackpot":
        if not c.wager:
            return _("this table offers no jackpot wager")
        return _("your stack of {stack} cannot cover the jackpot wager of {wager} as well as 3x the Ante",
                 stack=c.stack, wager=c.wager)
    if misfit.part == "count":
        return _count_refusal(misfit, c, count)
    return None


def _count_refusal(misfit: Misfit, c: Choices, count: int) -> str | None:
    """Too many spots: the table's limit (or the waiting players'), else what the stack covers."""
    span = span_of(misfit.spec)
    if span is None or count <= span[1]:
        return None
    table = hold_problem(count, c.hold, c.max_hands, c.waiting, "spot")
    if table is not None and span[1] >= min(c.hold, c.max_hands):
        return table
    return _("your stack of {stack} covers at most {count} spots here (3x the smallest Ante each)", stack=c.stack,
             count=span[1])
