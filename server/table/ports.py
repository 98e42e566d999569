"""The two ports a table reaches the world through: storage and publishing.

The runner builds one :class:`Batch` per command and commits it in a single
database transaction *before* anything is published, so what clients see has
always been recorded. Tests plug in small fakes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NotRequired, Protocol, TypedDict, runtime_checkable

from server.rules.game import JSON, AccountId, Transfer
from server.rules.vocabulary import Answer as Answer  # a command's answer, named here for the table's parts
from server.rules.vocabulary import Seat
from server.viewpatch import Op


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """One table event as it is logged: its sequence number and public payload."""

    seq: int
    payload: JSON
    in_hand: bool = True


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat row to write: ``take`` it, ``free`` it, or change its ``flags``."""

    action: str
    seat: Seat
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
    finish_hand: tuple[str, JSON] | None = None  # status, public summary
    hand_number: int | None = None  # the cards were dealt: the hand takes the table's next number
    settings: tuple[JSON, JSON, AccountId | None] | None = None  # old, new, by
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


@runtime_checkable
class DrillReportKeeper(Protocol):
    """A storage that keeps a live drill's report in its trainee's history (issue 27, item 4; the database's
    :class:`server.storage.trainees.TraineeStore`). The table calls it once the drill's end is committed."""

    async def keep_drill_report(self, trainee: str, report: JSON, *, source: str = "live",
                                mode: str = "training", partial: bool = False) -> None:
        """Keep ``report`` (the engine's, as the trainer sees it) in ``trainee``'s history."""
        ...


@runtime_checkable
class BatchedStorage(Protocol):
    """A storage whose commits between ``begin_batch`` and ``end_batch`` share one transaction (one commit)."""

    def begin_batch(self, table: str) -> None: ...

    async def end_batch(self, table: str, *, commit: bool = True) -> None: ...


# ------------------------------------------------------------ what goes out (docs/protocol.md section 2)

class UpdateEvent(TypedDict):
    """One event of an update: a public one, or a private one right after the public event it goes with."""

    seq: int
    event: JSON
    private: NotRequired[bool]


class Choices(TypedDict):
    """What one viewer may do now (docs/protocol.md section 3)."""

    seat: Seat | None
    deadline: float | None
    moves: list[JSON]
    next_hand: NotRequired[str]  # why a seated player has no hand moves: the hand began without them (a sentence)
    say: NotRequired[dict[str, object]]  # ``next_hand``'s message id and arguments (docs/i18n.md)


class UpdatePayload(TypedDict):
    """One ``table_update`` as one viewer receives it."""

    table: str
    from_seq: int
    seq: int
    server_time: float
    events: list[UpdateEvent]
    view: JSON
    patch: list[Op]  # [path, value] / [path]: what else changed, leaf by leaf (server/viewpatch.py)
    choices: Choices


@dataclass(frozen=True, slots=True)
class TableUpdates:
    """Everything one batch of commands recorded, as each viewer is to receive it.

    ``accounts`` holds the personal update of every account seated before or after the
    batch; every other connection at the table gets ``spectator``. The accounts in
    ``skip`` had theirs in the answer to their own request: they get no ``table_update``.
    ``snapshot``: the batch answered a snapshot, as of its end; spectators' updates held
    to go out together (``server/transport/edge.py``) go out now, so that none of them
    spans the seq a snapshot was taken at.
    """

    spectator: UpdatePayload
    accounts: Mapping[AccountId, UpdatePayload]
    skip: frozenset[AccountId] = frozenset()
    snapshot: bool = False


class Publisher(Protocol):
    """Where a table's recorded events go out to clients."""

    async def table_update(self, table: str, updates: TableUpdates) -> None:
        """One update per viewer of the table (personal ones to their accounts' connections)."""
        ...

