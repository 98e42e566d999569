"""Who sits where at a table, with the per-player switches of docs/rules/hcf.md sections 3 and 4."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.rules.game import AccountId, Player

NEXT_HAND = "this hand began before you sat down or came back: you play from the next hand"
"""Said to a seated player a hand in progress goes on without (issue 23 item 8)."""
MISSED_CLOCKS_TO_SIT_OUT = 2  # hands in a row (docs/rules/hcf.md section 4)
SIT_OUT_LIMIT_SECONDS = 600.0  # then the player is stood up


@dataclass(slots=True)
class Seated:
    """A seated player. Mutable: the table task owns it alone."""

    seat: int
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

    def absent(self) -> bool:
        """Whether the player was absent from the hand: a clock ran out and they made no move in it (section 4)."""
        return self.missed_this_hand and not self.moved_this_hand

    def as_player(self, stack: int) -> Player:
        """This player as the rules see them for one hand."""
        return Player(self.seat, stack, self.willing_to_bank, self.present)

    def public(self, stack: int, button: int | None) -> dict[str, Any]:
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
        }


class Roster:
    """The seats of one table."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.by_seat: dict[int, Seated] = {}
        # Every connect asks every table whether the account sits there: a lookup, not a scan.
        self._by_account: dict[AccountId, Seated] = {}

    def of_account(self, account: AccountId) -> Seated | None:
        """The seat of an account, if it has one."""
        return self._by_account.get(account)

    def first_free(self) -> int | None:
        """The lowest free seat number."""
        return next((n for n in range(1, self.seats + 1) if n not in self.by_seat), None)

    def add(self, seated: Seated) -> None:
        """Seat a player (the caller checked the seat is free)."""
        self.by_seat[seated.seat] = seated
        self._by_account[seated.account] = seated

    def remove(self, seat: int) -> Seated:
        """Free a seat."""
        seated = self.by_seat.pop(seat)
        if self._by_account.get(seated.account) is seated:
            del self._by_account[seated.account]
        return seated

    def playing(self) -> list[Seated]:
        """Players who take part in the next hand."""
        return [s for _, s in sorted(self.by_seat.items()) if not s.sitting_out and not s.leaving]

    def accounts(self) -> dict[int, AccountId]:
        """Seat number -> account."""
        return {n: s.account for n, s in self.by_seat.items()}
