"""What the store refuses, and the one place its own codes become what a client may see.

A :class:`StoreError` carries either a code of the closed list
(:data:`~server.rules.vocabulary.RefusalCode`: a taken name, a closed table) or one
of the store's own (:data:`StoreCode`: a conflict to retry, a bad database URL, a
ledger check). The store's own codes stay inside the server: the command line and
the store's tests read them, and :func:`refusal_of` maps them, once, to a listed code
before anything reaches a client.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal, TypeAlias, get_args

from typing_extensions import TypeIs

from server.rules.errors import Refusal
from server.rules.vocabulary import RefusalCode

StoreCode: TypeAlias = Literal[
    "db/bad_option", "db/bad_url", "db/conflict", "db/migration_failed", "db/missing", "db/nested",
    "db/not_json", "db/read_only", "db/rolled_back", "db/unknown_revision", "db/unknown_schema",
    "event/bad_payload", "event/seq_conflict",
    "hand/bad_number", "hand/bad_seed", "hand/bad_status", "hand/in_progress", "hand/not_in_progress",
    "ledger/bad_amount", "ledger/bad_key", "ledger/bad_kind", "ledger/bad_place", "ledger/key_reused",
    "ledger/refused", "ledger/same_place",
    "seat/bad_number", "table/bad_name", "table/lease_lost", "table/occupied", "auth/unknown_account",
]
"""The store's own codes: never sent to a client as they are (:data:`FOR_CLIENTS`)."""

_INTERNAL: Final[RefusalCode] = "request/internal"
# What a client sees for each of the store's own codes. A fault of the store or of the server's
# use of it (a bad URL, a broken ledger check, a lost write race after its retries) is the server's
# failure; the few a request can cause name the listed code that says the same thing.
FOR_CLIENTS: Final[Mapping[StoreCode, RefusalCode]] = {
    **dict.fromkeys(get_args(StoreCode), _INTERNAL),
    "hand/in_progress": "table/hand_in_progress",
    "hand/not_in_progress": "hand/none",
    "ledger/bad_amount": "request/malformed",
    "seat/bad_number": "seat/invalid",
    "table/bad_name": "request/malformed",
    "table/lease_lost": "table/moved",
    "auth/unknown_account": "account/unknown",
}
_FAILED: Final = "the server failed on this request; nothing changed"


class StoreError(Exception):
    """A refused storage request. ``code`` is listed or the store's own; ``message`` is for people."""

    def __init__(self, code: RefusalCode | StoreCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code: RefusalCode | StoreCode = code
        self.message = message


class InsufficientFunds(StoreError):  # noqa: N818 - the name the brief and callers use
    """A place without overdraft holds fewer chips than a transfer takes from it."""

    def __init__(self, place: str, available: int, amount: int) -> None:
        super().__init__(
            "ledger/insufficient_funds",
            f"{place} holds {available} chips and cannot give {amount}",
        )
        self.place = place
        self.available = available
        self.amount = amount


def refusal_of(exc: StoreError) -> Refusal:
    """The refusal a client sees for ``exc``: a listed code and a sentence without the store's words.

    >>> refusal_of(StoreError("seat/bad_number", "seats are numbered from 1, not 0")).code
    'seat/invalid'
    >>> refusal_of(StoreError("db/not_json", "cannot store as JSON")).message
    'the server failed on this request; nothing changed'
    """
    if isinstance(exc, InsufficientFunds):  # said in chips: the ledger's place names are internal
        return Refusal("ledger/insufficient_funds", f"not enough chips: {exc.available} available, {exc.amount} needed")
    code = exc.code
    if _is_own(code):
        public = FOR_CLIENTS[code]
        return Refusal(public, _FAILED if public == _INTERNAL else exc.message)
    return Refusal(code, exc.message)


def _is_own(code: RefusalCode | StoreCode) -> TypeIs[StoreCode]:
    return code in FOR_CLIENTS
