"""Fitting the live view to the terminal's width: long lines wrap at a space, they are never cut with "..."
(issue 23, item 7: at 80 columns help lines, prompts and box rows ended in "...", docs/client.md promises 80). Pure.

>>> [t.plain for t in fit(Text("Your turn: fold (f) or raise 10 chips (r 10, r max)"), 24)]
['Your turn: fold (f) or', '  raise 10 chips (r 10,', '  r max)']
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.cells import cell_len
from rich.text import Text

INDENT = 2
"""A continuation's indent: the reader sees it belongs to the line above."""


def fit(line: Text, width: int) -> list[Text]:
    """``line`` as lines of at most ``width`` cells, broken at the last space that fits (or mid-word if none)."""
    width = max(width, INDENT + 8)
    out: list[Text] = []
    rest, indent, hang = line, 0, _hang(line.plain, width)
    while cell_len(rest.plain) + indent > width:
        cut = _cut(rest.plain, width - indent)
        head, tail = rest.divide([cut])
        out.append(_indented(head, indent))
        spaces = len(tail.plain) - len(tail.plain.lstrip(" "))
        rest, indent = tail[spaces:], hang
    out.append(_indented(rest, indent))
    for piece in out:
        piece.no_wrap = True
    return out


def fit_all(lines: Iterable[Text], width: int) -> list[Text]:
    """Each of ``lines`` fitted to ``width``, in order."""
    return [piece for line in lines for piece in fit(line, width)]


def _hang(plain: str, width: int) -> int:
    """A continuation's indent: under the second column of a two-column line (``  bet N    place an Ante``), under
    an indented line's own indent, else :data:`INDENT`.

    >>> _hang("  fold (f)              fold at your turn", 80), _hang("Your turn: fold (f) or raise", 80)
    (24, 2)
    >>> _hang("                        'bet 10+1' bets on your box", 80)
    24
    """
    column = re.match(r"\s*\S.*?\s{2,}(?=\S)", plain)
    at = column.end() if column is not None else len(plain) - len(plain.lstrip(" "))  # or under its own indent
    return at if INDENT < at <= width // 2 else INDENT


def _cut(plain: str, room: int) -> int:
    """Where to break ``plain`` so that its head fits ``room`` cells: at a space if one fits."""
    end = 0
    while end < len(plain) and cell_len(plain[:end + 1]) <= room:
        end += 1
    space = plain.rfind(" ", 1, end + 1)
    return space if space > 0 else max(end, 1)


def _indented(text: Text, indent: int) -> Text:
    return Text(" " * indent) + text if indent else text
