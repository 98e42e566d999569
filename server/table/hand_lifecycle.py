"""The hand's lifecycle as a pure core: whether a hand starts, what the table does once it is over or voided.

Each decision reads the table's values and returns events (small frozen records, past tense
where something happened, imperative where the table still has to do it); the hand desk
(server/table/hands.py) carries them out in order and does all the recording. No asyncio,
no clock, no I/O: a pause is a number of seconds, the desk adds its clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.rules.game import AfterHand
from server.table.floor_state import Floor
from server.table.hand_start import NewHand
from server.table.seats import Decision


@dataclass(frozen=True, slots=True)
class PendingPosted:
    """Post the settings change that waited for the hand's end, if any."""


@dataclass(frozen=True, slots=True)
class ExpiredStood:
    """Stand up who sat out too long (docs/rules/hcf.md section 4)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal ``hand``: the desk draws its seed and asks the game."""

    hand: NewHand


@dataclass(frozen=True, slots=True)
class Waiting:
    """The table waits (``reason``, said as ``message`` when the game gives one)."""

    reason: str
    message: str = ""


@dataclass(frozen=True, slots=True)
class Told:
    """The game's warning, told to every seat."""

    notice: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game ended: the table deals no more until the host reopens it."""

    message: str


@dataclass(frozen=True, slots=True)
class NextHandIn:
    """The next hand starts in ``seconds``."""

    seconds: float


@dataclass(frozen=True, slots=True)
class LeaversStood:
    """Stand up who leaves after the hand, recorded after ``absent`` (the hand's sit-outs)."""

    absent: Decision


@dataclass(frozen=True, slots=True)
class Closed:
    """The host's close waited for the hand: everyone stands, the table closes."""


@dataclass(frozen=True, slots=True)
class DrillSettled:
    """A live drill's step still asked counts as no answer, so its held events are recorded first."""


@dataclass(frozen=True, slots=True)
class Voided:
    """Void the hand in progress (every chip back), if it still is in progress."""

    reason: str


LifeEvent = (PendingPosted | ExpiredStood | Deal | Waiting | Told | GameEnded | NextHandIn | LeaversStood | Closed
             | DrillSettled | Voided)


def may_start(floor: Floor, *, stopping: bool, in_progress: bool) -> tuple[LifeEvent, ...]:
    """Whether the table may start a hand now: first the settings waiting and the expired seats (then the desk
    asks :func:`deal`), or nothing at all (paused, closed, closing, stopping, or a hand in progress)."""
    if floor.paused or floor.closed or floor.closing or stopping or in_progress:
        return ()
    return PendingPosted(), ExpiredStood()


def deal(hand: NewHand | None) -> tuple[LifeEvent, ...]:
    """Deal the next hand, or wait for players when too few play (:func:`server.table.hand_start.new_hand`)."""
    return (Waiting("players"),) if hand is None else (Deal(hand),)


def not_begun(after: AfterHand, reason: str) -> tuple[LifeEvent, ...]:
    """A hand over before it began (nobody to bank; ``reason``: the game's, or its phase): nothing is recorded of
    it; the table tells the game's notice, then ends the game or waits and tries again after the game's pause."""
    told: tuple[LifeEvent, ...] = (Told(after.notice),) if after.notice else ()
    if after.ends_game:
        return (*told, GameEnded(after.message))
    return (*told, Waiting(after.waiting or reason, after.message), NextHandIn(after.pause))


def hand_over(after: AfterHand, absent: Decision, *, closing: bool) -> tuple[LifeEvent, ...]:
    """After a hand: stand the leavers (after the hand's ``absent``), post the settings waiting, then close (the
    host asked), or tell the game's notice and end the game or start the next hand after the game's pause.
    (Posting settings never touches ``closing``: it is read once, before.)"""
    first: tuple[LifeEvent, ...] = (LeaversStood(absent), PendingPosted())
    if closing:
        return (*first, Closed())
    told: tuple[LifeEvent, ...] = (Told(after.notice),) if after.notice else ()
    return (*first, *told, GameEnded(after.message) if after.ends_game else NextHandIn(after.pause))


def void(reason: str, *, in_progress: bool) -> tuple[LifeEvent, ...]:
    """Void the hand in progress: a live drill's steps still asked are settled first (their events recorded),
    then the hand is voided if it still runs; nothing when no hand is in progress."""
    return (DrillSettled(), Voided(reason)) if in_progress else ()


def waits_anew(waiting_reason: str | None, reason: str) -> bool:
    """Whether the table says it waits: not again for the reason it already gave."""
    return waiting_reason != reason
