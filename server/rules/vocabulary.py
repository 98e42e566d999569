"""The words every layer shares: JSON objects, replies, accounts, seats and the refusal codes.

Standard library only, so the rules, the table, the store, the transport and the
clients may all import it. ``RefusalCode`` is the closed list of codes a client may
see (docs/protocol.md, section 8): mypy refuses a refusal raised with any other code,
and ``tests/test_error_codes.py`` compares this list with the docs both ways.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal, NewType, TypeAlias, TypedDict, TypeGuard, get_args

JSON: TypeAlias = dict[str, Any]
"""A JSON object as our code writes it (a view, a summary, a logged event, a payload)."""


AccountId = NewType("AccountId", int)
"""An account's number in the store: never a seat, a count or a connection."""

Seat = NewType("Seat", int)
"""A seat's number at a table, from 1 (0 names the dealer where a command allows it)."""

RefusalCode: TypeAlias = Literal[
    "request/malformed", "request/unknown", "request/too_large", "request/internal", "rate/limited",
    "auth/required", "auth/bad_credentials", "auth/name_taken", "auth/bad_name", "auth/weak_password",
    "auth/token_invalid", "auth/token_expired", "auth/not_host", "account/unknown",
    "table/unknown", "table/exists", "table/closed", "table/not_joined", "table/hand_in_progress",
    "table/moved", "table/timeout", "table/unavailable",
    "seat/taken", "seat/no_free_seat", "seat/invalid", "seat/already_seated", "seat/not_seated",
    "seat/not_in_hand", "seat/removed", "seat/not_leaving", "seat/leave_acted", "seat/leaving",
    "buy_in/out_of_range", "ledger/insufficient_funds", "settings/invalid", "phase/wrong", "turn/not_yours",
    "bet/below_min", "bet/above_max", "bet/bonus_without_ante", "bet/insufficient_stack", "bet/not_a_player",
    "bet/already_answered", "bet/bad_seed", "bet/too_many", "bet/others_waiting", "bet/confirmed", "bet/none",
    "bet/no_jackpot", "bet/no_last_bets", "bet/ante_ratio", "bonus/below_min", "bonus/above_max",
    "spot/invalid", "spot/taken", "box/invalid", "box/taken",
    "draw/count", "draw/done", "draw/positions",
    "exchange/continued", "exchange/requested", "exchange/not_requested",
    "raise/below_min", "raise/above_limit", "raise/insufficient_stack",
    "clock/stale", "hand/over", "hand/none", "hand/unknown", "hand/not_allowed", "settle/invalid", "cards/invalid",
    "server/shutting_down",
    "drill/off", "drill/not_trainee", "drill/no_step", "drill/waiting", "drill/not_now", "drill/trainee",
    "drill/no_certificate",
    "invite/invalid", "invite/expired", "invite/revoked", "invite/used_up", "invite/unknown",
    "chat/empty", "chat/too_long", "chat/muted",
]
"""Every code a refusal may carry to a client: the closed list of docs/protocol.md, section 8."""

REFUSAL_CODES: Final[frozenset[str]] = frozenset(get_args(RefusalCode))
"""The closed list as a set, for a code that arrives as text (from another server process)."""


# (Optional keys come from a ``total=False`` subclass, required ones from a total base: with postponed
# annotations, Python 3.11's TypedDict does not see ``NotRequired`` or ``Required`` at run time.)


class _ErrorBody(TypedDict):
    code: RefusalCode
    message: str


class ErrorBody(_ErrorBody, total=False):
    """A refusal as a reply carries it: a listed code, a sentence with the table's real limits, and for
    ``rate/limited`` the seconds to wait before sending again."""

    retry_after: float


class Answer(TypedDict, total=False):
    """What a request's ``ok`` answer carries beside ``ok`` (docs/protocol.md, docs/http.md): each field a request
    may answer with, and nothing else, so mypy refuses a field no client reads or a value of another type. The
    table's commands answer with these too (the gateway adds ``ok``)."""

    message: str  # a sentence for the player (a sit in mid-hand: from the next hand)
    update: Mapping[str, object]  # the requester's own update of the batch its command was in (a TableUpdate)
    snapshot: JSON
    chat: JSON
    line: JSON  # the chat line said
    # a seat's own requests
    seat: Seat | int | None  # a seat's number (a drill's irregularity may name none)
    stack: int
    standing: str
    cashed_out: int
    sitting_out: bool
    willing_to_bank: bool
    away: bool
    leaving: bool
    hand: str | int  # a stay: the hand's answer ("playing", "folded"); a drill's answer: the hand's number
    # the host's commands (docs/host.md)
    applied: str
    changes: JSON
    settings: JSON
    pending: JSON | bool  # show_settings: the change waiting; the odds: whether they are of that change
    drill: JSON | None
    table: str | JSON  # the table's name; create_table: its lobby entry
    game: str
    status: str
    paused: bool
    removed: str
    dead: str
    arranged_cards: int
    by_seat: bool
    warning: str
    closed: str | bool
    account: str  # grant_chips: whose account, the chips granted and its balance now
    granted: int
    balance: int
    # a live drill (docs/drill.md): the step asked, an answer judged, the reports
    step: JSON | str | None
    n: int
    recorded: bool
    given: object
    answer: object
    right: bool
    mistake: str | None
    rule: str
    seconds: float | None
    feedback: str
    say: JSON  # each shared sentence's message id and arguments, for the client to say in its language
    report: JSON
    reports: JSON
    ended: bool
    waiting: bool | str | None
    injected: str
    # the HTTP API (docs/http.md)
    tables: int | list[JSON]
    hands: list[JSON]
    odds: JSON
    url: str
    invites: list[JSON]
    trainees: list[JSON]
    session: JSON
    settle_up: JSON


class _Done(TypedDict):
    ok: Literal[True]


class OkReply(_Done, Answer, total=False):
    """A request's acknowledgement when it was done: ``{"ok": true, ...}``."""


class RefusedReply(TypedDict):
    """A request's acknowledgement when it was refused: ``{"ok": false, "error": {"code", "message"}}``; it
    changed nothing."""

    ok: Literal[False]
    error: ErrorBody


Reply: TypeAlias = OkReply | RefusedReply
"""A request's acknowledgement: done (:class:`OkReply`) or refused (:class:`RefusedReply`), never a plain dict."""


def is_refusal_code(code: object) -> TypeGuard[RefusalCode]:
    """Whether ``code`` is one of the listed codes.

    >>> is_refusal_code("seat/taken"), is_refusal_code("db/conflict")
    (True, False)
    """
    return code in REFUSAL_CODES
