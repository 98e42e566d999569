"""What a seat may do now in a 6 Card Poker hand: exactly the moves ``hand.decide`` accepts (docs/choices.md).

>>> from server.rules.game import Player
>>> from server.rules.sixcard.hand import new_hand
>>> from server.rules.sixcard.settings import SixcardSettings
>>> state = new_hand(SixcardSettings(boxes=2), [Player(1, 100)], bytes(32))
>>> bet = choices(state, 1)[0]
>>> bet["bets"]["count"], bet["bets"]["each"]
({'min': 1, 'max': 2}, {'box': [1, 2], 'ante': [0, {'min': 5, 'max': 25}], 'bonus': {'min': 0, 'max': 100}})
>>> bet["limits"]
{'cover': {'max': 100, 'ante': [4, 4], 'bonus': 1}, 'ante_ratio': 5, 'box_needs': ['ante', 'bonus']}
"""

from __future__ import annotations

from server.rules.choices import SEED_TEXT, bet_list, move, optional, span, value_list
from server.rules.errors import Violation
from server.rules.game import JSON
from server.rules.house.betting import waiting
from server.rules.sixcard.hand import COVER_BLIND, COVER_OPEN, TERMINAL, HandState, check_bets
from server.rules.sixcard.settlement import EXCHANGE_SIZES, HAND_SIZE, OPEN_PER_PLAYER

DISCARD: JSON = value_list(list(EXCHANGE_SIZES), span(1, HAND_SIZE))
"""An exchange's ``discard``: 1, 2 or 5 distinct card positions, 1 to 5."""


def choices(state: HandState, seat: int) -> list[JSON]:
    """The hand-level moves ``seat`` may make now; [] when none (not its turn, not in the hand, hand over)."""
    if state.phase in TERMINAL or all(p.seat != seat for p in state.players):
        return []
    if state.phase == "betting":
        return _betting(state, seat)
    if state.phase == "exchange":
        return _exchange(state, seat)
    turn = state.turn
    if turn is None or state.box(turn).seat != seat:
        return []
    out = [move("raise", box=turn), move("fold", box=turn)]
    if turn not in state.draws:
        out += [move("buy", box=turn), move("exchange", box=turn, discard=DISCARD)]
    return out


def _betting(state: HandState, seat: int) -> list[JSON]:
    """Bet, Re-Bet, Deal, Clear, Pass: whichever the seat's bets allow now."""
    pending = state.pending.get(seat)
    clear = [move("clear")] if pending is not None else []
    if seat in state.leaving or (pending is not None and pending.confirmed):
        return clear
    out: list[JSON] = []
    bet = bet_choice(state, seat)
    if bet is not None:
        out.append(bet)
    if _can_repeat(state, seat):
        out.append(move("rebet", seed=SEED_TEXT))
    if pending is not None:
        out.append(move("deal"))
    out += clear
    if seat not in state.passed:
        out.append(move("pass"))
    return out


def ante_weights(boxes: int) -> list[int]:
    """What each Ante costs the stack, by its place among the player's boxes with an Ante in box order.

    >>> ante_weights(4)
    [4, 4, 3, 3]
    """
    return [COVER_OPEN if k < OPEN_PER_PLAYER else COVER_BLIND for k in range(boxes)]


def bet_choice(state: HandState, seat: int) -> JSON | None:
    """The ``bet`` choice (a whole new set of box bets), or None when no box can be bet at all.

    ``limits`` says what the boxes must keep together: the stack covers each Ante by its
    weight (open boxes 4x, blind 3x) plus every bonus; the largest Ante is at most
    ``ante_ratio`` times the smallest; each box has an Ante, a bonus or both.
    """
    s = state.settings
    stack = state.player(seat).stack
    taken = {box for other, pending in state.pending.items() if other != seat for box, _, _ in pending.bets}
    free = [box for box in range(1, s.boxes + 1) if box not in taken]
    weights = ante_weights(s.boxes)
    most = min(len(free), _affordable(stack, s.min_ante, s.min_bonus, weights))
    if any(other != seat for other in waiting(state)):
        most = min(most, s.max_hands_while_waiting)
    if most < 1:
        return None
    top_ante = stack // weights[0] if s.max_ante is None else min(s.max_ante, stack // weights[0])
    top_bonus = stack if s.max_bonus is None else min(s.max_bonus, stack)
    each = {"box": free, "ante": optional(s.min_ante, top_ante), "bonus": optional(s.min_bonus, top_bonus)}
    fewest = 0 if seat in state.pending else 1  # an empty list takes back bets, so it needs some
    limits = {"cover": {"max": stack, "ante": weights, "bonus": 1}, "ante_ratio": s.ante_ratio,
              "box_needs": ["ante", "bonus"]}
    return move("bet", bets=bet_list(span(fewest, most), each, "box"), seed=SEED_TEXT, limits=limits)


def _affordable(stack: int, min_ante: int, min_bonus: int, weights: list[int]) -> int:
    """The most boxes a stack can cover at the least bets: some with the least Ante, the rest the least bonus."""
    most = 0
    for count in range(1, len(weights) + 1):
        cheapest = min(sum(weights[:antes]) * min_ante + (count - antes) * min_bonus for antes in range(count + 1))
        if cheapest <= stack:
            most = count
    return most


def _can_repeat(state: HandState, seat: int) -> bool:
    """Re-Bet: the seat's last bets, if they may stand now."""
    last = state.last_bets.get(seat)
    if not last:
        return False
    try:
        check_bets(state, seat, last, None)
    except Violation:
        return False
    return True


def _exchange(state: HandState, seat: int) -> list[JSON]:
    """The dealer exchange: ask for it (or take the ask back) box by box, then Continue."""
    if seat not in state.exchange_owners or seat in state.continued:
        return []
    out = [move("cancel_exchange" if box in state.requests else "request_exchange", box=box)
           for box, owner in state.exchange_boxes if owner == seat and box not in state.dead]
    return [*out, move("continue")]
