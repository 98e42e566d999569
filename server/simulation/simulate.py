"""Play a run of hands with the vectorized engine, batch by batch.

>>> from server.simulation.scenario import Scenario
>>> tally = simulate(Scenario.build("standard", players=2), 1000, "5eed", batch=300)
>>> tally.hands, int(tally.flush_sizes.sum())
(1000, 3000)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from server.simulation import vectorized
from server.simulation.decks import DeckStream
from server.simulation.scenario import Scenario
from server.simulation.tally import Tally

BATCH: Final = 20_000
"""Hands per numpy batch: large enough to amortize numpy's call overhead, small enough for the cache."""


def simulate(
    scenario: Scenario,
    hands: int,
    seed: str,
    *,
    batch: int = BATCH,
    on_progress: Callable[[int], None] | None = None,
) -> Tally:
    """Totals over ``hands`` hands dealt from ``seed``; ``on_progress(done)`` after each batch."""
    decks = DeckStream(seed)
    tally = Tally(scenario.player_positions)
    done = 0
    while done < hands:
        count = min(batch, hands - done)
        tally.add(scenario, vectorized.play(scenario, decks.take(count)))
        done += count
        if on_progress is not None:
            on_progress(done)
    return tally
