"""The offer of the bank at a California table: clockwise from the button, until a seat takes it (section 3.1).

A seat that takes the bank is the hand's designated player and opens the betting;
when every eligible seat has declined, no hand is dealt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.i18n import phrase
from server.rules.errors import Violation
from server.rules.hcf.betting import close_if_all_answered
from server.rules.hcf.messages import (
    AcceptBank,
    BankAccepted,
    BankDeclined,
    BankOffered,
    BetsPassed,
    BettingOpened,
    DeclineBank,
    Event,
    HandNotDealt,
)
from server.rules.hcf.settlement import deal_order
from server.rules.hcf.state import HandState
from server.rules.machine import need_phase


def _accept(state: HandState, cmd: AcceptBank) -> list[Event]:
    need_phase(state.phase, "offer", "take the bank")
    _need_offered(state, cmd.seat)
    bettors = tuple(s for s in deal_order(state.settings.seats, cmd.seat)
                    if any(p.seat == s for p in state.players) and _plays(state, s))
    events: list[Event] = [BankAccepted(cmd.seat), BettingOpened(cmd.seat, state.commitment, bettors)]
    # Players who asked to leave during the offer sit this hand out (docs/rules/hcf.md section 4).
    events += [BetsPassed(s, "left") for s in bettors if s in state.leaving]
    return close_if_all_answered(state, events) if len(events) > 2 else events


def _plays(state: HandState, seat: int) -> bool:
    """The third-party banker plays as a player while another banks only when the host allows it (section 9.3)."""
    return seat != state.third_party or state.settings.third_party_plays


def after_silence(state: HandState, seat: int, reason: str = "clock") -> list[Event]:
    """The offer to ``seat`` ran out (``reason``: the clock, or the player is away): the DP asked to keep the bank
    keeps it, and the third-party banker banks (section 9); anyone else refused it (section 4)."""
    if seat in (state.keeper, state.third_party):
        return _accept(state, AcceptBank(seat))
    return after_decline(state, seat, reason)


def _decline(state: HandState, cmd: DeclineBank) -> list[Event]:
    need_phase(state.phase, "offer", "decline the bank")
    _need_offered(state, cmd.seat)
    return after_decline(state, cmd.seat, "declined")


def _need_offered(state: HandState, seat: int) -> None:
    state.player(seat)
    if state.offered != seat:
        raise Violation(phrase("the bank is offered to seat {offered}, not {seat}", offered=state.offered, seat=seat),
                        "turn/not_yours")


def after_decline(state: HandState, seat: int, reason: str) -> list[Event]:
    """``seat`` declines the bank; it is offered to the next seat that is not leaving, or no hand is dealt."""
    events: list[Event] = [BankDeclined(seat, reason)]
    for later in state.offers[state.offer_index + 1:]:
        if later not in state.leaving:
            return [*events, BankOffered(later)]
        events.append(BankDeclined(later, "left"))
    return [*events, HandNotDealt("no_bank")]


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {AcceptBank: _accept, DeclineBank: _decline}
"""The bank offer's commands, by type."""
