"""Caribbean Stud's best strategy, exactly: raise or fold for each player hand *and* the dealer's up card.

The player sees five cards and the dealer's up card u (docs/rules/caribbean.md section
3.2). For each (hand, u) this module counts the dealer's other four cards, all C(46, 4) =
163,185 of them, by outcome: the dealer does not qualify, the player wins, ties, loses.
As in :mod:`server.analysis.caribbean_exact` the dealer hands that avoid the player's
five cards come by inclusion-exclusion over the subsets S of those cards, here of the
hands that contain S and u. The tables are built once per up card from the hands that
contain it (249,900): running counts per value for S of 0 to 2 cards, the 48 values
sorted for each 3-card S, and the value of the one hand S + u for 4 cards. Player hands
are taken up to a relabelling of the suits (134,459 classes, each with its weight), each
against the 47 up cards it leaves.

The counts do not depend on the settings. They are merged (rows with the same group and
the same counts add their weights) and cached on disk; the table's Back Bet pays and
``max_payout`` then decide each row, raise when that does strictly better than folding.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from server.analysis import caribbean_exact as ce
from server.rules.cards import parse_cards
from server.rules.poker import CLASSES, class_name
from server.simulation.sixcard import values5

Ints = npt.NDArray[np.int64]
OTHER_FOUR: Final = comb(46, 4)
"""The dealer's other four cards, for one player hand and up card."""
DEALS: Final = comb(52, 5) * 47 * OTHER_FOUR
"""(player hand, up card, dealer's other four) deals: 19,933,230,517,200."""
_RANKS: Final = "23456789TJQKA"
# Card groups of the strategy card (settings do not enter): a group per hand class, split where the
# up card can change the decision. High cards: below A-K; A-K by its third card and by how the up card
# stands to the player's cards (:data:`UP_KINDS`). Pairs: by the pair's rank and whether the up card's
# rank is one of the player's.
HIGH_BELOW_AK: Final = 0
PAIRS_FROM: Final = 1 + 4 * 13
OTHERS_FROM: Final = PAIRS_FROM + 2 * 13
UP_KINDS: Final = ("the up card matches none of your cards and is above your fourth card",
                   "the up card matches none of your cards and is below your fourth card",
                   "the up card matches your ace or king",
                   "the up card matches one of your three lower cards")


def group_of(class_index: int, ranks: tuple[int, ...], up_rank: int) -> int:
    """The strategy card's group of a hand (``ranks`` high to low, as the class orders them) and up card.

    >>> group_of(0, (12, 11, 10, 5, 2), 3), group_of(0, (12, 11, 10, 5, 2), 12), group_of(1, (3, 3, 9, 7, 2), 9)
    (42, 43, 60)
    """
    matched = up_rank in ranks
    if class_index == 0:
        if ranks[0] != 12 or ranks[1] != 11:
            return HIGH_BELOW_AK
        kind = (2 if up_rank >= 11 else 3) if matched else int(up_rank < ranks[3])
        return 1 + 4 * ranks[2] + kind
    if class_index == 1:
        return PAIRS_FROM + 2 * ranks[0] + int(matched)
    return OTHERS_FROM + class_index


def group_words(group: int) -> str:
    """The group as a person says it.

    >>> group_words(0)
    'no pair, below ace-king'
    >>> group_words(1 + 4 * 10 + 2)
    'ace-king-queen, no pair, the up card matches your ace or king'
    >>> group_words(PAIRS_FROM + 2 * 3), group_words(OTHERS_FROM + 2)
    ('a pair of 5s, the up card matches none of your cards', 'two pair')
    """
    if group == HIGH_BELOW_AK:
        return "no pair, below ace-king"
    if group < PAIRS_FROM:
        third, kind = divmod(group - 1, 4)
        return f"ace-king-{_name(third)}, no pair, {UP_KINDS[kind]}"
    if group < OTHERS_FROM:
        pair, matched = divmod(group - PAIRS_FROM, 2)
        return f"a pair of {_RANKS[pair]}s, {_match(matched)}"
    from server.analysis.render import HAND_NAMES  # the names people say; render imports nothing of ours here
    return HAND_NAMES[CLASSES[group - OTHERS_FROM]]


def _name(rank: int) -> str:
    return {12: "ace", 11: "king", 10: "queen", 9: "jack", 8: "ten"}.get(rank, _RANKS[rank])


def _match(matched: int) -> str:
    return "the up card matches one of your cards" if matched else "the up card matches none of your cards"


@cache
def _by_index() -> npt.NDArray[np.int16]:
    """The value rank of every hand, by its colex index (so any 5 cards can be looked up)."""
    cards, ranks, _ = ce._hands()
    out = np.empty(len(cards), dtype=np.int16)
    out[ce._subset_index(cards)] = ranks
    return out


class _UpTables:
    """Hands containing the up card ``up``, by the other cards they contain (relabelled 0..50)."""

    def __init__(self, up: int) -> None:
        cards, ranks, distinct = ce._hands()
        n_ranks = len(distinct)
        self.up = up
        rows = (cards == up).any(axis=1)
        mine = cards[rows].astype(np.int64)
        own = ranks[rows]
        other = np.sort(np.where(mine == up, 99, mine), axis=1)[:, :4]
        other -= other > up  # the up card's own slot is gone: 0..50
        self.dense: list[npt.NDArray[np.int32]] = []
        for k in range(3):
            subsets = [list(c) for c in combinations(range(4), k)]
            counts = np.zeros(comb(51, k) * n_ranks, dtype=np.int64)
            for cols in subsets:
                counts += np.bincount(_colex(other[:, cols]) * n_ranks + own, minlength=len(counts))
            self.dense.append(ce._running(counts.reshape(comb(51, k), n_ranks)))
        triples = np.concatenate([_colex(other[:, list(c)]) for c in combinations(range(4), 3)])
        values = np.tile(own, 4)
        order = np.lexsort((values, triples))
        self.sorted48 = values[order].astype(np.int16).reshape(comb(51, 3), 48)

    def counts(self, hands: Ints, thresholds: list[Ints]) -> list[Ints]:
        """Per row of ``hands`` (increasing, avoiding the up card): the dealer hands holding the up card
        and avoiding the row's cards, with a value rank below each threshold."""
        relabelled = hands - (hands > self.up)
        totals = [np.zeros(len(hands), dtype=np.int64) for _ in thresholds]
        by_index = _by_index()
        for k in range(5):
            sign = -1 if k % 2 else 1
            for cols in combinations(range(5), k):
                if k <= 2:
                    index = _colex(relabelled[:, list(cols)]) if k else np.zeros(len(hands), dtype=np.int64)
                    for total, t in zip(totals, thresholds, strict=True):
                        total += sign * self.dense[k][index, t]
                elif k == 3:
                    block = self.sorted48[_colex(relabelled[:, list(cols)])]
                    for total, t in zip(totals, thresholds, strict=True):
                        total += sign * (block < t[:, None]).sum(axis=1)
                else:
                    whole = np.sort(np.concatenate([hands[:, list(cols)], np.full((len(hands), 1), self.up)],
                                                   axis=1), axis=1)
                    value = by_index[ce._subset_index(whole)]
                    for total, t in zip(totals, thresholds, strict=True):
                        total += sign * (value < t)
        return totals


def _colex(cards: Ints) -> Ints:
    """Colex rank of each increasing row among the subsets of 51 cards of its size."""
    index = np.zeros(len(cards), dtype=np.int64)
    for i in range(cards.shape[1]):
        index += _BINOM[cards[:, i], i + 1]
    return index


_BINOM: Final = np.array([[comb(c, i) for i in range(6)] for c in range(52)], dtype=np.int64)


def count_rows(progress: Callable[[float, str], None] | None = None,
               ranks_up: range = range(13)) -> dict[str, Ints]:
    """Every (player class, up card) row's outcome counts, merged by (group, class, counts); ``ranks_up``: the
    up cards' ranks (all 13 but in tests).

    A relabelling of the suits changes no count, so a hand against an up card of suit s is counted as the
    hand with suits s and 0 swapped against the up card of suit 0: one set of tables per rank.

    Returns arrays ``group``, ``klass``, ``weight`` (player hands times up cards), ``unqualified``,
    ``win``, ``tie``, ``lose`` (dealer's other four cards, of :data:`OTHER_FOUR`).
    """
    cards, ranks, distinct = ce._hands()
    first, weight = ce._classes()
    reps = cards[first].astype(np.int64)
    own = ranks[first]
    q_value = int(values5(np.array([parse_cards(ce._LOWEST_QUALIFIER)], dtype=np.int64))[0])
    q_rank = int(np.searchsorted(distinct, q_value))
    klass = np.array([CLASSES.index(class_name(int(v))) for v in distinct.tolist()], dtype=np.int64)[own]
    descending = _ranks_by_count(reps)
    # One integer per row, (group, counts) packed (the group fixes the class; each count is below 2**18),
    # with its weight: a sixth of the memory of the rows kept whole.
    packed_parts: list[Ints] = []
    weight_parts: list[npt.NDArray[np.int8]] = []
    for done, rank in enumerate(ranks_up):
        if progress is not None:
            progress(done / len(ranks_up), "every player hand against every up card")
        tables = _UpTables(rank << 2)  # the up card of suit 0 stands for its rank's four
        for suit in range(4):
            up = rank << 2 | suit
            rows = ~(reps == up).any(axis=1)
            hands, mine, kl = _swap_suits(reps[rows], suit), own[rows], klass[rows]
            nq, below, not_above = tables.counts(hands, [np.full(len(hands), q_rank), mine, mine + 1])
            plays = mine >= q_rank
            win = np.where(plays, below - nq, 0)
            tie = np.where(plays, not_above - below, 0)
            groups = _groups(kl, descending[rows], rank)
            packed_parts.append(groups << 54 | nq << 36 | win << 18 | tie)
            weight_parts.append(weight[rows].astype(np.int8))  # a class holds at most 24 hands
    keys, inverse = np.unique(np.concatenate(packed_parts), return_inverse=True)
    del packed_parts
    summed = np.bincount(inverse, weights=np.concatenate(weight_parts).astype(np.float64)).astype(np.int64)
    group = keys >> 54
    out = {"group": group, "klass": _class_of(group), "weight": summed, "unqualified": keys >> 36 & 0x3FFFF,
           "win": keys >> 18 & 0x3FFFF, "tie": keys & 0x3FFFF}
    out["lose"] = OTHER_FOUR - out["unqualified"] - out["win"] - out["tie"]
    return out


def _swap_suits(hands: Ints, suit: int) -> Ints:
    """Each hand with suits ``suit`` and 0 swapped, its cards increasing again."""
    suits = hands & 3
    swapped = np.where(suits == suit, 0, np.where(suits == 0, suit, suits))
    return np.sort(hands - suits + swapped, axis=1)


def _class_of(group: Ints) -> Ints:
    """The hand class of each group (:func:`group_of`)."""
    return np.where(group < PAIRS_FROM, 0, np.where(group < OTHERS_FROM, 1, group - OTHERS_FROM))


def _ranks_by_count(hands: Ints) -> Ints:
    """Each hand's five ranks ordered as its class reads them: by how often each comes, then high to low."""
    r = hands >> 2
    counts = (r[:, :, None] == r[:, None, :]).sum(axis=2)
    order = np.argsort(-(counts * 16 + r), axis=1, kind="stable")
    return np.take_along_axis(r, order, axis=1)


def _groups(klass: Ints, ranks: Ints, up_rank: int) -> Ints:
    """:func:`group_of`, for many rows at once."""
    matched = (ranks == up_rank).any(axis=1)
    kind = np.where(matched, np.where(up_rank >= 11, 2, 3), (up_rank < ranks[:, 3]).astype(np.int64))
    ace_king = (ranks[:, 0] == 12) & (ranks[:, 1] == 11)
    high = np.where(ace_king, 1 + 4 * ranks[:, 2] + kind, HIGH_BELOW_AK)
    return np.where(klass == 0, high, np.where(klass == 1, PAIRS_FROM + 2 * ranks[:, 0] + matched,
                                               OTHERS_FROM + klass))


def rows_json(rows: dict[str, Ints]) -> dict[str, Any]:
    """The rows as lists of ints, for the JSON cache."""
    return {name: array.tolist() for name, array in rows.items()}


def rows_from_json(data: dict[str, Any]) -> dict[str, Ints]:
    """The inverse of :func:`rows_json`."""
    return {name: np.array(values, dtype=np.int64) for name, values in data.items()}
