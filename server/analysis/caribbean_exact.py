"""Caribbean Stud's Ante and Back Bet, exactly, for "play A-K or better" (docs/rules/caribbean.md section 3).

Every player hand meets each of the C(47, 5) = 1,533,939 dealer hands left. What a
played hand needs is how many of those do not qualify, are below it, or equal it.
Counting hands that *avoid* the player's five cards is inclusion-exclusion over the
subsets S of those cards: the hands below a value that avoid all five are
``sum over S of (-1)**|S| * (hands below that value containing S)``. Hands containing
S, by value, come from tables built once from all 2,598,960 hands valued with the
simulator's ``values5`` (the rules' ``rank5``, vectorized): dense running counts for
|S| <= 2, sorted keys for |S| = 3 and 4. Player hands are taken up to a relabelling of
the suits (134,459 classes, each with its weight), so only about 75,000 played classes
are queried.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations
from math import comb
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from server.rules.cards import parse_cards
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.poker import CLASSES, class_name
from server.simulation.sixcard import values5

Ints = npt.NDArray[np.int64]

CARDS: Final = 52
HAND: Final = 5
DEALER_HANDS: Final = comb(CARDS - HAND, HAND)
_LOWEST_QUALIFIER: Final = "Ac Kd 4h 3s 2c"
SIMPLE: Final = "the simple strategy: play (raise) with ace-king or better, fold the rest, whatever the up card"


def _combinations(n: int, k: int) -> Ints:
    """Every k-subset of range(n), rows increasing, in lexicographic order."""
    rows = np.arange(n, dtype=np.int64)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1]
        counts = n - 1 - last
        starts = np.cumsum(counts) - counts
        offsets = np.arange(int(counts.sum())) - np.repeat(starts, counts)
        rows = np.concatenate([np.repeat(rows, counts, axis=0), (np.repeat(last, counts) + 1 + offsets)[:, None]],
                              axis=1)
    return rows


def _subset_index(cards: npt.NDArray[np.integer[Any]]) -> Ints:
    """The colex rank of each row (an increasing k-subset of the deck) among all k-subsets."""
    index = np.zeros(len(cards), dtype=np.int64)
    binom = np.array([[comb(c, i) for i in range(HAND + 1)] for c in range(CARDS)], dtype=np.int64)
    for i in range(cards.shape[1]):
        index += binom[cards[:, i], i + 1]
    return index


@dataclass(frozen=True, slots=True)
class _Tables:
    ranks: int                # distinct hand values
    dense: list[npt.NDArray[np.int32]]  # |S| = 0, 1, 2: [subset, t] = hands containing S below value rank t
    keys3: npt.NDArray[np.int32]        # sorted subset * 8192 + value rank, |S| = 3
    keys4: npt.NDArray[np.uint32]       # the same, |S| = 4


@cache
def _hands() -> tuple[npt.NDArray[np.int8], Ints, Ints]:
    """(cards (N, 5) increasing, value ranks (dense, 0..7461), values) of every hand."""
    cards = _combinations(CARDS, HAND).astype(np.int8)  # 13 MB instead of 104
    values = np.concatenate([values5(cards[i:i + 250_000]) for i in range(0, len(cards), 250_000)])
    distinct, ranks = np.unique(values, return_inverse=True)
    return cards, ranks.astype(np.int64), distinct


def _tables() -> _Tables:
    cards, ranks, distinct = _hands()
    n_ranks = len(distinct)
    dense: list[npt.NDArray[np.int32]] = []
    keys: list[npt.NDArray[np.integer[Any]]] = []
    for k in range(5):
        subsets = [list(c) for c in combinations(range(HAND), k)]
        if k == 0:
            counts = np.bincount(ranks, minlength=n_ranks)[None, :]
            dense.append(_running(counts))
            continue
        if k <= 2:
            counts = np.zeros(comb(CARDS, k) * n_ranks, dtype=np.int64)
            for cols in subsets:
                counts += np.bincount(_subset_index(cards[:, cols]) * n_ranks + ranks, minlength=len(counts))
            dense.append(_running(counts.reshape(comb(CARDS, k), n_ranks)))
        else:
            # One subset position at a time keeps the peak near the final array (26 million keys for |S| = 3).
            kind = np.int32 if k == 3 else np.uint32
            parts = [(_subset_index(cards[:, cols]) << 13 | ranks).astype(kind) for cols in subsets]
            joined = np.concatenate(parts)
            del parts
            joined.sort()
            keys.append(joined)
    return _Tables(n_ranks, dense, keys[0].astype(np.int32), keys[1].astype(np.uint32))


def _running(counts: Ints) -> npt.NDArray[np.int32]:
    """[subset, t]: the hands with a value rank below t (t = 0 .. ranks)."""
    out = np.zeros((counts.shape[0], counts.shape[1] + 1), dtype=np.int32)
    np.cumsum(counts, axis=1, out=out[:, 1:])
    return out


def _classes() -> tuple[Ints, Ints]:
    """(a representative row of the hands table, weight) per class of hands up to the suits."""
    cards = _hands()[0]
    place = np.array([CARDS**i for i in range(HAND)], dtype=np.int64)
    perms = [np.array(p, dtype=np.int8) for p in permutations(range(4))]
    best = np.empty(len(cards), dtype=np.int64)
    for start in range(0, len(cards), 250_000):  # in blocks: 24 relabellings of every hand at once is a lot
        block = cards[start:start + 250_000]
        codes = [np.sort((block >> 2 << 2) | perm[block & 3], axis=1) @ place for perm in perms]
        best[start:start + len(block)] = np.min(codes, axis=0)
    _, first, weight = np.unique(best, return_index=True, return_counts=True)
    return first, weight


def _avoiding(tables: _Tables, cards: npt.NDArray[np.int8], own_rank: Ints, threshold: Ints) -> Ints:
    """Per row: hands avoiding the row's five cards with a value rank below ``threshold``."""
    total = tables.dense[0][0, threshold].astype(np.int64)
    for k in range(1, HAND + 1):
        sign = -1 if k % 2 else 1
        for cols in combinations(range(HAND), k):
            index = _subset_index(cards[:, list(cols)])
            if k <= 2:
                below = tables.dense[k][index, threshold].astype(np.int64)
            elif k < HAND:
                keys = tables.keys3 if k == 3 else tables.keys4
                block = comb(CARDS - k, HAND - k)
                query = (index << 13 | threshold).astype(keys.dtype)  # no copy of the keys to a wider type
                below = np.searchsorted(keys, query) - index * block
            else:
                below = (own_rank < threshold).astype(np.int64)
            total += sign * below
    return np.asarray(total, dtype=np.int64)


def play_counts(progress: Callable[[float, str], None] | None = None) -> dict[str, int]:
    """Deals (player hand, dealer hand) by outcome under "play A-K or better": ``fold``,
    ``unqualified``, ``tie``, ``lose`` and ``win:<class>``; the same for every pay table."""
    def step(done: float, what: str) -> None:
        if progress is not None:
            progress(done, what)

    step(0.0, "valuing every five-card hand")
    cards, ranks, distinct = _hands()
    step(0.2, "tables of the hands containing each card subset")
    tables = _tables()
    step(0.6, "player hands up to the suits")
    first, weight = _classes()
    step(0.7, "every player hand against every dealer hand")
    q_value = int(values5(np.array([parse_cards(_LOWEST_QUALIFIER)], dtype=np.int64))[0])
    q_rank = int(np.searchsorted(distinct, q_value))
    plays = ranks[first] >= q_rank
    rows, w = first[plays], weight[plays]
    own = ranks[rows]
    hand = cards[rows]
    unqualified = _avoiding(tables, hand, own, np.full(len(rows), q_rank))
    step(0.8, "every player hand against every dealer hand")
    below = _avoiding(tables, hand, own, own)
    step(0.9, "every player hand against every dealer hand")
    not_above = _avoiding(tables, hand, own, own + 1)
    step(1.0, "every player hand against every dealer hand")
    names = np.array([CLASSES.index(class_name(int(v))) for v in distinct[own].tolist()], dtype=np.int64)
    win = below - unqualified
    out = {"fold": int(weight[~plays].sum()) * DEALER_HANDS, "unqualified": int((w * unqualified).sum()),
           "tie": int((w * (not_above - below)).sum()), "lose": int((w * (DEALER_HANDS - not_above)).sum())}
    for i, name in enumerate(CLASSES):
        out[f"win:{name}"] = int((w * win)[names == i].sum())
    return out


def main_bets(settings: CaribbeanSettings, counts: dict[str, int]) -> dict[str, object]:
    """Ante and Back Bet per Ante, exactly, from :func:`play_counts`, with the table's pays and ``max_payout``."""
    ante = settings.min_ante
    cap = settings.max_payout
    hands = comb(CARDS, HAND)

    def won(chips: int) -> Fraction:
        return Fraction(chips if cap is None else min(chips, cap), ante)

    rows = [("fold", Fraction(-1), counts["fold"]), ("dealer does not qualify", won(ante), counts["unqualified"]),
            ("tie (push)", Fraction(0), counts["tie"]), ("lose", Fraction(-3), counts["lose"])]
    rows += [(f"win with {name}", won(ante + 2 * ante * settings.bet_pay(name)), counts[f"win:{name}"])
             for name in CLASSES if counts[f"win:{name}"]]
    total = sum((net * n for _, net, n in rows), Fraction(0))
    deals = hands * DEALER_HANDS
    ev = total / deals
    plays = 1 - Fraction(counts["fold"], deals)
    return {
        "simulated": False,
        "strategy": SIMPLE,
        "return_per_ante": float(ev),
        "house_edge_per_ante": float(-ev),
        "element_of_risk": float(-ev / (1 + 2 * plays)),
        "played_share": float(plays),
        "outcomes": [{"outcome": name, "net": float(net), "probability": float(Fraction(n, deals))}
                     for name, net, n in rows],
        "method": "exact: every player hand (up to the suits) against every dealer hand left, by "
                  "inclusion-exclusion over the player's cards",
    }
