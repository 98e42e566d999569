"""What a table holds now: one plain mutable record of frozen values, replaced as they evolve.

Each part of the table (server/table/pipeline.py, hands.py, seating.py, floor_commands.py,
drill.py) is given the same :class:`TableContext` at construction and reads it or replaces
one of its values; none of them inherits from another. The reads here only look at what
the table holds and call the pure cores (seats.py, course.py, summary.py, views.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Generic, Protocol, TypeVar, cast

from server.rules.drill.settings import DrillSettings
from server.rules.game import JSON, AccountId, Game, HandLike, TableSettings
from server.rules.games import game_named
from server.table.course import Course, in_play
from server.table.drill_state import LiveDrill, restored_answers
from server.table.facts import at_clock
from server.table.floor_state import Floor
from server.table.hand_clock import HandClock
from server.table.ports import Answer
from server.table.roster import Roster, Seated
from server.table.seats import Seating
from server.table.seats import seated as seated_as
from server.table.summary import hand_summary
from server.table.views import TableView

HandCommand = Callable[[object], Awaitable[Answer]]
"""The hand desk's way in for a command to the hand in progress (server/table/hands.py), given to the other desks."""


@dataclass(slots=True)
class TableSetup:
    """What a runner starts from (a new table, or one restored from the database)."""

    name: str
    settings: TableSettings  # the game's settings
    seats: list[Seated] = field(default_factory=list)
    stacks: dict[AccountId, int] = field(default_factory=dict)
    seq: int = 0
    offer_from: int = 1
    paused: bool = False
    hands_played: int = 0
    hands_dealt: int = 0  # the table's own hand number of its last dealt hand
    last_summary: JSON | None = None  # the last finished hand (after a restart: maybe its void)
    game: str = "hcf"
    carry: JSON = field(default_factory=dict)  # what outlives a hand (a jackpot meter)
    drill: DrillSettings | None = None  # a live drill table's (docs/drills.md)
    drill_answers: list[JSON] = field(default_factory=list)  # its recorded answers, as the log holds them
    time_banks: dict[AccountId, float] = field(default_factory=dict)  # seconds left in each player's time bank


@dataclass(slots=True, kw_only=True)
class TableContext:
    """The table in memory: its course of hands, seats, stacks, floor and live drill, and its event count.

    ``now`` is the table's wall time (the injected clock's); ``running_clock`` the hand's running
    clock, which the hand timer (server/table/hand_timer.py) holds.
    """

    name: str
    game: Game
    course: Course
    roster: Roster
    stacks: dict[AccountId, int]
    seq: int
    floor: Floor
    drill: LiveDrill | None
    now: Callable[[], float]
    running_clock: Callable[[], HandClock | None]
    stopping: bool = False
    time_banks: dict[AccountId, float] = field(default_factory=dict)  # seconds left (none yet: the setting's)

    @classmethod
    def from_setup(cls, setup: TableSetup, now: Callable[[], float],
                   running_clock: Callable[[], HandClock | None]) -> TableContext:
        """The table as ``setup`` says it stands (new, or restored from the database)."""
        course = Course(carry=dict(setup.carry), offer_from=setup.offer_from, hands_played=setup.hands_played,
                        hands_dealt=setup.hands_dealt, last_summary=setup.last_summary)
        drill = None if setup.drill is None else LiveDrill(setup.drill, restored_answers(setup.drill_answers),
                                                           hand=setup.hands_dealt + 1)
        return cls(name=setup.name, game=game_named(setup.game), course=course,
                   roster=Roster(setup.settings.seats, {seated.seat: seated for seated in setup.seats}),
                   stacks=dict(setup.stacks), seq=setup.seq, floor=Floor(posted=setup.settings, paused=setup.paused),
                   drill=drill, now=now, running_clock=running_clock, time_banks=dict(setup.time_banks))

    @property
    def settings(self) -> TableSettings:
        """The game's settings posted now."""
        return self.floor.posted

    @property
    def state(self) -> HandLike | None:
        """The game's hand state of the hand in play, or of the last one."""
        return self.course.state

    def next_seq(self) -> int:
        """The next event's sequence number, counted."""
        self.seq += 1
        return self.seq

    @property
    def pending_settings(self) -> TableSettings | None:
        """A settings change waiting for the hand's end, if any."""
        return self.floor.pending

    @pending_settings.setter
    def pending_settings(self, settings: TableSettings | None) -> None:
        self.floor = replace(self.floor, pending=settings)

    @property
    def closed(self) -> bool:
        """Whether the table is closed."""
        return self.floor.closed

    @property
    def carry(self) -> JSON:
        """What outlives a hand (a jackpot meter, each player's last bets)."""
        return self.course.carry

    @property
    def last_hand_id(self) -> int | None:
        """The id of the last hand over."""
        return self.course.last_hand_id

    @property
    def clock(self) -> HandClock | None:
        """The hand's running clock, if one runs."""
        return self.running_clock()

    def hand_in_progress(self) -> bool:
        """Whether a hand has started and not ended."""
        return in_play(self.course, self.game.terminal)

    def in_current_hand(self, seated: Seated) -> bool:
        """Whether ``seated`` plays the hand in progress."""
        return self.hand_in_progress() and seated.seat in self.course.hand_accounts

    def seating(self) -> Seating:
        """The table's seating as a value, for the seats' core to decide on."""
        return Seating(table=self.name, limits=self.settings, roster=self.roster, stacks=self.stacks,
                       in_hand=self.course.hand_accounts if self.hand_in_progress() else {},
                       closing=self.floor.closing)

    def seated(self, account: AccountId) -> Seated:
        """Who ``account`` is seated as here (refused when it sits nowhere at this table)."""
        return seated_as(self.seating(), account)

    def seated_accounts(self) -> frozenset[AccountId]:
        """The accounts seated here now."""
        return frozenset(s.account for s in self.roster.by_seat.values())

    def summary(self, state: HandLike, *, dealt: bool, carry: JSON | None = None) -> JSON:
        """The hand as everyone may see it once it is over (docs/rules/hcf.md section 3.8), seed revealed;
        ``carry``: what the hand started with, on the clock it ended at (default: the table's clock now)."""
        names = {seat: self.roster.by_seat[seat].name for seat in self.course.hand_accounts
                 if seat in self.roster.by_seat}
        ended = carry if carry is not None else at_clock(self.course.hand_carry, self.now())
        return hand_summary(self.game, state, self.name, self.course.hand_id, names, ended,
                            self.course.hand_number if dealt else None, kept=self.course.carry)

    def view(self) -> TableView:
        """The table as viewers see it now: a frozen picture every view and choice is computed from."""
        return TableView(name=self.name, game=self.game, seq=self.seq, now=self.now(), floor=self.floor,
                         course=self.course, roster=self.roster, stacks=self.stacks, clock=self.running_clock(),
                         drill=self.drill)


class HoldsTable(Protocol):
    """Whatever holds a table's context (the runner)."""

    table: TableContext


T = TypeVar("T")


class Held(Generic[T]):
    """The holder's attribute of the same name is the table context's: ``runner.roster`` is ``runner.table.roster``.

    What the rest of the server reads of a runner (server/cluster/node.py, the storage, the tests) stays where it
    was while the table's parts share the one context.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, holder: HoldsTable, owner: type | None = None) -> T:
        return cast(T, getattr(holder.table, self._name))

    def __set__(self, holder: HoldsTable, value: T) -> None:
        setattr(holder.table, self._name, value)
