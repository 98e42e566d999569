"""A game's JSON forms, from a registry of its event and command classes.

Events are logged as :meth:`~server.rules.events.Event.as_json` writes them (a ``type``
key, then the fields); commands are recorded in the hand's input log as
:func:`~server.rules.commands.command_as_json` writes them (a ``command`` key naming
them, then the fields). A game names its classes once; the events and commands every
game has (a leave, a misdeal, a void hand...) are registered for it.

>>> from server.rules.commands import Leave
>>> from server.rules.events import HandVoided
>>> codec: MessageCodec[Leave, HandVoided] = MessageCodec([], {})
>>> codec.command_as_json(Leave(2))
{'command': 'leave', 'seat': 2}
>>> codec.event_from_json({"type": "hand_voided", "reason": "shutdown"})
HandVoided(reason='shutdown')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Generic, TypeVar, cast

from server.rules import commands, events
from server.rules.commands import SHARED_COMMANDS
from server.rules.events import EVENT_TYPES, Event
from server.rules.game import JSON, JSONIn

CommandT = TypeVar("CommandT")
EventT = TypeVar("EventT", bound=Event)

__all__ = ["MessageCodec"]


class MessageCodec(Generic[CommandT, EventT]):
    """Writes and reads one game's events and commands; what it reads back equals what was written."""

    __slots__ = ("_command_names", "_command_types", "_event_types")

    def __init__(self, event_types: Iterable[type[Event]], command_types: Mapping[str, type]) -> None:
        self._event_types = {**EVENT_TYPES, **events.event_types(*event_types)}
        self._command_types = {**SHARED_COMMANDS, **command_types}
        self._command_names = commands.command_names(self._command_types)

    def event_as_json(self, event: EventT) -> JSON:
        """The event as logged (cards included)."""
        return event.as_json()

    def event_from_json(self, data: JSONIn) -> EventT:
        """Rebuild a logged event; KeyError for a type this game does not have."""
        # Only EventT's classes (and the shared ones every game's event type includes) are registered.
        return cast(EventT, events.event_from_json(self._event_types, data))

    def command_as_json(self, command: CommandT) -> JSON:
        """The command as recorded in the hand's input log."""
        return commands.command_as_json(self._command_names, command)

    def command_from_json(self, data: JSONIn) -> CommandT:
        """Rebuild a recorded command; KeyError for a name this game does not have."""
        command: CommandT = commands.command_from_json(self._command_types, data)
        return command
