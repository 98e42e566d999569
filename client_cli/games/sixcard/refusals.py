"""6 Card Poker's words for moves the server's choices do not hold; the judge is :func:`client_cli.offers.misfit`.

Pure. The parser maps ``BOX:ANTE[+BONUS]`` onto the ``bet`` move's list, and ``x 1 3``
onto the exchange's positions; whether the server offers them now is the judge's to say,
and these sentences say why in the table's terms (the boxes, the Ante and the bonus bet,
the Ante ratio, what the stack must cover, the cards an exchange replaces).

>>> from client_cli.offers import Misfit
>>> c = Choices(kind="bets", stack=1000, min_ante=5, ante_ratio=5)
>>> bets_refusal(Misfit(arg="bets", spec=[0, {"min": 5, "max": 250}], part="ante", entry={"box": 1, "ante": 4}),
...              c, [(1, 4, 0)])
'box 1: the Ante is 5 or more chips, got 4'
>>> bets_refusal(Misfit(arg="limits", spec={"ante_ratio": 5}), c, [(1, 10, 0), (3, 51, 0)])
'your largest Ante (51) may be at most 5x your smallest (10)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from client_cli.games.house import hold_problem
from client_cli.games.sixcard.choices import MAX_BOXES, BoxBet, Choices
from client_cli.offers import Misfit, span_of, spec_text
from server.i18n import _


def bets_refusal(misfit: Misfit, c: Choices, bets: Sequence[BoxBet]) -> str | None:
    """Why the server does not offer ``bets`` now (None: the judge's own sentence says it)."""
    if misfit.not_offered:
        return _("your stack of {stack} cannot cover the smallest bet: pass", stack=c.stack)
    if misfit.arg is None:
        return _("your stack of {stack} must cover every Bet and draw fee these boxes may take: {needed} chips (4x "
                 "the Ante of an open box, 3x of a blind one, plus the bonuses)", stack=c.stack, needed=misfit.needed)
    if misfit.arg == "limits":
        limits = misfit.spec if isinstance(misfit.spec, Mapping) else {}
        return _together(bets, int(limits.get("ante_ratio", c.ante_ratio)))
    entry = misfit.entry or {}
    if misfit.part in ("ante", "bonus"):
        return _amount(misfit, c, str(misfit.part), entry.get("box"), int(entry.get(misfit.part, 0)))
    if misfit.part == "count":
        span = span_of(misfit.spec)
        table = hold_problem(len(bets), c.hold, MAX_BOXES, c.waiting, "box")
        if span is not None and table is not None and span[1] >= min(c.hold, MAX_BOXES):
            return table
        return None if span is None else _("your stack of {stack} covers at most {count} boxes here", stack=c.stack,
                                           count=span[1])
    return None


def _together(bets: Sequence[BoxBet], ratio: int) -> str | None:
    """The limits the boxes keep together, other than the cover: each has a bet, and the Ante ratio (the
    server's, for this hand)."""
    empty = next((box for box, ante, bonus in bets if not ante and not bonus), None)
    if empty is not None:
        return _("box {box}: a box needs an Ante, a bonus bet or both", box=empty)
    antes = [ante for _, ante, _ in bets if ante]
    if antes and max(antes) > ratio * min(antes):
        return _("your largest Ante ({largest}) may be at most {ratio}x your smallest ({smallest})",
                 largest=max(antes), ratio=ratio, smallest=min(antes))
    return None


def _amount(misfit: Misfit, c: Choices, part: str, box: object, amount: int) -> str:
    """An Ante or a bonus bet outside its span: the table's limits first, within them the stack's."""
    low, high = (c.min_ante, c.top_ante) if part == "ante" else (c.min_bonus, c.max_bonus)
    span = span_of(misfit.spec)
    if (amount < low or (high is not None and amount > high)) or span is None:
        if high is None:
            return (_("box {box}: the Ante is {low} or more chips, got {amount}", box=box, low=low, amount=amount)
                    if part == "ante" else _("box {box}: the bonus bet is {low} or more chips, got {amount}", box=box,
                                             low=low, amount=amount))
    else:
        low, high = max(span[0], low), span[1]
    return (_("box {box}: the Ante is {low} to {high} chips, got {amount}", box=box, low=low, high=high, amount=amount)
            if part == "ante" else _("box {box}: the bonus bet is {low} to {high} chips, got {amount}", box=box,
                                     low=low, high=high, amount=amount))


def exchange_refusal(misfit: Misfit, positions: Sequence[int]) -> str | None:
    """Why the server does not offer an exchange of the cards at ``positions`` now (None: the judge says it)."""
    if misfit.part == "count":
        return _("an exchange replaces {count} cards, not {asked}", count=spec_text(misfit.spec), asked=len(positions))
    if misfit.part == "distinct":
        return _("name each position once")
    span = span_of(misfit.spec)
    if misfit.part == "each" and span is not None:
        return _("positions are {low} to {high}, got {asked}", low=span[0], high=span[1],
                 asked=" ".join(map(str, positions)))
    return None
