"""A hand's answer key: the steps that arise, in order, each with its right answer.

The key is read off the hand as the table runs it: the state before each event,
the event, the state after, all from the game's own rules core (offers, fee
postings, the deal, the settlement). Each game has a reader of its events
(``hcf_key``, ``caribbean_key``, ``sixcard_key``); this module walks a hand's events
through it and puts the injected irregularity's step right after the deal. A live
table asks :func:`event_steps` event by event; the offline runner asks
:func:`hand_key` for a whole hand.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, Protocol

from server.i18n import joined
from server.rules.drill import caribbean_key, hcf_key, sixcard_key
from server.rules.drill.explain import WHY
from server.rules.drill.irregularity import Irregularity, ruling
from server.rules.drill.payout import with_payouts
from server.rules.drill.steps import PAID_WITH_CHIPS, SETTLE_PLACE, KeyStep, key_step
from server.rules.drill.teach import order_reason, payout_reason


class KeyReader(Protocol):
    """What a game tells the drill about its hands."""

    def event_steps(self, before: Any, event: Any, after: Any) -> list[KeyStep]:
        """The steps ``event`` brings, given the state before and after it."""
        ...

    def dealt(self, event: Any) -> bool:
        """Whether ``event`` is the deal (an irregularity is asked right after it)."""
        ...

    def dealer(self, state: Any) -> int | None:
        """The DP's seat (None where the house deals)."""
        ...


READERS: Final[Mapping[str, KeyReader]] = {"hcf": hcf_key, "caribbean": caribbean_key, "sixcard": sixcard_key}


def event_steps(game: str, before: Any, event: Any, after: Any, chips: Sequence[int] = ()) -> list[KeyStep]:
    """The steps one event of a ``game`` hand brings (no irregularity: see :func:`irregularity_step`).

    At the settlement, a ``payout`` for each bet paid follows its place's settlement step, with the fewest
    of ``chips`` (the chips in play; none: the amount alone).
    """
    steps = READERS[game].event_steps(before, event, after)
    if getattr(event, "type", "") != "hand_settled":
        return steps
    shown = {int(place): tuple(cards) for place, cards in getattr(event, "shown", ())}
    return with_payouts(game, _with_order(game, steps), event.settlement, chips,
                        lambda result, bet, amount: payout_reason(game, before, result, bet, amount, shown))


def _with_order(game: str, steps: list[KeyStep]) -> list[KeyStep]:
    """Each settlement step's reason opened with this hand's settlement order (what an ``order`` mistake missed)."""
    settling = [s for s in steps if s.step in SETTLE_PLACE]
    order = order_reason(game, [int(s.answer[SETTLE_PLACE[s.step]]) for s in settling])
    return [replace(s, why=joined([order, s.why or WHY.get(s.step, "")], "; ")) if s.step in SETTLE_PLACE else s
            for s in steps]


def irregularity_step(game: str, state: Any, irregularity: Irregularity) -> KeyStep:
    """The ruling step of an irregularity injected into ``state`` (just after the deal)."""
    return key_step(game, "irregularity", ruling(irregularity, dealer=READERS[game].dealer(state)))


def hand_key(
    game: str,
    initial: Any,
    events: Iterable[Any],
    evolve: Callable[[Any, Any], Any],
    *,
    irregularity: Irregularity | None = None,
    asked: Collection[str] | None = None,
    chips: Sequence[int] = (),
) -> tuple[KeyStep, ...]:
    """Every step of one hand, from its first state and all its events (opening events included).

    ``asked`` keeps only those step kinds (None: all, the payouts only with ``chips``, the chips in play).
    The irregularity's step comes right after the deal, before the events its ruling caused.
    """
    reader = READERS[game]
    steps: list[KeyStep] = []
    state = initial
    for event in events:
        after = evolve(state, event)
        steps += event_steps(game, state, event, after, chips)
        if irregularity is not None and reader.dealt(event):
            steps.append(irregularity_step(game, after, irregularity))
        state = after
    if asked is None:  # every step of the table: the payouts only with chips in play, as a drill's defaults
        return tuple(s for s in steps if chips or s.step not in PAID_WITH_CHIPS)
    return tuple(s for s in steps if s.step in asked)
