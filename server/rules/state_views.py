"""What every viewer sees of a hand state, built once per state for the last few states (issue 25).

A batch's updates ask each game's view for the same state once per viewer: the requesters'
before they are answered, everyone else's after a turn of the event loop, during which other
tables' batches ask for theirs. One remembered state was evicted by them in the burst benchmark
(about 1.7 builds a batch, docs/benchmarks.md, tenth round), and a rebuilt view's values are no
longer the objects the update builder compares by identity. The states are immutable, so a view
of one never goes stale; each is kept by identity, and only the last ``kept``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")
V = TypeVar("V")

KEPT = 64
"""States remembered (tables whose batches may interleave between a batch's first viewer and its last)."""


class PerState(Generic[S, V]):
    """``build(state)``, remembered for the last ``kept`` states by identity (callers must not change a result)."""

    __slots__ = ("_build", "_found", "_kept")

    def __init__(self, build: Callable[[S], V], kept: int = KEPT) -> None:
        if kept < 1:
            raise ValueError("a view cache keeps at least one state")
        self._build, self._kept = build, kept
        self._found: dict[int, tuple[S, V]] = {}  # by the state's id; the state itself keeps its id from reuse

    def __call__(self, state: S) -> V:
        """The view of ``state``: the one built before if it is remembered, else a new one."""
        found = self._found.get(id(state))
        if found is not None and found[0] is state:
            return found[1]
        view = self._build(state)
        if len(self._found) >= self._kept:
            del self._found[next(iter(self._found))]  # the oldest
        self._found[id(state)] = (state, view)
        return view
