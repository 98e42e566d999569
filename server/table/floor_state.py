"""The floor's part of a table as a pure core: its posted and pending settings, pause, closing.

Like the seats' core (server/table/seats.py): a frozen :class:`Floor`, decisions that
refuse with a :class:`~server.table.commands.TableError` or answer typed events, and
:func:`evolve`. The runner records the events and evolves its floor once they are
committed (server/table/floor_commands.py). No I/O, clock or asyncio here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from server.i18n import phrase, told, with_say
from server.rules.game import AccountId, TableSettings
from server.rules.vocabulary import JSON
from server.table.commands import TableError


@dataclass(frozen=True, slots=True, kw_only=True)
class Floor:
    """The table's settings (``posted``; ``pending``: a change that waits for the hand's end, and who asked
    it) and its switches."""

    posted: TableSettings  # the game's settings
    pending: TableSettings | None = None
    pending_by: AccountId | None = None
    paused: bool = False
    closing: bool = False
    closed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Paused:
    """The host paused the table (no new hand starts) or resumed it."""

    paused: bool

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "table_paused" if self.paused else "table_resumed"}


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsPosted:
    """New settings hold from now (``changed``: each setting's new value)."""

    settings: TableSettings
    changed: JSON

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "settings_changed", "changed": self.changed, "settings": self.settings.as_dict()}


@dataclass(frozen=True, slots=True, kw_only=True)
class Closing:
    """The table closes once the hand in progress is over."""

    def payload(self) -> JSON:
        """The event as logged and published."""
        return with_say({"type": "table_closing", "message": told("the table closes after this hand")})


@dataclass(frozen=True, slots=True, kw_only=True)
class Closed:
    """The table is closed: everyone stood up, it takes no command any more."""

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "table_closed"}


FloorEvent = Paused | SettingsPosted | Closing | Closed


def evolve(floor: Floor, event: FloorEvent) -> Floor:
    """The floor once ``event`` happened. Events are facts: this never refuses."""
    match event:
        case Paused(paused=paused):
            return replace(floor, paused=paused)
        case SettingsPosted(settings=settings):
            return replace(floor, posted=settings)
        case Closing():
            return floor
        case Closed():
            return replace(floor, closed=True)
    raise AssertionError(event)  # unreachable: every floor event is matched above


def pause(floor: Floor, paused: bool) -> tuple[FloorEvent, ...]:
    """Pause or resume; nothing when the table already is so."""
    return () if paused == floor.paused else (Paused(paused=paused),)


def ask_settings(floor: Floor, new: TableSettings, by: AccountId | None, *, seated_up_to: int) -> Floor:
    """The floor with ``new`` settings waiting to be posted (``seated_up_to``: the highest seat held)."""
    if new.seats < seated_up_to:
        raise TableError("settings/invalid", phrase("seats: players sit beyond the new number of seats"))
    return replace(floor, pending=new, pending_by=by)


def post_pending(floor: Floor, by: AccountId | None = None) -> tuple[Floor, SettingsPosted | None, AccountId | None]:
    """Between hands: the floor with no change waiting, the event posting it (None: nothing changes), and who
    asked it (``by``, else whoever asked the change that waited)."""
    new, cleared = floor.pending, replace(floor, pending=None)
    by = by if by is not None else floor.pending_by
    if new is None or new == floor.posted:
        return cleared, None, by
    old = floor.posted.as_dict()
    changed = {key: value for key, value in new.as_dict().items() if old[key] != value}
    return cleared, SettingsPosted(settings=new, changed=changed), by


def close(floor: Floor, *, playing: bool) -> tuple[Floor, tuple[FloorEvent, ...]]:
    """The host closes the table: at once between hands (the caller stands everyone up, then records
    :class:`Closed`), else once the hand in progress is over (:class:`Closing` says so now)."""
    closing = replace(floor, closing=True)
    return closing, (Closing(),) if playing else ()
