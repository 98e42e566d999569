"""Exact High Card Flush counts: every player hand against every dealer hand, with card removal.

The hand values depend only on each suit's 13-bit rank mask (``docs/rules/hcf.md``
section 1), so a player hand is four masks, and the 133,784,560 hands fall into about
6 million classes up to a permutation of the suits: the counts in suit order are
sorted high to low, and suits holding as many cards list their masks in increasing
order. A class's weight is the number of suit relabellings that give distinct hands.

For each class, the dealer's 7 cards come from the 45 cards left, and what matters is
how many of those C(45, 7) hands have a best flush (or run) below a threshold. A
dealer hand's flush is below ``(s, m)`` exactly when each of its suits is: fewer than
``s`` cards, or ``s`` cards whose mask is below ``m``. So the count is the ``x**7``
coefficient of a product of one polynomial per suit, ``sum_c ways_c * x**c``. Below
``s`` cards a suit's ways are binomials of the ranks left in it, fixed by the class's
card counts; at ``s`` cards they are read from a table (the ``s``-card masks below
``m`` that avoid the player's cards, a running sum over the masks in order). The
product then expands into a few terms whose binomial parts are constants of the count
pattern. Runs are done the same way with a table of ways per (threshold, ranks left,
cards), built by a subset-sum over the 8,192 masks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, factorial
from typing import Final

import numpy as np
import numpy.typing as npt

from server.rules.hcf.evaluate import HAND_SIZE, RUN_KEY
from server.rules.hcf.strategy import RAISE_FROM_3_CARDS

Ints = npt.NDArray[np.int64]

RANKS: Final = 13
SUITS: Final = 4
FULL: Final = (1 << RANKS) - 1
BLOCK: Final = 250_000
"""Classes counted at once."""
DEALER_HANDS: Final = comb(52 - HAND_SIZE, HAND_SIZE)
"""C(45, 7): the dealer hands left for each player hand."""
QUALIFY_FROM: Final = 3 << 13 | 1 << 7 | 1 << 1 | 1
"""The flush key of 9-3-2, the weakest qualifying hand (docs/rules/hcf.md section 1)."""

_POPCOUNT: Final = np.array([m.bit_count() for m in range(1 << RANKS)], dtype=np.int64)
_RUN: Final = np.array(RUN_KEY, dtype=np.int64)
_BY_COUNT: Final = {c: np.array([m for m in range(1 << RANKS) if m.bit_count() == c], dtype=np.int64)
                    for c in range(HAND_SIZE + 1)}
_PERMS: Final = list(permutations(range(SUITS)))
_WEIGHT_BY_EQUAL_NEIGHBOURS: Final = np.array(
    [24 // n for n in (1, 2, 2, 6, 2, 4, 6, 24)], dtype=np.int64)
"""24 over the permutations fixing a row, by (masks 0=1) + 2 (1=2) + 4 (2=3)."""


def patterns() -> list[tuple[int, ...]]:
    """The ways 7 cards split over 4 suits, counts high to low."""
    out: list[tuple[int, ...]] = []
    for a in range(HAND_SIZE, -1, -1):
        for b in range(min(a, HAND_SIZE - a), -1, -1):
            for c in range(min(b, HAND_SIZE - a - b), -1, -1):
                d = HAND_SIZE - a - b - c
                if d <= c:
                    out.append((a, b, c, d))
    return out


def _nondecreasing(count: int, size: int) -> Ints:
    """Index tuples (rows) into the ``count``-card masks, each non-decreasing."""
    n = len(_BY_COUNT[count])
    grids = np.meshgrid(*([np.arange(n)] * size), indexing="ij")
    flat = np.stack([g.ravel() for g in grids], axis=1)
    keep = np.all(flat[:, 1:] >= flat[:, :-1], axis=1) if size > 1 else np.ones(len(flat), dtype=bool)
    return _BY_COUNT[count][flat[keep]]


def pattern_classes(pattern: tuple[int, ...]) -> tuple[Ints, Ints]:
    """(masks (rows, 4), weights) of every class with this count pattern."""
    groups: list[Ints] = []
    start = 0
    while start < SUITS:
        end = start
        while end < SUITS and pattern[end] == pattern[start]:
            end += 1
        groups.append(_nondecreasing(pattern[start], end - start))
        start = end
    masks = groups[0]
    for group in groups[1:]:
        masks = np.concatenate([np.repeat(masks, len(group), axis=0), np.tile(group, (len(masks), 1))], axis=1)
    # Equal masks sit side by side (same count, sorted), so the suit permutations that fix a row
    # are read off which neighbours are equal.
    equal = masks[:, 1:] == masks[:, :-1]
    code = equal[:, 0] + 2 * equal[:, 1] + 4 * equal[:, 2]
    return masks, _WEIGHT_BY_EQUAL_NEIGHBOURS[code]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One count pattern's classes with their dealer counts (all arrays per class)."""

    pattern: tuple[int, ...]
    weight: Ints
    flush_key: Ints
    run_key: Ints
    below: Ints       # dealer flush key < the player's
    not_above: Ints   # dealer flush key <= the player's
    unqualified: Ints  # dealer does not qualify
    run_below: Ints   # dealer run key < the player's (0 where the player has no run)
    run_not_above: Ints

    @property
    def size(self) -> int:
        """The player's flush size, the same for the whole pattern."""
        return self.pattern[0]


class _BelowTables:
    """N(p, m): the ``s``-card masks below ``m`` avoiding mask ``p``, per ``s`` (built on demand)."""

    def __init__(self) -> None:
        self._tables: dict[int, npt.NDArray[np.int16]] = {}
        self._index: dict[int, Ints] = {}

    def table(self, size: int) -> tuple[npt.NDArray[np.int16], Ints]:
        if size not in self._tables:
            masks = _BY_COUNT[size]
            avoid = (np.arange(1 << RANKS)[:, None] & masks[None, :]) == 0
            below = np.zeros(avoid.shape, dtype=np.int16)
            np.cumsum(avoid[:, :-1], axis=1, dtype=np.int16, out=below[:, 1:])
            index = np.full(1 << RANKS, -1, dtype=np.int64)
            index[masks] = np.arange(len(masks))
            # Patterns come grouped by flush size: keep that size's table and the 3-card one (qualifying).
            self._tables = {k: v for k, v in self._tables.items() if k == 3}
            self._tables[size] = below
            self._index[size] = index
        return self._tables[size], self._index[size]


def _ways(counts: tuple[int, ...], size: int) -> list[list[int]]:
    """Per suit, the ways to take ``c < size`` dealer cards from the ranks the player left."""
    return [[comb(RANKS - held, c) if c < size else 0 for c in range(HAND_SIZE + 1)] for held in counts]


def _product_coefficient(polys: list[list[int]], degree: int) -> int:
    """The ``x**degree`` coefficient of a product of polynomials (coefficient lists)."""
    acc = [1] + [0] * degree
    for poly in polys:
        acc = [sum(acc[i] * poly[k - i] for i in range(k + 1) if k - i < len(poly)) for k in range(degree + 1)]
    return acc[degree]


def _threshold_count(counts: tuple[int, ...], size: int, at_size: list[Ints]) -> Ints:
    """Dealer hands whose every suit is below the threshold: the expanded product (module docstring)."""
    base = _ways(counts, size)
    total: Ints = np.zeros(len(at_size[0]), dtype=np.int64)
    for chosen in range(SUITS + 1):
        if chosen * size > HAND_SIZE:
            break
        for subset in combinations(range(SUITS), chosen):
            rest = [base[j] for j in range(SUITS) if j not in subset]
            coefficient = _product_coefficient(rest, HAND_SIZE - chosen * size)
            if not coefficient:
                continue
            term = np.full(len(total), coefficient, dtype=np.int64)
            for j in subset:
                term = term * at_size[j]
            total += term
    return total


def run_tables() -> tuple[npt.NDArray[np.int32], Ints]:
    """(ways[threshold, ranks left, cards], threshold index by run key): runs below each threshold.

    Thresholds are every run key of 3 to 7 cards and each plus one (for "not above").
    """
    keys = sorted({k for k in RUN_KEY if k and k >> 4 <= HAND_SIZE})
    thresholds = sorted(set(keys) | {k + 1 for k in keys})
    index = np.full(1 << 8, -1, dtype=np.int64)
    index[thresholds] = np.arange(len(thresholds))
    counts = _POPCOUNT
    base = np.zeros((len(thresholds), HAND_SIZE + 1, 1 << RANKS), dtype=np.int32)
    for t, threshold in enumerate(thresholds):
        ok = (threshold > _RUN) & (counts <= HAND_SIZE)
        base[t, counts[ok], np.flatnonzero(ok)] = 1
    # Subset sums: ways[R] = sum over d within R.
    for bit in range(RANKS):
        view = base.reshape(len(thresholds), HAND_SIZE + 1, -1, 2, 1 << bit)
        view[:, :, :, 1, :] += view[:, :, :, 0, :]
    return base, index


def _run_counts(tables: npt.NDArray[np.int32], thresholds: Ints, left: Ints) -> Ints:
    """``x**7`` coefficient of the product of the four suits' run polynomials, per row."""
    acc = tables[thresholds, :, left[:, 0]].astype(np.int64)
    for j in range(1, SUITS):
        poly = tables[thresholds, :, left[:, j]].astype(np.int64)
        if j < SUITS - 1:
            grown = np.zeros_like(acc)
            for k in range(HAND_SIZE + 1):
                grown[:, k] = (acc[:, : k + 1] * poly[:, k::-1]).sum(axis=1)
            acc = grown
        else:
            return np.asarray((acc * poly[:, ::-1]).sum(axis=1), dtype=np.int64)
    raise AssertionError("four suits")


def chunks(on_pattern: Callable[[int, int], None] | None = None) -> Iterator[Chunk]:
    """Every class of player hand with its dealer counts, one count pattern at a time."""
    below_tables = _BelowTables()
    runs, run_index = run_tables()
    every = patterns()
    for done, pattern in enumerate(every):
        all_masks, all_weights = pattern_classes(pattern)
        for start in range(0, len(all_masks), BLOCK):  # blocks bound the memory (a few hundred MB)
            block = slice(start, start + BLOCK)
            yield _chunk(pattern, all_masks[block], all_weights[block], below_tables, runs, run_index)
        if on_pattern is not None:
            on_pattern(done + 1, len(every))


def _chunk(pattern: tuple[int, ...], masks: Ints, weight: Ints, below_tables: _BelowTables,
           runs: npt.NDArray[np.int32], run_index: Ints) -> Chunk:
    """The dealer counts of one block of classes."""
    size = pattern[0]
    best_suit = pattern.count(size) - 1  # the last of the equal-count suits holds the highest mask
    best = masks[:, best_suit]
    flush_key = size << 13 | best
    table, index = below_tables.table(size)
    at_size = [table[masks[:, j], index[best]].astype(np.int64) for j in range(SUITS)]
    below = _threshold_count(pattern, size, at_size)
    with_equal = [at_size[j] + ((masks[:, j] & best) == 0) for j in range(SUITS)]
    not_above = _threshold_count(pattern, size, with_equal)
    q_table, q_index = below_tables.table(3)
    q_at = [q_table[masks[:, j], q_index[QUALIFY_FROM & FULL]].astype(np.int64) for j in range(SUITS)]
    unqualified = _threshold_count(pattern, 3, q_at)
    run_key = _RUN[masks].max(axis=1)
    run_below = np.zeros(len(masks), dtype=np.int64)
    run_not_above = np.zeros(len(masks), dtype=np.int64)
    has_run = np.flatnonzero(run_key > 0)
    if len(has_run):
        left = FULL & ~masks[has_run]
        run_below[has_run] = _run_counts(runs, run_index[run_key[has_run]], left)
        run_not_above[has_run] = _run_counts(runs, run_index[run_key[has_run] + 1], left)
    return Chunk(pattern, weight, flush_key, run_key, below, not_above, unqualified, run_below, run_not_above)


def basic_raises(flush_key: Ints) -> npt.NDArray[np.bool_]:
    """Whether the basic strategy raises (docs/rules/hcf.md section 1; server/rules/hcf/strategy.py)."""
    return np.asarray((flush_key >> 13 >= 4) | (flush_key >= RAISE_FROM_3_CARDS))


def raise_limit(size: int) -> int:
    """Antes a flush of ``size`` cards may raise."""
    return 3 if size >= 6 else 2 if size == 5 else 1


def check_weights() -> int:
    """The classes' weights add up to C(52, 7) (a self-check for tests)."""
    return sum(int(pattern_classes(p)[1].sum()) for p in patterns())


__all__ = ["DEALER_HANDS", "QUALIFY_FROM", "Chunk", "basic_raises", "check_weights", "chunks", "factorial",
           "patterns", "raise_limit"]
