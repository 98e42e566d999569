"""Judging one answer against the key (DRILLS sections 3 and 9).

An answer is right when it equals the key's answer as JSON (key order and
spacing aside). A settlement step judges the place first: the wrong seat, spot
or box is an ``order`` mistake; the right one with a wrong amount an ``amount``
mistake naming each wrong bet. No answer is ``no answer``; anything else ``wrong``.

>>> judge("settle_seat", {"seat": 4, "ante": 5}, {"seat": 4, "ante": 10})
Judgement(right=False, mistake='amount', wrong_bets=('ante',))
>>> judge("settle_seat", {"seat": 2, "ante": 10}, {"seat": 4, "ante": 10}).mistake
'order'
>>> judge("qualify", {"qualifies": 1}, {"qualifies": True}).mistake   # true is not 1 in JSON
'wrong'
>>> judge("fees", None, {"fees": {"3": 1}}).mistake
'no answer'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final, Literal

from server.rules.drill.steps import JSON, SETTLE_PLACE

Mistake = Literal["order", "amount", "no answer", "wrong"]
MISTAKES: Final = ("order", "amount", "no answer", "wrong")


@dataclass(frozen=True, slots=True)
class Judgement:
    """Right or not; the kind of mistake; for an ``amount`` mistake, the bets that were wrong."""

    right: bool
    mistake: Mistake | None = None
    wrong_bets: tuple[str, ...] = ()


RIGHT: Final = Judgement(True)


def same(given: Any, right: Any) -> bool:
    """Equal as JSON: key order aside, and ``true`` is not ``1`` nor ``1.0`` is ``1``."""
    try:
        return json.dumps(given, sort_keys=True) == json.dumps(right, sort_keys=True)
    except (TypeError, ValueError):
        return False


def judge(step: str, given: Any, right: JSON) -> Judgement:
    """Judge the answer ``given`` (None: no answer) to a ``step`` whose right answer is ``right``."""
    if given is None:
        return Judgement(False, "no answer")
    if same(given, right):
        return RIGHT
    place = SETTLE_PLACE.get(step)
    if place is None or not isinstance(given, dict):
        return Judgement(False, "wrong")
    if not same(given.get(place), right.get(place)):
        return Judgement(False, "order")
    names = sorted((set(given) | set(right)) - {place})
    return Judgement(False, "amount", tuple(n for n in names if not same(given.get(n), right.get(n))))
