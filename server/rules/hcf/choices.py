"""What a seat may do now in a High Card Flush hand: exactly the moves ``hand.decide`` accepts (docs/choices.md).

>>> from server.rules.hcf.hand import Player, new_hand
>>> from server.rules.hcf.settings import HcfSettings
>>> state = new_hand(HcfSettings(), [Player(1, 1000), Player(2, 61)], bytes(32), offer_from=1)
>>> choices(state, 1)
[{'request': 'move', 'action': 'bank', 'accept': [True, False]}]
>>> choices(state, 2)
[]
"""

from __future__ import annotations

from server.rules.choices import SEED_TEXT, move, optional, span
from server.rules.game import JSON
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.fees import largest_ante, player_fee
from server.rules.hcf.hand import TERMINAL, HandState

RAISE_COVER = 1
"""Bets are refused unless the stack also covers the smallest raise, one more Ante (section 3 step 2)."""


def choices(state: HandState, seat: int) -> list[JSON]:
    """The hand-level moves ``seat`` may make now; [] when none (not its turn, not in the hand, hand over)."""
    if state.phase in TERMINAL or all(p.seat != seat for p in state.players):
        return []
    if state.phase == "offer":
        return [move("bank", accept=[True, False])] if state.offered == seat else []
    if state.phase == "betting":
        return _betting(state, seat)
    if state.phase == "decisions" and state.turn == seat:
        return _decision(state, seat)
    return []


def _betting(state: HandState, seat: int) -> list[JSON]:
    """A bettor who has not answered yet: bet within the limits, or pass."""
    if seat not in state.bettors or seat in state.bets or seat in state.passed:
        return []
    bet = bet_choice(state, seat)
    return [*([bet] if bet is not None else []), move("pass")]


def bet_choice(state: HandState, seat: int) -> JSON | None:
    """The ``bet`` choice, or None when the stack cannot cover the smallest Ante (with its raise and the fee).

    The stack must cover ``2 * ante + straight_flush_bonus + flush_bonus`` plus the fee:
    ``limits.cover`` says so; each range is what its bet may be with the others at their least.
    """
    s = state.settings
    stack = state.player(seat).stack
    per_ante = 1 + RAISE_COVER
    top_ante = largest_ante(s, stack, per_ante)
    budget = stack - player_fee(s, max(top_ante, s.min_ante))  # the fee of the tier the largest Ante is in
    if top_ante < s.min_ante:
        return None
    bonus = optional(s.min_bonus, min(s.max_bonus, budget - per_ante * s.min_ante))
    cover = {"max": budget, "ante": per_ante, "straight_flush_bonus": 1, "flush_bonus": 1}
    return move("bet", ante=span(s.min_ante, top_ante), straight_flush_bonus=bonus, flush_bonus=bonus,
                seed=SEED_TEXT, limits={"cover": cover})


def _decision(state: HandState, seat: int) -> list[JSON]:
    """The seat in turn: raise from one Ante to its flush's limit (as far as its stack goes), or fold."""
    ante = state.bets[seat].ante
    limit = evaluate(state.hands[seat]).raise_limit
    room = state.player(seat).stack - state.committed(seat)
    top = min(limit * ante, room)
    raise_ = [move("raise", amount=span(ante, top))] if top >= ante else []
    return [*raise_, move("fold")]
