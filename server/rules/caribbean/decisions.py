"""The decisions of a Caribbean Stud hand, spot by spot, and the showdown after them (sections 3.3 to 3.6).

Each spot in turn plays (its Back Bet goes down) or folds; a spot whose clock runs
out, or whose player has left, folds. When no spot is left undecided, the dealer's
hand is shown and the hand settles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.i18n import phrase
from server.rules.caribbean.evolve import evolve
from server.rules.caribbean.messages import (
    ClockExpired,
    ClosedBet,
    DealerRevealed,
    Event,
    FoldSpot,
    HandSettled,
    PlaySpot,
    SpotFolded,
    SpotPlayed,
    TurnStarted,
)
from server.rules.caribbean.settlement import BACK_BET_MULTIPLE, SpotWager, settle
from server.rules.caribbean.state import HandState
from server.rules.errors import Violation
from server.rules.machine import need_phase


def _need_turn(state: HandState, seat: int, spot: int | None) -> ClosedBet:
    need_phase(state.phase, "decisions", "act")
    state.player(seat)
    turn = state.turn
    if turn is None or turn.seat != seat:
        whose = phrase("seat {seat}'s (spot {spot})", seat=turn.seat, spot=turn.spot) if turn is not None \
            else phrase("nobody's")
        raise Violation(phrase("it is {whose} turn, not seat {seat}'s", whose=whose, seat=seat),
                        "turn/not_yours")
    if spot is not None and spot != turn.spot:
        raise Violation(phrase("spot {spot} is not in turn: spot {turn} is", spot=spot, turn=turn.spot),
                        "turn/not_yours")
    return turn


def _play(state: HandState, cmd: PlaySpot) -> list[Event]:
    turn = _need_turn(state, cmd.seat, cmd.spot)
    return after_decision(state, SpotPlayed(turn.seat, turn.spot, BACK_BET_MULTIPLE * turn.ante))


def _fold(state: HandState, cmd: FoldSpot) -> list[Event]:
    turn = _need_turn(state, cmd.seat, cmd.spot)
    return after_decision(state, SpotFolded(turn.seat, turn.spot, "fold"))


def after_decision(state: HandState, decision: Event) -> list[Event]:
    """``decision`` (a play or a fold), then the next turn, or the showdown when no spot is left."""
    return [decision, *advance(evolve(state, decision))]


def advance(state: HandState) -> list[Event]:
    """Start the next turn, folding the spots of players who left; show down when none is left."""
    events: list[Event] = []
    while (turn := state.turn) is not None:
        if turn.seat not in state.leaving:
            return [*events, TurnStarted(turn.seat, turn.spot)]
        folded = SpotFolded(turn.seat, turn.spot, "left")
        events.append(folded)
        state = evolve(state, folded)
    return [*events, *_showdown(state)]


def _showdown(state: HandState) -> list[Event]:
    wagers = [SpotWager(b.spot, state.hands[b.spot], b.ante, play=b.spot in state.played, jackpot=b.jackpot,
                        dead=b.spot in state.dead) for b in state.bets]
    result = settle(state.settings, state.meter, state.dealer, wagers)
    # Step 6: hands that played are shown; a folded hand only when it won a jackpot award.
    shown = tuple((r.spot, state.hands[r.spot]) for r in result.spots
                  if not r.dead and (not r.folded or r.jackpot_award > 0))
    return [DealerRevealed(state.dealer, result.dealer_qualifies), HandSettled(result, shown)]


def _clock(state: HandState, cmd: ClockExpired) -> list[Event]:
    turn = state.turn
    if turn is None or turn.seat != cmd.seat:
        raise Violation(f"no clock of seat {cmd.seat} is running", "clock/stale")
    return after_decision(state, SpotFolded(turn.seat, turn.spot, cmd.reason))


HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    PlaySpot: _play, FoldSpot: _fold, ClockExpired: _clock,
}
"""The decisions' commands, by type."""
