"""What a table runner holds in memory, and what its parts (server/table/*.py mixins) ask of each other."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from server.clock import SYSTEM_CLOCK, Clock
from server.rules.drill.settings import DrillSettings
from server.rules.game import JSON, AccountId, Game
from server.rules.games import game_named
from server.table.commands import (
    Host,
    Stand,
    TableCommand,
    TableError,
)
from server.table.course import Course, in_play
from server.table.drill_state import LiveDrill, restored_answers
from server.table.floor_state import Floor
from server.table.hand_clock import HandClock
from server.table.hand_timer import HandTimer
from server.table.ports import Batch, Choices, Publisher, Reply, TableStorage
from server.table.roster import Roster, Seated
from server.table.scheduler import Scheduler
from server.table.seats import Decision, Seating
from server.table.seats import seated as seated_as
from server.table.summary import hand_summary
from server.table.updates import BatchRecord, UpdateBuilder
from server.table.views import TableView


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
    drill: DrillSettings | None = None  # a live drill table's (docs/drills.md)
    drill_answers: list[dict[str, Any]] = field(default_factory=list)  # its recorded answers, as the log holds them


class RunnerBase:
    """What every part of the runner holds: the table in memory. Each part's methods that another
    part calls are declared here too, so that each part type-checks on its own."""

    def __init__(
        self,
        setup: TableSetup,
        storage: TableStorage,
        publisher: Publisher,
        *,
        clock: Clock = SYSTEM_CLOCK,
        seed_source: Callable[[int], bytes] = secrets.token_bytes,
        grace: float = 0.5,
    ) -> None:
        self.name = setup.name
        self.game: Game = game_named(setup.game)
        # The hand in play (or the last) and what carries over between hands, as a value: course.py.
        self.course = Course(carry=dict(setup.carry), offer_from=setup.offer_from, hands_played=setup.hands_played,
                             hands_dealt=setup.hands_dealt, last_summary=setup.last_summary)
        self.roster = Roster(setup.settings.seats, {seated.seat: seated for seated in setup.seats})
        self.stacks = dict(setup.stacks)
        self.seq = setup.seq
        self.floor = Floor(posted=setup.settings, paused=setup.paused)  # settings, pause, closing: floor_state.py
        self.storage, self.publisher = storage, publisher
        # The clock the timers run on (tests give a manual one); ``now()`` is its wall time.
        self.time_source, self.now = clock, clock.now
        self.seed_source, self.grace = seed_source, grace
        self.stopping = False
        self._queue: asyncio.Queue[_QueueItem] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.timers = Scheduler(clock, lambda tick: self._queue.put_nowait((tick, None)))
        self.hand_timer = HandTimer(self.timers, grace)  # the hand's running clock and its timer
        self._timers = self.timers.handles  # what a shutdown cancels (server/cluster/node.py, the tests)
        self._idle = asyncio.Event()
        self._idle.set()
        self._batch: BatchRecord | None = None  # what the batch of commands in hand recorded so far
        self._updates = UpdateBuilder(self.name)
        self.drill = _live_drill(setup)

    @property
    def clock(self) -> HandClock | None:
        """The hand's running clock, if one runs."""
        return self.hand_timer.running

    @property
    def state(self) -> Any:
        """The game's hand state of the hand in play, or of the last one (server.rules.game.HandLike)."""
        return self.course.state

    @property
    def carry(self) -> JSON:
        """What outlives a hand (a jackpot meter, each player's last bets)."""
        return self.course.carry

    @property
    def last_hand_id(self) -> int | None:
        """The id of the last hand over."""
        return self.course.last_hand_id

    @property
    def settings(self) -> Any:
        """The game's settings posted now (server.rules.game.TableSettings)."""
        return self.floor.posted

    @property
    def pending_settings(self) -> Any:
        """A settings change waiting for the hand's end, if any."""
        return self.floor.pending

    @pending_settings.setter
    def pending_settings(self, settings: Any) -> None:
        # A test sets it to see what the odds page says of a change that waits (tests/server/test_odds_http.py).
        self.floor = replace(self.floor, pending=settings)

    @property
    def paused(self) -> bool:
        """Whether the host paused the table: no new hand starts."""
        return self.floor.paused

    @property
    def closing(self) -> bool:
        """Whether the table closes (once the hand in progress is over)."""
        return self.floor.closing

    @property
    def closed(self) -> bool:
        """Whether the table is closed."""
        return self.floor.closed

    async def _drill_record(self, before: Any, events: list[Any], batch: Batch,
                            lead: list[Reply] | None, inputs: Reply | None) -> None:
        raise NotImplementedError  # DrillMixin

    def _drill_holds(self, command: Any) -> bool:
        raise NotImplementedError  # DrillMixin

    async def _drill_timeout(self) -> None:
        raise NotImplementedError  # DrillMixin

    async def _drill_settle(self) -> None:
        raise NotImplementedError  # DrillMixin

    def _stored_settings(self, settings: Any = None) -> Reply:
        raise NotImplementedError  # DrillMixin

    async def _host_inject(self, cmd: Host) -> Reply:
        raise NotImplementedError  # DrillMixin

    async def _host_drill_report(self, cmd: Host) -> Reply:
        raise NotImplementedError  # DrillMixin

    async def _host_drill_end(self, cmd: Host) -> Reply:
        raise NotImplementedError  # DrillMixin

    # ------------------------------------------------------------ what the parts ask of each other

    async def _call(self, fn: Callable[..., Awaitable[Reply]], *args: Any) -> Reply:
        raise NotImplementedError  # LifecycleMixin

    def hand_in_progress(self) -> bool:
        """Whether a hand has started and not ended."""
        return in_play(self.course, self.game.terminal)

    def _in_current_hand(self, seated: Seated) -> bool:
        return self.hand_in_progress() and seated.seat in self.course.hand_accounts

    async def _dispatch(self, command: TableCommand | _Internal) -> Reply:
        raise NotImplementedError  # TableRunner

    async def _answer_and_publish(self, items: list[_QueueItem], outcomes: list[Reply | TableError],
                                  record: BatchRecord) -> None:
        raise NotImplementedError  # PipelineMixin

    async def _record(self, before: Any, events: list[Any], batch: Batch,
                      lead: list[Reply] | None = None, inputs: Reply | None = None) -> None:
        raise NotImplementedError  # PipelineMixin

    def _summary(self, state: Any, *, dealt: bool) -> Reply:
        """The hand as everyone may see it once it is over (docs/rules/hcf.md section 3.8), seed revealed."""
        names = {seat: self.roster.by_seat[seat].name for seat in self.course.hand_accounts
                 if seat in self.roster.by_seat}
        return hand_summary(self.game, state, self.name, self.course.hand_id, names, self.course.hand_carry,
                            self.course.hand_number if dealt else None, kept=self.course.carry)

    async def _table_events(self, payloads: list[Reply], batch: Batch | None = None,
                            apply: Callable[[], None] | None = None) -> None:
        raise NotImplementedError  # PipelineMixin

    async def _after_hand(self, state: Any) -> None:
        raise NotImplementedError  # HandsMixin

    async def _hand_command(self, command: Any) -> Reply:
        raise NotImplementedError  # HandsMixin

    async def _start_hand(self) -> None:
        raise NotImplementedError  # HandsMixin

    async def _void_hand(self, reason: str) -> Reply:
        raise NotImplementedError  # HandsMixin

    async def _housekeeping(self) -> None:
        raise NotImplementedError  # SeatingMixin

    async def _leave_hand(self, seated: Seated) -> None:
        raise NotImplementedError  # SeatingMixin

    def _seating(self) -> Seating:
        """The table's seating as a value, for the seats' core to decide on."""
        return Seating(table=self.name, limits=self.settings, roster=self.roster, stacks=self.stacks,
                       in_hand=self.course.hand_accounts if self.hand_in_progress() else {}, closing=self.closing)

    async def _seat_decision(self, decision: Decision) -> Reply:
        raise NotImplementedError  # SeatingMixin

    def _seated(self, account: AccountId) -> Seated:
        """Who ``account`` is seated as here (refused when it sits nowhere at this table)."""
        return seated_as(self._seating(), account)

    async def _stand(self, cmd: Stand) -> Reply:
        raise NotImplementedError  # SeatingMixin

    async def _stand_leavers(self, absent: Decision | None = None) -> None:
        raise NotImplementedError  # SeatingMixin

    async def _stand_up_expired(self) -> None:
        raise NotImplementedError  # SeatingMixin

    async def _stay(self, seated: Seated) -> Reply:
        raise NotImplementedError  # SeatingMixin

    async def _apply_pending_settings(self, by: AccountId | None = None) -> None:
        raise NotImplementedError  # FloorCommandsMixin

    async def _close_now(self) -> None:
        raise NotImplementedError  # FloorCommandsMixin

    # ------------------------------------------------------------ what viewers see (server/table/views.py)

    def view(self) -> TableView:
        """The table as viewers see it now: a frozen picture every view and choice is computed from."""
        return TableView(name=self.name, game=self.game, seq=self.seq, now=self.now(), floor=self.floor,
                         course=self.course, roster=self.roster, stacks=self.stacks, clock=self.clock,
                         drill=self.drill)

    def snapshot(self, account: AccountId | None) -> Reply:
        """Everything ``account`` may see of the table now (spectator when None), and what it may do."""
        return self.view().snapshot(account)

    def choices(self, account: AccountId | None) -> Choices:
        """What ``account`` may do now (docs/protocol.md section 3)."""
        return self.view().choices(account)

    def shared_view(self) -> Reply:
        """The snapshot's keys that every viewer sees alike."""
        return self.view().shared_view()

    def seated_accounts(self) -> frozenset[AccountId]:
        """The accounts seated here now."""
        return frozenset(s.account for s in self.roster.by_seat.values())

    def lobby_entry(self) -> Reply:
        """The table as the lobby lists it."""
        return self.view().lobby_entry()


def _live_drill(setup: TableSetup) -> LiveDrill | None:
    return None if setup.drill is None else LiveDrill(setup.drill, restored_answers(setup.drill_answers))


@dataclass(frozen=True, slots=True)
class _Internal:
    fn: Callable[..., Awaitable[Reply]]
    args: tuple[Any, ...]


_QueueItem = tuple[TableCommand | _Internal, "asyncio.Future[Reply] | None"]
