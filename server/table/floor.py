"""The pure parts of the host's (floor) commands: what a settings change changes, drill decks, the seat a
command names, who ``remove_player`` stands up, who may not rig a table.

(A deck too short for a hand is the rules' to word: ``server.rules.arrange.short_deck_warning``.)

The floor desk (server/table/floor_commands.py) carries the commands out; what they compute from the
settings, the roster and the cards alone lives here, testable without a table.
"""

from __future__ import annotations

from server.i18n import phrase
from server.rules.arrange import BY_SEAT, SeatDeck, seat_deck
from server.rules.cards import Card, cards_list
from server.rules.game import JSON, JSONIn, TableSettings
from server.rules.vocabulary import Seat
from server.table.commands import Host, TableError
from server.table.roster import Roster, Seated


def setting_changes(old: JSONIn, new: JSONIn) -> dict[str, JSON]:
    """Each setting that differs: ``{name: {"old": ..., "new": ...}}``.

    >>> setting_changes({"min_ante": 5, "fee": 1}, {"min_ante": 10, "fee": 1})
    {'min_ante': {'old': 5, 'new': 10}}
    """
    return {key: {"old": old.get(key), "new": value} for key, value in new.items() if old.get(key) != value}


PAYOUT_SETTINGS = frozenset({"profile", "max_payout", "max_bonus_win"})
"""Settings that change what a hand pays, besides every ``*_pays`` table and every ``jackpot*`` setting."""


def payout_changes(changes: JSONIn) -> list[str]:
    """The changed settings (of :func:`setting_changes`) that change what a hand pays.

    Whoever may rig a table may not profit from it (docs/server.md, "What a floor link may do").

    >>> payout_changes({"straight_flush_pays": {}, "bet_seconds": {}, "max_bonus_win": {}, "jackpot_seed": {}})
    ['jackpot_seed', 'max_bonus_win', 'straight_flush_pays']
    """
    return sorted(key for key in changes
                  if key in PAYOUT_SETTINGS or key.endswith("_pays") or key.startswith("jackpot"))


def deck_by_place(table: str, game: str, settings: TableSettings, hands: object) -> SeatDeck:
    """``arrange_deck``'s ``hands`` read for this table's game: seats, spots or boxes, and ``dp``."""
    size, noun = BY_SEAT.get(game, (0, ""))
    if not size:
        raise TableError("cards/invalid", phrase("table {table} takes its deck in dealing order only", table=table))
    if not isinstance(hands, dict):
        raise TableError("request/malformed", phrase("hands maps a {place} (or 'dp') to its cards", place=noun))
    places = {"seat": "seats", "spot": "spots", "box": "boxes"}[noun]
    return seat_deck(hands, size, int(getattr(settings, places)), noun)


def deck_json(deck: tuple[Card, ...] | SeatDeck | None) -> JSON | list[str] | None:
    """An arranged deck as the hand's recorded input (server/replay.py reads it back)."""
    if isinstance(deck, SeatDeck):
        return {"by_seat": deck.as_json()}
    return cards_list(deck) if deck is not None else None


def host_seat(table: str, seat_count: int, cmd: Host) -> Seat:
    """The seat a host command names, within the table's ``seat_count`` (refused: none named, or beyond them).

    Where a host's seat enters the table from the command's arguments: a seat from here on."""
    seat = cmd.arg("seat")
    if not isinstance(seat, int):
        raise TableError("request/malformed", phrase("{action} needs a seat", action=cmd.action))
    if not 1 <= seat <= seat_count:
        raise TableError("seat/invalid", phrase("table {table} has seats 1 to {seats}, not {seat}", table=table,
                                                 seats=seat_count, seat=seat))
    return Seat(seat)


def removed(table: str, roster: Roster, seat_count: int, cmd: Host) -> Seated:
    """Who ``remove_player`` stands up: the player by the ``account`` name it gives, else at its ``seat``."""
    name = cmd.arg("account")
    seat = host_seat(table, seat_count, cmd) if name is None else None
    seated = next((s for s in roster.by_seat.values()
                   if s.seat == seat or (name is not None and s.name.lower() == str(name).lower())), None)
    if seated is None:
        if name is None:
            raise TableError("seat/not_seated", phrase("nobody sits at seat {seat} at table {table}", seat=seat,
                                                       table=table))
        raise TableError("seat/not_seated", phrase("nobody sits by the name {name} at table {table}", name=repr(name),
                                                   table=table))
    return seated


def may_rig(table: str, roster: Roster, cmd: Host, what: str) -> None:
    """Refuse whoever could profit from rigging the table: a floor link, or an account seated at it."""
    if cmd.floor_link:
        raise TableError("auth/not_host", phrase("a floor link may not {what}: that takes the host token", what=what))
    if cmd.by is not None and roster.of_account(cmd.by) is not None:
        raise TableError("auth/not_host", phrase("you sit at table {table}, and whoever plays at a table may not "
                                                 "{what}: stand up first", table=table, what=what))
