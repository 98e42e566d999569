"""Table chat, the pure part: who may speak where, what a line may be, how fast, who is muted, who reads it.

Two rooms at each table: ``table``, where the seated speak and everyone at the table
reads, and ``spectators``, where those watching speak and read; the host chooses
whether the seated read the spectators' room too (``spectators_shown``). A line is
text only: it is kept as typed (markup is text, never interpreted: the clients show it
as text), with control characters taken out so that no line can move a terminal's
cursor, colour it or turn the text's direction. No I/O and no clock here: the time of
each line is given (server/transport/chat.py is the shell that sends and stores).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Final, Literal, TypeAlias

from server.i18n import phrase
from server.rules.errors import Refusal

Room: TypeAlias = Literal["table", "spectators"]
ROOMS: Final[tuple[Room, ...]] = ("table", "spectators")
MAX_CHARS: Final = 200
FLOOD_LINES: Final = 5  # at most this many lines (reactions included) ...
FLOOD_SECONDS: Final = 10.0  # ... in any window of this many seconds, per person and table
REACTIONS: Final[dict[str, str]] = {
    "good_luck": "Good luck!",
    "nice_hand": "Nice hand!",
    "well_played": "Well played.",
    "thanks": "Thanks!",
    "wow": "Wow!",
    "ouch": "Ouch.",
}
"""The quick reactions: what a request names, and the line everyone reads."""

# Host settings, as the chat log records them (their ``kind``); a line's kind is "line" or "reaction".
HostKind: TypeAlias = Literal["mute", "unmute", "spectators_shown", "spectators_hidden"]
HOST_KINDS: Final[tuple[HostKind, ...]] = ("mute", "unmute", "spectators_shown", "spectators_hidden")
# Unicode's bidirectional controls: format characters (not Cc), but they reorder what follows them.
_BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def name_key(name: str) -> str:
    """How a muted name is compared: without letter case (account names are unique that way).

    >>> name_key("Ana") == name_key("ANA")
    True
    """
    return name.casefold()


@dataclass(frozen=True, slots=True)
class ChatState:
    """One table's chat settings: who is muted, whether the seated read the spectators' room."""

    muted: frozenset[str] = frozenset()  # name keys
    spectators_shown: bool = True

    def after(self, kind: str, subject: str) -> ChatState:
        """The state after a host setting of the log (``subject``: the name a mute names); lines change nothing."""
        if kind == "mute":
            return replace(self, muted=self.muted | {name_key(subject)})
        if kind == "unmute":
            return replace(self, muted=self.muted - {name_key(subject)})
        if kind in ("spectators_shown", "spectators_hidden"):
            return replace(self, spectators_shown=kind == "spectators_shown")
        return self

    def is_muted(self, name: str) -> bool:
        """Whether the host muted ``name`` at this table."""
        return name_key(name) in self.muted


def replayed(entries: Iterable[tuple[str, str]]) -> ChatState:
    """The state a table's log of host settings (kind, subject), oldest first, leaves."""
    state = ChatState()
    for kind, subject in entries:
        state = state.after(kind, subject)
    return state


def room_of(seated: bool) -> Room:
    """Where a person speaks: the seated at the table, everyone else among the spectators."""
    return "table" if seated else "spectators"


def reads(room: Room, *, seated: bool, state: ChatState) -> bool:
    """Whether a viewer (seated or not) reads a line of ``room``: the seated read the spectators' only if shown."""
    return room == "table" or not seated or state.spectators_shown


def cleaned(text: str) -> str:
    """The line as typed, on one line, without control characters; markup is kept as text.

    >>> cleaned("  <b>hi</b>\\n\\tthere\\x1b[31m ")
    '<b>hi</b> there[31m'
    """
    kept = []
    for char in text:
        if char in "\n\r\t":
            kept.append(" ")
        elif char not in _BIDI and unicodedata.category(char) not in ("Cc", "Cs"):
            kept.append(char)
    return " ".join("".join(kept).split())


def checked_line(text: str) -> str:
    """A line fit to send, or a refusal that says the real limit."""
    line = cleaned(text)
    if not line:
        raise Refusal("chat/empty", phrase("a chat line needs some text"))
    if len(line) > MAX_CHARS:
        raise Refusal("chat/too_long", phrase("a chat line is at most {most} characters; yours has {count}",
                                               most=MAX_CHARS, count=len(line)))
    return line


def reaction_line(name: str) -> str:
    """The line of a quick reaction, or a refusal naming the reactions there are."""
    if name not in REACTIONS:
        raise Refusal("request/malformed", "the quick reactions are " + ", ".join(REACTIONS))
    return REACTIONS[name]


def check_speaker(state: ChatState, name: str) -> None:
    """Refuse a muted person."""
    if state.is_muted(name):
        raise Refusal("chat/muted", phrase("the host has muted you at this table: you cannot chat here"))


@dataclass(frozen=True, slots=True)
class Flood:
    """When one person's last lines at a table were sent (seconds, any monotonic clock), newest last."""

    times: tuple[float, ...] = ()

    def wait(self, now: float) -> float:
        """Seconds until another line may be sent (0.0: now): waited, it is 0.0 then.

        >>> flood = Flood((1.3554583860959202, *[1.6554583860959202] * 4))
        >>> now = 2.65545838609592
        >>> flood.wait(now + flood.wait(now))
        0.0
        """
        recent = self._recent(now)
        if len(recent) < FLOOD_LINES:
            return 0.0
        return _left(recent[-FLOOD_LINES], now)

    def sent(self, now: float) -> Flood:
        """This record with a line sent at ``now`` (only the window's lines are kept)."""
        return Flood((*self._recent(now), now)[-FLOOD_LINES:])

    def _recent(self, now: float) -> tuple[float, ...]:
        return tuple(t for t in self.times if _left(t, now) > 0.0)


def _left(sent: float, now: float) -> float:
    """Seconds the line sent at ``sent`` still counts at ``now`` (0.0: no longer).

    What is left under a nanosecond is none: ``now + wait`` is not always exactly the end of the window in
    floating point, and a line must be taken once its wait has passed (Hypothesis found 1.8e-15 s left).
    """
    left = sent + FLOOD_SECONDS - now
    return left if left > 1e-9 else 0.0


def flood_refusal(wait: float) -> Refusal:
    """The refusal of a line sent too soon, with the real limit and the wait."""
    seconds = max(1, int(wait + 0.999))
    return Refusal("rate/limited", phrase("you may send at most {lines} chat lines in {seconds} seconds: wait {wait} s",
                                          lines=FLOOD_LINES, seconds=f"{FLOOD_SECONDS:g}", wait=seconds))
