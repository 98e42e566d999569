"""The two ports a table reaches the world through: storage and publishing.

The runner builds one :class:`Batch` per command and commits it in a single
database transaction *before* anything is published, so what clients see has
always been recorded. Tests plug in small fakes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from server.rules.game import AccountId, Transfer


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """One table event as it is logged: its sequence number and public payload."""

    seq: int
    payload: dict[str, Any]
    in_hand: bool = True


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat row to write: ``take`` it, ``free`` it, or change its ``flags``."""

    action: str
    seat: int
    account: AccountId
    willing_to_bank: bool = True
    sitting_out: bool = False


@dataclass(slots=True)
class Batch:
    """Everything one command changes, committed atomically."""

    transfers: list[Transfer] = field(default_factory=list)
    events: list[RecordedEvent] = field(default_factory=list)
    seat_changes: list[SeatChange] = field(default_factory=list)
    start_hand: tuple[str, str, bool] | None = None  # server seed hex, commitment, arranged
    finish_hand: tuple[str, dict[str, Any]] | None = None  # status, public summary
    hand_number: int | None = None  # the cards were dealt: the hand takes the table's next number
    settings: tuple[dict[str, Any], dict[str, Any], AccountId | None] | None = None  # old, new, by
    close_table: bool = False

    def empty(self) -> bool:
        """Whether there is nothing to write."""
        return not (self.transfers or self.events or self.seat_changes or self.start_hand
                    or self.finish_hand or self.hand_number or self.settings or self.close_table)


class TableStorage(Protocol):
    """Where a table's changes are recorded."""

    async def commit(self, table: str, hand_id: int | None, batch: Batch) -> int | None:
        """Write ``batch`` in one transaction; returns the id of a hand it started, if any."""
        ...


class Publisher(Protocol):
    """Where a table's recorded events go out to clients."""

    async def table_event(self, table: str, seq: int, payload: dict[str, Any]) -> None:
        """To everyone at the table (players and spectators)."""
        ...

    async def private_event(self, table: str, account: AccountId, seq: int, payload: dict[str, Any]) -> None:
        """To every connection of one account only."""
        ...
