"""The betting of a Caribbean Stud hand: the spot bets, and the deal that closes it (section 3.1).

The round itself (Deal, Clear, Pass, the clock) is the house games' shared
:class:`~server.rules.house.betting.BettingRound`; what a bet is, and what closing
it deals, is this module's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from server.i18n import phrase
from server.rules.caribbean.deal import deal_events
from server.rules.caribbean.decisions import advance
from server.rules.caribbean.evolve import apply_events, evolve
from server.rules.caribbean.messages import (
    BetsClosed,
    BetsConfirmed,
    ClearBets,
    CloseBets,
    ClosedBet,
    ConfirmBets,
    Event,
    HandNotDealt,
    PassBets,
    PlaceSpotBets,
    RepeatBets,
    SpotBet,
    SpotBetsPlaced,
)
from server.rules.caribbean.state import MAX_SEED_LENGTH, PLAY_MULTIPLE, HandState
from server.rules.errors import Violation
from server.rules.house.betting import BettingRound, check_hold
from server.rules.machine import need_phase


def _need_open_bets(state: HandState, seat: int, what: str) -> None:
    need_phase(state.phase, "betting", what)
    state.player(seat)
    if seat in state.leaving:
        raise Violation(phrase("you are leaving the table: no more bets this hand"), "seat/leaving")
    if seat in state.confirmed:
        raise Violation(phrase("your bets are confirmed: Clear them first to change them"), "bet/confirmed")


def _place(state: HandState, cmd: PlaceSpotBets) -> list[Event]:
    _need_open_bets(state, cmd.seat, "bet")
    if cmd.seed is not None and (not isinstance(cmd.seed, str) or len(cmd.seed) > MAX_SEED_LENGTH):
        raise Violation(f"a player seed is text of at most {MAX_SEED_LENGTH} characters", "bet/bad_seed")
    bets = checked_bets(state, cmd.seat, cmd.bets)
    if not bets and cmd.seat not in state.placed:
        # As in 6 Card Poker: an empty list takes bets back, so with none down it is no move (docs/choices.md).
        raise Violation(phrase("you have no bets to take back"), "bet/none")
    return BETTING.close_if_ready(state, [SpotBetsPlaced(cmd.seat, bets, cmd.seed)])


def _repeat(state: HandState, cmd: RepeatBets) -> list[Event]:
    _need_open_bets(state, cmd.seat, "bet")
    last = state.last_bets.get(cmd.seat)
    if not last:
        raise Violation(phrase("you have no bets from a last hand to repeat"), "bet/no_last_bets")
    return [SpotBetsPlaced(cmd.seat, checked_bets(state, cmd.seat, last), None)]


def checked_bets(state: HandState, seat: int, bets: Any) -> tuple[SpotBet, ...]:
    """``bets`` as :class:`SpotBet` in spot order, or the Violation saying why ``seat`` may not place them."""
    s = state.settings
    if not isinstance(bets, tuple | list) or not all(_bet_shaped(b) for b in bets):
        raise Violation("bets are a list of (spot, ante, jackpot): whole numbers and a flag", "request/malformed")
    out = tuple(sorted((SpotBet(*b) for b in bets), key=lambda b: b.spot))
    if len({b.spot for b in out}) != len(out):
        raise Violation("a spot is listed twice", "request/malformed")
    if len(out) > s.max_hands:
        raise Violation(phrase("you may play at most {most} spots, got {asked}", most=s.max_hands, asked=len(out)),
                        "bet/too_many")
    check_hold(state, seat, len(out), s.max_hands_while_waiting, "spot")
    for b in out:
        if not 1 <= b.spot <= s.spots:
            raise Violation(phrase("spot {spot}: this table's spots are 1 to {spots}", spot=b.spot, spots=s.spots),
                            "spot/invalid")
        owner = next((other for other, theirs in state.placed.items()
                      if other != seat and any(t.spot == b.spot for t in theirs)), None)
        if owner is not None:
            raise Violation(phrase("spot {spot} is taken by seat {owner}", spot=b.spot, owner=owner), "spot/taken")
        if b.ante < s.min_ante:
            raise Violation(phrase("spot {spot}: the Ante is at least {low}, got {asked}", spot=b.spot, low=s.min_ante,
                                   asked=b.ante), "bet/below_min")
        if b.ante > s.max_ante:
            raise Violation(phrase("spot {spot}: the Ante is at most {high}, got {asked}", spot=b.spot, high=s.max_ante,
                                   asked=b.ante), "bet/above_max")
        if b.jackpot and not s.jackpot:
            raise Violation(phrase("this table offers no jackpot wager"), "bet/no_jackpot")
    needed = sum(PLAY_MULTIPLE * b.ante + state.wager(b) for b in out)
    stack = state.player(seat).stack
    if needed > stack:
        raise Violation(phrase("your stack of {stack} must cover each Ante three times (Ante and Back Bet) "
                               "plus the jackpot wagers: {needed}", stack=stack, needed=needed),
                        "bet/insufficient_stack")
    return out


def _bet_shaped(bet: Any) -> bool:
    if not isinstance(bet, tuple | list) or len(bet) != 3:
        return False
    spot, ante, jackpot = bet
    return all(isinstance(n, int) and not isinstance(n, bool) for n in (spot, ante)) and isinstance(jackpot, bool)


def _confirm(state: HandState, cmd: ConfirmBets) -> list[Event]:
    _need_open_bets(state, cmd.seat, "deal")
    if not state.placed.get(cmd.seat):
        raise Violation(phrase("place a bet before you deal"), "bet/none")
    return BETTING.close_if_ready(state, [BetsConfirmed(cmd.seat)])


def _close(state: HandState) -> list[Event]:
    """Close the bets, then fix the deck, deal, and start the first turn."""
    bets = sorted((ClosedBet(b.spot, seat, b.ante, b.jackpot)
                   for seat, placed in state.placed.items() if seat in state.confirmed for b in placed),
                  key=lambda b: b.spot)
    closed = BetsClosed(tuple(bets))
    if not bets:
        return [closed, HandNotDealt("no_ante")]
    after = evolve(state, closed)
    dealt = deal_events(after)
    after = apply_events(after, dealt)
    return [closed, *dealt, *(advance(after) if after.phase == "decisions" else [])]


BETTING: Final = BettingRound(apply_events, _close)
"""The shared betting round, closing with this game's deal."""
HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    PlaceSpotBets: _place, RepeatBets: _repeat, ConfirmBets: _confirm, ClearBets: BETTING.clear,
    PassBets: BETTING.pass_bets, CloseBets: BETTING.close_bets,
}
"""The betting commands, by type."""
