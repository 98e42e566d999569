"""Seats at the table: the seats' pure core (server/table/seats.py) decides; the seat desk records, then evolves."""

from __future__ import annotations

from server.rules.commands import Leave, Stay
from server.rules.errors import RuleError
from server.table import seats
from server.table.commands import (
    Presence,
    SetSitOut,
    SetWilling,
    Sit,
    Stand,
    TableError,
    TopUp,
)
from server.table.context import HandCommand, TableContext
from server.table.pipeline import Pipeline
from server.table.ports import Answer
from server.table.roster import Seated
from server.table.scheduler import Scheduler


class SeatDesk:
    """Takes the seats' commands: the seats' core decides, ``pipeline`` records, then the roster evolves.

    A seat that leaves or stays in the hand in progress goes through ``hand_command``.
    """

    def __init__(self, table: TableContext, pipeline: Pipeline, timers: Scheduler, hand_command: HandCommand) -> None:
        self._table, self._pipeline, self._timers, self._hand_command = table, pipeline, timers, hand_command

    async def decision(self, decision: seats.Decision) -> Answer:
        """Record what ``decision`` causes; evolve the roster once it is committed."""
        if decision.events:
            await self._pipeline.table_events(decision.payloads(), decision.batch(), lambda: self._evolve(decision))
        return decision.reply

    def _evolve(self, decision: seats.Decision) -> None:
        self._table.roster = seats.evolve_all(self._table.roster, decision.events)

    async def sit(self, cmd: Sit) -> Answer:
        """Take a seat (refused to a drill's trainee, and to whoever arranged the next deck)."""
        table = self._table
        if table.drill is not None and not table.drill.settings.ended and table.drill.settings.is_trainee(cmd.name):
            raise TableError("drill/trainee", "the trainee deals from the dealer's chair and takes no seat: "
                                              f"answer the steps with hcf drill --table {table.name}")
        if table.course.arranged_next is not None and table.course.arranged_by == cmd.account:
            raise TableError("auth/not_host", f"you arranged the next deck at table {table.name}, and whoever "
                                              "arranges a deck may not play it: sit once that hand is dealt")
        reply = await self.decision(seats.sit(table.seating(), cmd))
        self.soon()
        return reply

    async def stand(self, cmd: Stand) -> Answer:
        """Stand up now, or after the hand the seat plays."""
        seated = self._table.seated(cmd.account)
        if self._table.in_current_hand(seated):
            await self.leave_hand(seated)
            return {"standing": "after_hand"}
        reply = await self.decision(seats.stand_now(self._table.seating(), seated))
        self.soon()
        return reply

    async def stay(self, seated: Seated) -> Answer:
        """Take back a leave asked during this hand: the seat stays after it. A leave that has not acted on the hand
        yet is taken back there too, so the seat plays it (``"hand": "playing"``); one that already folded, passed
        or cleared the seat stands (``"hand": "folded"``; docs/rules/hcf.md section 4)."""
        decision = seats.staying(self._table.seating(), seated)
        if not decision.events:
            return decision.reply
        hand = "none"
        if self._table.in_current_hand(seated):
            try:
                await self._hand_command(Stay(seated.seat))
                hand = "playing"
            except RuleError:
                hand = "folded"  # the rules refused: the leave already acted, and that stands
        await self.decision(decision)
        return decision.reply | {"hand": hand}

    async def leave_hand(self, seated: Seated) -> None:
        """``seated`` leaves the hand in progress (and stands once it is over)."""
        self._table.roster = self._table.roster.changed(seated.seat, leaving=True)
        assert self._table.course.state is not None
        await self._hand_command(Leave(seated.seat))

    async def top_up(self, cmd: TopUp) -> Answer:
        """Add chips to the seat's stack."""
        reply = await self.decision(seats.top_up(self._table.seating(), cmd))
        self.soon()
        return reply

    async def set_sit_out(self, cmd: SetSitOut) -> Answer:
        """Sit out from the next hand, or come back."""
        return await self._switch(seats.sit_out(self._table.seating(), cmd, self._table.now()))

    async def set_willing(self, cmd: SetWilling) -> Answer:
        """Whether the seat is willing to bank."""
        return await self._switch(seats.willing(self._table.seating(), cmd))

    async def presence(self, cmd: Presence) -> Answer:
        """A seated account's connection came or went."""
        await self._switch(seats.presence(self._table.seating(), cmd))
        return {}

    async def _switch(self, decision: seats.Decision) -> Answer:
        reply = await self.decision(decision)
        if decision.events:
            self.soon()
        return reply

    async def stand_up_expired(self) -> None:
        """Players sat out for 10 minutes are stood up and their chips go back (docs/rules/hcf.md section 4)."""
        await self.decision(seats.expired(self._table.seating(), self._table.now()))

    async def housekeeping(self) -> None:
        """The table's periodic look at its seats, between hands."""
        if not self._table.hand_in_progress():
            await self.stand_up_expired()

    async def stand_leavers(self, absent: seats.Decision | None = None) -> None:
        """Stand up every leaving seat after the hand, recorded after ``absent`` (the hand's sit-outs)."""
        await self.decision((absent or seats.Decision()) + seats.leavers(self._table.seating()))

    def soon(self) -> None:
        """A seat, stack or switch changed: if the table is waiting, try a hand now."""
        if not self._table.hand_in_progress() and self._table.course.waiting_reason is not None:
            self._timers.at("next_hand", self._table.now() + 0.05)
