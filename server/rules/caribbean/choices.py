"""What a seat may do now in a Caribbean Stud hand: exactly the moves ``hand.decide`` accepts (docs/choices.md).

>>> from server.rules.caribbean.hand import new_hand
>>> from server.rules.caribbean.settings import CaribbeanSettings
>>> from server.rules.game import Player
>>> state = new_hand(CaribbeanSettings(spots=3), [Player(1, 60)], bytes(32))
>>> [c["action"] for c in choices(state, 1)]
['bet', 'pass']
>>> bets = choices(state, 1)[0]["bets"]
>>> bets["count"], bets["each"]
({'min': 1, 'max': 3}, {'spot': [1, 2, 3], 'ante': {'min': 5, 'max': 20}, 'jackpot': [False, True]})
"""

from __future__ import annotations

from server.rules.caribbean.hand import PLAY_MULTIPLE, TERMINAL, HandState, checked_bets
from server.rules.choices import SEED_TEXT, bet_list, move, span
from server.rules.errors import Violation
from server.rules.game import JSON
from server.rules.house.betting import waiting


def choices(state: HandState, seat: int) -> list[JSON]:
    """The hand-level moves ``seat`` may make now; [] when none (not its turn, not in the hand, hand over)."""
    if state.phase in TERMINAL or all(p.seat != seat for p in state.players):
        return []
    if state.phase == "betting":
        return _betting(state, seat)
    turn = state.turn
    if turn is None or turn.seat != seat:
        return []
    return [move("play", spot=turn.spot), move("fold", spot=turn.spot)]


def _betting(state: HandState, seat: int) -> list[JSON]:
    """Bet, Re-Bet, Deal, Clear, Pass: whichever the seat's bets allow now."""
    placed = bool(state.placed.get(seat))
    clear = [move("clear")] if seat in state.placed else []
    if seat in state.leaving or seat in state.confirmed:
        return clear
    out: list[JSON] = []
    bet = bet_choice(state, seat)
    if bet is not None:
        out.append(bet)
    if _can_repeat(state, seat):
        out.append(move("rebet"))
    if placed:
        out.append(move("deal"))
    out += clear
    if seat not in state.passed:
        out.append(move("pass"))
    return out


def bet_choice(state: HandState, seat: int) -> JSON | None:
    """The ``bet`` choice (a whole new set of spot bets), or None when not even one spot can be bet.

    The stack covers three Antes a spot (Ante and Back Bet) plus each jackpot wager: ``limits.cover``.
    """
    s = state.settings
    stack = state.player(seat).stack
    taken = {b.spot for other, bets in state.placed.items() if other != seat for b in bets}
    free = [spot for spot in range(1, s.spots + 1) if spot not in taken]
    most = min(s.max_hands, len(free), stack // (PLAY_MULTIPLE * s.min_ante))
    if any(other != seat for other in waiting(state)):
        most = min(most, s.max_hands_while_waiting)
    top_ante = min(s.max_ante, stack // PLAY_MULTIPLE)
    if most < 1 or top_ante < s.min_ante:
        return None
    jackpot = [False, True] if s.jackpot and stack >= PLAY_MULTIPLE * s.min_ante + s.jackpot_wager else [False]
    each = {"spot": free, "ante": span(s.min_ante, top_ante), "jackpot": jackpot}
    cover = {"max": stack, "ante": PLAY_MULTIPLE, "jackpot": s.jackpot_wager if s.jackpot else 0}
    fewest = 0 if seat in state.placed else 1  # an empty list takes bets back, so it needs some
    return move("bet", bets=bet_list(span(fewest, most), each, "spot"), seed=SEED_TEXT, limits={"cover": cover})


def _can_repeat(state: HandState, seat: int) -> bool:
    """Re-Bet: the seat's last bets, if they may stand now."""
    last = state.last_bets.get(seat)
    if not last:
        return False
    try:
        checked_bets(state, seat, last)
    except Violation:
        return False
    return True
