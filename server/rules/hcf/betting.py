"""The betting of a High Card Flush hand: Antes and bonus bets, or a pass, until all have answered (section 3.2).

When every player of the hand has bet or passed, or the clock closes the betting,
the bets close and the hand is dealt (:mod:`server.rules.hcf.deal`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.i18n import phrase
from server.rules.errors import Violation
from server.rules.hcf.deal import deal_events
from server.rules.hcf.decisions import advance
from server.rules.hcf.evolve import apply_events
from server.rules.hcf.fees import player_fee
from server.rules.hcf.messages import (
    BetsClosed,
    BetsPassed,
    BetsPlaced,
    CloseBets,
    Event,
    HandNotDealt,
    PassBets,
    PlaceBets,
)
from server.rules.hcf.state import MAX_SEED_LENGTH, HandState
from server.rules.machine import need_phase


def _place_bets(state: HandState, cmd: PlaceBets) -> list[Event]:
    need_phase(state.phase, "betting", "bet")
    _need_bettor(state, cmd.seat)
    s = state.settings
    amounts = (cmd.ante, cmd.straight_flush_bonus, cmd.flush_bonus)
    if any(isinstance(a, bool) or not isinstance(a, int) for a in amounts):
        raise Violation(phrase("bets are whole numbers of chips"), "request/malformed")
    if not cmd.ante and (cmd.straight_flush_bonus or cmd.flush_bonus):
        raise Violation(phrase("a bonus bet needs an Ante"), "bet/bonus_without_ante")
    if cmd.ante < s.min_ante:
        raise Violation(phrase("the Ante is at least {low}, got {asked}", low=s.min_ante, asked=cmd.ante),
                        "bet/below_min")
    if cmd.ante > s.max_ante:
        raise Violation(phrase("the Ante is at most {high}, got {asked}", high=s.max_ante, asked=cmd.ante),
                        "bet/above_max")
    for name, amount in ((phrase("the Straight Flush bonus"), cmd.straight_flush_bonus),
                         (phrase("the Flush bonus"), cmd.flush_bonus)):
        if amount and amount < s.min_bonus:
            raise Violation(phrase("{bet} is at least {low}, got {asked}", bet=name, low=s.min_bonus, asked=amount),
                            "bet/below_min")
        if amount > s.max_bonus:
            raise Violation(phrase("{bet} is at most {high}, got {asked}", bet=name, high=s.max_bonus, asked=amount),
                            "bet/above_max")
    if cmd.seed is not None and (not isinstance(cmd.seed, str) or len(cmd.seed) > MAX_SEED_LENGTH):
        raise Violation(f"a player seed is text of at most {MAX_SEED_LENGTH} characters", "bet/bad_seed")
    fee = player_fee(s, cmd.ante)
    needed = cmd.ante + cmd.straight_flush_bonus + cmd.flush_bonus + cmd.ante + fee
    stack = state.player(cmd.seat).stack
    if needed > stack:
        raise Violation(
            phrase("your stack of {stack} must cover these bets, the smallest raise and the fee ({needed})",
                   stack=stack, needed=needed),
            "bet/insufficient_stack",
        )
    placed = BetsPlaced(cmd.seat, cmd.ante, cmd.straight_flush_bonus, cmd.flush_bonus, cmd.seed)
    return close_if_all_answered(state, [placed])


def _pass_bets(state: HandState, cmd: PassBets) -> list[Event]:
    need_phase(state.phase, "betting", "pass")
    _need_bettor(state, cmd.seat)
    return close_if_all_answered(state, [BetsPassed(cmd.seat, "passed")])


def _need_bettor(state: HandState, seat: int) -> None:
    state.player(seat)
    if seat not in state.bettors:
        raise Violation(phrase("the designated player banks the hand and does not bet"), "bet/not_a_player")
    if seat in state.bets or seat in state.passed:
        raise Violation(phrase("you have already answered this betting round"), "bet/already_answered")


def close_if_all_answered(state: HandState, events: list[Event]) -> list[Event]:
    """``events``, then the close of the bets (and the deal) once every player of the hand has bet or passed."""
    after = apply_events(state, events)
    if any(s not in after.bets and s not in after.passed for s in after.bettors):
        return events
    return [*events, *_close(after)]


def _close_bets(state: HandState, _cmd: CloseBets) -> list[Event]:
    need_phase(state.phase, "betting", "close the bets")
    events: list[Event] = [BetsPassed(s, "clock") for s in state.bettors
                           if s not in state.bets and s not in state.passed]
    return [*events, *_close(apply_events(state, events))]


def _close(state: HandState) -> list[Event]:
    """Close the bets, then take the fees, fix the deck, deal, and start the first turn."""
    closed = BetsClosed(state.in_hand)
    if not state.bets:
        return [closed, HandNotDealt("no_ante")]
    dealt = [closed, *deal_events(apply_events(state, [closed]))]
    after = apply_events(state, dealt)
    return dealt if after.phase != "decisions" else [*dealt, *advance(after)]


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    PlaceBets: _place_bets, PassBets: _pass_bets, CloseBets: _close_bets,
}
"""The betting commands, by type."""
