"""The live view as a whole: what the play loop gathers (:class:`Screen`) -> lines that fit the terminal.

Pure, as :mod:`client_cli.render`, whose lines it puts together: the header and the table
at the top, the prompt and its message at the bottom, the log giving way first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.text import Text

from client_cli.fit import fit_all
from client_cli.render import header_line, seat_lines, your_cards_lines


@dataclass(slots=True)
class Screen:
    """Everything the live view shows, gathered by the play loop (plain data)."""

    snapshot: Mapping[str, Any] | None = None
    server_now: float = 0.0
    connected: bool = True
    log: Sequence[str] = ()
    results: Sequence[Text] = ()
    verdict: Sequence[str] = ()
    verdict_ok: bool | None = None
    choices: str | None = None
    message: str | None = None
    prompt: str | None = None
    symbols: bool = True
    extra: list[Text] = field(default_factory=list)
    body: Sequence[Text] | None = None
    """The table under the header, when the game draws its own (the house-banked games)."""


def screen_lines(screen: Screen, width: int = 80, height: int = 24) -> list[Text]:
    """The whole view as lines that fit ``width`` x ``height`` (the log gives way first)."""
    snap = screen.snapshot or {}
    top: list[Text] = [header_line(snap, screen.server_now, connected=screen.connected)]
    hand = snap.get("hand") or {}
    you = (snap.get("you") or {}).get("seat")
    cards = hand.get("your_cards")
    if screen.body is not None:
        top.extend(screen.body)
    else:
        top.extend(seat_lines(snap))
    if screen.body is None and cards and hand.get("phase") not in ("settled", "void", "not_dealt"):
        ante = int(((hand.get("seats") or {}).get(str(you)) or {}).get("ante", 0))
        top.extend(your_cards_lines(cards, ante, symbols=screen.symbols, dealer=hand.get("dealer") == you))
    bottom: list[Text] = []
    if screen.choices:
        bottom.extend(Text(line, style="bold yellow") for line in screen.choices.splitlines())
    if screen.message:
        bottom.append(Text(screen.message, style="red"))
    if screen.prompt is not None:
        bottom.append(Text("> " + screen.prompt))
    middle: list[Text] = [*screen.extra, *screen.results]
    headline = "bold green" if screen.verdict_ok else "bold red on white" if screen.verdict_ok is False else "cyan"
    for i, said in enumerate(screen.verdict):
        middle.append(Text(said, style=headline if i == 0 else "red"))
    top, middle, bottom = fit_all(top, width), fit_all(middle, width), fit_all(bottom, width)  # wrapped, not cut
    if len(middle) > height - len(top) - len(bottom) - 1:
        top = top[:1]  # the help or the results a person asked for outrank the seats: the header stays
    middle = middle[:max(0, height - len(top) - len(bottom) - 1)]  # the prompt and its message stay in view
    room = max(0, height - len(top) - len(bottom) - len(middle) - 1)
    log = fit_all((Text(entry, style="dim") for entry in list(screen.log)[-room:]), width)[-room:] if room else []
    return [*top, Text(""), *middle, *log, *bottom][:height]


def screen_group(screen: Screen, width: int = 80, height: int = 24) -> Group:
    """:func:`screen_lines` as one rich renderable."""
    return Group(*screen_lines(screen, width, height))


def plain(lines: Iterable[Text]) -> str:
    """Lines as plain text: no colour codes."""
    return "\n".join(line.plain for line in lines)


__all__ = ["Screen", "plain", "screen_group", "screen_lines"]
