"""Ledger places: where chips can be, named by strings (docs/rules/hcf.md section 8).

>>> stack_place("main", 7)
'stack:main:7'
>>> place_kind("stack:main:7"), place_kind(HOUSE_BANK)
('stack', 'house:bank')
>>> allows_overdraft(ISSUANCE), allows_overdraft("account:3")
(True, False)
"""

from __future__ import annotations

import re
from typing import Final

from server.persistence.errors import StoreError
from server.rules.places import (  # the one vocabulary of places, shared with the table
    HOUSE_BANK,
    HOUSE_FEES,
    ISSUANCE,
    account_place,
    fee_held_place,
    felt_place,
    jackpot_place,
    stack_place,
)

# Issuance is minus everything ever issued; the house bank's balance is the house's result.
OVERDRAFT_PLACES: Final = frozenset({ISSUANCE, HOUSE_BANK})
# Chips committed to a hand in progress; outside a hand these places should be empty.
FELT_KINDS: Final = frozenset({"felt", "fee_held"})

TRANSFER_KINDS: Final = frozenset(
    {
        "issue",
        "redeem",
        "buy_in",
        "top_up",
        "cash_out",
        "bet",
        "raise",
        "fee",
        "fee_refund",
        "refund",
        "win",
        "loss",
        "settle",
        "jackpot_contribution",
        "jackpot_payout",
        # Caribbean Stud: the jackpot wager, the meter's seed from the house, an award (meter or house).
        "jackpot_wager",
        "jackpot_seed",
        "jackpot_award",
        # 6 Card Poker: a draw's fee (held until settlement), the Ante given for the dealer exchange.
        "draw_fee",
        "exchange_fee",
    }
)

_TABLE = r"[A-Za-z0-9_.\-]{1,32}"
_ID = r"[1-9][0-9]*"
_PLACE = re.compile(
    rf"issuance|house:fees|house:bank|account:{_ID}|jackpot:{_TABLE}"
    rf"|(?:stack|felt|fee_held):{_TABLE}:{_ID}"
)


def check_place(key: str) -> str:
    """Return ``key`` if it names a place, else raise ``ledger/bad_place``."""
    if not isinstance(key, str) or not _PLACE.fullmatch(key):
        raise StoreError("ledger/bad_place", f"{key!r} is not a ledger place")
    return key


def place_kind(key: str) -> str:
    """The family a place belongs to: ``account``, ``stack``, ``house:fees`` ..."""
    return key if key.startswith("house:") else key.split(":", 1)[0]


def place_table(key: str) -> str | None:
    """The table a place belongs to, if any."""
    kind = place_kind(key)
    if kind in {"stack", "felt", "fee_held", "jackpot"}:
        return key.split(":")[1]
    return None


def allows_overdraft(key: str) -> bool:
    """Whether the place may go below zero (issuance and the house bank only)."""
    return key in OVERDRAFT_PLACES


__all__ = [
    "FELT_KINDS", "HOUSE_BANK", "HOUSE_FEES", "ISSUANCE", "OVERDRAFT_PLACES", "account_place", "allows_overdraft",
    "check_place", "fee_held_place", "felt_place", "jackpot_place", "place_kind", "place_table", "stack_place",
]
