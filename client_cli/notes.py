"""A table's posted notes (its house rules for the bank, their status, the fees) as lines of text.

Kept apart from render.py so that the host's commands, which print them, load no terminal library.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.i18n import heard, heard_lines


def notes_lines(notes: Any) -> list[str]:
    """A table's posted house rules and their status (the snapshot's and the lobby's ``notes``), a line a note.

    >>> for line in notes_lines([{"title": "The bank's rotation", "lines": ["alice has banked 2 of 2 hands"]},
    ...                          {"title": "Posted fees", "lines": ["Ante 1 to 20: each pays 1", "Ante 21 ..."]}]):
    ...     print(line)
    The bank's rotation: alice has banked 2 of 2 hands
    Posted fees: Ante 1 to 20: each pays 1; Ante 21 ...
    >>> notes_lines(None)
    []
    """
    if not isinstance(notes, list):
        return []
    return [f"{heard(note, 'title')}: {'; '.join(heard_lines(note, 'lines'))}"
            for note in notes if isinstance(note, Mapping)]
