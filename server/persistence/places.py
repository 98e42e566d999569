"""Ledger places: where chips can be, named by strings (RULES.md section 8).

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

ISSUANCE: Final = "issuance"
HOUSE_FEES: Final = "house:fees"
HOUSE_BANK: Final = "house:bank"

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
    }
)

_TABLE = r"[A-Za-z0-9_.\-]{1,32}"
_ID = r"[1-9][0-9]*"
_PLACE = re.compile(
    rf"issuance|house:fees|house:bank|account:{_ID}|jackpot:{_TABLE}"
    rf"|(?:stack|felt|fee_held):{_TABLE}:{_ID}"
)


def account_place(account_id: int) -> str:
    """An account's balance away from the tables."""
    return f"account:{account_id}"


def stack_place(table: str, account_id: int) -> str:
    """A seated player's chips in front of them."""
    return f"stack:{table}:{account_id}"


def felt_place(table: str, account_id: int) -> str:
    """A player's bets on the felt during a hand."""
    return f"felt:{table}:{account_id}"


def fee_held_place(table: str, account_id: int) -> str:
    """A player's fee, held until the hand is settled or refunded."""
    return f"fee_held:{table}:{account_id}"


def jackpot_place(table: str) -> str:
    """A table's jackpot meter (whole chips)."""
    return f"jackpot:{table}"


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
