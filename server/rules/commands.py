"""Commands every game records the same way, and the commands every game has (the table builds these).

A command is recorded in the hand's input log under its game's name for it, then
its fields in order (tuples as lists); replays rebuild it from that.

>>> NAMES = command_names({"leave": Leave, "misdeal": Misdeal})
>>> command_as_json(NAMES, Leave(3))
{'command': 'leave', 'seat': 3}
>>> command_from_json({"misdeal": Misdeal}, {"command": "misdeal", "reason": "shutdown"})
Misdeal(reason='shutdown')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from server.rules.events import Codec, listed, tupled


def command_names(types: Mapping[str, type]) -> dict[type, str]:
    """The recorded name of each command class of a game."""
    return {cls: name for name, cls in types.items()}


def command_as_json(names: Mapping[type, str], command: Any) -> dict[str, Any]:
    """A command as recorded in the hand's input log: its name, then its fields (tuples as lists)."""
    out: dict[str, Any] = {"command": names[type(command)]}
    codecs: Mapping[str, Codec] = getattr(command, "codecs", {})
    for f in dataclasses.fields(command):
        value = getattr(command, f.name)
        out[f.name] = listed(value) if f.name not in codecs else codecs[f.name].write(value)
    return out


def command_from_json(types: Mapping[str, type], data: Mapping[str, Any]) -> Any:
    """Rebuild a command recorded by :func:`command_as_json` (lists become tuples).

    A field the plain rule does not fit names its :class:`~server.rules.events.Codec` in the
    command class's ``codecs``, as an event's does.
    """
    cls = types[data["command"]]
    codecs: Mapping[str, Codec] = getattr(cls, "codecs", {})
    return cls(**{k: tupled(v) if k not in codecs else codecs[k].read(v)
                  for k, v in data.items() if k != "command"})


# ---------------------------------------------------------------- commands every game has


@dataclass(frozen=True, slots=True)
class CloseBets:
    """The betting clock ran out: whoever has not answered (or confirmed) is out of this hand's betting."""


@dataclass(frozen=True, slots=True)
class ClockExpired:
    """The running clock of ``seat`` ran out (what lapses is the game's rule: an offer, a decision).

    ``reason`` is what the events say was done for the player: ``clock``, or ``away`` when the table acts at once
    for a player who switched away (docs/server.md); only ``clock`` counts toward sitting a player out.
    """

    seat: int
    reason: str = "clock"


@dataclass(frozen=True, slots=True)
class Leave:
    """The player asked to leave: out of the betting now, folding at their turns, standing up after the hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class Stay:
    """The player takes back their leave: valid until the leave has acted on this hand (folded, passed, cleared)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclareDead:
    """The floor declares the live hands of ``seat`` dead."""

    seat: int


@dataclass(frozen=True, slots=True)
class Misdeal:
    """The whole hand is dead: ``misdeal``, ``shuffler_fault``, ``interrupted``, ``shutdown``."""

    reason: str = "misdeal"


SHARED_COMMANDS: Final[dict[str, type]] = {
    "close_bets": CloseBets, "clock_expired": ClockExpired, "leave": Leave, "stay": Stay,
    "declare_dead": DeclareDead, "misdeal": Misdeal,
}
"""The shared commands by their recorded names: every game's codec knows them (server/rules/codec.py)."""

SharedCommand = CloseBets | ClockExpired | Leave | Stay | DeclareDead | Misdeal
"""A command the table builds itself, whatever the game: each game's own command union includes these."""
