"""6 Card Poker's Ante and Bet under the basic strategy, exactly, the dealer exchange included.

The basic strategy (server/rules/sixcard/strategy.py) raises a pair or better, never buys or
exchanges the box's own cards, and asks for the dealer exchange with three of a kind or better
(docs/rules/sixcard.md sections 4 to 6). Every player hand meets each of the C(47, 5) dealer
hands left and, when the dealer does not qualify and the box asks, each of the 42 cards that can
replace the dealer's highest card. The dealer hands below, equal to and not qualifying against
a player hand come by inclusion-exclusion (:mod:`server.analysis.caribbean_exact`'s tables,
with a pair of twos as the qualifier).

After an exchange the dealer holds L + c: the four lower cards L of a hand without a pair, and
the new card c. It qualifies when c pairs a card of L (then three of a kind or better wins) or
L + c is a straight or a flush. Pairs are counted by rank sets: for a rank set R of a dealer
hand without a pair, straight or flush, the hands that avoid the player's cards number
prod(a_r) less the one-suit ones (a_r: the cards of rank r the player does not hold), and c
pairs a lower card l in a_l - 1 ways. Straights and flushes are few (15,348 hands): each, with
each of its five cards as c and each card h above the other four as the removed highest card
(L + h having no pair, straight or flush), is counted directly.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from server.analysis import caribbean_exact as ce
from server.analysis.strategy_cards import SIXCARD_BASIC
from server.rules.cards import parse_cards
from server.rules.poker import CLASSES, class_name
from server.rules.sixcard.settings import SixcardSettings
from server.simulation.sixcard import values5

Ints = npt.NDArray[np.int64]
DEALER_HANDS: Final = comb(47, 5)
CARDS_LEFT: Final = 42
"""Cards the dealer's new card can be, once the box's five and the dealer's five are out."""
DEALS: Final = comb(52, 5) * DEALER_HANDS * CARDS_LEFT
_LOWEST_PAIR: Final = "2c 2d 3h 4s 5c"
_TRIPS: Final = CLASSES.index("trips")


def _straights_and_flushes() -> tuple[Ints, Ints, npt.NDArray[np.bool_], Ints]:
    """(hands (n, 5), their values, valid (n, 5, 52), valid's count over the new card (n, 5)): valid[i, j, h]
    when removing card j of hand i and adding h gives a dealer hand L + h without a pair, straight or flush
    whose highest card is h."""
    cards, ranks, distinct = ce._hands()
    wanted = np.array([class_name(int(v)) in ("straight", "flush", "straight_flush", "royal")
                       for v in distinct.tolist()])
    keep = wanted[ranks]
    hands, values = cards[keep].astype(np.int64), distinct[ranks[keep]]
    lowest_pair = int(values5(np.array([parse_cards(_LOWEST_PAIR)], dtype=np.int64))[0])
    valid = np.zeros((len(hands), 5, 52), dtype=bool)
    for j in range(5):
        lower = np.delete(hands, j, axis=1)
        top = (lower >> 2).max(axis=1)
        for h in range(52):
            fresh = ~(hands == h).any(axis=1) & ((h >> 2) > top)
            if fresh.any():
                dealer = np.concatenate([lower[fresh], np.full((int(fresh.sum()), 1), h)], axis=1)
                valid[fresh, j, h] = values5(dealer) < lowest_pair
    return hands, values, valid, valid.sum(axis=2)


def _rank_sets() -> tuple[Ints, Ints]:
    """(rank sets of dealer hands without a pair or straight (n, 5), their top rank)."""
    sets = []
    for ranks in combinations(range(13), 5):
        straight = ranks[4] - ranks[0] == 4 or ranks == (0, 1, 2, 3, 12)
        if not straight:
            sets.append(ranks)
    out = np.array(sets, dtype=np.int64)
    return out, out.max(axis=1)


def exchange_counts(hand: Ints, value: int, sf: tuple[Ints, Ints, npt.NDArray[np.bool_], Ints],
                    rank_sets: Ints) -> tuple[int, int, int, int, int]:
    """For one player hand that asks: (dealer hands without a pair, then (dealer hand, new card) pairs the box
    wins, ties, loses, and where the new hand still does not qualify)."""
    available = 4 - np.bincount(hand >> 2, minlength=13)
    held = np.zeros(52, dtype=bool)
    held[hand] = True
    per_suit = ~held.reshape(13, 4)  # [rank, suit]: the card is free
    a = available[rank_sets]
    one_suit = per_suit[rank_sets].all(axis=1).sum(axis=1)  # (n, 4) -> suits all free
    hands = a.prod(axis=1) - one_suit
    lower_pairs = (a[:, :4] - 1).sum(axis=1)  # rank sets are increasing: the first four are the lower cards
    no_pair = int(hands.sum())
    pairs = int((hands * lower_pairs).sum())
    sf_hands, sf_values, valid, reachable = sf
    free = ~held[sf_hands].any(axis=1)
    # The new card is none of the box's five: those are taken from what every card reaches, counted once.
    ways = (reachable - valid[:, :, hand].sum(axis=2))[free].sum(axis=1)
    values = sf_values[free]
    win = pairs + int(ways[values < value].sum())
    tie = int(ways[values == value].sum())
    lose = int(ways[values > value].sum())
    return no_pair, win, tie, lose, no_pair * CARDS_LEFT - win - tie - lose


def counts(progress: Callable[[float, str], None] | None = None) -> dict[str, Any]:
    """Per class of player hand (up to the suits): its weight, class, and dealer counts; the same for every table."""
    cards, ranks, distinct = ce._hands()
    first, weight = ce._classes()
    if progress is not None:
        progress(0.2, "every player hand against every dealer hand")
    tables = ce._tables()
    q = int(np.searchsorted(distinct, values5(np.array([parse_cards(_LOWEST_PAIR)], dtype=np.int64))[0]))
    own = ranks[first]
    raised = own >= q
    rows, w, mine = first[raised], weight[raised], own[raised]
    hand = cards[rows]
    no_pair = ce._avoiding(tables, hand, mine, np.full(len(rows), q))
    below = ce._avoiding(tables, hand, mine, mine)
    not_above = ce._avoiding(tables, hand, mine, mine + 1)
    klass = np.array([CLASSES.index(class_name(int(v))) for v in distinct[mine].tolist()], dtype=np.int64)
    out: dict[str, Any] = {"weight": w, "klass": klass, "no_pair": no_pair, "win": below - no_pair,
                           "tie": not_above - below, "lose": DEALER_HANDS - not_above,
                           "folded": int(weight[~raised].sum())}
    asks = np.flatnonzero(klass >= _TRIPS)
    sf, (rank_sets, _) = _straights_and_flushes(), _rank_sets()
    exchange = np.zeros((len(rows), 5), dtype=np.int64)
    values = distinct[mine]
    for done, i in enumerate(asks.tolist()):
        exchange[i] = exchange_counts(hand[i].astype(np.int64), int(values[i]), sf, rank_sets)
        if progress is not None and done % 500 == 0:
            progress(0.5 + 0.5 * done / len(asks), "the dealer exchange")
    out["exchange"] = exchange
    return out


def outcome_chips(settings: SixcardSettings) -> dict[str, Any]:
    """What a box nets on the Ante and Bet at an Ante of ``min_ante``, by outcome (sections 5.4 and 6): ``fold``,
    ``continue`` (the dealer does not qualify, no exchange), ``lose``, ``tie`` (0), ``win`` per hand class, and
    after an exchange ``exchange_win`` per class and ``exchange_no_win`` (the dealer still does not qualify,
    or a tie: the Ante went as the fee). ``max_payout`` counts the Ante's 1-to-1 payment after an exchange."""
    ante = settings.min_ante
    cap = settings.max_payout if settings.max_payout is not None else 10**18
    win = [min(ante + 2 * ante * settings.bet_pay(n), cap) if n != "high_card" else 0 for n in CLASSES]
    return {"fold": -ante, "continue": min(ante, cap), "lose": -3 * ante, "tie": 0, "win": win,
            "exchange_win": [chips - ante for chips in win], "exchange_no_win": -ante}


def main_bets(settings: SixcardSettings, c: dict[str, Any]) -> dict[str, Any]:
    """Ante and Bet per Ante under the basic strategy, exactly, at an Ante of ``min_ante`` with ``max_payout``."""
    ante = settings.min_ante
    chips = outcome_chips(settings)
    w = c["weight"].astype(object)
    won = np.array(chips["win"], dtype=object)[c["klass"]]
    won_after = np.array(chips["exchange_win"], dtype=object)[c["klass"]]
    asks = c["klass"] >= _TRIPS
    ex = c["exchange"].astype(object)
    continuing = np.where(asks, 0, c["no_pair"].astype(object) * chips["continue"] * CARDS_LEFT)
    exchanging = np.where(asks, ex[:, 1] * won_after + (ex[:, 2] + ex[:, 4]) * chips["exchange_no_win"]
                          + chips["lose"] * ex[:, 3], 0)
    played = (c["win"].astype(object) * won + chips["lose"] * c["lose"].astype(object)) * CARDS_LEFT
    total = int((w * (played + continuing + exchanging)).sum()) + c["folded"] * DEALER_HANDS * CARDS_LEFT * chips[
        "fold"]
    ev = Fraction(total, DEALS * ante)
    raised = Fraction(int(c["weight"].sum()), comb(52, 5))
    return {"simulated": False, "strategy": SIXCARD_BASIC, "return_per_ante": float(ev),
            "house_edge_per_ante": float(-ev), "element_of_risk": float(-ev / (1 + 2 * raised)),
            "raised_share": float(raised),
            "method": "exact: every player hand (up to the suits) against every dealer hand left and, after a "
                      "dealer exchange, every card that can come in"}
