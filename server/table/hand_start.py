"""A new hand's start as a pure core: who plays it, the numbers it takes, what it records first.

The runner asks :func:`new_hand` before the rules deal (None: too few players), then
records :func:`started` and the hand's input, :func:`inputs`, with the rules' opening
events (server/table/hands.py). Nothing here does I/O, reads a clock or draws a seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from server.i18n import told
from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.game import AccountId, Player
from server.rules.vocabulary import JSON
from server.table.floor import deck_json
from server.table.roster import Roster

Deck = tuple[Card, ...] | SeatDeck


@dataclass(frozen=True, slots=True, kw_only=True)
class NewHand:
    """What a new hand starts from, before the rules deal it."""

    players: tuple[Player, ...]
    accounts: Mapping[int, AccountId]  # seat -> account, for every player of the hand
    names: Mapping[int, str]  # seat -> name
    offer_from: int
    number: int  # the table's own number, taken once the cards are dealt (an attempt nobody banked takes none)
    hand_no: int  # counted like the database: every recorded hand
    arranged: Deck | None = None
    arranged_by: AccountId | None = None


def new_hand(roster: Roster, stacks: Mapping[AccountId, int], *, house_banked: bool, offer_from: int,
             hands_dealt: int, hands_played: int, arranged: Deck | None = None,
             arranged_by: AccountId | None = None) -> NewHand | None:
    """The next hand of who plays now; None when too few do (one at a house-banked table, else two: one to
    bank and one to play)."""
    playing = roster.playing()
    if len(playing) < (1 if house_banked else 2):
        return None
    return NewHand(players=tuple(s.as_player(stacks.get(s.account, 0)) for s in playing),
                   accounts={s.seat: s.account for s in playing}, names={s.seat: s.name for s in playing},
                   offer_from=offer_from, number=hands_dealt + 1, hand_no=hands_played + 1, arranged=arranged,
                   arranged_by=arranged_by if arranged is not None else None)


def waiting_sentence(reason: str, message: str, *, house_banked: bool) -> str:
    """What a ``table_waiting`` event says: the game's ``message``, else the table's own words."""
    if message:
        return message
    if reason != "players":
        return reason
    if house_banked:
        return told("waiting for players")
    return told("waiting for players: a hand needs two, one to bank and one to play")


def started(hand: NewHand) -> JSON:
    """The ``hand_started`` event, recorded before the rules' opening events."""
    return {"type": "hand_started", "hand_no": hand.hand_no, "number": hand.number,
            "arranged": hand.arranged is not None, "seats": [p.seat for p in hand.players],
            "offer_from": hand.offer_from}


def inputs(hand: NewHand, *, game: str, settings: JSON, carry: JSON) -> JSON:
    """The hand's first input, as recorded for replay (server/replay.py reads it back): never published."""
    return {"command": "new_hand", "game": game, "carry": carry, "settings": settings,
            "offer_from": hand.offer_from,
            "players": [[p.seat, p.stack, p.willing_to_bank, p.present] for p in hand.players],
            "accounts": {str(seat): account for seat, account in hand.accounts.items()},
            "arranged_deck": deck_json(hand.arranged), "arranged_by": hand.arranged_by}
