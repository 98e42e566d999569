"""The table's course of hands as a pure value: the hand in play (or the last one), its numbers, what carries over.

The runner holds one :class:`Course` and replaces it at each turn of a hand's life:
:func:`begun` when a hand is recorded as started, :func:`recorded` when a batch of its
events is committed, :func:`ended` when it is over. Each is pure (no I/O, clock or
asyncio); what the game decides (a hand's state, what it leaves the next one) comes in
as arguments. Hand numbers count like people do: every recorded hand counts in
``hands_played`` (as the database numbers them), only a dealt one takes a ``number``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from server.i18n import phrase
from server.rules.game import JSON, AccountId, AfterHand, HandLike
from server.rules.vocabulary import Seat
from server.table.commands import TableError
from server.table.hand_start import Deck, NewHand
from server.table.roster import NEXT_HAND, Seated

GAME_ENDED = "game_ended"
"""The waiting reason of a table whose game ended (the game's ``AfterHand.ends_game``): it stays paused until the
host's ``resume``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Course:
    """The hand in play (or the last one) and what the table keeps between hands."""

    state: HandLike | None = None  # the game's hand state
    hand_id: int | None = None  # the recorded hand in play's id (None between hands)
    hand_accounts: Mapping[int, AccountId] = field(default_factory=dict)  # seat -> account, of the last hand begun
    hand_number: int | None = None  # the number the hand in play has (or takes once dealt)
    hand_numbered: bool = False
    hand_carry: JSON = field(default_factory=dict)  # what the hand in play started with (server/table/rebet.py)
    hands_played: int = 0
    hands_dealt: int = 0  # the table's own number of its last dealt hand
    last_hand_id: int | None = None
    last_summary: JSON | None = None  # the last finished hand (after a restart: maybe its void)
    carry: JSON = field(default_factory=dict)  # what outlives a hand (a jackpot meter, last bets by player)
    offer_from: int = 1
    hand_retried: bool = False  # the last attempt was not dealt and is tried again as the same hand
    waiting_reason: str | None = None
    arranged_next: Deck | None = None  # the host's deck for the next hand
    arranged_in_play: Deck | None = None  # the arranged deck of the hand in play
    arranged_by: AccountId | None = None  # whose session arranged the deck waiting (may not sit meanwhile)


def in_play(course: Course, terminal: frozenset[str]) -> bool:
    """Whether a hand has started and not ended (``terminal``: the game's phases that end a hand)."""
    return course.state is not None and course.state.phase not in terminal


def mover(course: Course, terminal: frozenset[str], seated: Seated, account: AccountId) -> Seat:
    """The seat ``seated`` makes ``account``'s move with in the hand in play: refused when no hand is in play, or
    when the seat does not play it (sitting out, or seated since it began)."""
    if not in_play(course, terminal):
        raise TableError("hand/none", phrase("no hand is in progress"))
    if course.hand_accounts.get(seated.seat) != account:
        raise TableError("seat/not_in_hand", phrase("you sit out: come back to play from the next hand")
                         if seated.sitting_out else NEXT_HAND)
    return seated.seat


def arranged(course: Course, deck: Deck, by: AccountId | None) -> Course:
    """The host arranged the next hand's deck."""
    return replace(course, arranged_next=deck, arranged_by=by)


def waiting(course: Course, reason: str | None) -> Course:
    """The table waits for ``reason`` (None: it does not)."""
    return replace(course, waiting_reason=reason)


def not_begun(course: Course, state: HandLike, carry: JSON) -> Course:
    """An attempt over before it began (nobody to bank): nothing recorded, the state kept for the views, and what
    the game keeps all the same (``carry``: a house rule's record, so a reopened table knows its game ended)."""
    return replace(course, state=state, carry=carry)


def begun(course: Course, hand: NewHand, state: HandLike, carry: JSON) -> Course:
    """A hand starts: its players, the number it takes once dealt, its deck (a deck arranged is now in play)."""
    return replace(course, state=state, hand_id=None, hand_accounts=dict(hand.accounts), hand_number=hand.number,
                   hand_numbered=False, hand_carry=carry, waiting_reason=None, arranged_next=None,
                   arranged_in_play=hand.arranged)


def recorded(course: Course, state: HandLike, *, hand_id: int | None, dealt: int | None) -> Course:
    """A batch of the hand's events is committed: ``hand_id`` when it started the recorded hand, ``dealt`` (the
    table's hand number) when it dealt the cards."""
    if hand_id is not None:
        course = replace(course, hand_id=hand_id, hands_played=course.hands_played + 1)
    if dealt is not None:
        course = replace(course, hands_dealt=dealt, hand_numbered=True)
    return replace(course, state=state)


def ended(course: Course, summary: JSON, after: AfterHand, *, not_dealt: bool) -> Course:
    """The hand is over (``summary``: its public record; ``after``: what the game leaves the next hand). A deck
    arranged for a hand never dealt waits for the next one."""
    deck = course.arranged_in_play if not_dealt and course.arranged_next is None else course.arranged_next
    return replace(course, last_summary=summary, last_hand_id=course.hand_id, carry=summary["carry"],
                   offer_from=after.offer_from, hand_retried=after.retried, hand_id=None, arranged_next=deck,
                   arranged_in_play=None,
                   waiting_reason=after.waiting if after.waiting is not None else course.waiting_reason)
