"""Seats at the table: the seats' pure core (server/table/seats.py) decides; this records, then evolves."""

from __future__ import annotations

from server.rules.commands import Leave, Stay
from server.rules.errors import RuleError
from server.table import seats
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
from server.table.ports import Reply
from server.table.roster import Seated


class SeatingMixin(RunnerBase):
    """The part of :class:`~server.table.runner.TableRunner` that records the seats' decisions."""

    async def _seat_decision(self, decision: seats.Decision) -> Reply:
        """Record what ``decision`` causes; evolve the roster once it is committed."""
        if decision.events:
            await self._table_events(decision.payloads(), decision.batch(), lambda: self._evolve_seats(decision))
        return decision.reply

    def _evolve_seats(self, decision: seats.Decision) -> None:
        self.roster = seats.evolve_all(self.roster, decision.events)

    async def _sit(self, cmd: Sit) -> Reply:
        if self.drill is not None and not self.drill.settings.ended and self.drill.settings.is_trainee(cmd.name):
            raise TableError("drill/trainee", "the trainee deals from the dealer's chair and takes no seat: "
                                              f"answer the steps with hcf drill --table {self.name}")
        if self.course.arranged_next is not None and self.course.arranged_by == cmd.account:
            raise TableError("auth/not_host", f"you arranged the next deck at table {self.name}, and whoever "
                                              "arranges a deck may not play it: sit once that hand is dealt")
        reply = await self._seat_decision(seats.sit(self._seating(), cmd))
        self._soon()
        return reply

    async def _stand(self, cmd: Stand) -> Reply:
        seated = self._seated(cmd.account)
        if self._in_current_hand(seated):
            await self._leave_hand(seated)
            return {"standing": "after_hand"}
        reply = await self._seat_decision(seats.stand_now(self._seating(), seated))
        self._soon()
        return reply

    async def _stay(self, seated: Seated) -> Reply:
        """Take back a leave asked during this hand: the seat stays after it. A leave that has not acted on the hand
        yet is taken back there too, so the seat plays it (``"hand": "playing"``); one that already folded, passed
        or cleared the seat stands (``"hand": "folded"``; docs/rules/hcf.md section 4)."""
        decision = seats.staying(self._seating(), seated)
        if not decision.events:
            return decision.reply
        hand = "none"
        if self._in_current_hand(seated):
            try:
                await self._hand_command(Stay(seated.seat))
                hand = "playing"
            except RuleError:
                hand = "folded"  # the rules refused: the leave already acted, and that stands
        await self._seat_decision(decision)
        return decision.reply | {"hand": hand}

    async def _leave_hand(self, seated: Seated) -> None:
        self.roster = self.roster.changed(seated.seat, leaving=True)
        assert self.course.state is not None
        await self._hand_command(Leave(seated.seat))

    async def _top_up(self, cmd: TopUp) -> Reply:
        reply = await self._seat_decision(seats.top_up(self._seating(), cmd))
        self._soon()
        return reply

    async def _set_sit_out(self, cmd: SetSitOut) -> Reply:
        decision = seats.sit_out(self._seating(), cmd, self.now())
        reply = await self._seat_decision(decision)
        if decision.events:
            self._soon()
        return reply

    async def _set_willing(self, cmd: SetWilling) -> Reply:
        decision = seats.willing(self._seating(), cmd)
        reply = await self._seat_decision(decision)
        if decision.events:
            self._soon()
        return reply

    async def _presence(self, cmd: Presence) -> Reply:
        decision = seats.presence(self._seating(), cmd)
        await self._seat_decision(decision)
        if decision.events:
            self._soon()
        return {}

    async def _stand_up_expired(self) -> None:
        """Players sat out for 10 minutes are stood up and their chips go back (docs/rules/hcf.md section 4)."""
        await self._seat_decision(seats.expired(self._seating(), self.now()))

    async def _housekeeping(self) -> None:
        if not self.hand_in_progress():
            await self._stand_up_expired()

    async def _stand_leavers(self, absent: seats.Decision | None = None) -> None:
        """Stand up every leaving seat after the hand, recorded after ``absent`` (the hand's sit-outs)."""
        await self._seat_decision((absent or seats.Decision()) + seats.leavers(self._seating()))

    def _soon(self) -> None:
        """A seat, stack or switch changed: if the table is waiting, try a hand now."""
        if not self.hand_in_progress() and self.course.waiting_reason is not None:
            self.timers.at("next_hand", self.now() + 0.05)
