"""Each player's time bank for the session: drawn when a clock of their turn runs out, recorded as table events.

The table setting ``time_bank_seconds`` (0: none) gives every player a bank once, for as
long as the table runs: sitting down again does not fill it. When a clock of one player's
own turn runs out and they have seconds left, the clock runs on with them (the usual
live-room way: nobody asks), and everyone is told (``time_bank_drawn``). Once the player
acts, or the bank runs out too, what they used is taken from it (``time_bank_used``, which
a restarted table reads back: server/storage/tables.py). With an empty bank a clock's
running out acts as it always did. Which clock runs, and what is left, is the pure
decision of server/table/hand_clock.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from server.rules.game import AccountId
from server.table.context import TableContext
from server.table.hand_clock import HandClock, bank_left, bank_seat, banked, drawn
from server.table.hand_timer import HandTimer
from server.table.pipeline import Pipeline
from server.table.roster import Seated

USED = "time_bank_used"  # the event a restarted table reads each bank back from


class TimeBanks:
    """The players' time banks at ``table``: draws on them through ``hand_timer``, records through ``pipeline``."""

    def __init__(self, table: TableContext, pipeline: Pipeline, hand_timer: HandTimer) -> None:
        self._table, self._pipeline, self._hand_timer = table, pipeline, hand_timer

    def left(self, account: AccountId) -> float:
        """The seconds left in ``account``'s bank (the whole setting until it first draws; never above it)."""
        full = self._table.settings.time_bank_seconds
        return min(full, self._table.time_banks.get(account, full))

    async def draw(self, clock: HandClock) -> bool:
        """``clock`` ran out: when its seat may draw on its bank, the clock runs on with it (True); otherwise
        the bank it drew on, if any, is spent, and the clock's running out acts as always (False)."""
        player = self._player(clock)
        if player is None:
            return False
        on_bank = drawn(clock, self.left(player.account))
        if on_bank is None:
            if banked(clock):
                await self._spent(clock, player)
            return False
        await self._pipeline.table_events([{"type": "time_bank_drawn", "seat": player.seat, "name": player.name,
                                            "left": on_bank.bank, "deadline": on_bank.deadline}])
        self._hand_timer.draw(on_bank)
        return True

    async def settle(self, before: HandClock | None) -> None:
        """A hand command was recorded while ``before`` ran: when that clock drew on a bank and runs no more (the
        player acted, or the hand moved on), what it used is taken from the bank."""
        if before is None or not banked(before) or self._hand_timer.running is before:
            return
        player = self._player(before)
        if player is not None:
            await self._spent(before, player)

    def _player(self, clock: HandClock) -> Seated | None:
        seat = bank_seat(clock)
        return None if seat is None else self._table.roster.by_seat.get(seat)

    async def _spent(self, clock: HandClock, player: Seated) -> None:
        left = bank_left(clock, self._table.now())
        account = player.account

        def apply() -> None:
            self._table.time_banks[account] = left

        await self._pipeline.table_events([{"type": "time_bank_used", "seat": player.seat, "name": player.name,
                                            "left": left, "_account": int(account)}], apply=apply)


def restored(events: Iterable[Mapping[str, object]]) -> dict[AccountId, float]:
    """Each player's bank as the table's recorded ``time_bank_used`` events leave it (the last one counts).

    >>> restored([{"type": "time_bank_used", "_account": 4, "left": 20.0},
    ...           {"type": "player_sat"}, {"type": "time_bank_used", "_account": 4, "left": 5.5}])
    {4: 5.5}
    """
    out: dict[AccountId, float] = {}
    for event in events:
        account, left = event.get("_account"), event.get("left")
        if event.get("type") == USED and isinstance(account, int) and isinstance(left, int | float):
            out[AccountId(account)] = float(left)
    return out
