"""Judging one answer against the key (DRILLS sections 3 and 9).

An answer is right when it equals the key's answer as JSON (key order and
spacing aside). A settlement step judges the place first: the wrong seat, spot
or box is an ``order`` mistake; the right one with a wrong amount an ``amount``
mistake naming each wrong bet. A payout judges the place and bet (``order``), the amount (``amount``),
then the chips: the right amount in a chip not in play, or in more chips than the fewest, is ``chips``.
No answer is ``no answer``; anything else ``wrong``.

>>> judge("settle_seat", {"seat": 4, "ante": 5}, {"seat": 4, "ante": 10})
Judgement(right=False, mistake='amount', wrong_bets=('ante',), not_in_play=())
>>> judge("settle_seat", {"seat": 2, "ante": 10}, {"seat": 4, "ante": 10}).mistake
'order'
>>> judge("qualify", {"qualifies": 1}, {"qualifies": True}).mistake   # true is not 1 in JSON
'wrong'
>>> judge("fees", None, {"fees": {"3": 1}}).mistake
'no answer'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from server.rules.drill.chips import chip_count, make_up_given
from server.rules.drill.steps import JSON, SETTLE_PLACE, KeyStep

Mistake = Literal["order", "amount", "chips", "no answer", "wrong"]
MISTAKES: Final = ("order", "amount", "chips", "no answer", "wrong")


@dataclass(frozen=True, slots=True)
class Judgement:
    """Right or not; the kind of mistake; for an ``amount`` mistake, the bets that were wrong; for a ``chips``
    one, the chips given that are not in play."""

    right: bool
    mistake: Mistake | None = None
    wrong_bets: tuple[str, ...] = ()
    not_in_play: tuple[int, ...] = ()


RIGHT: Final = Judgement(True)


def same(given: Any, right: Any) -> bool:
    """Equal as JSON: key order aside, and ``true`` is not ``1`` nor ``1.0`` is ``1``."""
    try:
        return json.dumps(given, sort_keys=True) == json.dumps(right, sort_keys=True)
    except (TypeError, ValueError):
        return False


def judge_step(step: KeyStep, given: Any) -> Judgement:
    """Judge the answer ``given`` (None: no answer) to a step of a key (a payout against its chips in play)."""
    return judge(step.step, given, step.answer, step.in_play)


def judge(step: str, given: Any, right: JSON, in_play: tuple[int, ...] = ()) -> Judgement:
    """Judge the answer ``given`` (None: no answer) to a ``step`` whose right answer is ``right`` (``in_play``: a
    payout's chips in play, :attr:`~server.rules.drill.steps.KeyStep.in_play`)."""
    if step == "payout":
        return judge_payout(given, right, in_play)
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


def judge_payout(given: Any, right: Mapping[str, Any], in_play: tuple[int, ...] = ()) -> Judgement:
    """A payout answer judged: the wrong place or bet is ``order``; a wrong amount (said, or made by the chips
    given) ``amount``; the right amount with a chip not in ``in_play`` (the table's chips, when given), in more
    chips than the fewest, or without the chips, ``chips``.

    Any make-up of the fewest chips in play is right, not only the key's.

    >>> right = {"seat": 3, "bet": "flush_bonus", "amount": 150, "chips": {"100": 1, "25": 2}}
    >>> judge_payout({"seat": 3, "bet": "flush_bonus", "amount": 150, "chips": [25, 25, 100]}, right).right
    True
    >>> judge_payout({"seat": 3, "bet": "flush_bonus", "amount": 150, "chips": {"25": 6}}, right).mistake
    'chips'
    >>> judge_payout({"seat": 3, "bet": "flush_bonus", "amount": 15, "chips": {"5": 3}}, right).mistake
    'amount'
    >>> judge_payout({"seat": 3, "bet": "ante", "amount": 150}, right).mistake
    'order'
    >>> judge_payout({"seat": 3, "bet": "flush_bonus", "amount": 150, "chips": {"150": 1}}, right, (1, 5, 25, 100))
    Judgement(right=False, mistake='chips', wrong_bets=('chips',), not_in_play=(150,))"""
    if given is None:
        return Judgement(False, "no answer")
    if not isinstance(given, Mapping):
        return Judgement(False, "wrong")
    place = next(k for k in SETTLE_PLACE.values() if k in right)
    if not same(given.get(place), right[place]) or not same(given.get("bet"), right["bet"]):
        return Judgement(False, "order")
    make_up = make_up_given(given["chips"]) if given.get("chips") is not None else None
    amount = given.get("amount", sum(c * n for c, n in make_up.items()) if make_up is not None else None)
    if not same(amount, right["amount"]):
        return Judgement(False, "amount", ("amount",))
    if make_up is not None and sum(c * n for c, n in make_up.items()) != right["amount"]:
        return Judgement(False, "amount", ("chips",))
    stray = tuple(sorted(c for c in make_up or {} if c not in in_play)) if in_play else ()
    if stray:  # a chip the table does not have: as few as the fewest or not, no dealer can pay with it
        return Judgement(False, "chips", ("chips",), stray)
    if "chips" not in right:
        return RIGHT
    fewest = make_up_given(right["chips"])
    assert fewest is not None
    # Fewer chips than the fewest can only be made of chips not in play: as wrong as more.
    if make_up is None or chip_count(make_up) != chip_count(fewest):
        return Judgement(False, "chips", ("chips",))
    return RIGHT

