"""CPU of the Caribbean Stud and 6 Card Poker hand views, every viewer, every state of a hand.

Run by hand (not a test), from the repository root; ``PYTHONPATH`` picks the tree measured:

    PYTHONPATH=. .venv/bin/python -P bench/house_views.py
    PYTHONPATH=/path/to/other/tree .venv/bin/python -P bench/house_views.py

For each state of one played hand (7 seats, a spot each, at Caribbean Stud; 4 seats, a box
each, at 6 Card Poker), each viewer's hand view is built and diffed against the one that
viewer was sent last, as the update builder does a batch. The best of 15 runs, in process CPU
time. The figures go to docs/benchmarks.md (tenth round).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from server.rules.caribbean import view as caribbean
from server.rules.caribbean.messages import PlaySpot
from server.rules.sixcard import view as sixcard
from server.rules.sixcard.messages import RaiseBox
from server.viewpatch import diff
from tests.rules.caribbean.live import run as caribbean_run
from tests.rules.sixcard.live import run as sixcard_run

HandView = Callable[[Any, int | None], Any]


def caribbean_states() -> list[Any]:
    """Every state of a 7-seat Caribbean Stud hand in which each spot plays."""
    r = caribbean_run([(seat, 5000) for seat in range(1, 8)])
    for seat in range(1, 8):
        r.bet(seat, (seat, 10))
    while (turn := r.state.turn) is not None:
        r.do(PlaySpot(turn.seat, turn.spot))
    return [before for before, _ in r.trace] + [r.state]


def sixcard_states() -> list[Any]:
    """Every state of a 4-seat 6 Card Poker hand (the most boxes a table has) in which each box raises."""
    r = sixcard_run([(seat, 5000) for seat in range(1, 5)])
    for seat in range(1, 5):
        r.bet(seat, (seat, 10, 5))
    while (turn := r.state.turn) is not None:
        r.do(RaiseBox(r.state.box(turn).seat, turn))
    return [before for before, _ in r.trace] + [r.state]


def per_state(states: list[Any], hand_view: HandView, seats: int) -> float:
    """Seconds of CPU a state: every viewer's view built and diffed (the best of 15 runs)."""
    viewers: list[int | None] = [None, *range(1, seats + 1)]
    best = float("inf")
    for _ in range(15):
        gc.disable()
        start = time.process_time()
        held: dict[int | None, Any] = {}
        for state in states:
            for viewer in viewers:
                view = hand_view(state, viewer)
                if viewer in held:
                    diff(held[viewer], view, ["hand"])
                held[viewer] = view
        best = min(best, time.process_time() - start)
        gc.enable()
    return best / len(states)


def main() -> None:
    """Print each game's CPU a state and a viewer."""
    games: list[tuple[str, list[Any], HandView, int]] = [
        ("caribbean", caribbean_states(), caribbean.hand_view, 7),
        ("sixcard", sixcard_states(), sixcard.hand_view, 4),
    ]
    for name, states, hand_view, seats in games:
        seconds = per_state(states, hand_view, seats)
        print(f"{name}: {len(states)} states, {seats + 1} viewers: {seconds * 1e6:.0f} us a state, "
              f"{seconds / (seats + 1) * 1e6:.1f} us a viewer")


if __name__ == "__main__":
    main()
