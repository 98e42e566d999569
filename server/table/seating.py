"""Seats: sitting, standing, leaving and staying, top-ups, the sit-out and bank switches, presence."""

from __future__ import annotations

from server.rules.commands import Leave, Stay
from server.rules.errors import RuleError
from server.rules.game import AccountId, Transfer
from server.rules.places import account_place, stack_place
from server.table.base import RunnerBase
from server.table.commands import (
    Presence,
    SetSitOut,
    SetWilling,
    Sit,
    Stand,
    TableError,
    TopUp,
)
from server.table.ports import Batch, Reply, SeatChange
from server.table.roster import NEXT_HAND, SIT_OUT_LIMIT_SECONDS, Seated


class SeatingMixin(RunnerBase):
    """The part of :class:`~server.table.runner.TableRunner` that owns the seats."""

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
        if self.drill is not None and not self.drill.settings.ended and self.drill.settings.is_trainee(cmd.name):
            raise TableError("drill/trainee", "the trainee deals from the dealer's chair and takes no seat: "
                                              f"answer the steps with hcf drill --table {self.name}")
        if self.arranged_next is not None and self.arranged_by == cmd.account:
            raise TableError("auth/not_host", f"you arranged the next deck at table {self.name}, and whoever "
                                              "arranges a deck may not play it: sit once that hand is dealt")
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
        return {"seat": seat, "stack": buy_in} | self._next_hand_note()

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
                await self._hand_command(Stay(seated.seat))
                hand = "playing"
            except RuleError:
                hand = "folded"  # the rules refused: the leave already acted, and that stands
        await self._table_events([{"type": "player_staying", "seat": seated.seat, "name": seated.name}],
                                 apply=lambda: setattr(seated, "leaving", False))
        return {"leaving": False, "hand": hand}

    async def _leave_hand(self, seated: Seated) -> None:
        seated.leaving = True
        assert self.state is not None
        await self._hand_command(Leave(seated.seat))

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
        return {"sitting_out": seated.sitting_out} | ({} if seated.sitting_out else self._next_hand_note(seated))

    def _next_hand_note(self, seated: Seated | None = None) -> Reply:
        """``message``: a hand in progress goes on without a player who sits down or comes back now."""
        if not self.hand_in_progress() or (seated is not None and self._in_current_hand(seated)):
            return {}
        return {"message": NEXT_HAND}

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
