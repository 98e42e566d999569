"""Who sits where at a table, with the per-player switches of docs/rules/hcf.md sections 3 and 4."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypedDict, Unpack

from server.i18n import told
from server.rules.game import JSON, AccountId, Player
from server.rules.vocabulary import Seat

NEXT_HAND = told("this hand began before you sat down or came back: you play from the next hand")
"""Said to a seated player a hand in progress goes on without (issue 23 item 8)."""
MISSED_CLOCKS_TO_SIT_OUT = 2  # hands in a row (docs/rules/hcf.md section 4)
SIT_OUT_LIMIT_SECONDS = 600.0  # then the player is stood up


class SeatedChange(TypedDict, total=False):
    """What :meth:`Roster.changed` may change of a seated player."""

    willing_to_bank: bool
    sitting_out: bool
    sat_out_at: float | None
    present: bool
    leaving: bool
    leave_reason: str | None
    missed_hands: int
    missed_this_hand: bool
    moved_this_hand: bool
    away: bool


@dataclass(frozen=True, slots=True)
class Seated:
    """A seated player, as a value: a change makes a new one (:meth:`Roster.changed`)."""

    seat: Seat
    account: AccountId
    name: str
    willing_to_bank: bool = True
    sitting_out: bool = False
    sat_out_at: float | None = None
    present: bool = False
    leaving: bool = False
    leave_reason: str | None = None
    """Why the seat stands up after the hand when it is not the player's own leave (``removed``, ``closed``)."""
    missed_hands: int = 0
    missed_this_hand: bool = False  # one of the seat's clocks ran out (a bank offer's never counts)
    moved_this_hand: bool = False  # the seat made a move: then it was not absent, whatever its clocks did
    away: bool = False  # the table acts for the player at once, as their clock running out would (docs/server.md)

    def absent(self) -> bool:
        """Whether the player was absent from the hand: a clock ran out and they made no move in it (section 4)."""
        return self.missed_this_hand and not self.moved_this_hand

    def as_player(self, stack: int) -> Player:
        """This player as the rules see them for one hand."""
        return Player(self.seat, stack, self.willing_to_bank, self.present)

    def public(self, stack: int, button: int | None) -> JSON:
        """What everyone at the table sees of this seat."""
        return {
            "seat": self.seat,
            "name": self.name,
            "stack": stack,
            "sitting_out": self.sitting_out,
            "present": self.present,
            "willing_to_bank": self.willing_to_bank,
            "leaving": self.leaving,
            "button": self.seat == button,
            "away": self.away,
        }


@dataclass(frozen=True, slots=True)
class Roster:
    """The seats of one table, as a value: seating, standing and every change make a new roster."""

    seats: int
    by_seat: Mapping[int, Seated] = field(default_factory=dict)
    # Every connect asks every table whether the account sits there: a lookup, not a scan.
    _by_account: Mapping[AccountId, Seated] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_seat = MappingProxyType(dict(sorted(self.by_seat.items())))
        object.__setattr__(self, "by_seat", by_seat)  # frozen: set once, here
        object.__setattr__(self, "_by_account", {s.account: s for s in by_seat.values()})

    def of_account(self, account: AccountId) -> Seated | None:
        """The seat of an account, if it has one."""
        return self._by_account.get(account)

    def first_free(self) -> Seat | None:
        """The lowest free seat number."""
        return next(iter(self.free()), None)

    def free(self) -> list[Seat]:
        """Every free seat, lowest first."""
        return [Seat(n) for n in range(1, self.seats + 1) if n not in self.by_seat]  # where seat numbers are made

    def with_seated(self, seated: Seated) -> Roster:
        """The roster with ``seated`` in its seat (the caller checked the seat is free, or it is the same player)."""
        return Roster(self.seats, {**self.by_seat, seated.seat: seated})

    def without(self, *seats: Seat) -> Roster:
        """The roster with ``seats`` free."""
        return Roster(self.seats, {n: s for n, s in self.by_seat.items() if n not in seats})

    def changed(self, seat: Seat, **changes: Unpack[SeatedChange]) -> Roster:
        """The roster with the player in ``seat`` changed (a seat nobody holds: unchanged)."""
        seated = self.by_seat.get(seat)
        return self if seated is None else self.with_seated(replace(seated, **changes))

    def resized(self, count: int) -> Roster:
        """The roster of a table with ``count`` seats (the caller checked nobody sits beyond them)."""
        return Roster(count, self.by_seat)

    def playing(self) -> list[Seated]:
        """Players who take part in the next hand."""
        return [s for s in self.by_seat.values() if not s.sitting_out and not s.leaving]

    def accounts(self) -> dict[int, AccountId]:
        """Seat number -> account."""
        return {n: s.account for n, s in self.by_seat.items()}
