"""One ``table_update`` per viewer for a batch of commands (docs/protocol.md section 2).

A batch records public events (everyone sees them) and private ones (one account
each). Every viewer gets one update: its events in order, the top-level keys of its
snapshot that changed (``view``) and its choices now. A client that applies each
update to its last snapshot (``model[k] = view[k]``, then ``seq``, ``server_time`` and
``choices``) holds what a fresh snapshot would show; ``tests/table/test_updates.py``
checks it over random hands.

What is shared by every viewer (settings, seats, status...) is computed once per
batch and diffed against what the last batch sent; the hand view is computed once
for spectators and once per seat in the hand.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.rules.game import AccountId
from server.table.ports import Choices, RecordedEvent, TableUpdates, UpdateEvent, UpdatePayload

JSON = dict[str, Any]
_UNSEEN = object()  # the first batch: every shared key and every hand view goes out


class TableViews(Protocol):
    """What the update builder reads of a table (the runner offers it, and builds snapshots from the same)."""

    def shared_view(self) -> JSON:
        """The snapshot's top-level keys that every viewer sees alike (settings, status, seats...)."""
        ...

    def hand_seat(self, account: AccountId | None) -> int | None:
        """The seat ``account`` plays in the hand, or None (it sees the hand as a spectator does)."""
        ...

    def hand_view(self, seat: int | None) -> JSON | None:
        """The snapshot's ``hand`` as the seat ``seat`` (None: a spectator) sees it."""
        ...

    def hand_key(self) -> tuple[object, ...]:
        """What a hand view is made of, roughly: it changes whenever a hand view may (a new hand state, a clock).

        Compared item by item, objects by identity (a new state is a new object) and numbers and text by value.
        """
        ...

    def you(self, account: AccountId | None) -> JSON:
        """The snapshot's ``you``."""
        ...

    def choices(self, account: AccountId | None) -> Choices:
        """What ``account`` may do now (None, or an account without a seat: a spectator's choices)."""
        ...

    def seated_accounts(self) -> frozenset[AccountId]:
        """The accounts seated at the table now."""
        ...


@dataclass(slots=True)
class BatchRecord:
    """What one batch of commands recorded, in order, as it is to be published."""

    seated_before: frozenset[AccountId]
    events: list[RecordedEvent] = field(default_factory=list)  # public payloads
    private: list[tuple[AccountId, int, JSON]] = field(default_factory=list)
    # The seq range, when it is more than the events' own (a takeover publishes only some of what it recorded)
    seqs: tuple[int, int] | None = None

    def add(self, events: Iterable[RecordedEvent], private: Iterable[tuple[AccountId, int, JSON]]) -> None:
        """What one commit recorded (public payloads, and each account's own)."""
        self.events.extend(events)
        self.private.extend(private)


class UpdateBuilder:
    """Builds each batch's updates and remembers what the last one sent of the shared keys."""

    def __init__(self, table: str) -> None:
        self.table = table
        self._shared: JSON = {}
        self._hand_key: tuple[object, ...] = (_UNSEEN,)
        self._hand_seats: dict[AccountId, int | None] = {}  # the seat in the hand each personal update was for

    def build(self, views: TableViews, record: BatchRecord, server_time: float,
              skip: frozenset[AccountId] = frozenset()) -> TableUpdates | None:
        """The updates of one batch, or None when it recorded nothing."""
        if not record.events and record.seqs is None:
            return None
        from_seq, seq = _seq_range(record)
        public: list[UpdateEvent] = [{"seq": e.seq, "event": e.payload} for e in record.events]
        shared = self._changed_shared(views.shared_view())
        hand_key = views.hand_key()
        hand_changed = not _same_key(hand_key, self._hand_key) or any(e.in_hand for e in record.events)
        self._hand_key = hand_key
        spectator_hand = views.hand_view(None) if hand_changed else None

        def payload(events: list[UpdateEvent], view: JSON, choices: Choices) -> UpdatePayload:
            return {"table": self.table, "from_seq": from_seq, "seq": seq, "server_time": server_time,
                    "events": events, "view": view, "choices": choices}

        spectator_view = shared | {"hand": spectator_hand} if hand_changed else shared
        spectator = payload(public, spectator_view, views.choices(None))
        private = _private_by_account(record.private)
        personal: dict[AccountId, UpdatePayload] = {}
        seats: dict[AccountId, int | None] = {}
        for account in sorted(record.seated_before | views.seated_accounts()):
            view = dict(shared)
            seat = seats[account] = views.hand_seat(account)
            # A seat taken or left changes how its account sees the hand, with no hand event.
            if hand_changed or account not in self._hand_seats or self._hand_seats[account] != seat:
                if seat is not None:
                    view["hand"] = views.hand_view(seat)
                else:
                    view["hand"] = spectator_hand if hand_changed else views.hand_view(None)
            view["you"] = views.you(account)
            own = private.get(account)
            events = public if own is None else _interleave(public, own)
            personal[account] = payload(events, view, views.choices(account))
        self._hand_seats = seats
        return TableUpdates(spectator, personal, skip)

    def _changed_shared(self, shared: JSON) -> JSON:
        changed = {k: v for k, v in shared.items() if k not in self._shared or self._shared[k] != v}
        self._shared = shared
        return changed


def _same_key(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    if len(a) != len(b):
        return False
    return all(x is y or (isinstance(x, int | float | str) and x == y) for x, y in zip(a, b, strict=True))


def _seq_range(record: BatchRecord) -> tuple[int, int]:
    """The first and last seq the batch covers: its events' (recorded in seq order), or wider."""
    seqs = [e.seq for e in record.events[:1]] + [e.seq for e in record.events[-1:]]
    if record.seqs is not None:
        return record.seqs[0], max([record.seqs[1], *seqs])
    return seqs[0], seqs[-1]


def _private_by_account(private: Iterable[tuple[AccountId, int, JSON]]) -> dict[AccountId, dict[int, list[JSON]]]:
    out: dict[AccountId, dict[int, list[JSON]]] = defaultdict(lambda: defaultdict(list))
    for account, seq, event in private:
        out[account][seq].append(event)
    return out


def _interleave(public: list[UpdateEvent], own: Mapping[int, list[JSON]]) -> list[UpdateEvent]:
    """The public events with the account's private ones right after the public event they go with."""
    events: list[UpdateEvent] = []
    for item in public:
        events.append(item)
        for event in own.get(item["seq"], ()):
            events.append({"seq": item["seq"], "private": True, "event": event})
    return events


def apply_update(model: JSON, update: Mapping[str, Any]) -> JSON:
    """A client's table model after one update (docs/protocol.md section 4): the reference for clients and tests."""
    out = dict(model)
    out.update(update["view"])
    out["seq"], out["server_time"], out["choices"] = update["seq"], update["server_time"], update["choices"]
    return out


__all__ = ["BatchRecord", "TableViews", "UpdateBuilder", "apply_update"]
