"""The practice scheduler (issue 27, item 5; docs/drills.md, "Practice on weak items"): spaced repetition over
step kinds, and a seeded draw of the next session's steps. Pure: the history and the seed come in.

The rule, session by session (oldest first), for each step kind the session asked:

* all its steps right: its **box** goes up one (at most ``MAX_BOX``); any miss: back to box 0;
* it is **due** again ``INTERVALS[box]`` sessions later (box 0: the next session, box 4: sixteen later).

A kind never asked is in box 0 and due. Its **weight** in the next session is ``(1 + misses) * DUE_FACTOR``
when due, ``1 + misses`` when not, ``misses`` being every step of that kind missed in the whole history.
The session draws each step's kind with those weights (Python's ``random.Random(seed)``, so one seed
replays one session), then one of that kind's candidate steps.

>>> state = schedule([{"fees": (1, 1)}, {"fees": (0, 1), "qualify": (2, 2)}])
>>> state["fees"], state["qualify"]
(Item(box=0, due=2, misses=1), Item(box=1, due=3, misses=0))
>>> weights(state, ["fees", "qualify", "payout"], 2)
{'fees': 6, 'qualify': 1, 'payout': 3}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

INTERVALS: Final = (1, 2, 4, 8, 16)
"""Sessions until a kind in box 0, 1, 2, 3 or 4 is due again."""
MAX_BOX: Final = len(INTERVALS) - 1
DUE_FACTOR: Final = 3
SEED_BITS: Final = 64
PRACTICE_STEPS: Final = 12
"""Steps in a practice session unless the trainee asks for another number."""


@dataclass(frozen=True, slots=True)
class Item:
    """One step kind's place in the schedule: its box, the session (counting from 0) it is due in, its misses."""

    box: int = 0
    due: int = 0
    misses: int = 0


def after(item: Item, session: int, right: int, total: int) -> Item:
    """``item`` after ``session`` asked it ``total`` times and ``right`` were right."""
    box = min(item.box + 1, MAX_BOX) if right == total else 0
    return Item(box=box, due=session + INTERVALS[box], misses=item.misses + total - right)


def schedule(sessions: Sequence[Mapping[str, tuple[int, int]]]) -> dict[str, Item]:
    """Fold every session's (right, total) per step kind, oldest first, into each kind's place."""
    state: dict[str, Item] = {}
    for n, tallies in enumerate(sessions):
        for kind, (right, total) in tallies.items():
            if total:
                state[kind] = after(state.get(kind, Item()), n, right, total)
    return state


def weight(item: Item, session: int) -> int:
    """A kind's weight in ``session``: ``1 + misses``, times ``DUE_FACTOR`` when it is due."""
    return (1 + item.misses) * (DUE_FACTOR if item.due <= session else 1)


def weights(state: Mapping[str, Item], kinds: Sequence[str], session: int) -> dict[str, int]:
    """Each of ``kinds``' weight in ``session`` (a kind the state does not know: box 0, due, no misses)."""
    return {kind: weight(state.get(kind, Item()), session) for kind in kinds}


def plan(state: Mapping[str, Item], candidates: Mapping[str, int], session: int, seed: int,
         steps: int = PRACTICE_STEPS) -> list[tuple[str, int]]:
    """The next session: ``steps`` picks of (kind, index among that kind's ``candidates``), drawn with ``seed``.

    ``candidates``: how many steps of each kind there are to draw from (kinds with none are never drawn).
    """
    kinds = sorted(k for k, n in candidates.items() if n > 0)
    if not kinds:
        return []
    ws = weights(state, kinds, session)
    draw = random.Random(seed)
    out = []
    for _ in range(steps):
        kind = draw.choices(kinds, [ws[k] for k in kinds])[0]
        out.append((kind, draw.randrange(candidates[kind])))
    return out
