"""The garbage-collection policy: what it freezes, and that cycles among frozen objects are still freed."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from server.gcpolicy import GcPolicy, install_gc_policy


class Node:
    """An object that can sit in a reference cycle and be watched with a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def policy() -> Iterator[tuple[GcPolicy, FakeClock]]:
    clock = FakeClock()
    installed = GcPolicy(sweep_seconds=60.0, clock=clock)
    installed.install()
    try:
        yield installed, clock
    finally:
        installed.uninstall()


def dead_cycle() -> weakref.ref[Node]:
    """Two nodes pointing at each other, no longer referenced from outside: only the cycle collector frees them."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_install_freezes_what_exists_and_uninstall_gives_it_back(policy: tuple[GcPolicy, FakeClock]) -> None:
    installed, _ = policy
    assert gc.get_freeze_count() > 1000  # at least the modules' objects
    assert installed._on_collect in gc.callbacks
    installed.uninstall()
    assert gc.get_freeze_count() == 0
    assert installed._on_collect not in gc.callbacks


@pytest.mark.usefixtures("policy")
def test_a_full_collection_freezes_its_survivors() -> None:
    frozen_before = gc.get_freeze_count()
    kept = [Node() for _ in range(500)]
    gc.collect()
    assert gc.get_freeze_count() >= frozen_before + len(kept)


@pytest.mark.usefixtures("policy")
def test_a_young_dead_cycle_is_freed_by_the_next_collection() -> None:
    ref = dead_cycle()
    gc.collect()
    assert ref() is None


def test_a_frozen_cycle_waits_for_the_sweep_then_is_freed(policy: tuple[GcPolicy, FakeClock]) -> None:
    installed, clock = policy
    a, b = Node(), Node()
    a.other, b.other = b, a
    ref = weakref.ref(a)
    gc.collect()  # survives (still referenced here), so it is frozen
    del a, b
    gc.collect()
    assert ref() is not None, "frozen: the collector does not look at it before the sweep"
    clock.now += 59.0
    gc.collect()
    assert ref() is not None
    clock.now += 1.0
    gc.collect()
    assert ref() is None, "the sweep looks at every object again"
    assert installed.sweeps == 1


def test_disabled_means_cpythons_own_behaviour() -> None:
    callbacks = list(gc.callbacks)
    assert install_gc_policy(False, 600.0) is None
    assert gc.get_freeze_count() == 0
    assert gc.callbacks == callbacks


def test_installed_through_the_server_settings() -> None:
    installed = install_gc_policy(True, 600.0)
    try:
        assert installed is not None
        assert installed.sweep_seconds == 600.0
        assert gc.get_freeze_count() > 0
    finally:
        assert installed is not None
        installed.uninstall()
    assert gc.get_freeze_count() == 0
