"""Where chips can be, named by strings (docs/rules/hcf.md section 8): one vocabulary for the ledger and the table.

>>> stack_place("main", 7), fee_held_place("main", 7)
('stack:main:7', 'fee_held:main:7')
"""

from __future__ import annotations

from typing import Final

ISSUANCE: Final = "issuance"
HOUSE_FEES: Final = "house:fees"
HOUSE_BANK: Final = "house:bank"


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
