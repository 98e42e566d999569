"""One ``table_update`` per viewer for a batch of commands (docs/protocol.md section 2).

A batch records public events (everyone sees them) and private ones (one account
each). Every viewer gets one update: its events in order, what changed of its
snapshot and its choices now. What changed goes as whole top-level keys (``view``)
where it must, and otherwise as ``patch`` operations on the model the viewer holds
(:mod:`server.viewpatch`). A client that applies each update to its last snapshot
(``model[k] = view[k]``, then the patch, then ``seq``, ``server_time`` and ``choices``)
holds what a fresh snapshot would show; ``tests/table/test_updates.py`` checks it
over random hands.

What is shared by every viewer (settings, status, seats...) is computed once per
batch and diffed against what the last batch sent. So is the hand's public part (the
hand as a spectator sees it, :class:`PublicHand`): a seat's hand view is that part plus
its own (its cards), so each seat's patch takes the public part's operations as they
are and is diffed only where its view is its own. Each viewer's update is what diffing
its whole hand view against what it was last sent gives, operation for operation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from server.rules.game import JSON, AccountId, JSONIn
from server.rules.vocabulary import Seat
from server.table.ports import Choices, TableUpdates, UpdateEvent, UpdatePayload
from server.viewpatch import Op, diff, diff_item, patchable
from server.viewpatch import apply as apply_patch

_UNSEEN = object()  # the first batch: every shared key and every hand view goes out


class TableViews(Protocol):
    """What the update builder reads of a table: a frozen picture of it (``server.table.views.TableView``),
    the one snapshots are built from."""

    def shared_view(self) -> JSON:
        """The snapshot's top-level keys that every viewer sees alike (settings, status, seats...)."""
        ...

    def hand_seat(self, account: AccountId | None) -> Seat | None:
        """The seat ``account`` plays in the hand, or None (it sees the hand as a spectator does)."""
        ...

    def hand_view(self, seat: Seat | None) -> JSON | None:
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
    """What one batch of commands recorded, in order, as it is to be published.

    The pipeline writes into it as it records (server/table/pipeline.py): the public events already in the form
    every update carries them, so the updates hold the very same objects, not copies.
    """

    seated_before: frozenset[AccountId]
    events: list[UpdateEvent] = field(default_factory=list)  # public payloads with their seqs, as sent
    private: list[tuple[AccountId, int, JSON]] = field(default_factory=list)
    in_hand: bool = False  # some event is of the hand (its view may have changed)
    # The seq range, when it is more than the events' own (a takeover publishes only some of what it recorded)
    seqs: tuple[int, int] | None = None


class UpdateBuilder:
    """Builds each batch's updates and remembers what the last ones sent, to send only what changed.

    The shared keys are diffed against the last batch's. ``hand`` and ``you`` are remembered per
    personal update (and once for the spectators): after the first, an update carries ``patch``
    operations for the leaves that changed (:mod:`server.viewpatch`), and the whole key again only
    for a new hand, or when the viewer's seat in the hand changed.
    """

    def __init__(self, table: str) -> None:
        self.table = table
        self.batch: BatchRecord | None = None  # what the batch in hand records, written by the pipeline as it goes
        self._shared: JSON = {}
        self._hand_key: tuple[object, ...] = (_UNSEEN,)
        self.sent: dict[AccountId, _Sent] = {}  # what each account's last personal update left its model holding
        self.spectators = _Sent(None)
        self.public_hand: JSON | None = None  # the hand's public part as the last batch that built it left it

    def build(self, views: TableViews, record: BatchRecord, server_time: float,
              skip: frozenset[AccountId] = frozenset()) -> TableUpdates | None:
        """The updates of one batch, or None when it recorded nothing."""
        batch = self.start(views, server_time, record)
        return None if batch is None else batch.finish(skip)

    def start(self, views: TableViews, server_time: float, record: BatchRecord | None = None) -> BatchUpdates | None:
        """Begin one batch's updates (the shared part now; each viewer's when asked), or None if it recorded nothing.

        ``record`` is what the batch recorded; without it, the batch in hand (``batch``), which is then over.
        Call the returned object's methods before the table changes again: it reads the views as they are.
        """
        if record is None:
            record, self.batch = self.batch, None
        if record is None or (not record.events and record.seqs is None):
            return None
        shared, shared_patch = self._changed_shared(views.shared_view())
        hand_key = views.hand_key()
        hand_changed = not _same_key(hand_key, self._hand_key) or record.in_hand
        self._hand_key = hand_key
        return BatchUpdates(self, views, record, server_time, (shared, shared_patch), hand_changed)

    def _changed_shared(self, shared: JSON) -> tuple[JSON, list[Op]]:
        """The shared keys changed since the last batch: whole, or as patch operations (every viewer holds them)."""
        whole: JSON = {}
        patch: list[Op] = []
        for key, value in shared.items():
            before = self._shared.get(key, _UNSEEN)
            if before is value or before == value:
                continue
            if key in _SENT_WHOLE or not patchable(before, value):
                whole[key] = value
            else:
                patch.extend(diff(before, value, [key]))
        for key in self._shared.keys() - shared.keys():  # a key the game no longer shows (notes once the rules go)
            whole[key] = None
        self._shared = shared
        return whole, patch


@dataclass(slots=True)
class _Sent:
    """What one viewer's model holds of the keys sent as patches (``hand``, ``you``), and its seat in the hand."""

    seat: Seat | None
    held: dict[str, JSON | None] = field(default_factory=dict)  # a key not here was never sent: it goes whole

    def put(self, view: JSON, patch: list[Op], key: str, value: JSON | None) -> None:
        """Put ``value`` in ``view`` whole, or in ``patch`` as the operations from what the viewer holds."""
        before = self.held.get(key, _UNSEEN)
        if isinstance(before, dict) and before == value:
            return  # unchanged though built anew (``you`` is, every batch): no operations; the viewer holds ``before``
        self.held[key] = value
        if isinstance(before, dict) and isinstance(value, dict) and _same_hand(key, before, value):
            patch.extend(diff(before, value, [key]))
        elif before is not value:
            view[key] = value

    def put_hand(self, view: JSON, patch: list[Op], hand: JSON | None, public: PublicHand) -> None:
        """:meth:`put` for the ``hand``, its public part's operations taken from ``public`` (built once a batch)."""
        before = self.held.get("hand", _UNSEEN)
        if isinstance(before, dict) and isinstance(hand, dict) and _same_hand("hand", before, hand):
            self.held["hand"], ops = public.patch(before, hand)
            patch.extend(ops)
            return
        if isinstance(hand, dict):
            hand = public.held(hand)
        self.held["hand"] = hand
        if before is not hand:
            view["hand"] = hand


class PublicHand:
    """The hand's public part this batch (a spectator's view of it) and its operations from the last batch's.

    A seat's hand view holds the public part's values (the very objects, or equal ones) at
    every top-level key but its own ones. Where a viewer held last batch's public value and
    holds this batch's now, its operations are the public part's, diffed once for every
    viewer; elsewhere they are diffed for that viewer alone. Either way they are exactly
    what ``diff(before, after, ["hand"])`` gives. Top-level values equal to last batch's
    are kept as last batch's objects, so an unchanged key ends a diff at ``before is after``.
    """

    __slots__ = ("_diffs", "before", "built", "now")

    def __init__(self, before: JSON | None, built: JSON | None) -> None:
        self.before: JSON = before if isinstance(before, dict) else {}
        self.built: JSON = built if isinstance(built, dict) else {}  # as the views built it
        self.now: JSON = {key: _kept(self.before.get(key, _UNSEEN), value) for key, value in self.built.items()}
        self._diffs: dict[str, list[Op]] = {}

    def held(self, hand: JSON) -> JSON:
        """``hand`` with each public value as this batch's public object (what the viewer's model is compared by)."""
        now, built = self.now, self.built
        held: JSON = {}
        for key, value in hand.items():
            public = now.get(key, _UNSEEN)
            if value is not public and (value is built.get(key, _UNSEEN) or value == public):
                value = public
            held[key] = value
        return held

    def patch(self, before: JSON, hand: JSON) -> tuple[JSON, list[Op]]:
        """:meth:`held` of ``hand``, and the operations turning ``before`` into it under ``hand``, in ``diff``'s order.

        One loop for both: this runs for every seat in the hand on every batch.
        """
        now, built, last, diffs = self.now, self.built, self.before, self._diffs
        held: JSON = {}
        ops: list[Op] = []
        for key, value in hand.items():
            public = now.get(key, _UNSEEN)
            if value is not public and (value is built.get(key, _UNSEEN) or value == public):
                value = public
            held[key] = value
            if key not in before:
                ops.append([["hand", key], value])
                continue
            old = before[key]
            if old is value:
                continue
            if value is public and old is last.get(key, _UNSEEN):
                found = diffs.get(key)
                ops += found if found is not None else self._public_ops(key)
            else:
                diff_item(old, value, ["hand", key], ops)
        if not before.keys() <= held.keys():
            ops.extend([["hand", key]] for key in before if key not in held)
        return held, ops

    def _public_ops(self, key: str) -> list[Op]:
        found = self._diffs[key] = []
        diff_item(self.before[key], self.now[key], ["hand", key], found)
        return found


def _kept(before: object, value: object) -> object:
    """``before`` if it equals ``value`` (the object the viewers' models already hold), else ``value``."""
    return before if before is value or (before is not _UNSEEN and before == value) else value


class BatchUpdates:
    """One batch's updates, built viewer by viewer: the requesters' first, so their answers need not wait."""

    def __init__(self, builder: UpdateBuilder, views: TableViews, record: BatchRecord, server_time: float,
                 shared: tuple[JSON, list[Op]], hand_changed: bool) -> None:
        self._builder, self._views, self._hand_changed = builder, views, hand_changed
        self._shared, self._shared_patch = shared
        self._range = _seq_range(record)
        self._server_time = server_time
        self._public = record.events  # as the pipeline recorded them: no copy
        self._private = _private_by_account(record.private)
        self._built: dict[AccountId | None, UpdatePayload] = {}
        self._accounts = record.seated_before | views.seated_accounts()
        self._public_hand: PublicHand | None = None
        # An account with no personal update this batch follows the spectators' from now on.
        for gone in set(builder.sent) - self._accounts:
            del builder.sent[gone]

    def for_account(self, account: AccountId | None) -> UpdatePayload:
        """``account``'s update; the spectators' for None or an account seated neither before nor after the batch."""
        if account is None or account not in self._accounts:
            return self.spectator()
        built = self._built.get(account)
        if built is None:
            built = self._built[account] = self._build_personal(account)
        return built

    def spectator(self) -> UpdatePayload:
        """The update every spectator gets (built once)."""
        built = self._built.get(None)
        if built is None:
            view, patch = dict(self._shared), list(self._shared_patch)
            if self._hand_changed:
                public = self._public_part()
                self._builder.spectators.put_hand(view, patch, public.built or None, public)
            built = self._built[None] = self._payload(self._public, view, patch, self._views.choices(None))
        return built

    def finish(self, skip: frozenset[AccountId] = frozenset(), *, snapshot: bool = False) -> TableUpdates:
        """Every viewer's update; the accounts in ``skip`` had theirs in their answers (``snapshot``: the batch
        answered a snapshot, ``TableUpdates``)."""
        spectator = self.spectator()
        personal = {account: self.for_account(account) for account in sorted(self._accounts)}
        return TableUpdates(spectator, personal, skip, snapshot)

    def forget(self, account: AccountId) -> None:
        """Send ``account`` every key whole from now on (its update failed half built)."""
        self._builder.sent.pop(account, None)
        self._built.pop(account, None)

    def _build_personal(self, account: AccountId) -> UpdatePayload:
        views, sent_by = self._views, self._builder.sent
        seat = views.hand_seat(account)
        sent = sent_by.get(account)
        if sent is None or sent.seat != seat:  # a seat taken or left changes how it sees the hand: send it whole
            sent = sent_by[account] = _Sent(seat)
        view, patch = dict(self._shared), list(self._shared_patch)
        if self._hand_changed or "hand" not in sent.held:
            public = self._public_part()
            sent.put_hand(view, patch, views.hand_view(seat) if seat is not None else public.built or None, public)
        sent.put(view, patch, "you", views.you(account))
        own = self._private.get(account)
        events = self._public if own is None else _interleave(self._public, own)
        return self._payload(events, view, patch, views.choices(account))

    def _public_part(self) -> PublicHand:
        """The hand's public part this batch, built at the first viewer that needs it."""
        if self._public_hand is None:
            self._public_hand = PublicHand(self._builder.public_hand, self._views.hand_view(None))
            self._builder.public_hand = self._public_hand.now
        return self._public_hand

    def _payload(self, events: list[UpdateEvent], view: JSON, patch: list[Op], choices: Choices) -> UpdatePayload:
        return {"table": self._builder.table, "from_seq": self._range[0], "seq": self._range[1],
                "server_time": self._server_time, "events": events, "view": view, "patch": patch, "choices": choices}


_SENT_WHOLE = frozenset({"last_hand"})  # a finished hand's record: each one is new, never a change of the last


def _same_hand(key: str, before: JSON, after: JSON) -> bool:
    """Whether ``after`` may go as a patch of ``before``: not for a new hand (its id changed)."""
    return key != "hand" or before.get("hand_id") == after.get("hand_id")


def _same_key(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    if len(a) != len(b):
        return False
    return all(x is y or (isinstance(x, int | float | str) and x == y) for x, y in zip(a, b, strict=True))


def _seq_range(record: BatchRecord) -> tuple[int, int]:
    """The first and last seq the batch covers: its events' (recorded in seq order), or wider."""
    seqs = [e["seq"] for e in record.events[:1]] + [e["seq"] for e in record.events[-1:]]
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


def merged(first: UpdatePayload, then: UpdatePayload) -> UpdatePayload:
    """One update that does what ``first`` and then ``then`` do (``then`` covers the seqs right after ``first``'s).

    For a viewer that takes several updates at once (the spectators of a table many watch,
    ``server/transport/edge.py``): its events are both's, in order; a key ``then`` sends whole
    replaces ``first``'s value and its operations; every other operation stays, ``first``'s first.

    >>> a = {"table": "t", "from_seq": 3, "seq": 4, "server_time": 1.0, "events": [{"seq": 3, "event": {}}],
    ...      "view": {"status": "playing"}, "patch": [[["hand", "pot"], 10]], "choices": {}}
    >>> b = {"table": "t", "from_seq": 5, "seq": 5, "server_time": 2.0, "events": [{"seq": 5, "event": {}}],
    ...      "view": {"hand": {"pot": 0}}, "patch": [[["seats", 0, "stack"], 90]], "choices": {}}
    >>> both = merged(a, b)
    >>> (both["from_seq"], both["seq"], both["server_time"], [e["seq"] for e in both["events"]])
    (3, 5, 2.0, [3, 5])
    >>> both["view"], both["patch"]
    ({'status': 'playing', 'hand': {'pot': 0}}, [[['seats', 0, 'stack'], 90]])
    """
    whole = then["view"]
    kept = [op for op in first["patch"] if op[0][0] not in whole] if whole else first["patch"]
    return {"table": then["table"], "from_seq": first["from_seq"], "seq": then["seq"],
            "server_time": then["server_time"], "events": [*first["events"], *then["events"]],
            "view": {**first["view"], **whole}, "patch": [*kept, *then["patch"]], "choices": then["choices"]}


def apply_update(model: JSON, update: JSONIn) -> JSON:
    """A client's table model after one update (docs/protocol.md section 4): the reference for clients and tests."""
    out = dict(model)
    out.update(update["view"])
    out = apply_patch(out, update.get("patch") or [])
    out["seq"], out["server_time"], out["choices"] = update["seq"], update["server_time"], update["choices"]
    return out


__all__ = ["BatchRecord", "BatchUpdates", "PublicHand", "TableViews", "UpdateBuilder", "apply_update", "merged"]
