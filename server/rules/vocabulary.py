"""The words every layer shares: JSON objects, replies, accounts, seats and the refusal codes.

Standard library only, so the rules, the table, the store, the transport and the
clients may all import it. ``RefusalCode`` is the closed list of codes a client may
see (docs/protocol.md, section 8): mypy refuses a refusal raised with any other code,
and ``tests/test_error_codes.py`` compares this list with the docs both ways.
"""

from __future__ import annotations

from typing import Any, Final, Literal, NewType, TypeAlias, TypeGuard, get_args

JSON: TypeAlias = dict[str, Any]
"""A JSON object as our code writes it (a view, a summary, a logged event, a payload)."""

Reply: TypeAlias = dict[str, Any]
"""A request's acknowledgement: ``{"ok": true, ...}`` or ``{"ok": false, "error": {...}}``."""

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


def is_refusal_code(code: object) -> TypeGuard[RefusalCode]:
    """Whether ``code`` is one of the listed codes.

    >>> is_refusal_code("seat/taken"), is_refusal_code("db/conflict")
    (True, False)
    """
    return code in REFUSAL_CODES
