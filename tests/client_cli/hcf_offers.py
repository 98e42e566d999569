"""High Card Flush hands in the betting phase, played through the rules core, and the server's choices of them.

The choices are the rules' own (``server.rules.hcf.choices``), as the server puts them on a snapshot
(protocol v2), so the terminal's tests judge typed lines against what the server really offers.
"""

from __future__ import annotations

from typing import Any

from server.rules.choices import move, span
from server.rules.errors import Violation
from server.rules.hcf import messages as m
from server.rules.hcf.choices import choices
from server.rules.hcf.hand import HandState, Player, apply_events, new_hand, opening_events, step
from server.rules.hcf.settings import HcfSettings


def betting(stack: int, settings: HcfSettings | None = None) -> HandState:
    """Seat 1 has taken the bank; seat 2, with ``stack`` chips, is to bet."""
    state = new_hand(settings or HcfSettings(), [Player(1, 50_000), Player(2, stack)], bytes(32), offer_from=1)
    state = apply_events(state, opening_events(state))
    return step(state, m.AcceptBank(1))[0]


def server_choices(state: HandState, seat: int = 2) -> dict[str, Any]:
    """The ``choices`` a snapshot carries for ``seat``."""
    return {"seat": seat, "deadline": None, "moves": choices(state, seat)}


def decision_choices(ante: int, top: int) -> dict[str, Any]:
    """The ``choices`` of a seat in turn: raise one Ante to ``top`` (when it covers one), or fold."""
    raise_ = [move("raise", amount=span(ante, top))] if top >= ante else []
    return {"seat": 2, "deadline": None, "moves": [*raise_, move("fold")]}


def accepts_bets(state: HandState, ante: int, sf: int, flush: int) -> bool:
    """Whether the rules take these bets of seat 2."""
    try:
        step(state, m.PlaceBets(2, ante, sf, flush))
    except Violation:
        return False
    return True
