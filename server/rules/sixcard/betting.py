"""The betting of a 6 Card Poker hand: box bets, the covering rule, the deal that closes it (sections 3 to 4.2).

The round itself (Deal, Clear, Pass, the clock) is the house games' shared
:class:`~server.rules.house.betting.BettingRound`; what a bet is, and what closing
it deals, is this module's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from server.i18n import phrase
from server.rules.errors import Violation
from server.rules.house.betting import BettingRound, check_hold
from server.rules.machine import need_phase
from server.rules.sixcard.deal import deal_boxes
from server.rules.sixcard.decisions import advance
from server.rules.sixcard.evolve import apply_events, evolve
from server.rules.sixcard.messages import (
    BetsClosed,
    BetsConfirmed,
    BlindBetsPlaced,
    BoxBet,
    BoxBetsPlaced,
    CardsDealt,
    ClearBets,
    CloseBets,
    ConfirmBets,
    DeckPrepared,
    Event,
    HandNotDealt,
    HandVoided,
    PassBets,
    PlaceBoxBets,
    RepeatBets,
)
from server.rules.sixcard.settlement import BLIND, BONUS_ONLY, HAND_SIZE, OPEN, BoxWager, box_roles, ratio_ok
from server.rules.sixcard.state import COVER_BLIND, COVER_OPEN, DEALER, MAX_SEED_LENGTH, HandState


def check_bets(state: HandState, seat: int, bets: Sequence[Any], seed: Any) -> tuple[BoxBet, ...]:
    """``seat``'s bets in box order if they may stand (section 3), else raise a Violation naming the rule."""
    s = state.settings
    if not isinstance(bets, tuple | list) or not all(_is_box_bet(b) for b in bets):
        raise Violation("bets are (box, ante, bonus) triples of whole numbers", "request/malformed")
    if seed is not None and (not isinstance(seed, str) or len(seed) > MAX_SEED_LENGTH):
        raise Violation(f"a player seed is text of at most {MAX_SEED_LENGTH} characters", "bet/bad_seed")
    placed = tuple(sorted((int(b), int(a), int(n)) for b, a, n in bets))
    numbers = [b for b, _, _ in placed]
    check_hold(state, seat, len(placed), s.max_hands_while_waiting, "box")
    for box, ante, bonus in placed:
        _check_box(state, seat, box, numbers)
        if ante == 0 and bonus == 0:
            raise Violation(phrase("box {box}: a box needs an Ante, a bonus bet or both", box=box), "bet/below_min")
        if ante and ante < s.min_ante:
            raise Violation(phrase("box {box}: the Ante is at least {low}, got {asked}", box=box, low=s.min_ante,
                                   asked=ante), "bet/below_min")
        if s.max_ante is not None and ante > s.max_ante:
            raise Violation(phrase("box {box}: the Ante is at most {high}, got {asked}", box=box, high=s.max_ante,
                                   asked=ante), "bet/above_max")
        if bonus and bonus < s.min_bonus:
            raise Violation(phrase("box {box}: the bonus bet is at least {low}, got {asked}", box=box, low=s.min_bonus,
                                   asked=bonus), "bonus/below_min")
        if s.max_bonus is not None and bonus > s.max_bonus:
            raise Violation(phrase("box {box}: the bonus bet is at most {high}, got {asked}", box=box, high=s.max_bonus,
                                   asked=bonus), "bonus/above_max")
    if not ratio_ok([a for _, a, _ in placed], s.ante_ratio):
        antes = [a for _, a, _ in placed if a]
        raise Violation(phrase("your largest Ante ({high}) may be at most {ratio}x your smallest ({low})",
                               high=max(antes), ratio=s.ante_ratio, low=min(antes)), "bet/ante_ratio")
    needed = cover_needed(placed)
    stack = state.player(seat).stack
    if needed > stack:
        raise Violation(phrase("your stack of {stack} must cover every Bet and draw fee these boxes may take "
                               "({needed})", stack=stack, needed=needed), "bet/insufficient_stack")
    return placed


def _is_box_bet(item: Any) -> bool:
    return (isinstance(item, tuple | list) and len(item) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in item))


def _check_box(state: HandState, seat: int, box: int, numbers: list[int]) -> None:
    if not 1 <= box <= state.settings.boxes:
        raise Violation(phrase("the table has boxes 1 to {boxes}, not {box}", boxes=state.settings.boxes, box=box),
                        "box/invalid")
    if numbers.count(box) > 1:
        raise Violation(f"box {box} is given twice", "box/invalid")
    for other, pending in state.pending.items():
        if other != seat and any(b == box for b, _, _ in pending.bets):
            raise Violation(phrase("box {box} is taken by seat {other}", box=box, other=other), "box/taken")


def cover_needed(bets: Sequence[BoxBet]) -> int:
    """The chips one player's bets may take at most: 4x Ante on open boxes, 3x on blind ones, every bonus.

    >>> cover_needed([(1, 10, 1), (2, 10, 0), (3, 20, 5), (4, 0, 2)])  # (40 + 1) + 40 + (60 + 5) + 2
    148
    """
    roles = box_roles(BoxWager(box, "", (), ante, bonus) for box, ante, bonus in bets)
    per_role = {OPEN: COVER_OPEN, BLIND: COVER_BLIND, BONUS_ONLY: 0}
    return sum(per_role[roles[box]] * ante + bonus for box, ante, bonus in bets)


def _place(state: HandState, cmd: PlaceBoxBets) -> list[Event]:
    _need_bettor(state, cmd.seat)
    bets = check_bets(state, cmd.seat, cmd.bets, cmd.seed)
    if not bets and cmd.seat not in state.pending:
        raise Violation(phrase("you have no bets to take back"), "bet/none")
    return BETTING.close_if_ready(state, [BoxBetsPlaced(cmd.seat, bets, cmd.seed)])


def _need_bettor(state: HandState, seat: int) -> None:
    need_phase(state.phase, "betting", "bet")
    state.player(seat)
    if seat in state.leaving:
        raise Violation(phrase("you are leaving the table"), "seat/not_in_hand")
    pending = state.pending.get(seat)
    if pending is not None and pending.confirmed:
        raise Violation(phrase("your bets are confirmed: Clear them to bet again"), "bet/confirmed")


def _confirm(state: HandState, cmd: ConfirmBets) -> list[Event]:
    _need_bettor(state, cmd.seat)
    if cmd.seat not in state.pending:
        raise Violation(phrase("place a bet before you Deal"), "bet/none")
    return BETTING.close_if_ready(state, [BetsConfirmed(cmd.seat)])


def _repeat(state: HandState, cmd: RepeatBets) -> list[Event]:
    _need_bettor(state, cmd.seat)
    last = state.last_bets.get(cmd.seat)
    if not last:
        raise Violation(phrase("you have no bets from a last hand to repeat"), "bet/no_last_bets")
    bets = check_bets(state, cmd.seat, last, cmd.seed)
    return [BoxBetsPlaced(cmd.seat, bets, cmd.seed)]


def _close(state: HandState) -> list[Event]:
    """Close the bets (their chips move now), place the blind Bets, fix the deck, deal, start the first turn."""
    closed = BetsClosed(tuple(sorted((box, seat, ante, bonus) for seat, p in state.pending.items()
                                     for box, ante, bonus in p.bets)))
    if not closed.bets:
        return [closed, HandNotDealt("no_bets")]
    events: list[Event] = [closed]
    after = evolve(state, closed)
    blind = tuple((b.box, b.seat, 2 * b.ante) for b in after.boxes if b.role == BLIND)
    if blind:
        events.append(BlindBetsPlaced(blind))
    seeds = tuple((seat, p.seed) for seat, p in sorted(state.pending.items()) if p.seed is not None)
    prepared = DeckPrepared(state.arranged_deck is not None or state.seat_deck is not None, seeds)
    events.append(prepared)
    after = apply_events(after, events[1:])
    order = (*(b.box for b in after.boxes), DEALER)
    if len(after.deck) < HAND_SIZE * len(order):
        return [*events, HandVoided("card_count")]
    dealt = deal_boxes(after.deck, order)
    hands = dict(dealt)
    deal = CardsDealt(order, tuple((box, cards) for box, cards in dealt if box != DEALER), hands[DEALER])
    events.append(deal)
    return [*events, *advance(evolve(after, deal))]


BETTING: Final = BettingRound(apply_events, _close)
"""The shared betting round, closing with this game's deal."""
HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    PlaceBoxBets: _place, ConfirmBets: _confirm, RepeatBets: _repeat, ClearBets: BETTING.clear,
    PassBets: BETTING.pass_bets, CloseBets: BETTING.close_bets,
}
"""The betting commands, by type."""
