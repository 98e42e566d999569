"""Python's cycle collector, kept from stalling a server that holds thousands of connections.

A full (generation 2) collection walks every tracked object: at about 1,000
connected players that is some 250,000 objects and a 130-230 ms pause of the one
event loop, during which no table moves (``docs/benchmarks.md``, "Third round").
Most of those objects live as long as the server or a connection does, so the
policy here stops walking them again and again:

- at start-up, what importing and building the app made is moved out of the
  collector's sight (``gc.freeze``), as CPython's documentation suggests for
  long-lived processes;
- after each full collection, what survived it is frozen too, so the next full
  collection only walks objects made since (a quarter of the heap or less);
- every ``sweep_seconds`` one full collection looks at everything again
  (``gc.unfreeze`` just before it starts), so reference cycles among older objects
  that died meanwhile (a closed connection's) are still freed, only later.

Objects freed by reference counting (nearly all of them) are freed at once as
before: freezing only hides objects from the *cycle* collector.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


class GcPolicy:
    """Installs itself into :mod:`gc` (``install``) and removes itself (``uninstall``)."""

    def __init__(self, sweep_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.sweep_seconds = sweep_seconds
        self.clock = clock
        self.last_sweep = clock()
        self.sweeps = 0

    def install(self) -> None:
        """Freeze what exists now, then watch every full collection."""
        gc.collect()
        gc.freeze()
        self.last_sweep = self.clock()
        gc.callbacks.append(self._on_collect)

    def uninstall(self) -> None:
        """Give every frozen object back to the collector and stop watching."""
        if self._on_collect in gc.callbacks:
            gc.callbacks.remove(self._on_collect)
        gc.unfreeze()

    def _on_collect(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            now = self.clock()
            if now - self.last_sweep >= self.sweep_seconds:
                # Run from the collector's "start" callback, this puts the frozen objects
                # back into the oldest generation just before it is collected.
                gc.unfreeze()
                self.last_sweep = now
                self.sweeps += 1
        elif phase == "stop":
            gc.freeze()


def install_gc_policy(enabled: bool, sweep_seconds: float) -> GcPolicy | None:
    """The server's policy, installed; None (CPython's own behaviour) when ``enabled`` is false."""
    if not enabled:
        return None
    policy = GcPolicy(sweep_seconds)
    policy.install()
    return policy
