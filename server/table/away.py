"""The away switch: the table acts at once for a player who is away, as their clock running out would.

A player away (the ``away`` request) keeps the seat and is dealt in as ever; whenever the
hand waits on them the table does at once what their clock running out does (docs/server.md):
a bank offered is declined, a decision is folded (or checked, as the game's timeout says),
and a betting round every seat bets in at once is passed for them (a 6 Card Poker exchange:
Continue). It never counts toward sitting them out: nobody's clock ran out. The player's own
move, or the switch turned off, brings them back. Which move is due is :func:`due`, pure.
"""

from __future__ import annotations

from collections.abc import Collection

import structlog

from server.rules.commands import ClockExpired
from server.rules.game import AccountId, ClockSpec, Game, HandLike
from server.table import seats
from server.table.commands import SetAway, TableError
from server.table.context import HandCommand, TableContext
from server.table.ports import Answer
from server.table.seating import SeatDesk

log = structlog.get_logger("hcf.table")

SHARED_MOVES = {"bets": "pass", "exchange": "continue"}
"""What an away seat does in a round every seat takes part in at once, by the clock's kind."""


def due(game: Game, state: HandLike, away: Collection[int]) -> object | None:
    """The command the table makes now for a seat of ``away`` the hand waits on, None when it waits on nobody away.

    A clock of one seat's turn (or a bank offer) runs out for it at once; in a round every seat takes part in at
    once, the first ``away`` seat still late makes the round's own move for it (a pass).
    """
    spec: ClockSpec[object] | None = game.clock(state)
    if spec is None or not away:
        return None
    if spec.seat is not None:
        if spec.seat not in away:
            return None
        return spec.expire if spec.expire is not None else ClockExpired(spec.seat, reason="away")
    move = SHARED_MOVES.get(spec.kind)
    late = [seat for seat in spec.late_seats if seat in away]
    if move is None or not late:
        return None
    command: object = game.move(late[0], move, {})
    return command


class AwayDesk:
    """Takes the away switch (recorded by ``seats``) and acts for the seats away through ``hand_command``."""

    def __init__(self, table: TableContext, seats_desk: SeatDesk, hand_command: HandCommand) -> None:
        self._table, self._seats, self._hand_command = table, seats_desk, hand_command

    async def switch(self, cmd: SetAway) -> Answer:
        """Go away, or come back."""
        return await self._seats.decision(seats.away(self._table.seating(), cmd.account, cmd.on))

    async def back(self, account: AccountId) -> None:
        """``account`` makes a move of its own: it is back, if it was away."""
        seated = self._table.roster.of_account(account)
        if seated is not None and seated.away:
            await self._seats.decision(seats.away(self._table.seating(), account, False))

    async def act(self) -> None:
        """Whatever the hand waits on from a seat away is done now, one move after another (each in turn)."""
        for _ in range(4 * self._table.roster.seats + 4):  # every seat's every move of a hand, with room to spare
            command, state = self._due(), self._table.course.state
            if command is None:
                return
            try:
                await self._hand_command(command)
            except TableError as refusal:  # the game would not take it: leave it to the clock, as before
                log.warning("away_move_refused", code=refusal.code, reason=refusal.message)
                return
            except Exception:  # nothing of it recorded: the command that came first stands, the clock still runs
                log.exception("away_move_failed")
                return
            if self._table.course.state is state:  # held (a live drill's step) or changed nothing: no more now
                return

    def _due(self) -> object | None:
        table = self._table
        state = table.course.state
        if state is None or not table.hand_in_progress():
            return None
        away = {seat for seat, seated in table.roster.by_seat.items()
                if seated.away and table.course.hand_accounts.get(seat) == seated.account}
        return due(table.game, state, away)
