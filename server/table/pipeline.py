"""The record -> commit -> apply -> publish pipeline.

Events get their seq, are committed with their transfers and seat rows in one
transaction, and only then change memory; each batch's updates go out after the
requesters' answers (docs/protocol.md section 2).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence

import structlog

from server.rules.events import Event
from server.rules.game import AccountId, Game, HandLike, log_fields
from server.rules.vocabulary import JSON
from server.table import course, seats
from server.table.commands import Snapshot, TableError, requester
from server.table.context import TableContext
from server.table.hand_timer import HandTimer
from server.table.lifecycle import QueueItem
from server.table.ports import Answer, Batch, BatchedStorage, Publisher, RecordedEvent, TableStorage, UpdateEvent
from server.table.updates import BatchRecord, UpdateBuilder

log = structlog.get_logger("hcf.table")


# The table's own fields of a log line; the game adds its own (Game.log_fields).
_LOGGED_KEYS = ("seat", "reason", "amount", "name", "stack", "cashed_out", "status", "hand_no", "arranged", "seats",
                "present", "willing_to_bank", "changed", "cards")


class Pipeline:
    """Records a command's events (hand or table), commits them, applies them to the table, publishes them.

    ``after_hand`` is what the table does once a recorded hand is over (the hand desk's, passed in).
    """

    def __init__(self, table: TableContext, storage: TableStorage, publisher: Publisher, hand_timer: HandTimer,
                 after_hand: Callable[[HandLike], Awaitable[None]]) -> None:
        self._table, self._storage, self._publisher = table, storage, publisher
        # Asked once: an isinstance of a runtime-checkable Protocol costs 25 us, twice a batch (ninth round).
        self._batched: BatchedStorage | None = storage if isinstance(storage, BatchedStorage) else None
        self._hand_timer, self._after_hand = hand_timer, after_hand
        self._updates = UpdateBuilder(table.name)  # its ``batch``: what the batch of commands in hand recorded so far
        self._committed: list[Callable[[], Awaitable[None]]] = []  # writes of their own, once the batch is committed
        # The batch's published events, logged once its requesters are answered: a line is not on an answer's way.
        self._unlogged: list[UpdateEvent] = []

    def begin(self) -> None:
        """A batch of commands begins: what it records is kept for its updates, and (where the storage can) its
        commands share one commit."""
        self._updates.batch = BatchRecord(self._table.seated_accounts())
        if self._batched is not None:
            self._batched.begin_batch(self._table.name)

    async def commit(self) -> None:
        """The batch's one commit, made before anyone is answered; failing, the table stops (memory is ahead of
        what was recorded)."""
        if self._batched is not None:
            await self._batched.end_batch(self._table.name)
        then, self._committed = self._committed, []
        for write in then:
            try:
                await write()
            except TableError as refusal:  # what the batch recorded stands; this write of its own is said in the log
                log.warning("after_commit_refused", code=refusal.code, reason=refusal.message)

    def after_commit(self, write: Callable[[], Awaitable[None]]) -> None:
        """Run ``write`` (a write in a transaction of its own) once the batch is committed: inside the batch, the
        batch's transaction holds the database's write lock (SQLite)."""
        self._committed.append(write)

    async def abandon(self) -> None:
        """The batch ended by an error: nothing of it is committed, published or logged as done."""
        self._updates.batch, self._committed, self._unlogged = None, [], []
        if self._batched is not None:
            await self._batched.end_batch(self._table.name, commit=False)

    async def answer_and_publish(self, items: list[QueueItem], outcomes: list[Answer | TableError]) -> None:
        """The batch is over: the requesters' answers first, each with its own update; then one update to every
        other viewer.

        Only the requesters' updates are built before they are answered. The event loop then lets
        the requests' handlers write their answers: the acting player's answer is the first thing
        the table sends, and it does not wait for the others' updates to be built.
        """
        table = self._table
        unlogged, self._unlogged = self._unlogged, []
        try:
            batch = self._updates.start(table.view(), table.now())  # the batch the builder holds, now over
        except Exception:
            log.exception("update_failed")
            batch = None
        answered: set[AccountId] = set()
        snapshot = False
        for (command, future), outcome in zip(items, outcomes, strict=False):
            if future is None or future.done():
                continue
            if isinstance(outcome, TableError):
                future.set_exception(outcome)
                continue
            if isinstance(command, Snapshot):
                outcome = {"snapshot": table.view().snapshot(command.account)}  # as of the batch's end
                snapshot = True
            account = requester(command)
            if batch is not None and account is not None:
                try:
                    outcome = outcome | {"update": batch.for_account(account)}
                    answered.add(account)
                except Exception:
                    log.exception("update_failed")  # answered without it: the account's push brings it, whole
                    batch.forget(account)
            future.set_result(outcome)
        if batch is None:
            _log_events(unlogged, table.game)
            return
        # One turn of the loop: the requests' handlers write their answers before the others' updates are built
        # (straight to an idle connection's socket, server/transport/edge.py: no writer task's turn to wait for).
        await asyncio.sleep(0)
        _log_events(unlogged, table.game)
        try:
            await self._publisher.table_update(table.name, batch.finish(frozenset(answered), snapshot=snapshot))
        except Exception:
            log.exception("publish_failed")  # never undone: the state is committed

    async def take_recorded(self, after_seq: int, events: list[RecordedEvent]) -> Answer:
        """Publish what was recorded after ``after_seq`` before this runner ran, as the batch's first update."""
        batch = self._updates.batch
        if batch is not None and batch.seqs is None and after_seq < self._table.seq:
            batch.events.extend({"seq": e.seq, "event": e.payload} for e in events)
            batch.in_hand = batch.in_hand or any(e.in_hand for e in events)
            batch.seqs = (after_seq + 1, self._table.seq)
        return {}

    async def _commit(self, batch: Batch) -> int | None:
        # The storage port refuses with the one refusal type, its codes already mapped for clients.
        return await self._storage.commit(self._table.name, self._table.course.hand_id, batch)

    async def _publish(self, events: list[UpdateEvent], in_hand: bool,
                       private: list[tuple[AccountId, int, JSON]]) -> None:
        """Keep what was recorded, as it is sent, for the batch's updates (``answer_and_publish``), and to log once
        its requesters are answered (outside a batch, not expected: published and logged now)."""
        table = self._table
        batch = self._updates.batch
        if batch is not None:  # written straight into the builder's record: the updates carry these very events
            self._unlogged.extend(events)
            batch.events.extend(events)
            batch.private.extend(private)
            batch.in_hand = batch.in_hand or in_hand
            return
        _log_events(events, table.game)
        record = BatchRecord(table.seated_accounts(), events, list(private), in_hand)  # outside a batch (not expected)
        updates = self._updates.build(table.view(), record, table.now())
        if updates is not None:
            try:
                await self._publisher.table_update(table.name, updates)
            except Exception:
                log.exception("publish_failed")

    async def table_events(self, payloads: list[JSON], batch: Batch | None = None,
                           apply: Callable[[], None] | None = None) -> None:
        """Record table-level events (seats, settings, notices), then ``apply`` them and publish.

        Nothing in memory changes unless the commit succeeded.
        """
        table = self._table
        batch = batch or Batch()
        first_seq = table.seq
        recorded = [RecordedEvent(table.next_seq(), p, in_hand=False) for p in payloads]
        batch.events.extend(recorded)
        try:
            await self._commit(batch)
        except BaseException:
            table.seq = first_seq
            raise
        table.stacks = seats.stacks_after(table.stacks, table.name, batch.transfers)
        if apply is not None:
            apply()
        # A "_" key is recorded and never published (a drill's answers: server/table/drill.py).
        await self._publish([{"seq": r.seq, "event": _unpublished_out(r.payload)} for r in recorded], False, [])

    async def record(self, before: HandLike, events: Sequence[Event], batch: Batch,
                     lead: list[JSON] | None = None, inputs: JSON | None = None) -> None:
        """Record a hand's input and events with their transfers, then apply and publish them."""
        table, game = self._table, self._table.game
        state = before
        first_seq = table.seq
        recorded = [RecordedEvent(table.next_seq(), p, in_hand=True) for p in lead or []]
        public: dict[int, JSON] = {}
        private: list[tuple[AccountId, int, JSON]] = []
        for event in events:
            batch.transfers.extend(game.postings(state, event, table.name, table.course.hand_accounts))
            seq = table.next_seq()
            recorded.append(RecordedEvent(seq, game.codec.event_as_json(event)))
            public[seq] = game.public_event(event)
            for seat, payload in game.private_events(state, event):
                private.append((table.course.hand_accounts[seat], seq, payload))
            state = game.evolve(state, event)
        if not table.course.hand_numbered and any(r.payload.get("type") == game.deal_event for r in recorded):
            batch.hand_number = table.course.hand_number
        if state.phase in game.terminal:
            summary = table.summary(state, dealt=table.course.hand_numbered or batch.hand_number is not None)
            batch.finish_hand = (state.phase, summary)
            recorded.append(RecordedEvent(table.next_seq(), {"type": "hand_revealed", **summary}))
        if inputs is not None and recorded:
            # The input rides on the first event it caused, so the log can be replayed; it is never published.
            recorded[0] = RecordedEvent(recorded[0].seq, {**recorded[0].payload, "_input": inputs})
        batch.events.extend(recorded)
        try:
            hand_id = await self._commit(batch)
        except BaseException:
            table.seq = first_seq
            raise
        table.course = course.recorded(table.course, state, hand_id=hand_id, dealt=batch.hand_number)
        table.stacks = seats.stacks_after(table.stacks, table.name, batch.transfers)
        self._hand_timer.follow(game.clock(before) if before is not None else None, game.clock(state), table.now())
        await self._publish(self._public(recorded, public), True, private)
        if state.phase in game.terminal:
            await self._after_hand(state)

    def _public(self, recorded: list[RecordedEvent], public: Mapping[int, JSON]) -> list[UpdateEvent]:
        """What everyone may see of the recorded events (the game's public view; no ``_`` keys), as sent.

        Each payload is completed where it is (the game's ``public_event`` gives a dict of its own each time,
        ``Game.public_event``), so the update carries the very dict the game made, with its seq.
        """
        table = self._table
        out: list[UpdateEvent] = []
        clock = self._hand_timer.running
        for r in recorded:
            payload = public.get(r.seq)
            if payload is None:
                payload = _unpublished_out(r.payload)
            payload["hand_id"] = table.course.hand_id
            payload.setdefault("number", table.course.hand_number)
            if clock is not None and payload.get("type") in table.game.clocked_events:
                payload["deadline"] = clock.deadline
            out.append({"seq": r.seq, "event": payload})
        return out


def _unpublished_out(payload: JSON) -> JSON:
    """The payload without its ``_`` keys, which are recorded and never published."""
    return {k: v for k, v in payload.items() if not k.startswith("_")}


def _log_events(events: list[UpdateEvent], game: Game) -> None:
    """One line per published event: only public fields, never cards or seeds."""
    for event in events:
        payload = event["event"]
        # "stack" and "event" mean something else to structlog: prefix every field.
        own = log_fields(payload, _LOGGED_KEYS) | game.log_fields(payload)
        fields = {f"ev_{k}": v for k, v in own.items()}
        log.info(str(payload.get("type")), seq=event["seq"], hand=payload.get("hand_id"), **fields)
