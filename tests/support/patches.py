"""What a spying test reads of an update's ``patch`` (docs/protocol.md section 4): each value with its hand."""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping
from typing import Any


def patch_pieces(seq: int | None, patch: object, hand_of_seq: Mapping[int, int]
                 ) -> Iterator[tuple[int | None, int | None, Any]]:
    """(hand id, seq, value) for each value an update's patch sets.

    A patch of ``hand`` changes the hand the viewer already holds (a new hand comes whole),
    which is the last hand with an event recorded at or before the update's ``seq``
    (``hand_of_seq`` maps the seqs of hand events to their hand). Other keys hold no cards
    of a hand: they are checked as table-wide pieces.
    """
    if not isinstance(patch, list):
        yield None, seq, patch
        return
    known = sorted(hand_of_seq)
    for op in patch:
        if not isinstance(op, list) or len(op) != 2:
            continue  # a removal sends nothing
        path, value = op
        hand = None
        if isinstance(path, list) and path[:1] == ["hand"] and seq is not None:
            at = bisect.bisect_right(known, seq)
            hand = hand_of_seq[known[at - 1]] if at else None
        yield hand, seq, value
