"""One asyncio task per table: it owns the table's state and takes commands one at a time.

Every command follows one path: check it, work out the events (the rules core
decides), **record them** (events, chip transfers and seat rows in one
transaction), apply them in memory. The table takes what waits in its queue as one
batch: each command is still its own commit, then every requester is answered (with
its own update), then every other viewer gets one update for the whole batch
(``server/table/updates.py``). Clocks are the table's own timers feeding
:class:`Tick` commands into the same queue, so a slow or vanished client can never
stall a hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog

from server.rules.arrange import SeatDeck
from server.rules.cards import Card, parse_cards
from server.rules.errors import RuleError
from server.rules.game import JSON, AccountId, ClockSpec, Game, HandLike, Transfer
from server.rules.games import game_named
from server.rules.places import account_place, stack_place
from server.table.commands import (
    Host,
    Play,
    Presence,
    SetSitOut,
    SetWilling,
    Sit,
    Snapshot,
    Stand,
    TableCommand,
    TableError,
    Tick,
    TopUp,
)
from server.table.floor import deck_by_place, deck_json, setting_changes, short_deck_warning
from server.table.ports import Batch, Choices, Publisher, RecordedEvent, SeatChange, TableStorage
from server.table.roster import MISSED_CLOCKS_TO_SIT_OUT, SIT_OUT_LIMIT_SECONDS, Roster, Seated
from server.table.summary import hand_summary
from server.table.updates import BatchRecord, UpdateBuilder

log = structlog.get_logger("hcf.table")

Reply = dict[str, Any]
HOUSEKEEPING_SECONDS = 10.0
CLOCK_RETRY_SECONDS = 1.0  # a clock whose command failed (a failed commit) is tried again this soon
CLOCK_ATTEMPTS = 3  # failed tries of one expiry before the hand is voided, every chip back
STOP_SECONDS = 5.0  # how long a stopping table waits for the command in hand
BATCH_LIMIT = 32  # commands taken from the queue at once, published as one update per viewer


@dataclass(slots=True)
class TableSetup:
    """What a runner starts from (a new table, or one restored from the database)."""

    name: str
    settings: Any  # the game's settings (server.rules.game.TableSettings)
    seats: list[Seated] = field(default_factory=list)
    stacks: dict[AccountId, int] = field(default_factory=dict)
    seq: int = 0
    offer_from: int = 1
    paused: bool = False
    hands_played: int = 0
    hands_dealt: int = 0  # the table's own hand number of its last dealt hand
    last_summary: dict[str, Any] | None = None  # the last finished hand (after a restart: maybe its void)
    game: str = "hcf"
    carry: dict[str, Any] = field(default_factory=dict)  # what outlives a hand (a jackpot meter)


@dataclass(slots=True)
class Clock:
    """The running clock: what it is for, whose it is, when it runs out."""

    kind: str  # offer, bets, decision, exchange...
    seat: int | None
    deadline: float
    spec: ClockSpec


class TableRunner:
    """The single owner of one table's state."""

    def __init__(
        self,
        setup: TableSetup,
        storage: TableStorage,
        publisher: Publisher,
        *,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[int], bytes] = secrets.token_bytes,
        grace: float = 0.5,
    ) -> None:
        self.name = setup.name
        self.game: Game = game_named(setup.game)
        self.settings: Any = setup.settings
        self.carry: JSON = dict(setup.carry)
        self.roster = Roster(setup.settings.seats)
        for seated in setup.seats:
            self.roster.add(seated)
        self.stacks = dict(setup.stacks)
        self.seq = setup.seq
        self.offer_from = setup.offer_from
        self.paused = setup.paused
        self.hands_played = setup.hands_played
        self.hands_dealt = setup.hands_dealt
        self.hand_number: int | None = None  # the number the hand in progress has (or takes once dealt)
        self.hand_numbered = False
        self.storage, self.publisher = storage, publisher
        self.now, self.seed_source, self.grace = clock, seed_source, grace
        self.state: Any = None  # the game's hand state (server.rules.game.HandLike)
        self.hand_id: int | None = None
        self.hand_accounts: dict[int, AccountId] = {}
        self.clock: Clock | None = None
        self.pending_settings: Any = None
        self.pending_by: AccountId | None = None  # who asked for the pending settings
        self.arranged_next: tuple[Card, ...] | SeatDeck | None = None
        self.arranged_in_play: tuple[Card, ...] | SeatDeck | None = None
        self.closed = False
        self.closing = False
        self.last_hand_id: int | None = None
        self.stopping = False
        self.waiting_reason: str | None = None
        self.last_summary: dict[str, Any] | None = setup.last_summary
        self._queue: asyncio.Queue[_QueueItem] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tokens: dict[str, int] = {}
        self._idle = asyncio.Event()
        self._idle.set()
        self._batch: BatchRecord | None = None  # what the batch of commands in hand recorded so far
        self._updates = UpdateBuilder(self.name)
        self._clock_failures = 0

    # ------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start the table task and the first hand (after a short pause)."""
        self._task = asyncio.create_task(self._run(), name=f"table:{self.name}")
        self._schedule("next_hand", self.now() + 0.2)
        self._schedule("housekeeping", self.now() + HOUSEKEEPING_SECONDS)

    async def submit(self, command: TableCommand) -> Reply:
        """Queue a command and wait for its reply (raises TableError when refused)."""
        if self._task is None or self._task.done():
            raise TableError("table/closed", f"table {self.name} is not running")
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self._queue.put((command, future))
        return await future

    async def stop(self, grace_seconds: float) -> None:
        """Take no new hands; let a hand in progress end within ``grace_seconds``, else void it."""
        self.stopping = True
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._idle.wait(), grace_seconds)
        if self.hand_in_progress():
            await self._call(self._void_hand, "shutdown")
        for handle in self._timers.values():
            handle.cancel()
        if self._task is not None:
            # End the task between two commands: cancelling it could cut a command's database
            # transaction in half and leave SQLite's write lock held by a lost connection.
            await self._queue.put((_Internal(self._halt, ()), None))
            if not (await asyncio.wait([self._task], timeout=STOP_SECONDS))[0]:
                self._task.cancel()  # a command that hangs: give up on it
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            if future is not None and not future.done():
                future.set_exception(TableError("table/closed", f"table {self.name} has stopped"))

    async def _halt(self) -> Reply:
        raise asyncio.CancelledError  # not an Exception: it ends _run, after every command queued before it

    async def _call(self, fn: Callable[..., Awaitable[Reply]], *args: Any) -> Reply:
        """Run ``fn`` inside the table task (for callers outside it)."""
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        await self._queue.put((_Internal(fn, args), future))
        return await future

    def hand_in_progress(self) -> bool:
        """Whether a hand has started and not ended."""
        return self.state is not None and self.state.phase not in self.game.terminal

    async def _run(self) -> None:
        while True:
            items = [await self._queue.get()]
            # Take what is already waiting too (docs/protocol.md section 2, batching): each command is
            # still its own commit, but the batch goes out as one update per viewer.
            while len(items) < BATCH_LIMIT and not self._queue.empty():
                items.append(self._queue.get_nowait())
            structlog.contextvars.bind_contextvars(table=self.name, hand=self.hand_id)
            try:
                await self._run_batch(items)
            finally:
                structlog.contextvars.unbind_contextvars("table", "hand")

    async def _run_batch(self, items: list[_QueueItem]) -> None:
        """Dispatch each item, answer every requester (with its update), then publish to the others."""
        self._batch = BatchRecord(self.seated_accounts())
        outcomes: list[Reply | TableError] = []
        halted = False
        try:
            for command, _future in items:
                try:
                    outcomes.append(await self._attempt(command))
                except asyncio.CancelledError:
                    if not (isinstance(command, _Internal) and command.fn == self._halt):
                        raise
                    halted = True  # answer and publish what came before the halt, then end
                    break
        except BaseException:
            self._batch = None
            for _command, future in items:
                if future is not None and not future.done():
                    future.set_exception(TableError("table/closed", f"table {self.name} has stopped"))
            raise
        record, self._batch = self._batch, None
        await self._answer_and_publish(items, outcomes, record)
        if halted:
            for _command, future in items[len(outcomes):]:
                if future is not None and not future.done():
                    future.set_exception(TableError("table/closed", f"table {self.name} has stopped"))
            raise asyncio.CancelledError

    async def _attempt(self, command: TableCommand | _Internal) -> Reply | TableError:
        try:
            return await self._dispatch(command)
        except TableError as exc:
            return exc
        except RuleError as exc:
            return TableError(exc.code, exc.message)
        except Exception as exc:
            log.exception("table_command_failed", command=type(command).__name__)
            return TableError("request/internal", f"the table failed: {exc}")

    async def _answer_and_publish(self, items: list[_QueueItem], outcomes: list[Reply | TableError],
                                  record: BatchRecord) -> None:
        """The requesters' answers first, each with its own update; then one update to every other viewer.

        One turn of the event loop between the two lets the requests' handlers put their answers
        on their connections first: the acting player's answer is the first thing the table sends.
        """
        try:
            requesters = (_requester(command) for (command, future), outcome in zip(items, outcomes, strict=False)
                          if future is not None and not future.done() and not isinstance(outcome, TableError))
            skip = frozenset(a for a in requesters if a is not None)
            updates = self._updates.build(self, record, self.now(), skip)
        except Exception:
            log.exception("update_failed")
            updates = None
        for (command, future), outcome in zip(items, outcomes, strict=False):
            if future is None or future.done():
                continue
            if isinstance(outcome, TableError):
                future.set_exception(outcome)
                continue
            if isinstance(command, Snapshot):
                outcome = {"snapshot": self.snapshot(command.account)}  # as of the batch's end: no update overlaps it
            account = _requester(command)
            if updates is not None and account is not None:
                outcome = outcome | {"update": updates.accounts.get(account, updates.spectator)}
            future.set_result(outcome)
        if updates is None:
            return
        await asyncio.sleep(0)
        try:
            await self.publisher.table_update(self.name, updates)
        except Exception:
            log.exception("publish_failed")  # never undone: the state is committed

    async def publish_recorded(self, after_seq: int, events: list[RecordedEvent]) -> None:
        """Publish what was recorded here after ``after_seq`` before this runner ran (a takeover's voided hand).

        ``events`` are the public ones of them. Sent as the runner's first update, which holds
        every key of the view: a client still connected from before catches up without a snapshot.
        """
        await self._call(self._take_recorded, after_seq, events)

    async def _take_recorded(self, after_seq: int, events: list[RecordedEvent]) -> Reply:
        if self._batch is not None and self._batch.seqs is None and after_seq < self.seq:
            self._batch.add(events, [])
            self._batch.seqs = (after_seq + 1, self.seq)
        return {}

    async def _dispatch(self, command: TableCommand | _Internal) -> Reply:
        if isinstance(command, _Internal):
            return await command.fn(*command.args)
        if isinstance(command, Tick):
            return await self._tick(command)
        if isinstance(command, Snapshot):
            return {"snapshot": self.snapshot(command.account)}
        if self.closed:
            raise TableError("table/closed", f"table {self.name} is closed")
        handler = _TABLE_HANDLERS[type(command)]
        reply: Reply = await handler(self, command)
        return reply

    # ------------------------------------------------------------ timers

    def _schedule(self, kind: str, at: float) -> None:
        token = self._tokens.get(kind, 0) + 1
        self._tokens[kind] = token
        if kind in self._timers:
            self._timers[kind].cancel()
        loop = asyncio.get_running_loop()
        delay = max(0.0, at - self.now())
        self._timers[kind] = loop.call_later(delay, self._queue.put_nowait, (Tick(kind, token), None))

    def _cancel(self, kind: str) -> None:
        self._tokens[kind] = self._tokens.get(kind, 0) + 1
        handle = self._timers.pop(kind, None)
        if handle is not None:
            handle.cancel()

    async def _tick(self, tick: Tick) -> Reply:
        if self._tokens.get(tick.kind) != tick.token:
            return {}
        self._timers.pop(tick.kind, None)
        if tick.kind == "next_hand":
            await self._start_hand()
        elif tick.kind == "clock":
            await self._clock_ran_out()
        elif tick.kind == "housekeeping":
            await self._housekeeping()
            self._schedule("housekeeping", self.now() + HOUSEKEEPING_SECONDS)
        return {}

    async def _clock_ran_out(self) -> None:
        if self.clock is None or not self.hand_in_progress():
            return
        clock, self.clock = self.clock, None
        for seat in self.game.late_seats(self.state, clock.spec):
            self._missed(seat)
        try:
            if self._clock_failures >= CLOCK_ATTEMPTS:
                await self._void_hand("interrupted")
            else:
                await self._hand_command(self.game.clock_command(self.state, clock.spec))
        except Exception as exc:
            # Nothing was recorded, so the hand is as it was: it must keep a clock, or it waits forever
            # (issue 14, B.26). Try again soon; after CLOCK_ATTEMPTS failures void it (every chip back).
            self._clock_failures += 1
            log.error("clock_command_failed", kind=clock.kind, failures=self._clock_failures,
                      error=f"{type(exc).__name__}: {exc}")
            if self.hand_in_progress():
                self.clock = clock
                self._schedule("clock", self.now() + CLOCK_RETRY_SECONDS)
            return
        self._clock_failures = 0

    def _missed(self, seat: int) -> None:
        seated = self.roster.by_seat.get(seat)
        if seated is not None:
            seated.missed_this_hand = True

    def _update_clock(self, before: HandLike | None, after: HandLike) -> None:
        """Restart the clock when the offer, the betting round or the turn changes."""
        spec_before = self.game.clock(before) if before is not None else None
        spec = self.game.clock(after)
        if spec is None:
            self.clock = None
            self._cancel("clock")
            return
        if spec_before is not None and spec.key == spec_before.key and self.clock is not None:
            return
        self.clock = Clock(spec.kind, spec.seat, self.now() + spec.seconds, spec)
        self._clock_failures = 0
        self._schedule("clock", self.clock.deadline + self.grace)

    # ------------------------------------------------------------ recording

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    async def _commit(self, batch: Batch) -> int | None:
        try:
            return await self.storage.commit(self.name, self.hand_id, batch)
        except Exception as exc:
            code = getattr(exc, "code", None)
            if isinstance(code, str):
                raise TableError(code, str(getattr(exc, "message", exc))) from None
            raise

    async def _publish(self, events: list[RecordedEvent], private: list[tuple[AccountId, int, Reply]]) -> None:
        """Keep what was recorded for the batch's updates (``_answer_and_publish``), logged now."""
        for event in events:
            _log_event(event)
        if self._batch is not None:
            self._batch.add(events, private)
            return
        record = BatchRecord(self.seated_accounts(), list(events), list(private))  # outside a batch (not expected)
        updates = self._updates.build(self, record, self.now())
        if updates is not None:
            try:
                await self.publisher.table_update(self.name, updates)
            except Exception:
                log.exception("publish_failed")

    async def _table_events(self, payloads: list[Reply], batch: Batch | None = None,
                            apply: Callable[[], None] | None = None) -> None:
        """Record table-level events (seats, settings, notices), then ``apply`` them and publish.

        Nothing in memory changes unless the commit succeeded.
        """
        batch = batch or Batch()
        first_seq = self.seq
        recorded = [RecordedEvent(self._next_seq(), p, in_hand=False) for p in payloads]
        batch.events.extend(recorded)
        try:
            await self._commit(batch)
        except BaseException:
            self.seq = first_seq
            raise
        self._apply_transfers(batch.transfers)
        if apply is not None:
            apply()
        await self._publish(recorded, [])

    def _apply_transfers(self, transfers: list[Transfer]) -> None:
        for t in transfers:
            for place, sign in ((t.src, -1), (t.dst, 1)):
                prefix = f"stack:{self.name}:"
                if place.startswith(prefix):
                    account = int(place[len(prefix):])
                    self.stacks[account] = self.stacks.get(account, 0) + sign * t.amount

    # ------------------------------------------------------------ the hand

    async def _start_hand(self) -> None:
        if self.paused or self.closed or self.closing or self.stopping or self.hand_in_progress():
            return
        await self._apply_pending_settings()
        await self._stand_up_expired()
        players = [s.as_player(self.stacks.get(s.account, 0)) for s in self.roster.playing()]
        needed = 1 if self.settings.house_banked else 2
        if len(players) < needed:
            await self._set_waiting("players")
            return
        seed = self.seed_source(32)
        arranged = self.arranged_next
        state = self.game.new_hand(self.settings, players, seed, offer_from=self.offer_from,
                                   arranged_deck=arranged, carry=self.carry)
        opening = self.game.opening_events(state)
        if state.phase == "not_dealt":
            self.state = state
            await self._set_waiting(state.reason or "no_bank")
            self._schedule("next_hand", self.now() + self.settings.offer_seconds)
            return
        self.arranged_next, self.arranged_in_play = None, arranged  # a hand never started keeps it waiting
        self.waiting_reason = None
        self._idle.clear()
        self.hand_accounts = {p.seat: self.roster.by_seat[p.seat].account for p in players}
        for seated in self.roster.by_seat.values():
            seated.missed_this_hand = seated.acted_this_hand = False
        # Numbered like a person counts: an attempt nobody banked is not a hand, and the next takes its number.
        self.hand_number, self.hand_numbered = self.hands_dealt + 1, False
        started = {"type": "hand_started", "hand_no": self.hands_played + 1, "number": self.hand_number,
                   "arranged": arranged is not None,
                   "seats": [p.seat for p in players], "offer_from": self.offer_from}
        batch = Batch(start_hand=(seed.hex(), state.commitment, arranged is not None))
        self.hand_id = None
        self.state = state
        inputs = {"command": "new_hand", "game": self.game.name, "carry": self.carry,
                  "settings": self.settings.as_dict(), "offer_from": self.offer_from,
                  "players": [[p.seat, p.stack, p.willing_to_bank, p.present] for p in players],
                  "accounts": {str(seat): account for seat, account in self.hand_accounts.items()},
                  "arranged_deck": deck_json(arranged)}
        await self._record(state, opening, batch, lead=[started], inputs=inputs)

    async def _set_waiting(self, reason: str) -> None:
        if self.waiting_reason == reason:
            return
        self.waiting_reason = reason
        messages = {
            "players": "waiting for players: a hand needs a designated player and at least one player",
            "no_bank": "nobody took the bank: no hand this time; the bank is offered again soon",
        }
        if self.settings.house_banked:
            messages["players"] = "waiting for players"
        await self._table_events([{"type": "table_waiting", "reason": reason,
                                   "message": messages.get(reason, reason)}])

    async def _hand_command(self, command: Any) -> Reply:
        if not self.hand_in_progress():
            raise TableError("hand/none", "no hand is in progress")
        events = self.game.decide(self.state, command)
        await self._record(self.state, events, Batch(), inputs=self.game.command_as_json(command))
        return {}

    async def _record(self, before: Any, events: list[Any], batch: Batch,
                      lead: list[Reply] | None = None, inputs: Reply | None = None) -> None:
        """Record a hand's input and events with their transfers, then apply and publish them."""
        game = self.game
        state = before
        first_seq = self.seq
        recorded = [RecordedEvent(self._next_seq(), p, in_hand=True) for p in lead or []]
        public: dict[int, Reply] = {}
        private: list[tuple[AccountId, int, Reply]] = []
        for event in events:
            batch.transfers.extend(game.postings(state, event, self.name, self.hand_accounts))
            seq = self._next_seq()
            recorded.append(RecordedEvent(seq, game.event_as_json(event)))
            public[seq] = game.public_event(event)
            for seat, payload in game.private_events(state, event):
                private.append((self.hand_accounts[seat], seq, payload))
            state = game.evolve(state, event)
        if not self.hand_numbered and any(r.payload.get("type") == "cards_dealt" for r in recorded):
            batch.hand_number = self.hand_number
        if state.phase in game.terminal:
            summary = self._summary(state, dealt=self.hand_numbered or batch.hand_number is not None)
            batch.finish_hand = (state.phase, summary)
            recorded.append(RecordedEvent(self._next_seq(), {"type": "hand_revealed", **summary}))
        if inputs is not None and recorded:
            # The input rides on the first event it caused, so the log can be replayed; it is never published.
            recorded[0] = RecordedEvent(recorded[0].seq, {**recorded[0].payload, "_input": inputs})
        batch.events.extend(recorded)
        try:
            hand_id = await self._commit(batch)
        except BaseException:
            self.seq = first_seq
            raise
        if hand_id is not None:
            self.hand_id = hand_id
            self.hands_played += 1  # numbered like the database: every recorded hand counts
        if batch.hand_number is not None:
            self.hands_dealt, self.hand_numbered = batch.hand_number, True
        self._apply_transfers(batch.transfers)
        self.state = state
        self._note_actions(events)
        self._update_clock(before, state)
        await self._publish(self._public(recorded, public), private)
        if state.phase in game.terminal:
            await self._after_hand(state)

    def _public(self, recorded: list[RecordedEvent], public: Mapping[int, Reply]) -> list[RecordedEvent]:
        """What everyone may see of the recorded events (the game's public view; no ``_`` keys)."""
        out = []
        clock = self.clock
        for r in recorded:
            payload = public.get(r.seq)
            if payload is None:
                payload = {k: v for k, v in r.payload.items() if not k.startswith("_")}
            payload = {**payload, "hand_id": self.hand_id,
                       "number": payload.get("number", self.hand_number)}
            if clock is not None and payload.get("type") in _CLOCKED_EVENTS:
                payload["deadline"] = clock.deadline
            out.append(RecordedEvent(r.seq, payload, r.in_hand))
        return out

    def _note_actions(self, events: list[Any]) -> None:
        for event in events:
            seat = self.game.acted(event)
            seated = self.roster.by_seat.get(seat) if seat is not None else None
            if seated is not None:
                seated.acted_this_hand = True

    def _summary(self, state: Any, *, dealt: bool) -> Reply:
        """The hand as everyone may see it once it is over (docs/rules/hcf.md section 3.8), seed revealed."""
        names = {seat: self.roster.by_seat[seat].name for seat in self.hand_accounts if seat in self.roster.by_seat}
        return hand_summary(self.game, state, self.name, self.hand_id, names, self.carry,
                            self.hand_number if dealt else None)

    async def _after_hand(self, state: Any) -> None:
        self.clock = None
        self._cancel("clock")
        self.last_summary = self._summary(state, dealt=self.hand_numbered)
        self.last_hand_id = self.hand_id
        self.carry = self.game.carry_out(state, self.carry)
        if state.phase != "not_dealt" or self.game.dealer_seat(state) is not None:
            self.offer_from = self.game.next_offer_from(state)
        changes: list[Reply] = []
        for seat in list(self.hand_accounts):
            seated = self.roster.by_seat.get(seat)
            if seated is None:
                continue
            seated.missed_hands = seated.missed_hands + 1 if seated.missed_this_hand else 0
            if seated.missed_hands >= MISSED_CLOCKS_TO_SIT_OUT and not seated.sitting_out:
                seated.sitting_out, seated.sat_out_at = True, self.now()
                changes.append({"type": "player_sat_out", "seat": seat, "name": seated.name,
                                "reason": "clock"})
        self.hand_id = None
        if state.phase == "not_dealt" and self.arranged_in_play is not None and self.arranged_next is None:
            self.arranged_next = self.arranged_in_play  # no cards were dealt: the drill deck waits for the next hand
        self.arranged_in_play = None
        if state.reason == "no_bank":
            self.waiting_reason = "no_bank"  # hand_not_dealt said so; a seat change retries at once
        self._idle.set()
        await self._stand_leavers(changes)
        await self._apply_pending_settings()  # between hands: what show_settings shows is what the next hand gets
        if self.closing:
            await self._close_now()
            return
        pause = self.game.pause_after(state)
        self._schedule("next_hand", self.now() + pause)

    async def _stand_leavers(self, changes: list[Reply]) -> None:
        batch, removals = Batch(), []
        for seated in list(self.roster.by_seat.values()):
            if seated.leaving:
                reason = {"reason": seated.leave_reason} if seated.leave_reason else {}
                changes.append(self._stand_now(seated, batch) | reason)
                removals.append(seated.seat)
            elif any(c.get("seat") == seated.seat for c in changes):
                batch.seat_changes.append(
                    SeatChange("flags", seated.seat, seated.account, seated.willing_to_bank, True))
        if changes:
            await self._table_events(changes, batch, lambda: self._remove(removals))

    def _remove(self, seats: list[int]) -> None:
        for seat in seats:
            self.roster.remove(seat)

    def _stand_now(self, seated: Seated, batch: Batch) -> Reply:
        """Add a stand-up (chips back to the account) to ``batch``; the caller removes the seat after commit."""
        stack = self.stacks.get(seated.account, 0)
        if stack:
            batch.transfers.append(Transfer(stack_place(self.name, seated.account),
                                            account_place(seated.account), stack, "cash_out"))
        batch.seat_changes.append(SeatChange("free", seated.seat, seated.account))
        return {"type": "player_stood", "seat": seated.seat, "name": seated.name, "cashed_out": stack}

    async def _void_hand(self, reason: str) -> Reply:
        if not self.hand_in_progress():
            return {}
        await self._hand_command(self.game.misdeal(reason))
        return {}

    def _soon(self) -> None:
        """A seat, stack or switch changed: if the table is waiting, try a hand now."""
        if not self.hand_in_progress() and self.waiting_reason is not None:
            self._schedule("next_hand", self.now() + 0.05)

    # ------------------------------------------------------------ seats

    def _seated(self, account: AccountId) -> Seated:
        seated = self.roster.of_account(account)
        if seated is None:
            raise TableError("seat/not_seated", f"you have no seat at table {self.name}")
        return seated

    def _in_current_hand(self, seated: Seated) -> bool:
        return self.hand_in_progress() and seated.seat in self.hand_accounts

    async def _sit(self, cmd: Sit) -> Reply:
        if self.closing:
            raise TableError("table/closed", f"table {self.name} is closing")
        if self.roster.of_account(cmd.account) is not None:
            raise TableError("seat/already_seated", "you already have a seat at this table")
        seat = cmd.seat if cmd.seat is not None else self.roster.first_free()
        if seat is None:
            raise TableError("seat/no_free_seat", f"table {self.name} is full")
        if not 1 <= seat <= self.settings.seats:
            raise TableError("seat/invalid", f"table {self.name} has seats 1 to {self.settings.seats}")
        if seat in self.roster.by_seat:
            raise TableError("seat/taken", f"seat {seat} is taken")
        s = self.settings
        buy_in = cmd.buy_in if cmd.buy_in is not None else s.default_buy_in
        if not s.min_buy_in <= buy_in <= s.max_buy_in:
            raise TableError("buy_in/out_of_range",
                             f"the buy-in is {s.min_buy_in} to {s.max_buy_in} chips, got {buy_in}")
        seated = Seated(seat, cmd.account, cmd.name, present=True)
        batch = Batch(transfers=[Transfer(account_place(cmd.account), stack_place(self.name, cmd.account),
                                          buy_in, "buy_in")],
                      seat_changes=[SeatChange("take", seat, cmd.account)])
        await self._table_events([{"type": "player_sat", "seat": seat, "name": cmd.name, "stack": buy_in}],
                                 batch, lambda: self.roster.add(seated))
        self._soon()
        return {"seat": seat, "stack": buy_in}

    async def _stand(self, cmd: Stand) -> Reply:
        seated = self._seated(cmd.account)
        if self._in_current_hand(seated):
            await self._leave_hand(seated)
            return {"standing": "after_hand"}
        batch = Batch()
        change = self._stand_now(seated, batch)
        await self._table_events([change], batch, lambda: self._remove([seated.seat]))
        self._soon()
        return {"standing": "now", "cashed_out": change["cashed_out"]}

    async def _stay(self, seated: Seated) -> Reply:
        """Take back a leave asked during this hand: the seat stays after it. A leave that has not acted on the hand
        yet is taken back there too, so the seat plays it (``"hand": "playing"``); one that already folded, passed
        or cleared the seat stands (``"hand": "folded"``; docs/rules/hcf.md section 4)."""
        if not seated.leaving:
            return {"leaving": False}
        if seated.leave_reason is not None or self.closing:
            raise TableError("seat/removed", "the host stands you up after this hand" if not self.closing
                             else f"table {self.name} closes after this hand: everyone stands up")
        hand = "none"
        if self._in_current_hand(seated):
            try:
                await self._hand_command(self.game.stay(seated.seat))
                hand = "playing"
            except RuleError:
                hand = "folded"  # the rules refused: the leave already acted, and that stands
        await self._table_events([{"type": "player_staying", "seat": seated.seat, "name": seated.name}],
                                 apply=lambda: setattr(seated, "leaving", False))
        return {"leaving": False, "hand": hand}

    async def _leave_hand(self, seated: Seated) -> None:
        seated.leaving = True
        assert self.state is not None
        await self._hand_command(self.game.leave(seated.seat))

    async def _top_up(self, cmd: TopUp) -> Reply:
        seated = self._seated(cmd.account)
        if self._in_current_hand(seated):
            raise TableError("table/hand_in_progress", "top up between hands")
        stack = self.stacks.get(cmd.account, 0)
        if stack + cmd.amount > self.settings.max_buy_in:
            raise TableError("buy_in/out_of_range",
                             f"a stack may hold at most {self.settings.max_buy_in} chips "
                             f"(you have {stack})")
        batch = Batch(transfers=[Transfer(account_place(cmd.account), stack_place(self.name, cmd.account),
                                          cmd.amount, "top_up")])
        await self._table_events([{"type": "stack_changed", "seat": seated.seat, "name": seated.name,
                                   "stack": stack + cmd.amount, "reason": "top_up"}], batch)
        self._soon()
        return {"stack": stack + cmd.amount}

    async def _set_sit_out(self, cmd: SetSitOut) -> Reply:
        seated = self._seated(cmd.account)
        if seated.sitting_out != cmd.sitting_out:
            batch = Batch(seat_changes=[SeatChange("flags", seated.seat, seated.account,
                                                   seated.willing_to_bank, cmd.sitting_out)])
            kind = "player_sat_out" if cmd.sitting_out else "player_back"

            def apply() -> None:
                seated.sitting_out = cmd.sitting_out
                seated.sat_out_at = self.now() if cmd.sitting_out else None
                seated.missed_hands = 0

            await self._table_events([{"type": kind, "seat": seated.seat, "name": seated.name,
                                       "reason": "asked"}], batch, apply)
            self._soon()
        return {"sitting_out": seated.sitting_out}

    async def _set_willing(self, cmd: SetWilling) -> Reply:
        seated = self._seated(cmd.account)
        if seated.willing_to_bank != cmd.willing:
            batch = Batch(seat_changes=[SeatChange("flags", seated.seat, seated.account,
                                                   cmd.willing, seated.sitting_out)])
            await self._table_events([{"type": "willing_changed", "seat": seated.seat,
                                       "willing_to_bank": cmd.willing}], batch,
                                     lambda: setattr(seated, "willing_to_bank", cmd.willing))
            self._soon()
        return {"willing_to_bank": seated.willing_to_bank}

    async def _presence(self, cmd: Presence) -> Reply:
        seated = self.roster.of_account(cmd.account)
        if seated is None or seated.present == cmd.present:
            return {}
        await self._table_events([{"type": "presence", "seat": seated.seat, "present": cmd.present}],
                                 apply=lambda: setattr(seated, "present", cmd.present))
        self._soon()
        return {}

    async def _stand_up_expired(self) -> None:
        """Players sat out for 10 minutes are stood up and their chips go back (docs/rules/hcf.md section 4)."""
        batch, changes, removals = Batch(), [], []
        for seated in list(self.roster.by_seat.values()):
            if seated.sitting_out and seated.sat_out_at is not None \
                    and self.now() - seated.sat_out_at >= SIT_OUT_LIMIT_SECONDS:
                changes.append(self._stand_now(seated, batch) | {"reason": "sat_out_too_long"})
                removals.append(seated.seat)
        if changes:
            await self._table_events(changes, batch, lambda: self._remove(removals))

    async def _housekeeping(self) -> None:
        if not self.hand_in_progress():
            await self._stand_up_expired()

    # ------------------------------------------------------------ moves

    async def _play(self, cmd: Play) -> Reply:
        seated = self._seated(cmd.account)
        if cmd.action == "leave":
            return await self._stand(Stand(cmd.account))
        if cmd.action == "stay":
            return await self._stay(seated)
        if not self.hand_in_progress():
            raise TableError("hand/none", "no hand is in progress")
        if seated.seat not in self.hand_accounts or self.hand_accounts[seated.seat] != cmd.account:
            raise TableError("seat/not_in_hand", "you take no part in this hand")
        await self._hand_command(self.game.move(seated.seat, cmd.action, dict(cmd.args)))
        return {}

    # ------------------------------------------------------------ host

    async def _host(self, cmd: Host) -> Reply:
        handler = _HOST_HANDLERS.get(cmd.action)
        if handler is None:
            raise TableError("request/unknown", f"no host command {cmd.action!r} for a table")
        reply: Reply = await handler(self, cmd)
        return reply

    async def _host_settings(self, cmd: Host) -> Reply:
        values = cmd.arg("settings") or {}
        new = self.game.settings_from_mapping(values, base=self.pending_settings or self.settings)
        if new.seats < max(self.roster.by_seat, default=0):
            raise TableError("settings/invalid", "seats: players sit beyond the new number of seats")
        changes = setting_changes(self.settings.as_dict(), new.as_dict())
        self.pending_settings, self.pending_by = new, cmd.by
        if not self.hand_in_progress():
            await self._apply_pending_settings(cmd.by)
            return {"applied": "now", "changes": changes, "settings": self.settings.as_dict()}
        # The posted settings hold for the hand in play (docs/rules/hcf.md section 2): say what the next one changes.
        return {"applied": "after_hand", "changes": changes, "settings": new.as_dict()}

    async def _host_show_settings(self, _cmd: Host) -> Reply:
        """The table's settings now, and what a change waiting for the hand's end will make of them."""
        current = self.settings.as_dict()
        pending = self.pending_settings
        return {"table": self.name, "game": self.game.name, "status": self._status(), "settings": current,
                "pending": setting_changes(current, pending.as_dict()) if pending is not None else {}}

    async def _apply_pending_settings(self, by: AccountId | None = None) -> None:
        new, self.pending_settings = self.pending_settings, None
        by = by if by is not None else self.pending_by
        if new is None or new == self.settings:
            return
        old = self.settings
        batch = Batch(settings=(old.as_dict(), new.as_dict(), by))
        changed = {k: v for k, v in new.as_dict().items() if old.as_dict()[k] != v}
        def apply() -> None:
            self.settings = new
            self.roster.seats = new.seats

        await self._table_events([{"type": "settings_changed", "changed": changed,
                                   "settings": new.as_dict()}], batch, apply)

    async def _host_pause(self, cmd: Host) -> Reply:
        paused = cmd.action == "pause"
        if paused != self.paused:
            await self._table_events([{"type": "table_paused" if paused else "table_resumed"}],
                                     apply=lambda: setattr(self, "paused", paused))
            if not paused:
                self._schedule("next_hand", self.now() + 0.05)
        return {"paused": self.paused}

    def _host_seat(self, cmd: Host) -> int:
        """The seat a host command names, within this table's seats."""
        seat = cmd.arg("seat")
        if not isinstance(seat, int):
            raise TableError("request/malformed", f"{cmd.action} needs a seat")
        if not 1 <= seat <= self.settings.seats:
            raise TableError("seat/invalid", f"table {self.name} has seats 1 to {self.settings.seats}, not {seat}")
        return seat

    async def _host_remove(self, cmd: Host) -> Reply:
        name = cmd.arg("account")
        seat = self._host_seat(cmd) if name is None else None
        seated = next((s for s in self.roster.by_seat.values()
                       if s.seat == seat or (name is not None and s.name.lower() == str(name).lower())), None)
        if seated is None:
            where = f"at seat {seat}" if name is None else f"by the name {name!r}"
            raise TableError("seat/not_seated", f"nobody sits {where} at table {self.name}")
        if self._in_current_hand(seated):
            seated.leave_reason = "removed"  # said at the stand-up; the player cannot take it back
            await self._leave_hand(seated)
            return {"removed": "after_hand", "seat": seated.seat}
        batch = Batch()
        change = self._stand_now(seated, batch) | {"reason": "removed"}
        await self._table_events([change], batch, lambda: self._remove([seated.seat]))
        return {"removed": "now", "seat": seated.seat}

    async def _host_dead(self, cmd: Host) -> Reply:
        await self._hand_command(self.game.declare_dead(self._host_seat(cmd)))
        return {}

    async def _host_misdeal(self, cmd: Host) -> Reply:
        reason = "shuffler_fault" if cmd.action == "shuffler_fault" else "misdeal"
        await self._hand_command(self.game.misdeal(reason))
        return {}

    async def _host_arrange(self, cmd: Host) -> Reply:
        """The next hand's deck: cards in dealing order, or by seat (``hands``) for the rules to order."""
        hands = cmd.arg("hands")
        deck: tuple[Card, ...] | SeatDeck
        if hands is not None:
            deck = deck_by_place(self.name, self.game.name, self.settings, hands)
            count, warning = sum(len(cards) for _, cards in deck.hands), None
        else:
            deck = parse_cards(cmd.arg("cards") or "")
            if not deck:
                raise TableError("cards/invalid", "arrange_deck needs the cards in dealing order, or cards by seat")
            count = len(deck)
            warning = short_deck_warning(self.game.name, self.settings.house_banked, len(self.roster.playing()), count)
        self.arranged_next = deck
        event: Reply = {"type": "deck_arranged", "cards": count, "by_seat": hands is not None,
                        "message": "the host arranged the next deck: that hand is not a random deal"}
        await self._table_events([event | ({"warning": warning} if warning else {})])
        return {"arranged_cards": count, "by_seat": hands is not None} | ({"warning": warning} if warning else {})

    async def _host_close(self, _cmd: Host) -> Reply:
        """Close the table: a hand in progress plays out normally, then everyone stands up."""
        self.closing = True
        self._cancel("next_hand")
        if self.hand_in_progress():
            await self._table_events([{"type": "table_closing",
                                       "message": "the table closes after this hand"}])
            return {"closed": "after_hand"}
        await self._close_now()
        return {"closed": "now"}

    async def _close_now(self) -> None:
        for seated in self.roster.by_seat.values():
            seated.leaving = True
            seated.leave_reason = seated.leave_reason or "closed"
        await self._stand_leavers([])
        await self._table_events([{"type": "table_closed"}], Batch(close_table=True),
                                 lambda: setattr(self, "closed", True))

    # ------------------------------------------------------------ views

    def snapshot(self, account: AccountId | None) -> Reply:
        """Everything ``account`` may see of the table now (spectator when None), and what it may do."""
        return {
            "table": self.name,
            "game": self.game.name,
            "seq": self.seq,
            "server_time": self.now(),
            **self.shared_view(),
            "hand": self.hand_view(self.hand_seat(account)),
            "you": self.you(account),
            "choices": self.choices(account),
        }

    # The parts of a snapshot, which the batch's updates are built from too (server/table/updates.py).

    def shared_view(self) -> Reply:
        """The snapshot's keys that every viewer sees alike."""
        button = self._button()
        return {
            "settings": self.settings.as_dict(),
            "status": self._status(),
            "waiting_reason": self.waiting_reason,
            "seats": [s.public(self.stacks.get(s.account, 0), button)
                      for _, s in sorted(self.roster.by_seat.items())],
            "button": button,
            # Also while the next hand is played: a client back after a restart learns its hand's fate.
            "last_hand": self.last_summary,
            "arranged_next": self.arranged_next is not None,
            **self.game.table_view(self.settings, self.carry),
        }

    def hand_seat(self, account: AccountId | None) -> int | None:
        """The seat ``account`` plays in this hand (None: it sees the hand as a spectator)."""
        seated = self.roster.of_account(account) if account is not None else None
        return seated.seat if seated is not None and self.hand_accounts.get(seated.seat) == account else None

    def hand_view(self, seat: int | None) -> Reply | None:
        """The hand as ``seat`` (None: a spectator) sees it; None before the first dealt hand."""
        state = self.state
        if state is None or state.phase == "not_dealt":
            return None
        hand: Reply = self.game.hand_view(state, seat) | {"hand_id": self.hand_id or self.last_hand_id,
                                                          "number": self.hand_number}
        if self.clock is not None:
            hand["clock"] = {"kind": self.clock.kind, "seat": self.clock.seat, "deadline": self.clock.deadline}
        return hand

    def hand_key(self) -> tuple[object, ...]:
        """Changes whenever a hand view may change (the state, the hand's ids, the clock)."""
        clock = self.clock.deadline if self.clock is not None else None
        return (self.state, self.hand_id, self.last_hand_id, self.hand_number, clock)

    def you(self, account: AccountId | None) -> Reply:
        """The snapshot's ``you``."""
        seated = self.roster.of_account(account) if account is not None else None
        return {"account": account, "seat": seated.seat if seated else None,
                "sitting_out": seated.sitting_out if seated else None}

    def seated_accounts(self) -> frozenset[AccountId]:
        """The accounts seated here now."""
        return frozenset(s.account for s in self.roster.by_seat.values())

    def choices(self, account: AccountId | None) -> Choices:
        """What ``account`` may do now (docs/protocol.md section 3); an account without a seat, as a spectator."""
        seated = self.roster.of_account(account) if account is not None else None
        if self.closed:
            return {"seat": None if seated is None else seated.seat, "deadline": None, "moves": []}
        if seated is None:
            free = [n for n in range(1, self.settings.seats + 1) if n not in self.roster.by_seat]
            moves: list[Reply] = []
            if free and not self.closing:
                moves.append({"request": "sit", "seats": free,
                              "buy_in": {"min": self.settings.min_buy_in, "max": self.settings.max_buy_in}})
            return {"seat": None, "deadline": None, "moves": moves}
        hand = self._hand_choices(seated)
        return {"seat": seated.seat, "deadline": self._deadline(seated.seat) if hand else None,
                "moves": hand + self._table_choices(seated)}

    def _hand_choices(self, seated: Seated) -> list[Reply]:
        if not self.hand_in_progress() or self.hand_accounts.get(seated.seat) != seated.account:
            return []
        return self.game.choices(self.state, seated.seat)

    def _table_choices(self, seated: Seated) -> list[Reply]:
        """The table-level items, the same for every game."""
        moves: list[Reply] = []
        in_hand = self._in_current_hand(seated)
        if in_hand and seated.leaving:
            if seated.leave_reason is None and not self.closing:
                moves.append({"request": "stay"})
        else:
            moves.append({"request": "leave" if in_hand else "stand"})
        room = self.settings.max_buy_in - self.stacks.get(seated.account, 0)
        if not in_hand and room >= 1:
            moves.append({"request": "top_up", "amount": {"min": 1, "max": room}})
        moves.append({"request": "sit_out", "sitting_out": not seated.sitting_out})
        if not self.settings.house_banked:
            moves.append({"request": "willing_to_bank", "willing": not seated.willing_to_bank})
        return moves

    def _deadline(self, seat: int) -> float | None:
        """The running clock's deadline when it times this seat's decision or a round it takes part in."""
        clock = self.clock
        if clock is None or (clock.seat is not None and clock.seat != seat):
            return None
        return clock.deadline

    def _status(self) -> str:
        if self.closed:
            return "closed"
        if self.hand_in_progress():
            return "playing"
        return "paused" if self.paused else "waiting"

    def _button(self) -> int | None:
        """The seat of the last hand's DP, while that player still sits there."""
        dealer = self.game.dealer_seat(self.state) if self.state is not None else None
        if dealer is None:
            return None
        seated = self.roster.by_seat.get(dealer)
        if seated is None or self.hand_accounts.get(dealer) != seated.account:
            return None
        return dealer

    def lobby_entry(self) -> Reply:
        """The table as the lobby lists it."""
        button = self._button()
        return {
            "name": self.name,
            "game": self.game.name,
            "settings": self.settings.as_dict(),
            **self.game.table_view(self.settings, self.carry),
            "seats": [s.public(self.stacks.get(s.account, 0), button)
                      for _, s in sorted(self.roster.by_seat.items())],
            "phase": self.state.phase if self.hand_in_progress() and self.state else self._status(),
            **self._odds(),
        }

    def _odds(self) -> Reply:
        """Each bet's house edge when the analysis is known (docs/odds.md); never computed here."""
        from server.analysis.service import lobby_odds

        odds = lobby_odds(self.settings, self.carry.get("meter"))
        return {} if odds is None else {"odds": odds}


@dataclass(frozen=True, slots=True)
class _Internal:
    fn: Callable[..., Awaitable[Reply]]
    args: tuple[Any, ...]


_QueueItem = tuple[TableCommand | _Internal, "asyncio.Future[Reply] | None"]

_UPDATE_IN_ANSWER = (Sit, Stand, TopUp, SetSitOut, SetWilling, Play)


def _requester(command: TableCommand | _Internal) -> AccountId | None:
    """The account whose own request this is, when its answer carries its update (docs/protocol.md section 2).

    Presence comes from the gateway's connect and disconnect handlers, whose answer nobody reads: that
    account gets its update like everyone else. A snapshot answer is the whole table already.
    """
    if isinstance(command, _UPDATE_IN_ANSWER):
        return command.account
    if isinstance(command, Host):
        return command.by
    return None


_CLOCKED_EVENTS = frozenset({"bank_offered", "betting_opened", "turn_started", "exchange_opened"})
_LOGGED_KEYS = ("seat", "reason", "ante", "straight_flush_bonus", "flush_bonus", "amount", "name", "stack",
                "dealer", "qualifies", "cashed_out", "status", "hand_no", "arranged", "fees", "seats",
                "present", "willing_to_bank", "changed", "cards")


def _log_event(event: RecordedEvent) -> None:
    """One line per published event: only public fields, never cards or seeds."""
    payload = event.payload
    # "stack" and "event" mean something else to structlog: prefix every field.
    fields = {f"ev_{k}": payload[k] for k in _LOGGED_KEYS if k in payload}
    if payload.get("type") == "hand_settled":
        settlement = payload.get("settlement") or {}
        fields["ev_results"] = {r["seat"]: r["net"] for r in settlement.get("seats", [])}
        fields["ev_dealer_net"] = (settlement.get("dealer") or {}).get("net")
        fields["ev_house"] = settlement.get("house")
    log.info(str(payload.get("type")), seq=event.seq, hand=payload.get("hand_id"), **fields)


_TABLE_HANDLERS: dict[type, Callable[[TableRunner, Any], Awaitable[Reply]]] = {
    Sit: TableRunner._sit,
    Stand: TableRunner._stand,
    TopUp: TableRunner._top_up,
    SetSitOut: TableRunner._set_sit_out,
    SetWilling: TableRunner._set_willing,
    Presence: TableRunner._presence,
    Play: TableRunner._play,
    Host: TableRunner._host,
}

_HOST_HANDLERS: dict[str, Callable[[TableRunner, Host], Awaitable[Reply]]] = {
    "change_settings": TableRunner._host_settings,
    "pause": TableRunner._host_pause,
    "resume": TableRunner._host_pause,
    "remove_player": TableRunner._host_remove,
    "declare_dead": TableRunner._host_dead,
    "misdeal": TableRunner._host_misdeal,
    "shuffler_fault": TableRunner._host_misdeal,
    "arrange_deck": TableRunner._host_arrange,
    "show_settings": TableRunner._host_show_settings,
    "close_table": TableRunner._host_close,
}

__all__ = ["Clock", "TableRunner", "TableSetup"]
