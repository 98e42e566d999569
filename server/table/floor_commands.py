"""The host's (floor) commands at a table: settings, pause, removals, misdeals, drill decks, closing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import cast

from server.i18n import phrase, told, with_say
from server.rules.arrange import SeatDeck, short_deck_warning
from server.rules.cards import Card, parse_cards
from server.rules.commands import DeclareDead, Misdeal
from server.rules.game import AccountId
from server.rules.vocabulary import JSON
from server.table import course, floor_state, seats
from server.table.commands import (
    Host,
    TableError,
)
from server.table.context import HandCommand, TableContext
from server.table.drill import DrillDesk
from server.table.floor import deck_by_place, host_seat, may_rig, payout_changes, removed, setting_changes
from server.table.pipeline import Pipeline
from server.table.ports import Answer, Batch
from server.table.scheduler import Scheduler
from server.table.seating import SeatDesk


class FloorDesk:
    """Takes the host's commands. Seats are stood through ``seats``, the hand through ``hand_command``, a drill's
    commands through ``drill``."""

    def __init__(self, table: TableContext, pipeline: Pipeline, timers: Scheduler, seats: SeatDesk,
                 drill: DrillDesk, hand_command: HandCommand) -> None:
        self._table, self._pipeline, self._timers = table, pipeline, timers
        self._seats, self._drill, self._hand_command = seats, drill, hand_command
        self._handlers: dict[str, Callable[[Host], Awaitable[Answer]]] = {
            "change_settings": self._settings, "pause": self._pause, "resume": self._pause,
            "remove_player": self._remove, "declare_dead": self._dead, "misdeal": self._misdeal,
            "shuffler_fault": self._misdeal, "arrange_deck": self._arrange, "show_settings": self._show_settings,
            "close_table": self._close, "inject": drill.host_inject, "drill_report": drill.host_report,
            "drill_end": drill.host_end,
        }

    async def host(self, cmd: Host) -> Answer:
        """Carry out a host's command (docs/protocol.md, the host's commands)."""
        handler = self._handlers.get(cmd.action)
        if handler is None:
            raise TableError("request/unknown", phrase("no host command {action} for a table", action=repr(cmd.action)))
        return await handler(cmd)

    async def _settings(self, cmd: Host) -> Answer:
        table = self._table
        values = cmd.arg("settings") or {}
        if not isinstance(values, Mapping):
            raise TableError("request/malformed", phrase("change_settings takes the settings as an object"))
        new = table.game.settings_from_mapping(values, base=table.floor.pending or table.settings)
        asked = floor_state.ask_settings(table.floor, new, cmd.by, seated_up_to=max(table.roster.by_seat, default=0))
        changes = setting_changes(table.settings.as_dict(), new.as_dict())
        paying = payout_changes(setting_changes((table.floor.pending or table.settings).as_dict(), new.as_dict()))
        if paying:
            self._may_rig(cmd, phrase("change what the table pays ({settings})", settings=", ".join(paying)))
        table.floor = asked
        if not table.hand_in_progress():
            await self.apply_pending_settings(cmd.by)
            return {"applied": "now", "changes": changes, "settings": table.settings.as_dict()}
        # The posted settings hold for the hand in play (docs/rules/hcf.md section 2): say what the next one changes.
        return {"applied": "after_hand", "changes": changes, "settings": new.as_dict()}

    def _may_rig(self, cmd: Host, what: str) -> None:
        may_rig(self._table.name, self._table.roster, cmd, what)

    async def _show_settings(self, _cmd: Host) -> Answer:
        """The table's settings now, what a change waiting for the hand's end will make of them, and the game's
        table-wide figures (High Card Flush's ``notes``: its house rules for the bank and their status)."""
        table = self._table
        current = table.settings.as_dict()
        pending = table.floor.pending
        shown: Answer = {"table": table.name, "game": table.game.name, "status": table.view().status(),
                         "settings": current,
                         "pending": setting_changes(current, pending.as_dict()) if pending is not None else {},
                         "drill": None if table.drill is None else table.drill.public()}
        # With the game's own table-wide figures (``Game.table_view``): names only the game knows, carried as the
        # game gives them, so no answer type of the table's can list them.
        return cast(Answer, shown | table.view().table_view())

    async def apply_pending_settings(self, by: AccountId | None = None) -> None:
        """Post the settings change that waited for the hand's end, if any."""
        table = self._table
        old = table.settings
        table.floor, posted, by = floor_state.post_pending(table.floor, by)
        if posted is None:
            return
        batch = Batch(settings=(self._drill.stored_settings(old), self._drill.stored_settings(posted.settings), by))
        await self._floor_events((posted,), batch)

    async def _floor_events(self, events: tuple[floor_state.FloorEvent, ...], batch: Batch | None = None) -> None:
        """Record the floor's events, then evolve the floor (and the roster to the table's seats)."""
        table = self._table

        def apply() -> None:
            for event in events:
                table.floor = floor_state.evolve(table.floor, event)
            table.roster = table.roster.resized(table.settings.seats)

        await self._pipeline.table_events([event.payload() for event in events], batch, apply)

    async def _pause(self, cmd: Host) -> Answer:
        events = floor_state.pause(self._table.floor, cmd.action == "pause")
        if events:
            await self._floor_events(events)
            if not self._table.floor.paused:
                self._timers.at("next_hand", self._table.now() + 0.05)
        return {"paused": self._table.floor.paused}

    async def _remove(self, cmd: Host) -> Answer:
        table = self._table
        seated = removed(table.name, table.roster, table.settings.seats, cmd)
        if table.in_current_hand(seated):
            table.roster = table.roster.changed(seated.seat, leave_reason="removed")  # the player cannot take it back
            await self._seats.leave_hand(seated)
            return {"removed": "after_hand", "seat": seated.seat}
        await self._seats.decision(seats.stand_now(table.seating(), seated, "removed"))
        return {"removed": "now", "seat": seated.seat}

    async def _dead(self, cmd: Host) -> Answer:
        """One seat's hand dead; the player banker's seat voids the whole hand (docs/rules/hcf.md section 5): the
        answer says which happened, in the game's words."""
        table = self._table
        seat = host_seat(table.name, table.settings.seats, cmd)
        banker = table.hand_in_progress() and table.game.dealer_seat(table.course.state) == seat
        await self._hand_command(DeclareDead(seat))
        if banker and not table.hand_in_progress():
            return {"dead": "hand", "seat": seat,
                    "message": phrase("seat {seat} is {banker}'s: the whole hand is void, every bet and fee goes "
                                      "back", seat=seat,
                                      banker=table.game.words.banker)}
        return {"dead": "seat", "seat": seat, "message": phrase("seat {seat}'s hand is dead: its bets and fee go back",
                                                                seat=seat)}

    async def _misdeal(self, cmd: Host) -> Answer:
        reason = "shuffler_fault" if cmd.action == "shuffler_fault" else "misdeal"
        await self._hand_command(Misdeal(reason))
        return {}

    async def _arrange(self, cmd: Host) -> Answer:
        """The next hand's deck: cards in dealing order, or by seat (``hands``) for the rules to order."""
        table = self._table
        self._may_rig(cmd, phrase("arrange its deck"))
        hands = cmd.arg("hands")
        deck: tuple[Card, ...] | SeatDeck
        if hands is not None:
            deck = deck_by_place(table.name, table.game.name, table.settings, hands)
            count, warning = sum(len(cards) for _, cards in deck.hands), None
        else:
            cards = cmd.arg("cards") or ""
            deck = parse_cards(cards) if isinstance(cards, str) else ()
            if not deck:
                raise TableError("cards/invalid",
                                 phrase("arrange_deck needs the cards in dealing order, or cards by seat"))
            count = len(deck)
            warning = short_deck_warning(table.game.name, table.settings.house_banked, len(table.roster.playing()),
                                         count)
        table.course = course.arranged(table.course, deck, cmd.by)
        event: JSON = with_say({"type": "deck_arranged", "cards": count, "by_seat": hands is not None,
                                "message": told("the host arranged the next deck: that hand is not a random deal")})
        await self._pipeline.table_events([event | ({"warning": warning} if warning else {})])
        answer: Answer = {"arranged_cards": count, "by_seat": hands is not None}
        if warning:
            answer["warning"] = warning
        return answer

    async def _close(self, _cmd: Host) -> Answer:
        """Close the table: a hand in progress plays out normally, then everyone stands up."""
        table = self._table
        table.floor, events = floor_state.close(table.floor, playing=table.hand_in_progress())
        self._timers.cancel("next_hand")
        if events:
            await self._floor_events(events)
            return {"closed": "after_hand"}
        await self.close_now()
        return {"closed": "now"}

    async def close_now(self) -> None:
        """Everyone stands up and the table is closed."""
        table = self._table
        for seated in table.roster.by_seat.values():
            table.roster = table.roster.changed(seated.seat, leaving=True, leave_reason=seated.leave_reason or "closed")
        await self._seats.stand_leavers()
        await self._floor_events((floor_state.Closed(),), Batch(close_table=True))
