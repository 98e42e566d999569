"""The host's (floor) commands at a table: settings, pause, removals, misdeals, drill decks, closing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from server.rules.arrange import SeatDeck, short_deck_warning
from server.rules.cards import Card, parse_cards
from server.rules.commands import DeclareDead, Misdeal
from server.rules.game import AccountId
from server.table import course, floor_state, seats
from server.table.base import RunnerBase
from server.table.commands import (
    Host,
    TableError,
)
from server.table.floor import deck_by_place, payout_changes, setting_changes
from server.table.ports import Batch, Reply


class FloorCommandsMixin(RunnerBase):
    """The part of :class:`~server.table.runner.TableRunner` that owns the host's commands."""

    async def _host(self, cmd: Host) -> Reply:
        handler = _HOST_HANDLERS.get(cmd.action)
        if handler is None:
            raise TableError("request/unknown", f"no host command {cmd.action!r} for a table")
        reply: Reply = await handler(self, cmd)
        return reply

    async def _host_settings(self, cmd: Host) -> Reply:
        values = cmd.arg("settings") or {}
        new = self.game.settings_from_mapping(values, base=self.pending_settings or self.settings)
        asked = floor_state.ask_settings(self.floor, new, cmd.by, seated_up_to=max(self.roster.by_seat, default=0))
        changes = setting_changes(self.settings.as_dict(), new.as_dict())
        paying = payout_changes(setting_changes((self.pending_settings or self.settings).as_dict(), new.as_dict()))
        if paying:
            self._may_rig(cmd, f"change what the table pays ({', '.join(paying)})")
        self.floor = asked
        if not self.hand_in_progress():
            await self._apply_pending_settings(cmd.by)
            return {"applied": "now", "changes": changes, "settings": self.settings.as_dict()}
        # The posted settings hold for the hand in play (docs/rules/hcf.md section 2): say what the next one changes.
        return {"applied": "after_hand", "changes": changes, "settings": new.as_dict()}

    def _may_rig(self, cmd: Host, what: str) -> None:
        """Refuse whoever could profit from rigging this table: a floor link, or an account seated here."""
        if cmd.floor_link:
            raise TableError("auth/not_host", f"a floor link may not {what}: that takes the host token")
        if cmd.by is not None and self.roster.of_account(cmd.by) is not None:
            raise TableError("auth/not_host", f"you sit at table {self.name}, and whoever plays at a table may not "
                                              f"{what}: stand up first")

    async def _host_show_settings(self, _cmd: Host) -> Reply:
        """The table's settings now, and what a change waiting for the hand's end will make of them."""
        current = self.settings.as_dict()
        pending = self.pending_settings
        return {"table": self.name, "game": self.game.name, "status": self.view().status(), "settings": current,
                "pending": setting_changes(current, pending.as_dict()) if pending is not None else {},
                "drill": None if self.drill is None else self.drill.public()}

    async def _apply_pending_settings(self, by: AccountId | None = None) -> None:
        old = self.settings
        self.floor, posted, by = floor_state.post_pending(self.floor, by)
        if posted is None:
            return
        batch = Batch(settings=(self._stored_settings(old), self._stored_settings(posted.settings), by))
        await self._floor_events((posted,), batch)

    async def _floor_events(self, events: tuple[floor_state.FloorEvent, ...], batch: Batch | None = None) -> None:
        """Record the floor's events, then evolve the floor (and the roster to the table's seats)."""
        def apply() -> None:
            for event in events:
                self.floor = floor_state.evolve(self.floor, event)
            self.roster = self.roster.resized(self.settings.seats)

        await self._table_events([event.payload() for event in events], batch, apply)

    async def _host_pause(self, cmd: Host) -> Reply:
        events = floor_state.pause(self.floor, cmd.action == "pause")
        if events:
            await self._floor_events(events)
            if not self.paused:
                self.timers.at("next_hand", self.now() + 0.05)
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
            self.roster = self.roster.changed(seated.seat, leave_reason="removed")  # the player cannot take it back
            await self._leave_hand(seated)
            return {"removed": "after_hand", "seat": seated.seat}
        await self._seat_decision(seats.stand_now(self._seating(), seated, "removed"))
        return {"removed": "now", "seat": seated.seat}

    async def _host_dead(self, cmd: Host) -> Reply:
        """One seat's hand dead; the player banker's seat voids the whole hand (docs/rules/hcf.md section 5): the
        answer says which happened, in the game's words."""
        seat = self._host_seat(cmd)
        banker = self.hand_in_progress() and self.game.dealer_seat(self.course.state) == seat
        await self._hand_command(DeclareDead(seat))
        if banker and not self.hand_in_progress():
            banks = f"seat {seat} is {self.game.words.banker}'s"
            return {"dead": "hand", "seat": seat,
                    "message": f"{banks}: the whole hand is void, every bet and fee goes back"}
        return {"dead": "seat", "seat": seat, "message": f"seat {seat}'s hand is dead: its bets and fee go back"}

    async def _host_misdeal(self, cmd: Host) -> Reply:
        reason = "shuffler_fault" if cmd.action == "shuffler_fault" else "misdeal"
        await self._hand_command(Misdeal(reason))
        return {}

    async def _host_arrange(self, cmd: Host) -> Reply:
        """The next hand's deck: cards in dealing order, or by seat (``hands``) for the rules to order."""
        self._may_rig(cmd, "arrange its deck")
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
        self.course = course.arranged(self.course, deck, cmd.by)
        event: Reply = {"type": "deck_arranged", "cards": count, "by_seat": hands is not None,
                        "message": "the host arranged the next deck: that hand is not a random deal"}
        await self._table_events([event | ({"warning": warning} if warning else {})])
        return {"arranged_cards": count, "by_seat": hands is not None} | ({"warning": warning} if warning else {})

    async def _host_close(self, _cmd: Host) -> Reply:
        """Close the table: a hand in progress plays out normally, then everyone stands up."""
        self.floor, events = floor_state.close(self.floor, playing=self.hand_in_progress())
        self.timers.cancel("next_hand")
        if events:
            await self._floor_events(events)
            return {"closed": "after_hand"}
        await self._close_now()
        return {"closed": "now"}

    async def _close_now(self) -> None:
        for seated in self.roster.by_seat.values():
            self.roster = self.roster.changed(seated.seat, leaving=True, leave_reason=seated.leave_reason or "closed")
        await self._stand_leavers()
        await self._floor_events((floor_state.Closed(),), Batch(close_table=True))


_HOST_HANDLERS: dict[str, Callable[[FloorCommandsMixin, Host], Awaitable[Reply]]] = {
    "change_settings": FloorCommandsMixin._host_settings,
    "pause": FloorCommandsMixin._host_pause,
    "resume": FloorCommandsMixin._host_pause,
    "remove_player": FloorCommandsMixin._host_remove,
    "declare_dead": FloorCommandsMixin._host_dead,
    "misdeal": FloorCommandsMixin._host_misdeal,
    "shuffler_fault": FloorCommandsMixin._host_misdeal,
    "arrange_deck": FloorCommandsMixin._host_arrange,
    "show_settings": FloorCommandsMixin._host_show_settings,
    "close_table": FloorCommandsMixin._host_close,
    "inject": lambda runner, cmd: runner._host_inject(cmd),
    "drill_report": lambda runner, cmd: runner._host_drill_report(cmd),
    "drill_end": lambda runner, cmd: runner._host_drill_end(cmd),
}
