"""The fast engine: thousands of hands at once with numpy, exactly as the rules settle them.

Hands are dealt like the state machine deals them (one card at a time around the
deal order, the dealer last), so a deck gives both engines the same hands. Results
come by *position* in the deal order, 0 being the first player dealt; the dealer's
hand is the last position of ``flush``/``run``. In the California profile the button
moves every hand, but positions relative to it do not, so one array shape serves
every hand; :meth:`Scenario.seat_at` turns a position back into a seat.

How a 7-card hand is valued without a loop: each card maps to one bit of a 52-bit
word laid out suit by suit (13 bits per suit), so the sum of a hand's 7 card bits
holds its four 13-bit suit masks; each mask indexes two tables over all 8,192 masks:
its flush key (``size << 13 | mask``, :func:`~server.rules.hcf.evaluate.flush_key_of`)
and its run key (:data:`~server.rules.hcf.evaluate.RUN_KEY`). The hand's values are
the maxima over its four suits, as in :mod:`server.rules.hcf.evaluate`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from server.rules.cards import DECK_SIZE, rank_of, suit_of
from server.rules.hcf.evaluate import HAND_SIZE, RUN_KEY, HcfHand, qualifies_key
from server.rules.hcf.settlement import pays_fee
from server.simulation.decks import Decks
from server.simulation.scenario import Scenario
from server.simulation.strategies import Strategy

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

_RANKS_PER_SUIT: Final = 13
_MASKS: Final = 1 << _RANKS_PER_SUIT
_KEYS: Final = (HAND_SIZE + 1) << _RANKS_PER_SUIT
"""Every flush key of a 7-card hand is below this."""

CARD_BIT: Final = np.array([1 << (suit_of(c) * _RANKS_PER_SUIT + rank_of(c)) for c in range(DECK_SIZE)],
                           dtype=np.uint64)
SUIT_SHIFTS: Final = np.array([0, 13, 26, 39], dtype=np.uint64)
FLUSH_KEY_OF_MASK: Final = np.array([m.bit_count() << _RANKS_PER_SUIT | m for m in range(_MASKS)],
                                    dtype=np.int64)
RUN_KEY_OF_MASK: Final = np.array(RUN_KEY, dtype=np.int64)
HAND_FLUSH_KEYS: Final = FLUSH_KEY_OF_MASK[FLUSH_KEY_OF_MASK < _KEYS]
"""The flush keys a 7-card hand can have (its suits hold at most 7 cards)."""
QUALIFIES_BY_KEY: Final = np.zeros(_KEYS, dtype=np.bool_)
QUALIFIES_BY_KEY[HAND_FLUSH_KEYS] = [qualifies_key(key) for key in HAND_FLUSH_KEYS.tolist()]


def evaluate_deal(decks: Decks, hands: int) -> tuple[Ints, Ints]:
    """(flush keys, run keys), each (decks, hands): hand ``j`` gets cards ``j, j + hands, ...``."""
    count = decks.shape[0]
    dealt = CARD_BIT[decks[:, : HAND_SIZE * hands]].reshape(count, HAND_SIZE, hands)
    words = dealt.sum(axis=1, dtype=np.uint64)  # distinct bits, so the sum is their union
    masks = ((words[..., None] >> SUIT_SHIFTS) & np.uint64(_MASKS - 1)).astype(np.intp)
    return FLUSH_KEY_OF_MASK[masks].max(axis=2), RUN_KEY_OF_MASK[masks].max(axis=2)


@cache
def raise_by_flush_key(strategy: Strategy, ante: int) -> Ints:
    """Chips ``strategy`` raises for each flush key (see :mod:`server.simulation.strategies`)."""
    table = np.zeros(_KEYS, dtype=np.int64)
    for key in HAND_FLUSH_KEYS.tolist():
        table[key] = strategy.decide(HcfHand((), key, 0), ante)
    return table


@dataclass(frozen=True, slots=True)
class Outcome:
    """Per-hand results of a batch. Seat arrays are (hands, positions), in chips.

    Signs and meanings follow :class:`~server.rules.hcf.settlement.SeatResult` and
    :class:`~server.rules.hcf.settlement.Settlement`: ``fee`` and ``dealer_fee``
    are minus the fee kept; ``dealer_net`` includes the dealer's fee.
    """

    flush: Ints
    run: Ints
    raised: Ints
    dead: Flags
    ante: Ints
    raise_result: Ints
    straight_flush_bonus: Ints
    flush_bonus: Ints
    fee: Ints
    dealer_qualifies: Flags
    dealer_fee: Ints
    dealer_net: Ints
    house: Ints

    @property
    def folded(self) -> Flags:
        """Seats that folded (every seat has an Ante)."""
        folded: Flags = self.raised == 0
        return folded

    @property
    def bets(self) -> Ints:
        """Each seat's result on its bets, fee excluded."""
        return self.ante + self.raise_result + self.straight_flush_bonus + self.flush_bonus


@dataclass(frozen=True, slots=True)
class _Payouts:
    """Bonus results by flush size / run length (0..7): the capped win, or -stake."""

    flush: Ints
    flush_pays: Flags
    straight_flush: Ints
    straight_flush_pays: Flags


@cache
def _payouts(scenario: Scenario) -> _Payouts:
    s, stake = scenario.settings, scenario.unit
    cap = s.max_bonus_win

    def table(odds: list[int]) -> Ints:
        wins = [-stake if not n else stake * n if cap is None else min(stake * n, cap) for n in odds]
        return np.array(wins, dtype=np.int64)

    flush_odds = [s.flush_pay(size) for size in range(HAND_SIZE + 1)]
    run_odds = [s.straight_flush_pay(length) for length in range(HAND_SIZE + 1)]
    return _Payouts(table(flush_odds), np.array(flush_odds) > 0, table(run_odds), np.array(run_odds) > 0)


def play(scenario: Scenario, decks: Decks) -> Outcome:
    """Deal, decide and settle every deck's hand."""
    flush, run = evaluate_deal(decks, scenario.hands_dealt)
    players = scenario.player_positions
    mine_flush, mine_run = flush[:, :players], run[:, :players]
    dealer_flush, dealer_run = flush[:, players:], run[:, players:]
    ante = scenario.unit
    raised = raise_by_flush_key(scenario.strategy, ante)[mine_flush]
    played = raised > 0
    qualifies = QUALIFIES_BY_KEY[dealer_flush]  # (hands, 1)
    versus = np.sign(mine_flush - dealer_flush)
    ante_result = np.where(played, np.where(qualifies, versus * ante, ante), -ante)
    raise_result = np.where(played & qualifies, versus * raised, 0)
    pay = _payouts(scenario)
    sizes, lengths = mine_flush >> 13, mine_run >> 4
    if scenario.house_banked:
        sf, fl = pay.straight_flush[lengths], pay.flush[sizes]
    else:
        sf = np.where(played, _versus(mine_run, dealer_run, pay.straight_flush[lengths],
                                      pay.straight_flush_pays[lengths], ante), -ante)
        fl = np.where(played, _versus(mine_flush, dealer_flush, pay.flush[sizes],
                                      pay.flush_pays[sizes], ante), -ante)
    results = (ante_result, raise_result, sf, fl)
    return _settle(scenario, flush, run, raised, qualifies[:, 0], results)


def _versus(mine: Ints, theirs: Ints, win: Ints, pays: Flags, stake: int) -> Ints:
    """A bonus judged against the DP's hand: win if better and paying, push if equal."""
    return np.where(pays & (mine > theirs), win, np.where(pays & (mine == theirs), 0, -stake))


def _settle(
    scenario: Scenario, flush: Ints, run: Ints, raised: Ints, qualifies: Flags,
    results: tuple[Ints, Ints, Ints, Ints],
) -> Outcome:
    s = scenario.settings
    played = raised > 0
    dealer_fee = s.fee if not scenario.house_banked and pays_fee(s, dealer=True) else 0
    if scenario.house_banked:
        dead = np.zeros(played.shape, dtype=np.bool_)
    else:
        staked = raised + 3 * scenario.unit  # Ante and both bonuses, each one unit
        bank = scenario.stack - dealer_fee + np.where(played, 0, staked).sum(axis=1)
        ante, raise_result, sf, fl = results
        dead = _funds_cap(bank, ante + raise_result + sf + fl, played)
    live = ~dead
    ante, raise_result, sf, fl = (np.where(live, r, 0) for r in results)
    fee = np.where(live, -s.fee if pays_fee(s, dealer=False) else 0, 0)
    dealer_fee_kept = np.where(live.any(axis=1), dealer_fee, 0)
    bets = (ante + raise_result + sf + fl).sum(axis=1)
    return Outcome(
        flush=flush, run=run, raised=raised, dead=dead, ante=ante, raise_result=raise_result,
        straight_flush_bonus=sf, flush_bonus=fl, fee=fee, dealer_qualifies=qualifies,
        dealer_fee=-dealer_fee_kept, dealer_net=-bets - dealer_fee_kept,
        house=dealer_fee_kept - fee.sum(axis=1),
    )


def _funds_cap(bank: Ints, totals: Ints, played: Flags) -> Flags:
    """docs/rules/hcf.md section 3.7, seat by seat in settlement order (the reverse of the deal).

    A seat that played and would win more than the DP's running bank is dead; any
    other seat that played moves the bank by its result. Folded seats' stakes are
    already in the bank.
    """
    bank = bank.copy()
    dead = np.zeros(played.shape, dtype=np.bool_)
    for position in range(played.shape[1] - 1, -1, -1):
        total, live = totals[:, position], played[:, position]
        broke = live & (total > bank)
        dead[:, position] = broke
        bank -= np.where(live & ~broke, total, 0)
    return dead
